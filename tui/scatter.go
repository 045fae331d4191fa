package tui

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/internal/memo"
	"github.com/cara-sim/cara/internal/palette"
	"github.com/cara-sim/cara/sim"
)

// batchPane is pane 4: the batch's data by class, its queries, and where the model in use errs,
// over two features on axes fixed for the whole scenario (equal scales when the two ranges are
// alike), with the previous batches left as a faint trail so that covariate drift shows as
// movement. A wrong point keeps its class glyph, capitalised, on a dark red ground.
type batchPane struct {
	keys       batchKeys
	pair       [2]int
	pairChosen bool                             // f was pressed: the scanned default pair no longer replaces it
	batches    *memo.Memo[batchRef, *sim.Batch] // recently drawn batches
	key        scatterKey
	cache      string
	cv         *canvas // the last drawing's, blanked for the next
}

// scatterKey is what the scatter's drawing depends on.
type scatterKey struct {
	s          sim.Stream
	pos, model int
	pair       [2]int
	b          *bounds
	w, h       int
}

// batchRef names a batch of one session's stream.
type batchRef struct {
	s sim.Stream
	t int
}

// trail is how many earlier batches are drawn faintly.
const trail = 3

// newBatchPane returns the batch's scatter, on the first two features.
func newBatchPane() *batchPane { return &batchPane{keys: newBatchKeys(), pair: [2]int{0, 1}} }

// Help is the full help's group of the pane's keys.
func (p *batchPane) Help() keyGroup { return p.keys.group() }

// Scanned takes the scenario's feature ranges, scanned: the pair of features the scatter opens on,
// unless f has chosen one.
func (p *batchPane) Scanned(b *bounds) {
	if !p.pairChosen {
		p.pair = b.pair()
	}
}

// Pair is the two features the scatter shows.
func (p *batchPane) Pair() [2]int { return p.pair }

func (p *batchPane) Title(f *frame) string {
	t, model := p.shown(f)
	switch {
	case t < 0:
		return "Batch"
	case f.ask >= 0:
		return fmt.Sprintf("Batch %d, asked about: data by class, queries, errors of your M_%d", t, model)
	}
	return fmt.Sprintf("Batch %d: data by class, queries, errors of M_%d", t, model)
}

// shown is the batch the pane shows and the model whose errors it marks: the batch the guess
// round asks about with the player's model, else the current batch with the selected algorithm's.
func (p *batchPane) shown(f *frame) (t, model int) {
	if f.ask >= 0 {
		return f.ask, f.askModel
	}
	return f.pos, p.model(f)
}

func (p *batchPane) Size(f *frame, w int) (want, least int) { return 0, 9 }

// batchKeys are the batch pane's key: the next pair of features.
type batchKeys struct{ Features key.Binding }

func newBatchKeys() batchKeys {
	return batchKeys{Features: binding([]string{"f"}, "f", "next feature pair")}
}

func (p *batchPane) Enable(m mode) { enable(m.panes(), &p.keys.Features) }

// group is the full help's group of the pane's keys.
func (k *batchKeys) group() keyGroup { return keyGroup{"4 Batch", []key.Binding{k.Features}} }

func (p *batchPane) Keys(f *frame, focused bool) []key.Binding {
	if f.stream != nil && f.stream.Features() > 2 {
		return []key.Binding{p.keys.Features}
	}
	return nil
}

func (p *batchPane) Key(msg tea.KeyMsg, f *frame, focused bool) reply {
	if !key.Matches(msg, p.keys.Features) {
		return reply{}
	}
	if d := f.stream.Features(); d > 2 {
		p.pairChosen = true
		p.pair[1]++
		if p.pair[1] >= d {
			p.pair[0] = (p.pair[0] + 1) % (d - 1)
			p.pair[1] = p.pair[0] + 1
		}
	}
	return reply{handled: true}
}

func (p *batchPane) Click(f *frame, x, y, w, h int) reply { return reply{} }

// model is the model answering this batch's queries: the selected algorithm's before its decision
// at pos (the previous batch's while offline).
func (p *batchPane) model(f *frame) int {
	model := max(f.pos-1, 0)
	if r, ok := f.result(f.selected); ok {
		if i := f.pos - r.Strategy.Start; i > 0 {
			model = r.Strategy.Model[i-1]
		}
	}
	return model
}

