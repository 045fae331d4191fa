// Package chart is pane 2: each visible algorithm's cumulative strategy cost over the online block,
// or its gap to the Oracle (o), a braille line each on axes the chart fixes, with end labels.
package chart

import (
	"math"
	"slices"
	"sort"
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

// Pane is pane 2: each visible algorithm's cumulative strategy cost over the online block, a
// braille line per algorithm that holds its value until the next batch (a cost is paid per batch),
// on an x axis fixed to the whole online block. The selected algorithm is drawn last and bold,
// the Oracle just before it; each line ends in its name and value, and lines that end equal share
// one label. Key o shows the gap to the Oracle instead, so algorithms that coincide with it lie
// visibly on zero.
type Pane struct {
	keys  KeyMap
	gap   bool
	cache string
	key   pane.ViewKey
	plot  *draw.Braille               // the last plot, for tests
	cv    atomic.Pointer[draw.Canvas] // the last drawing's, blanked for the next (unless let go: draw.Blank)
}

// New returns the cumulative-cost chart, showing the costs.
func New() *Pane { return &Pane{keys: NewKeyMap()} }

// Help is the full help's group of the pane's keys.
func (p *Pane) Help() keys.Group { return p.keys.Group() }

// Gap reports whether the chart shows the gap to the Oracle (o) rather than the costs.
func (p *Pane) Gap() bool { return p.gap }

func (p *Pane) Title(f *pane.Frame) string {
	if p.gap && f.RP.Provisional {
		return "Gap to the best so far (o: costs)"
	}
	if p.gap {
		return "Gap to the Oracle: cumulative cost − Oracle's (o: costs)"
	}
	return "Cumulative strategy cost, online (o: gap to " + f.Label(algos.NameOracle) + ")"
}

func (p *Pane) Size(f *pane.Frame, w int) (want, least int) {
	if len(f.RP.Results) == 0 {
		return 3, 3 // the note that costs start online: the offline block's room goes to the batch
	}
	return 0, 9
}

// KeyMap are the chart's key: the gap to the Oracle instead of the costs.
type KeyMap struct{ Gap key.Binding }

func NewKeyMap() KeyMap { return KeyMap{Gap: keys.Bind([]string{"o"}, "o", "gap to Oracle")} }

func (p *Pane) Enable(m keys.Mode) { p.keys.Enable(m) }

// Enable turns the pane's keys on where the panes' keys work (keys.Mode.Panes).
func (k *KeyMap) Enable(m keys.Mode) { keys.Enable(m.Panes(), &k.Gap) }

// Group is the full help's group of the pane's keys.
func (k *KeyMap) Group() keys.Group {
	return keys.Group{Title: "2 Cumulative cost", Keys: []key.Binding{k.Gap}}
}

func (p *Pane) Keys(f *pane.Frame, focused bool) []key.Binding { return []key.Binding{p.keys.Gap} }

func (p *Pane) Key(msg tea.KeyMsg, f *pane.Frame, focused bool) (effect.Effects, bool) {
	if key.Matches(msg, p.keys.Gap) {
		p.gap = !p.gap
		return nil, true
	}
	return nil, false
}

func (p *Pane) Click(f *pane.Frame, x, y, w, h int) effect.Effects { return nil }

// series is one line of the chart: values at batches start, start+1, ...
type series struct {
	name  algos.Name
	start int
	v     []float64
}

// chartSeries are the lines to draw, in drawing order: the others, then the Oracle, then the
// selected algorithm on top.
func (p *Pane) chartSeries(f *pane.Frame) []series {
	var oracle []float64
	if o, ok := f.Result("oracle"); ok {
		oracle = o.Strategy.Cumulative
	}
	var out []series
	for _, r := range f.Shown() {
		v := slices.Clone(r.Strategy.Cumulative)
		if p.gap {
			for i := range v {
				if i < len(oracle) {
					v[i] -= oracle[i]
				}
			}
		}
		out = append(out, series{name: r.Algorithm, start: r.Strategy.Start, v: v})
	}
	rank := func(s series) int {
		switch s.name {
		case f.Selected:
			return 2
		case "oracle":
			return 1
		}
		return 0
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i]) < rank(out[j]) })
	return out
}

func (p *Pane) View(f *pane.Frame, w, h int) string {
	if len(f.RP.Results) == 0 {
		return f.St.Dim.Render(pane.OnlineNote(f))
	}
	gap := 0
	if p.gap {
		gap = 1
	}
	k := f.Key(w, h, gap)
	if k == p.key && p.cache != "" {
		return p.cache
	}
	p.cache, p.key = p.draw(f, w, h), k
	return p.cache
}

