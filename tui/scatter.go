package tui

import (
	"fmt"
	"math"
	"sync"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/internal/palette"
	"github.com/cara-sim/cara/sim"
)

// bounds are the scatter's axes: each feature's range over every batch of the scenario, data and
// queries, so the axes stay put while you step and drift shows as movement.
type bounds struct {
	lo, hi []float64
}

func (b *bounds) add(p sim.Points) {
	for i := range p.Len() {
		for j, v := range p.Row(i) {
			if j < len(b.lo) && !math.IsNaN(v) {
				b.lo[j], b.hi[j] = min(b.lo[j], v), max(b.hi[j], v)
			}
		}
	}
}

func newBounds(d int) *bounds {
	b := &bounds{lo: make([]float64, d), hi: make([]float64, d)}
	for j := range d {
		b.lo[j], b.hi[j] = math.Inf(1), math.Inf(-1)
	}
	return b
}

// boundsMsg brings a session's bounds, scanned in the background.
type boundsMsg struct {
	s *Session
	b *bounds
}

// boundsCache keeps the bounds of recent (scenario, seed) pairs: every SSH session on covcon-d
// would otherwise generate its 100 batches once more (about 0.2 s of a core each).
var boundsCache = struct {
	sync.Mutex
	m     map[string]*bounds
	order []string
}{m: map[string]*bounds{}}

// scanBounds generates every batch of the stream once and returns the features' ranges; a batch
// that fails to generate is skipped (the engine reports its error).
func scanBounds(s *Session) tea.Cmd {
	stream, T := s.Stream, s.Matrix.Batches()
	k := fmt.Sprint(s.Scenario.Name, "\x00", s.Scenario.Path, "\x00", s.Seed)
	return func() tea.Msg {
		boundsCache.Lock()
		b, ok := boundsCache.m[k]
		boundsCache.Unlock()
		if ok {
			return boundsMsg{s, b}
		}
		b = newBounds(stream.Features())
		for t := range T {
			if bt, err := stream.Batch(t); err == nil {
				b.add(bt.X)
				b.add(bt.Q)
			}
		}
		boundsCache.Lock()
		defer boundsCache.Unlock()
		boundsCache.m[k] = b
		boundsCache.order = append(boundsCache.order, k)
		if len(boundsCache.order) > 32 {
			delete(boundsCache.m, boundsCache.order[0])
			boundsCache.order = boundsCache.order[1:]
		}
		return boundsMsg{s, b}
	}
}

// featureNames are the stream's feature names (a CSV's header), or x1, x2, ...
func featureNames(s sim.Stream) []string {
	if n, ok := s.(interface{ FeatureNames() []string }); ok {
		if names := n.FeatureNames(); len(names) == s.Features() {
			return names
		}
	}
	out := make([]string, s.Features())
	for i := range out {
		out[i] = fmt.Sprintf("x%d", i+1)
	}
	return out
}