func (p *batchPane) batch(s sim.Stream, t int) (*sim.Batch, error) {
	if p.batches == nil {
		p.batches = memo.New[batchRef, *sim.Batch](trail + 3)
	}
	return p.batches.Get(context.Background(), batchRef{s, t}, func(context.Context) (*sim.Batch, error) { return s.Batch(t) })
}

func (p *batchPane) View(f *frame, w, h int) string {
	t, model := p.shown(f)
	if t < 0 || f.stream == nil {
		return ""
	}
	k := scatterKey{f.stream, t, model, p.pair, f.bounds, w, h}
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

// minScatterPlot is the plot's least height in rows before a short pane gives up legend lines
// and the x axis's labels for it.
const minScatterPlot = 4

// scatterRows is how a pane h rows tall spends them: the features' names on top, the plot, the x
// axis, its labels and the legend. A short pane (a room's 120x36 gives the batch 7) keeps the
// legend's first line only, then drops the axis's labels (the ticks stay; the axes never move, so
// drift still shows), so that the plot keeps minScatterPlot rows where it can.
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
		case r.plot >= minScatterPlot:
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
func axesFor(bd *bounds, fx, fy, w, h, legend int) scatterAxes {
	a := scatterAxes{fx: fx, fy: fy, xlo: bd.lo[fx], xhi: bd.hi[fx], ylo: bd.lo[fy], yhi: bd.hi[fy]}
	if !(a.xhi > a.xlo) {
		a.xhi = a.xlo + 1
	}
	if !(a.yhi > a.ylo) {
		a.yhi = a.ylo + 1
	}
	// The axes run from tick to tick, so both ends are labelled.
	_, a.xstep = niceTicks(a.xlo, a.xhi, 4)
	_, a.ystep = niceTicks(a.ylo, a.yhi, 3)
	a.xlo, a.xhi = math.Floor(a.xlo/a.xstep+1e-9)*a.xstep, math.Ceil(a.xhi/a.xstep-1e-9)*a.xstep
	a.ylo, a.yhi = math.Floor(a.ylo/a.ystep+1e-9)*a.ystep, math.Ceil(a.yhi/a.ystep-1e-9)*a.ystep
	for _, v := range a.yTicks() {
		a.gw = max(a.gw, len(tick(v, a.ystep)))
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

func (a scatterAxes) xTicks() []float64 { t, _ := niceTicks(a.xlo, a.xhi, 4); return t }
func (a scatterAxes) yTicks() []float64 { t, _ := niceTicks(a.ylo, a.yhi, 3); return t }

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

func (p *batchPane) draw(f *frame, t, model, w, h int) string {
	st := f.st
	b, err := p.batch(f.stream, t)
	if err != nil {
		return st.Error.Render(err.Error())
	}
	d := b.X.D
	fx, fy := p.pair[0]%d, p.pair[1]%d
	if d == 1 {
		fy = fx
	}
	bd := f.bounds
	if bd == nil {
		// Until the whole scenario is scanned: this batch's range.
		bd = newBounds(d)
		bd.add(b.X)
		bd.add(b.Q)
	}
	_, knows := f.stream.(trueLabeller)
	legend := legendLines(st, w, model, knows)
	rows := scatterRowsFor(h, legend)
	a := axesFor(bd, fx, fy, w, h, legend)
	cells := p.count(f, t, b, a, model)
	edge := boundary(f.stream, t, b, a)
	cv := blankCanvas(&p.cv, w, h)
	const top = 1 // the features' names
	for i, c := range cells {
		r, k := scatterGlyph(c)
		switch {
		case edge == nil || !edge[i]:
		case r == 0:
			r, k = '∙', ink{fg: palette.Axis}
		case !st.Glyphs && k.bg.Hex == "":
			k.bg = palette.Boundary
		}
		if r != 0 {
			cv.set(a.gw+i%a.pw, top+i/a.pw, r, k)
		}
	}
	drawScatterAxes(cv, f, a, top, rows.labels)
	y := top + a.ph + 1
	if rows.labels {
		y++
	}
	drawScatterLegend(cv, st, model, w, min(h, y+rows.legend), y, edge != nil)
	return cv.String(st)
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
func (p *batchPane) count(f *frame, at int, b *sim.Batch, a scatterAxes, model int) []scatterCell {
	cells := make([]scatterCell, a.pw*a.ph)
	for t := max(at-trail, 0); t < at; t++ {
		pb, err := p.batch(f.stream, t)
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
	errs := f.m.Errors(model, at)
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
func drawScatterAxes(cv *canvas, f *frame, a scatterAxes, top int, labels bool) {
	dim := inkOf(palette.Axis)
	cv.text(0, 0, fmt.Sprintf("↑ %s   → %s", f.features[a.fy], f.features[a.fx]), dim)
	for y := range a.ph {
		cv.set(a.gw-1, top+y, '│', dim)
	}
	cv.set(a.gw-1, top+a.ph, '└', dim)
	for x := range a.pw {
		cv.set(a.gw+x, top+a.ph, '─', dim)
	}
	for _, v := range a.yTicks() {
		y := min(max(a.y(v), 0), a.ph-1)
		label := tick(v, a.ystep)
		cv.set(a.gw-1, top+y, '┤', dim)
		cv.text(a.gw-1-len(label), top+y, label, dim)
	}
	next := 0
	for _, v := range a.xTicks() {
		x := min(a.x(v), a.pw-1)
		cv.set(a.gw+x, top+a.ph, '┬', dim)
		// A label is never cut at the pane's edge: the last one moves left to fit.
		if label := tick(v, a.xstep); labels && x >= next {
			lx := min(x, cv.width()-a.gw-len(label))
			if lx >= next {
				cv.text(a.gw+lx, top+a.ph+1, label, dim)
				next = lx + len(label) + 1
			}
		}
	}
}

// legendItem is one entry of the scatter's legend: a glyph in its ink and its words.
type legendItem struct {
	glyph string
	k     ink
	text  string
}

func (it legendItem) width() int { return len([]rune(it.glyph)) + len([]rune(it.text)) }

// scatterLegend lays the legend out in lines of at most w columns, whole entries only (a name is
// never cut: "wrong (M_27)", not "wrong (M_2"); on a line too short for an entry it goes.
func scatterLegend(st *Styles, model, w int, boundaryShown bool) [][]legendItem {
	c0, c1 := ink{fg: palette.Classes[0]}, ink{fg: palette.Classes[1]}
	wrong := ink{fg: palette.Query, bg: palette.WrongBg, bold: true}
	if st.Mono {
		c0, c1, wrong = ink{}, ink{}, ink{}
	}
	items := []legendItem{
		{"o", c0, " class 0"}, {"x", c1, " class 1"}, {"O X", wrong, fmt.Sprintf(" wrong (M_%d)", model)},
		{"+", ink{fg: palette.Query, bold: true}, " query"}, {"⊕ ⊗", ink{bold: true}, " query on class 0, 1"},
		{"·", ink{fg: palette.Trail}, fmt.Sprintf(" %d before", trail)},
	}
	if boundaryShown {
		items = append(items, legendItem{"∙", ink{fg: palette.Axis}, " true boundary"})
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
func drawScatterLegend(cv *canvas, st *Styles, model, w, h, y int, boundaryShown bool) {
	dim := inkOf(palette.Axis)
	for _, line := range scatterLegend(st, model, w, boundaryShown) {
		if y >= h {
			return
		}
		x := 0
		for i, it := range line {
			if i > 0 {
				x += 2
			}
			x = cv.text(x, y, it.glyph, it.k)
			x = cv.text(x, y, it.text, dim)
		}
		y++
	}
}

// legendLines is how many lines the scatter's legend takes at width w.
func legendLines(st *Styles, w, model int, boundaryShown bool) int {
	return len(scatterLegend(st, model, w, boundaryShown))
}

// scatterGlyph draws a cell: the majority class (capital and on dark red when the model errs on a
// point there; ⊕ ⊗ with a query on it), a query alone, else the trail.
func scatterGlyph(c scatterCell) (rune, ink) {
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
	k := ink{fg: palette.Classes[cls]}
	if wrong {
		k.bg, k.bold = palette.WrongBg, true
	}
	switch {
	case c.q > 0 && c.n[0]+c.n[1] > 0:
		// A query over data keeps the class in sight: o and x with a cross in them.
		k.bold = true
		return []rune{'⊕', '⊗'}[cls], k
	case c.q > 0:
		return '+', ink{fg: palette.Query, bg: k.bg, bold: true}
	case c.n[0]+c.n[1] > 0:
		if wrong {
			return []rune{'O', 'X'}[cls], k
		}
		return []rune{'o', 'x'}[cls], k
	case c.trail > 0:
		return '·', ink{fg: palette.Trail}
	}
	return 0, ink{}
}
