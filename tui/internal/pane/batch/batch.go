// Package batch is pane 4: the batch's data by class, its queries and where the model in use errs,
// over two features on axes fixed for the whole scenario, with a faint trail of the batches
// before and the true decision boundary when the concept is known.
package batch

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/internal/memo"
	"github.com/cara-sim/cara/internal/palette"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/run"
)

// Pane is pane 4: the batch's data by class, its queries, and where the model in use errs,
// over two features on axes fixed for the whole scenario (equal scales when the two ranges are
// alike), with the previous batches left as a faint trail so that covariate drift shows as
// movement. A wrong point keeps its class glyph, capitalised, on a dark red ground.
type Pane struct {
	keys       KeyMap
	pair       [2]int
	pairChosen bool                             // f was pressed: the scanned default pair no longer replaces it
	batches    *memo.Memo[batchRef, *sim.Batch] // recently drawn batches
	key        scatterKey
	cache      string
	cv         atomic.Pointer[draw.Canvas] // the last drawing's, blanked for the next (unless let go: draw.Blank)
}

// scatterKey is what the scatter's drawing depends on.
type scatterKey struct {
	s          sim.Stream
	pos, model int
	pair       [2]int
	b          *run.Bounds
	w, h       int
}

// batchRef names a batch of one session's stream.
type batchRef struct {
	s sim.Stream
	t int
}

// trail is how many earlier batches are drawn faintly.
const trail = 3

// New returns the batch's scatter, on the first two features.
func New() *Pane { return &Pane{keys: NewKeyMap(), pair: [2]int{0, 1}} }

// Help is the full help's group of the pane's keys.
func (p *Pane) Help() keys.Group { return p.keys.Group() }

// Scanned takes the scenario's feature ranges, scanned: the pair of features the scatter opens on,
// unless f has chosen one.
func (p *Pane) Scanned(b *run.Bounds) {
	if !p.pairChosen {
		p.pair = b.Pair()
	}
}

// Pair is the two features the scatter shows.
func (p *Pane) Pair() [2]int { return p.pair }

func (p *Pane) Title(f *pane.Frame) string {
	t, model := p.shown(f)
	switch {
	case t < 0:
		return "Batch"
	case f.Ask >= 0:
		return fmt.Sprintf("Batch %d, asked about: data by class, queries, errors of your M_%d", t, model)
	}
	return fmt.Sprintf("Batch %d: data by class, queries, errors of M_%d", t, model)
}

// shown is the batch the pane shows and the model whose errors it marks: the batch the guess
// round asks about with the player's model, else the current batch with the selected algorithm's.
func (p *Pane) shown(f *pane.Frame) (t, model int) {
	if f.Ask >= 0 {
		return f.Ask, f.AskModel
	}
	return f.Pos, p.model(f)
}

func (p *Pane) Size(f *pane.Frame, w int) (want, least int) { return 0, 9 }

// KeyMap are the batch pane's key: the next pair of features.
type KeyMap struct{ Features key.Binding }

func NewKeyMap() KeyMap {
	return KeyMap{Features: keys.Bind([]string{"f"}, "f", "next feature pair")}
}

func (p *Pane) Enable(m keys.Mode) { p.keys.Enable(m) }

// Enable turns the pane's keys on where the panes' keys work (keys.Mode.Panes).
func (k *KeyMap) Enable(m keys.Mode) { keys.Enable(m.Panes(), &k.Features) }

// Group is the full help's group of the pane's keys.
func (k *KeyMap) Group() keys.Group {
	return keys.Group{Title: "4 Batch", Keys: []key.Binding{k.Features}}
}

func (p *Pane) Keys(f *pane.Frame, focused bool) []key.Binding {
	if f.Stream != nil && f.Stream.Features() > 2 {
		return []key.Binding{p.keys.Features}
	}
	return nil
}

