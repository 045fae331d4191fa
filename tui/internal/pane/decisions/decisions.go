// Package decisions is pane 3: each visible algorithm's decisions over the online block, a strip
// each over a batch axis, with the known drifts marked and each detector's alarms scored against
// them; a click jumps to a batch.
package decisions

import (
	"slices"
	"strings"
	"sync/atomic"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/palette"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// Pane is pane 3: each visible algorithm's decision at every online batch so far, over a
// batch axis with the current batch marked. A batch has a column of its own, or, when the pane is
// narrower than the online block, half a braille cell, so that no two retrains ever merge.
// The axis marks the drifts the stream knows (≋, from a drift's first batch to its last), or the
// title says that it knows none; in a detector's strip each alarm scored against them is a mark of
// its own: ● the first alarm of a drift (a detection, MOA's sense), × a false alarm (no drift at
// or before it within the window); a repeat alarm is a plain retrain. Each row starts with the
// algorithm's key (pane.AlgoKey), which the chart and the results write too. Clicking a batch
// jumps there.
type Pane struct {
	per int // batches a column in the last drawing: the title's legend says how they are drawn
	// The last drawing's canvas, blanked for the next.
	cv atomic.Pointer[draw.Canvas] // the last drawing's, blanked for the next (unless let go: draw.Blank)
}

// New returns the decisions strip.
func New() *Pane { return &Pane{} }

// The marks of the drifts and of the alarms.
const (
	DriftMark     = '≋'
	DetectionMark = '●'
	FalseMark     = '×'
)

func (p *Pane) Title(f *pane.Frame) string {
	var b strings.Builder
	b.WriteString("Decisions")
	drifts, known := algos.KnownDrifts(f.M)
	off := f.Scen.Offline
	// First, where a narrow box's title is cut last: the stream knows no drift to mark.
	switch {
	case !known:
		b.WriteString(" (no known drifts: real data)")
	case !slices.ContainsFunc(drifts, func(d algos.Drift) bool { return d.To > off && d.From < f.M.Batches() }):
		b.WriteString(" (no drift online: every alarm false)")
	}
	b.WriteString(": ")
	if p.per == 2 {
		// Two batches a column: the strips are braille, a retrain a full half-column of dots.
		b.WriteString("⡇ retrain ⣀ keep")
	} else {
		b.WriteString("│ retrain · keep")
	}
	if known {
		b.WriteString(" ≋ drift")
		if detectorShown(f) {
			b.WriteString(" ● detected × false alarm")
		}
	}
	if p.per == 2 {
		b.WriteString(", 2 batches a column")
	}
	b.WriteString(" (click to jump)")
	return b.String()
}

// detectorShown reports whether a drift detector is among the rows.
func detectorShown(f *pane.Frame) bool {
	return slices.ContainsFunc(f.Visible, algos.Name.IsDetector)
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
// per batches per column (1 or 2); form is how the labels are written (keyed, plain, keys), kw the
// keys' width.
type decisionsGeom struct {
	lw, cols, per, kw, form int
}

// The labels' forms, widest first: "T  CARA-T", "CARA-T", "T".
const (
	keyed = iota
	plain
	keysOnly
)

// label is algorithm a's label in form g.form.
func (g decisionsGeom) label(f *pane.Frame, a algos.Name) string {
	switch g.form {
	case keyed:
		return pane.KeyedLabel(a, f.RP.Provisional, g.kw)
	case plain:
		return f.Label(a)
	}
	return pane.AlgoKey(a, f.RP.Provisional)
}

// geom takes the widest form of the labels that leaves the strips half a column a batch at least.
func (p *Pane) geom(f *pane.Frame, w int) decisionsGeom {
	n := f.M.Batches() - f.Scen.Offline
	g := decisionsGeom{kw: pane.KeyWidth(f.Visible, f.RP.Provisional), per: 1}
	for g.form = keyed; g.form <= keysOnly; g.form++ {
		g.lw = 0
		for _, a := range f.Visible {
			g.lw = max(g.lw, draw.Width(g.label(f, a)))
		}
		g.lw += 2
		if w-g.lw >= (n+1)/2 {
			break
		}
	}
	g.form = min(g.form, keysOnly)
	g.cols = min(n, w-g.lw)
	if w-g.lw < n {
		g.per = 2
		g.cols = min((n+1)/2, w-g.lw)
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
	xOf := func(t int) int { return g.lw + (t-off)/g.per }
	for y, r := range rows {
		name := g.label(f, r.Algorithm)
		k := f.AlgoInk(r.Algorithm)
		if r.Algorithm == f.Selected {
			k.Bold = true
			cv.Set(0, y, '▶', k)
		}
		cv.Text(1, y, name, k)
		strong := draw.Ink{FG: palette.Screen(r.Algorithm), Bold: true, Faint: k.Faint}
		retrain := func(t int) bool { return t == r.Strategy.Start || slices.Contains(r.Strategy.Retrains, t) }
		for i := range r.Strategy.Model {
			t := r.Strategy.Start + i
			x := xOf(t)
			if g.per == 1 {
				if retrain(t) {
					cv.Set(x, y, '│', strong)
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
				k = strong
			} else {
				bits |= keepDots[side]
				if c.Rune == ' ' {
					k = dim
				}
			}
			cv.Set(x, y, rune(0x2800+int(bits)), k)
		}
		// A detector's scored alarms over its strip: a detection outranks a false alarm where
		// two batches share a column.
		if d := r.Detection; d != nil {
			for _, t := range d.FalseAlarms {
				if t <= f.Pos {
					cv.Set(xOf(t), y, FalseMark, strong)
				}
			}
			for _, hit := range d.Drifts {
				if hit.Alarm >= 0 && hit.Alarm <= f.Pos {
					cv.Set(xOf(hit.Alarm), y, DetectionMark, strong)
				}
			}
		}
	}
	// The batch axis: ticks every 10 batches, the known drifts over their batches (≋), the
	// current batch marked.
	y := len(rows)
	for x := range g.cols {
		cv.Set(g.lw+x, y, '─', dim)
	}
	cv.Text(0, y+1, "batch", dim)
	step := draw.BatchStep(T-off, g.cols*g.per)
	next := g.lw
	for t := (off + step - 1) / step * step; t < T; t += step {
		x := xOf(t)
		cv.Set(x, y, '┬', dim)
		label := draw.Itoa(t)
		lx := x - (len(label)-1)/2
		if lx >= next && lx+len(label) <= g.lw+g.cols {
			cv.Text(lx, y+1, label, dim)
			next = lx + len(label) + 1
		}
	}
	drifts, _ := algos.KnownDrifts(f.M)
	mark := draw.Ink{FG: palette.Query, Bold: true}
	for _, d := range drifts {
		// As the alarms are scored (algos.Score): from the first batch after T_start, where the
		// first model is trained on what came before.
		for t := max(d.From, off+1); t <= d.To && t < T; t++ {
			cv.Set(xOf(t), y, DriftMark, mark)
		}
	}
	if f.Pos >= off {
		cv.Set(xOf(f.Pos), y, '▲', draw.Ink{FG: palette.Query, Bold: true})
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
