package tui

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/internal/palette"
)

// decisionsPane is pane 3: each visible algorithm's decision at every online batch so far, over a
// batch axis with the current batch marked. A batch has a column of its own, or, when the pane is
// narrower than the online block, half a braille cell, so that no two retrains ever merge.
// Clicking a batch jumps there.
type decisionsPane struct {
	per int // batches a column in the last drawing: the title's legend says how they are drawn
	// The last drawing's canvas, blanked for the next.
	cv *canvas
}

// newDecisionsPane returns the decisions strip.
func newDecisionsPane() *decisionsPane { return &decisionsPane{} }

func (p *decisionsPane) Title(f *frame) string {
	if p.per == 2 {
		// Two batches a column: the strips are braille, a retrain a full half-column of dots.
		return "Decisions: ⡇ retrain, ⣀ keep, 2 batches a column (click to jump)"
	}
	return "Decisions: │ retrain, · keep (click to jump)"
}

// Size: one row per visible algorithm and two for the axis.
func (p *decisionsPane) Size(f *frame, w int) (want, least int) {
	if len(f.rp.results) == 0 {
		return 3, 3 // the note that decisions start online: the offline block's room goes to the batch
	}
	n := len(f.visible) + 2 + 2
	return n, n
}

func (p *decisionsPane) Enable(mode)                        {}
func (p *decisionsPane) Keys(*frame, bool) []key.Binding    { return nil }
func (p *decisionsPane) Key(tea.KeyMsg, *frame, bool) reply { return reply{} }

// decisionsGeom is where the strips go: labels in lw columns, then a strip of cols columns with
// per batches per column (1 or 2).
type decisionsGeom struct {
	lw, cols, per int
}

func (p *decisionsPane) geom(f *frame, w int) decisionsGeom {
	n := f.m.Batches() - f.scen.Offline
	lw := 0
	for _, a := range f.visible {
		lw = max(lw, len(f.label(a)))
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

func (p *decisionsPane) View(f *frame, w, h int) string {
	st := f.st
	if len(f.rp.results) == 0 {
		return st.Dim.Render(onlineNote(f))
	}
	off, T := f.scen.Offline, f.m.Batches()
	g := p.geom(f, w)
	p.per = g.per
	cv := blankCanvas(&p.cv, w, h)
	dim := inkOf(palette.Axis)
	rows := f.shown()
	for y, r := range rows {
		name := f.label(r.Algorithm)
		if g.lw == 4 {
			name = algoKey(r.Algorithm, f.rp.provisional)
		}
		k := f.algoInk(r.Algorithm)
		if r.Algorithm == f.selected {
			k.bold = true
			cv.set(0, y, '▶', k)
		}
		cv.text(1, y, name, k)
		retrain := func(t int) bool { return t == r.Strategy.Start || slices.Contains(r.Strategy.Retrains, t) }
		for i := range r.Strategy.Model {
			t := r.Strategy.Start + i
			x := g.lw + (t-off)/g.per
			if g.per == 1 {
				if retrain(t) {
					cv.set(x, y, '│', ink{fg: palette.Algo(r.Algorithm), bold: true, faint: k.faint})
				} else {
					cv.set(x, y, '·', dim)
				}
				continue
			}
			c := cv.at(x, y)
			if c == nil {
				continue
			}
			bits := uint8(0)
			if c.r >= 0x2800 && c.r <= 0x28FF {
				bits = uint8(c.r - 0x2800)
			}
			side := (t - off) % 2
			k := c.k
			if retrain(t) {
				bits |= retrainDots[side]
				k = ink{fg: palette.Algo(r.Algorithm), bold: true, faint: f.algoInk(r.Algorithm).faint}
			} else {
				bits |= keepDots[side]
				if c.r == ' ' {
					k = dim
				}
			}
			cv.set(x, y, rune(0x2800+int(bits)), k)
		}
	}
	// The batch axis: ticks every 10 batches, the current batch marked.
	y := len(rows)
	for x := range g.cols {
		cv.set(g.lw+x, y, '─', dim)
	}
	cv.text(0, y+1, "batch", dim)
	step := batchStep(T-off, g.cols*g.per)
	next := g.lw
	for t := (off + step - 1) / step * step; t < T; t += step {
		x := g.lw + (t-off)/g.per
		cv.set(x, y, '┬', dim)
		label := itoa(t)
		lx := x - (len(label)-1)/2
		if lx >= next && lx+len(label) <= g.lw+g.cols {
			cv.text(lx, y+1, label, dim)
			next = lx + len(label) + 1
		}
	}
	if f.pos >= off {
		cv.set(g.lw+(f.pos-off)/g.per, y, '▲', ink{fg: palette.Query, bold: true})
	}
	return cv.String(st)
}

// Click on a strip or the axis jumps to that batch.
func (p *decisionsPane) Click(f *frame, x, y, w, h int) reply {
	g := p.geom(f, w)
	if x < g.lw || x >= g.lw+g.cols {
		return reply{}
	}
	return reply{handled: true, cmd: jump(f.scen.Offline + (x-g.lw)*g.per)}
}