func (p *Pane) Key(msg tea.KeyMsg, f *pane.Frame, focused bool) (effect.Effects, bool) {
	if !key.Matches(msg, p.keys.Features) {
		return nil, false
	}
	if d := f.Stream.Features(); d > 2 {
		p.pairChosen = true
		p.pair[1]++
		if p.pair[1] >= d {
			p.pair[0] = (p.pair[0] + 1) % (d - 1)
			p.pair[1] = p.pair[0] + 1
		}
	}
	return nil, true
}

func (p *Pane) Click(f *pane.Frame, x, y, w, h int) effect.Effects { return nil }

// model is the model answering this batch's queries: the selected algorithm's before its decision
// at pos (the previous batch's while offline).
func (p *Pane) model(f *pane.Frame) int {
	model := max(f.Pos-1, 0)
	if r, ok := f.Result(f.Selected); ok {
		if i := f.Pos - r.Strategy.Start; i > 0 {
			model = r.Strategy.Model[i-1]
		}
	}
	return model
}

func (p *Pane) batch(s sim.Stream, t int) (*sim.Batch, error) {
	if p.batches == nil {
		p.batches = memo.New[batchRef, *sim.Batch](trail + 3)
	}
	return p.batches.Get(context.Background(), batchRef{s, t}, func(context.Context) (*sim.Batch, error) { return s.Batch(t) })
}

func (p *Pane) View(f *pane.Frame, w, h int) string {
	t, model := p.shown(f)
	if t < 0 || f.Stream == nil {
		return ""
	}
	k := scatterKey{f.Stream, t, model, p.pair, f.Bounds, w, h}
	if k == p.key && p.cache != "" {
		return p.cache
	}
	p.cache, p.key = p.draw(f, t, model, w, h), k
	return p.cache
}

// scatterCell counts what falls in one screen cell.
type scatterCell struct {
	n, wrong [2]int
	q, trail int
}

// scatterAxes map two features to a pw x ph grid of screen cells.
type scatterAxes struct {
	fx, fy             int
	xlo, xhi, ylo, yhi float64
	xstep, ystep       float64
	gw, pw, ph         int // the y labels' gutter, the plot's size
}

// MinPlot is the plot's least height in rows before a short pane gives up legend lines
// and the x axis's labels for it.
const MinPlot = 4

// scatterRows is how a pane h rows tall spends them: the features' names on top, the plot, the x
// axis, its labels and the legend. A short pane (a room's 120x36 gives the batch 7) keeps the
// legend's first line only, then drops the axis's labels (the ticks stay; the axes never move, so
// drift still shows), so that the plot keeps MinPlot rows where it can.
type scatterRows struct {
	plot, legend int
	labels       bool
}

func scatterRowsFor(h, legend int) scatterRows {
	r := scatterRows{legend: legend, labels: true}
	for {
		r.plot = h - 2 - r.legend
		if r.labels {
			r.plot--
		}
		switch {
		case r.plot >= MinPlot:
			return r
		case r.legend > 1:
			r.legend = 1
		case r.labels:
			r.labels = false
		default:
			r.plot = max(r.plot, 2)
			return r
		}
	}
}

// axesFor fits the features' fixed ranges, extended to round ticks, in a w x h pane whose legend
// takes that many lines.
func axesFor(bd *run.Bounds, fx, fy, w, h, legend int) scatterAxes {
	a := scatterAxes{fx: fx, fy: fy, xlo: bd.Lo[fx], xhi: bd.Hi[fx], ylo: bd.Lo[fy], yhi: bd.Hi[fy]}
	if !(a.xhi > a.xlo) {
		a.xhi = a.xlo + 1
	}
	if !(a.yhi > a.ylo) {
		a.yhi = a.ylo + 1
	}
	// The axes run from tick to tick, so both ends are labelled.
	_, a.xstep = draw.NiceTicks(a.xlo, a.xhi, 4)
	_, a.ystep = draw.NiceTicks(a.ylo, a.yhi, 3)
	a.xlo, a.xhi = math.Floor(a.xlo/a.xstep+1e-9)*a.xstep, math.Ceil(a.xhi/a.xstep-1e-9)*a.xstep
	a.ylo, a.yhi = math.Floor(a.ylo/a.ystep+1e-9)*a.ystep, math.Ceil(a.yhi/a.ystep-1e-9)*a.ystep
	for _, v := range a.yTicks() {
		a.gw = max(a.gw, len(draw.Tick(v, a.ystep)))
	}
	a.gw++
	a.pw, a.ph = max(w-a.gw-1, 4), scatterRowsFor(h, legend).plot
	// Equal scales (a round cloud stays round; a terminal cell is about twice as tall as it is
	// wide) when they waste little of the pane: at least 3/4 of it stays plot.
	xr, yr := a.xhi-a.xlo, a.yhi-a.ylo
	k := math.Min(float64(a.pw)/xr, 2*float64(a.ph)/yr)
	if pw, ph := max(int(k*xr+0.5), 4), max(int(k*yr/2+0.5), 2); 4*pw*ph >= 3*a.pw*a.ph {
		a.pw, a.ph = pw, ph
	}
	return a
}