// chartAxes are the chart's value axis ([lo, hi] from tick to tick) and batch axis ([off, end)),
// over a plot of pw x ph cells right of a gutter of gw.
type chartAxes struct {
	lo, hi, step float64
	off, end     int
	gw, pw, ph   int
}

// row is the text row of a value.
func (a chartAxes) row(v float64) int {
	return a.ph - 1 - int(math.Round((v-a.lo)/(a.hi-a.lo)*float64(a.ph*4-1)))/4
}

// col is the plot column of a batch.
func (a chartAxes) col(t int) int { return (t - a.off) * a.pw / max(a.end-a.off, 1) }

func (a chartAxes) ticks() []float64 {
	t, _ := draw.NiceTicks(a.lo, a.hi, max(2, min(5, a.ph/2)))
	return t
}

// fitted are the series the value axis is fitted to: all of them, unless one line ends more than
// twice as high as every other (Never-retrain, usually), which would flatten the rest against
// zero; that one runs off the top, and its end label says so (↑).
func fitted(ss []series) []series {
	if len(ss) < 3 {
		return ss
	}
	top, second, at := math.Inf(-1), math.Inf(-1), -1
	for i, s := range ss {
		for _, v := range s.v {
			switch {
			case i == at:
				top = max(top, v)
			case v > top:
				second, top, at = max(second, top), v, i
			default:
				second = max(second, v)
			}
		}
	}
	if at < 0 || second <= 0 || top <= 2*second {
		return ss
	}
	return append(slices.Clone(ss[:at]), ss[at+1:]...)
}

// valueAxis fits the series' values from 0 and extends the range to round ticks.
func valueAxis(ss []series, ph int) chartAxes {
	a := chartAxes{ph: ph}
	for _, s := range ss {
		for _, v := range s.v {
			a.lo, a.hi = min(a.lo, v), max(a.hi, v)
		}
	}
	if a.hi-a.lo < 1e-9 {
		a.hi = a.lo + 1
	}
	_, a.step = draw.NiceTicks(a.lo, a.hi, max(2, min(5, ph/2)))
	a.lo = math.Min(a.lo, math.Floor(a.lo/a.step)*a.step)
	a.hi = math.Max(a.hi, math.Ceil(a.hi/a.step-1e-9)*a.step)
	for _, t := range a.ticks() {
		a.gw = max(a.gw, len(draw.Tick(t, a.step)))
	}
	a.gw++
	return a
}

func (p *Pane) draw(f *pane.Frame, w, h int) string {
	ss := p.chartSeries(f)
	a := valueAxis(fitted(ss), max(h-2, 2))
	// Labels take at most a third of the pane: a label too long for that uses short names, and
	// wraps over several rows if it is still too long.
	lw := max(w/3, 12)
	// At 16 colours and without colours the lines carry their keys (below), and the labels use
	// the same keys, so a line and its label are matched without colour.
	labels := endLabelsOf(ss, a.lo, a.hi, a.ph, lw, f.RP.Provisional, f.St.Glyphs)
	used := 0
	for _, l := range labels {
		for _, row := range l.rows {
			used = max(used, rowWidth(row))
		}
	}
	a.pw = max(w-a.gw-min(lw, used)-1, 4)
	a.off, a.end = f.Scen.Offline, chartEnd(f)
	g := draw.NewBraille(a.pw, a.ph)
	inks := make([]draw.Ink, len(ss)+1)
	for i, s := range ss {
		g.StepLine(i+1, s.start, s.v, a.off, a.end, a.lo, a.hi)
		inks[i+1] = f.AlgoInk(s.name)
		inks[i+1].Bold = s.name == f.Selected
	}
	p.plot = g
	cv := draw.Blank(&p.cv, w, h)
	g.Draw(cv, a.gw, 0, inks)
	if f.St.Glyphs {
		// Without colour, or with 16 colours too few for the algorithms, each line carries the
		// key its end label uses (O, T, CT, PH, e7): staggered so no two share a column.
		placeKeys(cv, f, ss, a)
	}
	drawChartAxes(cv, a, f.Pos)
	drawEndLabels(cv, f, labels, a.gw+a.pw+1)
	return cv.Render(f.St, &p.cv)
}

