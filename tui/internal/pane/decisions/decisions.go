// Package decisions is pane 3: each visible algorithm's decisions over the online block, a strip
// each over a batch axis; a click jumps to a batch.
package decisions

import (
	"slices"
	"sync/atomic"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/internal/palette"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// Pane is pane 3: each visible algorithm's decision at every online batch so far, over a
// batch axis with the current batch marked. A batch has a column of its own, or, when the pane is
// narrower than the online block, half a braille cell, so that no two retrains ever merge.
// Clicking a batch jumps there.
type Pane struct {
	per int // batches a column in the last drawing: the title's legend says how they are drawn
	// The last drawing's canvas, blanked for the next.
	cv atomic.Pointer[draw.Canvas] // the last drawing's, blanked for the next (unless let go: draw.Blank)
}

// New returns the decisions strip.
func New() *Pane { return &Pane{} }

func (p *Pane) Title(f *pane.Frame) string {
	if p.per == 2 {
		// Two batches a column: the strips are braille, a retrain a full half-column of dots.
		return "Decisions: ⡇ retrain, ⣀ keep, 2 batches a column (click to jump)"
	}
	return "Decisions: │ retrain, · keep (click to jump)"
}

// Size: one row per visible algorithm and two for the axis.
func (p *Pane) Size(f *pane.Frame, w int) (want, least int) {
	if len(f.RP.Results) == 0 {
		return 3, 3 // the note that decisions start online: the offline block's room goes to the batch
	}
	n := len(f.Visible) + 2 + 2
	return n, n
}

func (p *Pane) Enable(keys.Mode)                                         {}
func (p *Pane) Keys(*pane.Frame, bool) []key.Binding                     { return nil }
func (p *Pane) Key(tea.KeyMsg, *pane.Frame, bool) (effect.Effects, bool) { return nil, false }

// decisionsGeom is where the strips go: labels in lw columns, then a strip of cols columns with
// per batches per column (1 or 2).
type decisionsGeom struct {
	lw, cols, per int
}

func (p *Pane) geom(f *pane.Frame, w int) decisionsGeom {
	n := f.M.Batches() - f.Scen.Offline
	lw := 0
	for _, a := range f.Visible {
		lw = max(lw, len(f.Label(a)))
	}
	lw += 2
	if w-lw < (n+1)/2 {
		lw = 4
	}
	g := decisionsGeom{lw: lw, per: 1}
	g.cols = min(n, w-lw)
	if w-lw < n {
		g.per = 2
		g.cols = min((n+1)/2, w-lw)
	}
	return g
}

// Braille dots of the left and right batch of a cell: a retrain is a full column of dots, a keep
// the bottom dot, so a row of keeps reads as a baseline and every retrain stands up from it.
var (
	retrainDots = [2]uint8{0x47, 0xB8}
	keepDots    = [2]uint8{0x40, 0x80}
)

func (p *Pane) View(f *pane.Frame, w, h int) string {
	st := f.St
	if len(f.RP.Results) == 0 {
		return st.Dim.Render(pane.OnlineNote(f))
	}
	off, T := f.Scen.Offline, f.M.Batches()
	g := p.geom(f, w)
	p.per = g.per
	cv := draw.Blank(&p.cv, w, h)
	dim := draw.InkOf(palette.Axis)
	rows := f.Shown()
	for y, r := range rows {
		name := f.Label(r.Algorithm)
		if g.lw == 4 {
			name = pane.AlgoKey(r.Algorithm, f.RP.Provisional)
		}
		k := f.AlgoInk(r.Algorithm)
		if r.Algorithm == f.Selected {
			k.Bold = true
			cv.Set(0, y, '▶', k)
		}
		cv.Text(1, y, name, k)
		retrain := func(t int) bool { return t == r.Strategy.Start || slices.Contains(r.Strategy.Retrains, t) }
		for i := range r.Strategy.Model {
			t := r.Strategy.Start + i
			x := g.lw + (t-off)/g.per
			if g.per == 1 {
				if retrain(t) {
					cv.Set(x, y, '│', draw.Ink{FG: palette.Algo(r.Algorithm), Bold: true, Faint: k.Faint})
				} else {
					cv.Set(x, y, '·', dim)
				}
				continue
			}
			c := cv.At(x, y)
			if c == nil {
				continue
			}
			bits := uint8(0)
			if c.Rune >= 0x2800 && c.Rune <= 0x28FF {
				bits = uint8(c.Rune - 0x2800)
			}
			side := (t - off) % 2
			k := c.Ink
			if retrain(t) {
				bits |= retrainDots[side]
				k = draw.Ink{FG: palette.Algo(r.Algorithm), Bold: true, Faint: f.AlgoInk(r.Algorithm).Faint}
			} else {
				bits |= keepDots[side]
				if c.Rune == ' ' {
					k = dim
				}
			}
			cv.Set(x, y, rune(0x2800+int(bits)), k)
		}
	}
	// The batch axis: ticks every 10 batches, the current batch marked.
	y := len(rows)
	for x := range g.cols {
		cv.Set(g.lw+x, y, '─', dim)
	}
	cv.Text(0, y+1, "batch", dim)
	step := draw.BatchStep(T-off, g.cols*g.per)
	next := g.lw
	for t := (off + step - 1) / step * step; t < T; t += step {
		x := g.lw + (t-off)/g.per
		cv.Set(x, y, '┬', dim)
		label := draw.Itoa(t)
		lx := x - (len(label)-1)/2
		if lx >= next && lx+len(label) <= g.lw+g.cols {
			cv.Text(lx, y+1, label, dim)
			next = lx + len(label) + 1
		}
	}
	if f.Pos >= off {
		cv.Set(g.lw+(f.Pos-off)/g.per, y, '▲', draw.Ink{FG: palette.Query, Bold: true})
	}
	return cv.Render(st, &p.cv)
}

// X is the column batch t's decisions are drawn in, in a content w wide.
func (p *Pane) X(f *pane.Frame, w, t int) int {
	g := p.geom(f, w)
	return g.lw + (t-f.Scen.Offline)/g.per
}

// Click on a strip or the axis jumps to that batch.
func (p *Pane) Click(f *pane.Frame, x, y, w, h int) effect.Effects {
	g := p.geom(f, w)
	if x < g.lw || x >= g.lw+g.cols {
		return nil
	}
	return effect.Effects{effect.GoTo(f.Scen.Offline + (x-g.lw)*g.per)}
}