// batchPane is pane 4: the batch's data by class, its queries, and where the model in use errs,
// over two features on axes fixed for the whole scenario (equal scales when the two ranges are
// alike), with the previous batches left as a faint trail so that covariate drift shows as
// movement. A wrong point keeps its class glyph, capitalised, on a dark red ground.
type batchPane struct {
	keys    *keyMap
	pair    [2]int
	batches map[batchRef]*sim.Batch // recently drawn batches
	order   []batchRef
	key     scatterKey
	cache   string
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

func (p *batchPane) Title(f *frame) string {
	if f.pos < 0 {
		return "Batch"
	}
	return fmt.Sprintf("Batch %d: data by class, queries, errors of M_%d", f.pos, p.model(f))
}

func (p *batchPane) Size(f *frame, w int) (want, least int) { return 0, 9 }

func (p *batchPane) Keys(f *frame, focused bool) []key.Binding {
	if f.stream != nil && f.stream.Features() > 2 {
		return []key.Binding{p.keys.Features}
	}
	return nil
}

func (p *batchPane) Key(msg tea.KeyMsg, f *frame, focused bool) (bool, tea.Cmd) {
	if !key.Matches(msg, p.keys.Features) {
		return false, nil
	}
	if d := f.stream.Features(); d > 2 {
		p.pair[1]++
		if p.pair[1] >= d {
			p.pair[0] = (p.pair[0] + 1) % (d - 1)
			p.pair[1] = p.pair[0] + 1
		}
	}
	return true, nil
}

func (p *batchPane) Click(f *frame, x, y, w, h int) tea.Cmd { return nil }

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
		p.batches = map[batchRef]*sim.Batch{}
	}
	ref := batchRef{s, t}
	if b, ok := p.batches[ref]; ok {
		return b, nil
	}
	b, err := s.Batch(t)
	if err != nil {
		return nil, err
	}
	p.batches[ref] = b
	p.order = append(p.order, ref)
	if len(p.order) > trail+3 {
		delete(p.batches, p.order[0])
		p.order = p.order[1:]
	}
	return b, nil
}

func (p *batchPane) View(f *frame, w, h int) string {
	if f.pos < 0 || f.stream == nil {
		return ""
	}
	model := p.model(f)
	k := scatterKey{f.stream, f.pos, model, p.pair, f.bounds, w, h}
	if k == p.key && p.cache != "" {
		return p.cache
	}
	p.cache, p.key = p.draw(f, model, w, h), k
	return p.cache
}

// scatterCell counts what falls in one screen cell.
type scatterCell struct {
	n, wrong [2]int
	q, trail int
}