// placeKeys writes each line's key on the line, staggered along it (the i-th of n lines from
// (i+1)/(n+1) of its length), moved along the line to the nearest batch where the key has a free
// cell on each side of it, so no two keys run together ("PHED" for PH and ED); a key that finds no
// such place is left out (its end label still says it).
func placeKeys(cv *draw.Canvas, f *pane.Frame, ss []series, a chartAxes) {
	used := map[[2]int]bool{} // cells taken by a key, and the cell on each side of it
	for i, s := range ss {
		n := len(s.v)
		if n == 0 {
			continue
		}
		key := pane.AlgoKey(s.name, f.RP.Provisional)
		kw := len(key)
		free := func(j int) (x, y int, ok bool) {
			x, y = a.col(s.start+j), a.row(s.v[j])
			if x+kw > a.pw || y < 0 || y >= a.ph {
				return 0, 0, false
			}
			for c := x - 1; c <= x+kw; c++ {
				if used[[2]int{c, y}] {
					return 0, 0, false
				}
			}
			return x, y, true
		}
		j0 := n * (i + 1) / (len(ss) + 1)
		for d := 0; d < 2*n; d++ {
			var j int // j0, j0+1, j0-1, j0+2, j0-2, ...
			if d%2 == 1 {
				j = j0 + (d+1)/2
			} else {
				j = j0 - d/2
			}
			if j < 0 || j >= n {
				continue
			}
			x, y, ok := free(j)
			if !ok {
				continue
			}
			k := draw.Ink{}
			if !f.St.Mono {
				k = f.AlgoInk(s.name)
				k.Bold = true
			}
			cv.Text(a.gw+x, y, key, k)
			for c := x - 1; c <= x+kw; c++ {
				used[[2]int{c, y}] = true
			}
			break
		}
	}
}

// drawChartAxes draws the value axis with its round ticks, the batch axis with a tick every 10
// batches and the current batch.
func drawChartAxes(cv *draw.Canvas, a chartAxes, pos int) {
	dim := draw.InkOf(palette.Axis)
	for y := range a.ph {
		cv.Set(a.gw-1, y, '│', dim)
	}
	for _, t := range a.ticks() {
		label := draw.Tick(t, a.step)
		cv.Text(a.gw-1-len(label), a.row(t), label, dim)
		cv.Set(a.gw-1, a.row(t), '┤', dim)
	}
	cv.Set(a.gw-1, a.ph, '└', dim)
	for x := range a.pw {
		cv.Set(a.gw+x, a.ph, '─', dim)
	}
	step := draw.BatchStep(a.end-a.off, a.pw)
	next := 0
	for t := (a.off + step - 1) / step * step; t < a.end; t += step {
		x := a.col(t)
		cv.Set(a.gw+x, a.ph, '┬', dim)
		label := draw.Itoa(t)
		if lx := x - (len(label)-1)/2; lx >= next && lx+len(label) <= a.pw {
			cv.Text(a.gw+lx, a.ph+1, label, dim)
			next = lx + len(label) + 1
		}
	}
	if x := a.col(pos); pos >= a.off && x < a.pw {
		cv.Set(a.gw+x, a.ph, '▲', draw.Ink{FG: palette.Query, Bold: true})
	}
}

// drawEndLabels writes the lines' labels from column x: names in their colours joined by "=",
// then the value; several labels on a row two spaces apart.
func drawEndLabels(cv *draw.Canvas, f *pane.Frame, labels []endLabel, x0 int) {
	dim := draw.InkOf(palette.Axis)
	for _, l := range labels {
		for k, row := range l.rows {
			x := x0
			for i, part := range row {
				switch {
				case i > 0 && part.name != "" && row[i-1].name != "":
					x = cv.Text(x, l.row+k, "=", dim)
				case i > 0 && part.name != "":
					x += 2
				}
				if part.name == "" {
					x = cv.Text(x+1, l.row+k, part.text, dim)
					continue
				}
				pk := f.AlgoInk(part.name)
				pk.Bold = part.name == f.Selected
				x = cv.Text(x, l.row+k, part.text, pk)
			}
		}
	}
}

// chartEnd is the end (exclusive) of the chart's batch axis: a quarter, a half or the whole of the
// online block, the least that holds the batches shown, so the axis changes at most twice in a run
// and early lines are not squeezed against the left edge.
func chartEnd(f *pane.Frame) int {
	off, T := f.Scen.Offline, f.M.Batches()
	n := T - off
	shown := max(f.Pos-off+1, 1)
	for _, span := range []int{n / 4, n / 2} {
		if span >= 10 && shown <= span {
			return off + span
		}
	}
	return T
}

// endLabel is the label of the lines that end at one value: its names (short keys when the full
// ones do not fit), then the value, over one row or more.
type endLabel struct {
	names []algos.Name
	v     float64
	row   int // the first row
	rows  [][]labelPart
	// provisional: the Oracle's line is the best so far (replay.provisional)
	provisional bool
	keys        bool // the keys always, never the names
	over        bool // the value is above the axis: the line runs off the top
}