func (a scatterAxes) xTicks() []float64 { t, _ := draw.NiceTicks(a.xlo, a.xhi, 4); return t }
func (a scatterAxes) yTicks() []float64 { t, _ := draw.NiceTicks(a.ylo, a.yhi, 3); return t }

// x and y are a value's plot column and row (the top edge's value on the top row).
func (a scatterAxes) x(v float64) int { return int((v - a.xlo) / (a.xhi - a.xlo) * float64(a.pw)) }
func (a scatterAxes) y(v float64) int {
	return a.ph - 1 - int((v-a.ylo)/(a.yhi-a.ylo)*float64(a.ph))
}

// cell is the plot cell of a point; -1 outside (a point on the far edges is in the last cell).
func (a scatterAxes) cell(row []float64) int {
	x, y := min(a.x(row[a.fx]), a.pw-1), max(a.y(row[a.fy]), 0)
	if x < 0 || y >= a.ph {
		return -1
	}
	return y*a.pw + x
}

func (p *Pane) draw(f *pane.Frame, t, model, w, h int) string {
	st := f.St
	b, err := p.batch(f.Stream, t)
	if err != nil {
		return st.Error.Render(err.Error())
	}
	d := b.X.D
	fx, fy := p.pair[0]%d, p.pair[1]%d
	if d == 1 {
		fy = fx
	}
	bd := f.Bounds
	if bd == nil {
		// Until the whole scenario is scanned: this batch's range.
		bd = run.NewBounds(d)
		bd.Add(b.X)
		bd.Add(b.Q)
	}
	_, knows := f.Stream.(trueLabeller)
	legend := legendLines(st, w, model, knows)
	rows := scatterRowsFor(h, legend)
	a := axesFor(bd, fx, fy, w, h, legend)
	cells := p.count(f, t, b, a, model)
	edge := boundary(f.Stream, t, b, a)
	cv := draw.Blank(&p.cv, w, h)
	const top = 1 // the features' names
	for i, c := range cells {
		r, k := scatterGlyph(c)
		switch {
		case edge == nil || !edge[i]:
		case r == 0:
			r, k = '∙', draw.Ink{FG: palette.Axis}
		case !st.Glyphs && k.BG.Hex == "":
			k.BG = palette.Boundary
		}
		if r != 0 {
			cv.Set(a.gw+i%a.pw, top+i/a.pw, r, k)
		}
	}
	drawScatterAxes(cv, f, a, top, rows.labels)
	y := top + a.ph + 1
	if rows.labels {
		y++
	}
	drawScatterLegend(cv, st, model, w, min(h, y+rows.legend), y, edge != nil)
	return cv.Render(st, &p.cv)
}

// trueLabeller is a stream that knows its concept (a generated scenario's label expression).
type trueLabeller interface {
	TrueLabels(t int, x sim.Points) ([]uint8, bool, error)
}