func (p *batchPane) draw(f *frame, model, w, h int) string {
	st := f.st
	b, err := p.batch(f.stream, f.pos)
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
	xlo, xhi, ylo, yhi := bd.lo[fx], bd.hi[fx], bd.lo[fy], bd.hi[fy]
	if !(xhi > xlo) {
		xhi = xlo + 1
	}
	if !(yhi > ylo) {
		yhi = ylo + 1
	}
	// The axes run from tick to tick, so both ends are labelled.
	_, xstep := niceTicks(xlo, xhi, 4)
	_, ystep := niceTicks(ylo, yhi, 3)
	xlo, xhi = math.Floor(xlo/xstep+1e-9)*xstep, math.Ceil(xhi/xstep-1e-9)*xstep
	ylo, yhi = math.Floor(ylo/ystep+1e-9)*ystep, math.Ceil(yhi/ystep-1e-9)*ystep
	xt, _ := niceTicks(xlo, xhi, 4)
	yt, _ := niceTicks(ylo, yhi, 3)
	gw := 0
	for _, v := range yt {
		gw = max(gw, len(tick(v, ystep)))
	}
	gw++
	pw, ph := max(w-gw-1, 4), max(h-3-legendLines(w, model), 2)
	// Equal scales when the two ranges are alike (a round cloud stays round; a terminal cell is
	// about twice as tall as it is wide).
	xr, yr := xhi-xlo, yhi-ylo
	if r := xr / yr; r > 1.0/3 && r < 3 {
		k := math.Min(float64(pw)/xr, 2*float64(ph)/yr)
		pw, ph = max(int(k*xr+0.5), 4), max(int(k*yr/2+0.5), 2)
	}
	cells := make([]scatterCell, pw*ph)
	at := func(row []float64) *scatterCell {
		x := int((row[fx] - xlo) / xr * float64(pw))
		y := ph - 1 - int((row[fy]-ylo)/yr*float64(ph))
		if x < 0 || y < 0 || x >= pw || y >= ph {
			if x == pw {
				x = pw - 1
			}
			if y == -1 {
				y = 0
			}
			if x < 0 || y < 0 || x >= pw || y >= ph {
				return nil
			}
		}
		return &cells[y*pw+x]
	}
	for t := max(f.pos-trail, 0); t < f.pos; t++ {
		if pb, err := p.batch(f.stream, t); err == nil {
			for i := range pb.X.Len() {
				if c := at(pb.X.Row(i)); c != nil {
					c.trail++
				}
			}
			for i := range pb.Q.Len() {
				if c := at(pb.Q.Row(i)); c != nil {
					c.trail++
				}
			}
		}
	}
	errs := f.m.Errors(model, f.pos)
	for i := range b.X.Len() {
		c := at(b.X.Row(i))
		if c == nil {
			continue
		}
		y := min(int(b.Y[i]), 1)
		c.n[y]++
		if errs.N > i && errs.Get(i) {
			c.wrong[y]++
		}
	}
	for i := range b.Q.Len() {
		if c := at(b.Q.Row(i)); c != nil {
			c.q++
		}
	}
	cv := newCanvas(w, h)
	top := 1 // the y feature's name
	for y := range ph {
		for x := range pw {
			c := cells[y*pw+x]
			r, k := scatterGlyph(st, c)
			if r != 0 {
				cv.set(gw+x, top+y, r, k)
			}
		}
	}
	// Axes: ticks at round values, the features' names.
	dim := inkOf(palette.Axis)
	// The features' names on top, where they never collide with a tick.
	cv.text(0, 0, fmt.Sprintf("↑ %s   → %s", f.features[fy], f.features[fx]), dim)
	for y := range ph {
		cv.set(gw-1, top+y, '│', dim)
	}
	cv.set(gw-1, top+ph, '└', dim)
	for x := range pw {
		cv.set(gw+x, top+ph, '─', dim)
	}
	for _, v := range yt {
		// The top tick sits on the top row (its value is the edge of that row).
		y := min(max(ph-1-int((v-ylo)/yr*float64(ph)), 0), ph-1)
		label := tick(v, ystep)
		cv.set(gw-1, top+y, '┤', dim)
		cv.text(gw-1-len(label), top+y, label, dim)
	}
	next := 0
	for _, v := range xt {
		x := min(int((v-xlo)/xr*float64(pw)), pw-1)
		cv.set(gw+x, top+ph, '┬', dim)
		label := tick(v, xstep)
		if x >= next {
			cv.text(gw+x, top+ph+1, label, dim)
			next = x + len(label) + 1
		}
	}
	// The legend, on two lines when one is too short.
	c0, c1 := ink{fg: palette.Classes[0]}, ink{fg: palette.Classes[1]}
	wrong := ink{fg: palette.Query, bg: palette.WrongBg, bold: true}
	if st.Mono {
		c0, c1, wrong = ink{}, ink{}, ink{}
	}
	items := []struct {
		glyph string
		k     ink
		text  string
	}{
		{"o", c0, " class 0"}, {"x", c1, " class 1"}, {"O X", wrong, fmt.Sprintf(" wrong (M_%d)", model)},
		{"+", ink{fg: palette.Query, bold: true}, " query"}, {"·", ink{fg: palette.Trail}, fmt.Sprintf(" %d before", trail)},
	}
	x, y := 0, top+ph+2
	for _, it := range items {
		n := len([]rune(it.glyph)) + len([]rune(it.text))
		if x > 0 && x+n > w && y+1 < h {
			x, y = 0, y+1
		} else if x > 0 {
			x += 2
		}
		x = cv.text(x, y, it.glyph, it.k)
		x = cv.text(x, y, it.text, dim)
	}
	return cv.String(st)
}

// legendLines is how many lines the scatter's legend takes at width w.
func legendLines(w, model int) int {
	if w >= 55+len(itoa(model)) {
		return 1
	}
	return 2
}

// scatterGlyph draws a cell: a query on top, else the majority class (capital and on dark red when
// the model errs on a point there), else the trail.
func scatterGlyph(st *Styles, c scatterCell) (rune, ink) {
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