// labelPart is an algorithm's name (name set) or the value (name empty).
type labelPart struct {
	name algos.Name
	text string
}

func rowWidth(parts []labelPart) int {
	n := 0
	for i, p := range parts {
		n += draw.Width(p.text)
		switch {
		case i > 0 && p.name != "" && parts[i-1].name == "":
			n += 2 // two spaces before another label on the row
		case i > 0:
			n++ // "=" between names, a space before the value
		}
	}
	return n
}

// layout breaks the label into rows of at most w columns.
func (l *endLabel) layout(w int) {
	value := draw.Short(l.v)
	if l.over {
		value = "↑" + value // off the top of the axis
	}
	names := func(keys bool) []labelPart {
		var out []labelPart
		for _, a := range l.names {
			text := pane.AlgoLabel(a, l.provisional)
			if keys {
				text = pane.AlgoKey(a, l.provisional)
			}
			out = append(out, labelPart{a, text})
		}
		return append(out, labelPart{"", value})
	}
	parts := names(l.keys)
	if rowWidth(parts) > w {
		parts = names(true)
	}
	l.rows = nil
	var cur []labelPart
	for _, part := range parts {
		if len(cur) > 0 && rowWidth(append(cur, part)) > w {
			l.rows = append(l.rows, cur)
			cur = nil
		}
		cur = append(cur, part)
	}
	l.rows = append(l.rows, cur)
}

// endLabels groups the series by their last value (equal to a millionth of the range), places
// each group at the row of its value and moves labels apart so none overlap.
func endLabels(ss []series, lo, hi float64, rows, w int, provisional bool) []endLabel {
	return endLabelsOf(ss, lo, hi, rows, w, provisional, false)
}

// endLabelsOf is endLabels, in keys alone when keys is set.
func endLabelsOf(ss []series, lo, hi float64, rows, w int, provisional, keys bool) []endLabel {
	var out []endLabel
	tol := (hi - lo) * 1e-6
	// Display order, so merged names read Oracle=CARA-T=...
	order := slices.Clone(ss)
	sort.SliceStable(order, func(i, j int) bool {
		return order[i].name.Rank() < order[j].name.Rank()
	})
	for _, s := range order {
		if len(s.v) == 0 {
			continue
		}
		v := s.v[len(s.v)-1]
		found := false
		for i := range out {
			if math.Abs(out[i].v-v) <= tol {
				out[i].names = append(out[i].names, s.name)
				found = true
				break
			}
		}
		if !found {
			out = append(out, endLabel{names: []algos.Name{s.name}, v: v, provisional: provisional, keys: keys, over: v > hi})
		}
	}
	for i := range out {
		out[i].layout(w)
		out[i].row = max(rows-1-int(math.Round((out[i].v-lo)/(hi-lo)*float64(rows*4-1)))/4, 0) // off the top: the top row
	}
	// Highest value first (the top row), so pushing labels apart keeps them in the lines' order.
	sort.SliceStable(out, func(i, j int) bool { return out[i].v > out[j].v })
	need := 0
	for _, l := range out {
		need += len(l.rows)
	}
	if need > rows {
		out = packLabels(out, w)
	}
	for i := 1; i < len(out); i++ {
		out[i].row = max(out[i].row, out[i-1].row+len(out[i-1].rows))
	}
	bottom := rows
	for i := len(out) - 1; i >= 0; i-- {
		out[i].row = max(min(out[i].row, bottom-len(out[i].rows)), 0)
		bottom = out[i].row
	}
	return out
}

// packLabels puts several labels on a row, in short names, when one per row does not fit: a
// short chart with many lines ("DDM 754  A 319" on one row).
func packLabels(ls []endLabel, w int) []endLabel {
	var out []endLabel
	var cur *endLabel
	for _, l := range ls {
		l.layout(0) // the shortest form, one part per row
		var parts []labelPart
		for _, row := range l.rows {
			parts = append(parts, row...)
		}
		if cur != nil && rowWidth(append(cur.rows[0], parts...))+1 <= w {
			cur.rows[0] = append(cur.rows[0], parts...)
			cur.names = append(cur.names, l.names...)
			continue
		}
		out = append(out, endLabel{names: l.names, v: l.v, row: l.row, rows: [][]labelPart{parts}, provisional: l.provisional, keys: l.keys, over: l.over})
		cur = &out[len(out)-1]
	}
	for i := 1; i < len(out); i++ {
		out[i].row = max(out[i].row, out[i-1].row+1)
	}
	return out
}