// boundary marks the plot cells the true decision boundary of batch t crosses: the concept's
// label, evaluated at each cell's centre (the features not plotted at the batch's means), differs
// from the next cell's to the right or below. nil when the concept is unknown (CSV data).
func boundary(s sim.Stream, t int, b *sim.Batch, a scatterAxes) []bool {
	tl, ok := s.(trueLabeller)
	if !ok || b.X.Len() == 0 {
		return nil
	}
	d := b.X.D
	mean := make([]float64, d)
	for i := range b.X.Len() {
		for j, v := range b.X.Row(i) {
			mean[j] += v / float64(b.X.Len())
		}
	}
	grid := sim.Points{D: d, V: make([]float64, 0, a.pw*a.ph*d)}
	for r := range a.ph {
		for c := range a.pw {
			row := slices.Clone(mean)
			row[a.fx] = a.xlo + (float64(c)+0.5)/float64(a.pw)*(a.xhi-a.xlo)
			if a.fy != a.fx {
				row[a.fy] = a.ylo + (float64(a.ph-1-r)+0.5)/float64(a.ph)*(a.yhi-a.ylo)
			}
			grid.V = append(grid.V, row...)
		}
	}
	y, ok, err := tl.TrueLabels(t, grid)
	if !ok || err != nil || len(y) != a.pw*a.ph {
		return nil
	}
	edge := make([]bool, len(y))
	for i := range y {
		c, r := i%a.pw, i/a.pw
		if c+1 < a.pw && y[i] != y[i+1] || r+1 < a.ph && y[i] != y[i+a.pw] {
			edge[i] = true
		}
	}
	return edge
}

// count tallies the batch's points, its queries and the earlier batches' points by plot cell.
func (p *Pane) count(f *pane.Frame, at int, b *sim.Batch, a scatterAxes, model int) []scatterCell {
	cells := make([]scatterCell, a.pw*a.ph)
	for t := max(at-trail, 0); t < at; t++ {
		pb, err := p.batch(f.Stream, t)
		if err != nil {
			continue
		}
		for _, pts := range []sim.Points{pb.X, pb.Q} {
			for i := range pts.Len() {
				if c := a.cell(pts.Row(i)); c >= 0 {
					cells[c].trail++
				}
			}
		}
	}
	errs := f.M.Errors(model, at)
	for i := range b.X.Len() {
		if c := a.cell(b.X.Row(i)); c >= 0 {
			y := min(int(b.Y[i]), 1)
			cells[c].n[y]++
			if errs.N > i && errs.Get(i) {
				cells[c].wrong[y]++
			}
		}
	}
	for i := range b.Q.Len() {
		if c := a.cell(b.Q.Row(i)); c >= 0 {
			cells[c].q++
		}
	}
	return cells
}

// drawScatterAxes draws the features' names on top (where they never collide with a tick), the
// axes and their round ticks, and the x ticks' labels when labels is set.
func drawScatterAxes(cv *draw.Canvas, f *pane.Frame, a scatterAxes, top int, labels bool) {
	dim := draw.InkOf(palette.Axis)
	cv.Text(0, 0, fmt.Sprintf("↑ %s   → %s", f.Features[a.fy], f.Features[a.fx]), dim)
	for y := range a.ph {
		cv.Set(a.gw-1, top+y, '│', dim)
	}
	cv.Set(a.gw-1, top+a.ph, '└', dim)
	for x := range a.pw {
		cv.Set(a.gw+x, top+a.ph, '─', dim)
	}
	for _, v := range a.yTicks() {
		y := min(max(a.y(v), 0), a.ph-1)
		label := draw.Tick(v, a.ystep)
		cv.Set(a.gw-1, top+y, '┤', dim)
		cv.Text(a.gw-1-len(label), top+y, label, dim)
	}
	next := 0
	for _, v := range a.xTicks() {
		x := min(a.x(v), a.pw-1)
		cv.Set(a.gw+x, top+a.ph, '┬', dim)
		// A label is never cut at the pane's edge: the last one moves left to fit.
		if label := draw.Tick(v, a.xstep); labels && x >= next {
			lx := min(x, cv.Width()-a.gw-len(label))
			if lx >= next {
				cv.Text(a.gw+lx, top+a.ph+1, label, dim)
				next = lx + len(label) + 1
			}
		}
	}
}

// legendItem is one entry of the scatter's legend: a glyph in its ink and its words.
type legendItem struct {
	glyph string
	k     draw.Ink
	text  string
}

func (it legendItem) width() int { return len([]rune(it.glyph)) + len([]rune(it.text)) }

// scatterLegend lays the legend out in lines of at most w columns, whole entries only (a name is
// never cut: "wrong (M_27)", not "wrong (M_2"); on a line too short for an entry it goes.
func scatterLegend(st *draw.Styles, model, w int, boundaryShown bool) [][]legendItem {
	c0, c1 := draw.Ink{FG: palette.Classes[0]}, draw.Ink{FG: palette.Classes[1]}
	wrong := draw.Ink{FG: palette.Query, BG: palette.WrongBg, Bold: true}
	if st.Mono {
		c0, c1, wrong = draw.Ink{}, draw.Ink{}, draw.Ink{}
	}
	items := []legendItem{
		{"o", c0, " class 0"}, {"x", c1, " class 1"}, {"O X", wrong, fmt.Sprintf(" wrong (M_%d)", model)},
		{"+", draw.Ink{FG: palette.Query, Bold: true}, " query"}, {"⊕ ⊗", draw.Ink{Bold: true}, " query on class 0, 1"},
		{"·", draw.Ink{FG: palette.Trail}, fmt.Sprintf(" %d before", trail)},
	}
	if boundaryShown {
		items = append(items, legendItem{"∙", draw.Ink{FG: palette.Axis}, " true boundary"})
	}
	var out [][]legendItem
	x := 0
	for _, it := range items {
		switch n := it.width(); {
		case n > w:
			continue
		case len(out) > 0 && x+2+n <= w:
			out[len(out)-1] = append(out[len(out)-1], it)
			x += 2 + n
		default:
			out = append(out, []legendItem{it})
			x = n
		}
	}
	return out
}

// drawScatterLegend writes the legend from row y, on as many lines as it takes and h allows.
func drawScatterLegend(cv *draw.Canvas, st *draw.Styles, model, w, h, y int, boundaryShown bool) {
	dim := draw.InkOf(palette.Axis)
	for _, line := range scatterLegend(st, model, w, boundaryShown) {
		if y >= h {
			return
		}
		x := 0
		for i, it := range line {
			if i > 0 {
				x += 2
			}
			x = cv.Text(x, y, it.glyph, it.k)
			x = cv.Text(x, y, it.text, dim)
		}
		y++
	}
}

// legendLines is how many lines the scatter's legend takes at width w.
func legendLines(st *draw.Styles, w, model int, boundaryShown bool) int {
	return len(scatterLegend(st, model, w, boundaryShown))
}

// scatterGlyph draws a cell: the majority class (capital and on dark red when the model errs on a
// point there; ⊕ ⊗ with a query on it), a query alone, else the trail.
func scatterGlyph(c scatterCell) (rune, draw.Ink) {
	cls := 0
	if c.n[1] > c.n[0] {
		cls = 1
	}
	wrong := c.wrong[0]+c.wrong[1] > 0
	if wrong {
		// The class the model errs on here.
		cls = 0
		if c.wrong[1] > c.wrong[0] {
			cls = 1
		}
	}
	k := draw.Ink{FG: palette.Classes[cls]}
	if wrong {
		k.BG, k.Bold = palette.WrongBg, true
	}
	switch {
	case c.q > 0 && c.n[0]+c.n[1] > 0:
		// A query over data keeps the class in sight: o and x with a cross in them.
		k.Bold = true
		return []rune{'⊕', '⊗'}[cls], k
	case c.q > 0:
		return '+', draw.Ink{FG: palette.Query, BG: k.BG, Bold: true}
	case c.n[0]+c.n[1] > 0:
		if wrong {
			return []rune{'O', 'X'}[cls], k
		}
		return []rune{'o', 'x'}[cls], k
	case c.trail > 0:
		return '·', draw.Ink{FG: palette.Trail}
	}
	return 0, draw.Ink{}
}
