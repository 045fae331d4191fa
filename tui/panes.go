package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/canvas/runes"
	"github.com/NimbleMarkets/ntcharts/linechart/wavelinechart"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"github.com/cara-sim/cara/algos"
)

// frame is the state every pane draws from, rebuilt when a batch is revealed or R changes.
type frame struct {
	st       *Styles
	s        *Session
	pos      int
	rp       replay
	selected algos.Name   // the algorithm whose path and decisions stand out
	visible  []algos.Name // algorithms shown
	cursor   [2]int
	focus    bool // the matrix has focus (arrows move its cursor)
	pair     [2]int
}

func (f *frame) result(name algos.Name) (algos.Result, bool) {
	for _, r := range f.rp.results {
		if r.Algorithm == name {
			return r, true
		}
	}
	return algos.Result{}, false
}

// pane is a component of the player: sized by the layout, drawn from the frame.
type pane interface {
	Title() string
	SetSize(w, h int)
	SetFrame(f *frame)
	View() string
	Keys() []key.Binding
}

// --- 1. the cost matrix ---

type matrixPane struct {
	f    *frame
	w, h int
	hm   *heatmap
	keys keyMap
}

func (p *matrixPane) Title() string       { return "Cost matrix C[t', t]" }
func (p *matrixPane) SetSize(w, h int)    { p.w, p.h = w, h }
func (p *matrixPane) SetFrame(f *frame)   { p.f = f }
func (p *matrixPane) Keys() []key.Binding { return []key.Binding{p.keys.Focus, p.keys.Up, p.keys.Down} }

func (p *matrixPane) View() string {
	f := p.f
	if f == nil || f.s == nil {
		return ""
	}
	m := f.s.Matrix
	r := f.s.retrainCost(f.rp.scale)
	var paths []heatPath
	if o, ok := f.result("oracle"); ok {
		paths = append(paths, heatPath{colOracle, o.Strategy})
	}
	if sel, ok := f.result(f.selected); ok && f.selected != "oracle" {
		paths = append(paths, heatPath{algoColorIndex(f.selected), sel.Strategy})
	}
	rows := p.hm.render(heatView{m: m, r: r, pos: f.pos, paths: paths, cursor: f.cursor, showCur: f.focus,
		width: p.w - 8, height: p.h - 6, absScale: scaleOf(m, f.pos)})
	// An axis under the cells marks the offline/online border and the current batch.
	cols := min(m.Batches(), p.w-8)
	axis := []rune(strings.Repeat("─", max(cols, 0)))
	if cols > 0 {
		axis[min(m.Offline()*cols/m.Batches(), cols-1)] = '┊'
		if f.pos >= 0 {
			axis[min(f.pos*cols/m.Batches(), cols-1)] = '▲'
		}
	}
	lines := []string{"    " + strings.Join(rows, "\n    ")}
	lines = append(lines, "    "+f.st.Dim.Render(string(axis)))
	lines = append(lines, "    "+p.hm.legend(scaleOf(m, f.pos), p.w))
	tp, t := f.cursor[0], f.cursor[1]
	if f.focus && tp <= t && t < m.Batches() && m.Cell(tp, t).Done && t <= f.pos {
		c := m.Cell(tp, t)
		lines = append(lines, fmt.Sprintf("    (t'=%d, t=%d)  A %.4g  B %.4g  C %.4g  error %.3f  query acc %s",
			tp, t, c.A, c.B, c.C(), c.ErrorRate, fmtAcc(c.QueryAccuracy)))
	} else {
		lines = append(lines, f.st.Dim.Render(fmt.Sprintf("    offline 0..%d ┊ online %d..%d  ▲ t=%d   m: cursor over the cells", m.Offline()-1, m.Offline(), m.Batches()-1, max(f.pos, 0))))
	}
	return strings.Join(lines, "\n")
}

func fmtAcc(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.3f", v)
}

// --- 2. cumulative strategy cost ---

type chartPane struct {
	f     *frame
	w, h  int
	cache string
	key   string
}

func (p *chartPane) Title() string       { return "Cumulative strategy cost (online)" }
func (p *chartPane) SetSize(w, h int)    { p.w, p.h = w, h }
func (p *chartPane) SetFrame(f *frame)   { p.f = f }
func (p *chartPane) Keys() []key.Binding { return nil }

// View redraws the chart only when its inputs change (a batch, R, the visible set or the size).
func (p *chartPane) View() string {
	f := p.f
	if f == nil {
		return ""
	}
	if len(f.rp.results) == 0 {
		return f.st.Dim.Render("starts with the online block")
	}
	k := fmt.Sprint(f.pos, f.rp.scale, f.visible, f.selected, p.w, p.h)
	if k == p.key {
		return p.cache
	}
	w, h := max(p.w-4, 10), max(p.h-4, 4)
	ch := wavelinechart.New(w, h, wavelinechart.WithXYSteps(4, 3))
	lo, hi := 0.0, 1.0
	first := true
	for _, r := range f.rp.results {
		if !slices.Contains(f.visible, r.Algorithm) {
			continue
		}
		for _, v := range r.Strategy.Cumulative {
			if first {
				lo, hi, first = v, v, false
			}
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi <= lo {
		hi = lo + 1
	}
	// The full range must be set too: the view range is clamped to it, whose minimum is 0 otherwise.
	x0, x1 := float64(f.s.Scenario.Offline), float64(max(f.pos, f.s.Scenario.Offline+1))
	ch.SetXYRange(x0, x1, lo, hi)
	ch.SetViewXYRange(x0, x1, lo, hi)
	var legend []string
	var names []string
	for _, r := range f.rp.results {
		if !slices.Contains(f.visible, r.Algorithm) {
			continue
		}
		names = append(names, string(r.Algorithm))
		ls := runes.ThinLineStyle
		if r.Algorithm == f.selected {
			ls = runes.ArcLineStyle
		}
		ch.SetDataSetStyles(string(r.Algorithm), ls, f.st.AlgoStyle(r.Algorithm))
		for i, v := range r.Strategy.Cumulative {
			ch.PlotDataSet(string(r.Algorithm), canvas.Float64Point{X: float64(r.Strategy.Start + i), Y: v})
		}
		legend = append(legend, f.st.AlgoStyle(r.Algorithm).Render("━ "+r.Algorithm.Display()))
	}
	ch.DrawDataSets(names)
	p.cache = ch.View() + "\n" + wrapJoin(legend, w)
	p.key = k
	return p.cache
}

// wrapJoin joins items with spaces, wrapping at width.
func wrapJoin(items []string, width int) string {
	var lines []string
	cur := ""
	for _, it := range items {
		if cur != "" && lipgloss.Width(cur)+1+lipgloss.Width(it) > width {
			lines = append(lines, cur)
			cur = ""
		}
		if cur != "" {
			cur += " "
		}
		cur += it
	}
	return strings.Join(append(lines, cur), "\n")
}

// --- 3. decision timelines ---

type timelinePane struct {
	f    *frame
	w, h int
}

func (p *timelinePane) Title() string       { return "Decisions (│ retrain, · keep)" }
func (p *timelinePane) SetSize(w, h int)    { p.w, p.h = w, h }
func (p *timelinePane) SetFrame(f *frame)   { p.f = f }
func (p *timelinePane) Keys() []key.Binding { return nil }

func (p *timelinePane) View() string {
	f := p.f
	if f == nil {
		return ""
	}
	if len(f.rp.results) == 0 {
		return f.st.Dim.Render("starts with the online block")
	}
	off, T := f.s.Scenario.Offline, f.s.Scenario.Batches
	labelW := 14
	cols := max(p.w-4-labelW, 5)
	n := T - off
	var lines []string
	for _, r := range f.rp.results {
		if !slices.Contains(f.visible, r.Algorithm) {
			continue
		}
		marks := make([]rune, min(cols, n))
		for i := range marks {
			marks[i] = ' '
		}
		for i := range r.Strategy.Model {
			x := i * len(marks) / n
			if marks[x] == ' ' {
				marks[x] = '·'
			}
		}
		for _, t := range r.Strategy.Retrains {
			marks[(t-off)*len(marks)/n] = '│'
		}
		name := r.Algorithm.Display()
		if r.Algorithm == f.selected {
			name = "▶" + name
		}
		row := f.st.AlgoStyle(r.Algorithm).Render(fmt.Sprintf("%-*s", labelW, name)) + colorRetrains(f.st, string(marks))
		lines = append(lines, row)
	}
	return strings.Join(lines, "\n")
}

func colorRetrains(st *Styles, s string) string {
	return strings.ReplaceAll(s, "│", st.Retrain.Render("│"))
}

// --- 4. the batch ---

type batchPane struct {
	f     *frame
	w, h  int
	keys  keyMap
	key   batchKey
	cache string
}

func (p *batchPane) Title() string {
	if p.f == nil || p.f.pos < 0 {
		return "Batch"
	}
	return fmt.Sprintf("Batch %d: data by class, queries, errors", p.f.pos)
}
func (p *batchPane) SetSize(w, h int)    { p.w, p.h = w, h }
func (p *batchPane) SetFrame(f *frame)   { p.f = f }
func (p *batchPane) Keys() []key.Binding { return []key.Binding{p.keys.Features} }

func (p *batchPane) View() string {
	f := p.f
	if f == nil || f.pos < 0 {
		return ""
	}
	// The model answering this batch's queries: the selected algorithm's model before its
	// decision at pos (the previous batch's model while offline).
	model := max(f.pos-1, 0)
	if r, ok := f.result(f.selected); ok {
		if i := f.pos - r.Strategy.Start; i > 0 {
			model = r.Strategy.Model[i-1]
		}
	}
	// The scatter depends only on these; regenerating the batch on every frame would be wasted.
	k := batchKey{f.s, f.pos, model, f.pair, p.w, p.h}
	if k == p.key && p.cache != "" {
		return p.cache
	}
	p.cache, p.key = p.draw(model), k
	return p.cache
}

// batchKey is what the batch pane's drawing depends on.
type batchKey struct {
	s          *Session
	pos, model int
	pair       [2]int
	w, h       int
}

func (p *batchPane) draw(model int) string {
	f := p.f
	b, err := f.s.Stream.Batch(f.pos)
	if err != nil {
		return f.st.Error.Render(err.Error())
	}
	d := b.X.D
	fx, fy := f.pair[0]%d, f.pair[1]%d
	if d == 1 {
		fy = fx
	}
	errs := f.s.Matrix.Errors(model, f.pos)
	w, h := max(p.w-4, 8), max(p.h-4, 4)
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i := range b.X.Len() {
		row := b.X.Row(i)
		xlo, xhi, ylo, yhi = min(xlo, row[fx]), max(xhi, row[fx]), min(ylo, row[fy]), max(yhi, row[fy])
	}
	for i := range b.Q.Len() {
		row := b.Q.Row(i)
		xlo, xhi, ylo, yhi = min(xlo, row[fx]), max(xhi, row[fx]), min(ylo, row[fy]), max(yhi, row[fy])
	}
	grid := make([][]byte, h)
	for i := range grid {
		grid[i] = []byte(strings.Repeat(" ", w))
	}
	place := func(row []float64, c byte, prio func(byte) bool) {
		x := int((row[fx] - xlo) / (xhi - xlo + 1e-12) * float64(w-1))
		y := h - 1 - int((row[fy]-ylo)/(yhi-ylo+1e-12)*float64(h-1))
		if prio(grid[y][x]) {
			grid[y][x] = c
		}
	}
	for i := range b.X.Len() {
		c := byte('.')
		if b.Y[i] == 1 {
			c = 'o'
		}
		place(b.X.Row(i), c, func(g byte) bool { return g == ' ' || (c == 'o' && g == '.') })
	}
	for i := range b.X.Len() {
		if errs.N > i && errs.Get(i) {
			place(b.X.Row(i), 'x', func(g byte) bool { return g != '+' })
		}
	}
	for i := range b.Q.Len() {
		place(b.Q.Row(i), '+', func(byte) bool { return true })
	}
	var out strings.Builder
	for _, row := range grid {
		for _, c := range row {
			switch c {
			case '.':
				out.WriteString(f.st.Algo["markov"].Render("·"))
			case 'o':
				out.WriteString(f.st.Algo["cara-ct"].Render("•"))
			case 'x':
				out.WriteString(f.st.Retrain.Render("x"))
			case '+':
				out.WriteString(f.st.Bold.Render("+"))
			default:
				out.WriteByte(' ')
			}
		}
		out.WriteByte('\n')
	}
	out.WriteString(f.st.Dim.Render(fmt.Sprintf("x%d →, x%d ↑   · class 0  • class 1  x wrong (M_%d)  + query", fx+1, fy+1, model)))
	return out.String()
}

// --- 5. results ---

type tablePane struct {
	f    *frame
	w, h int
}

func (p *tablePane) Title() string       { return "Results so far (online)" }
func (p *tablePane) SetSize(w, h int)    { p.w, p.h = w, h }
func (p *tablePane) SetFrame(f *frame)   { p.f = f }
func (p *tablePane) Keys() []key.Binding { return nil }

func (p *tablePane) View() string {
	f := p.f
	if f == nil {
		return ""
	}
	var lines []string
	// Warnings first: a small pane cuts its last lines, and these say when the numbers below
	// stop meaning what they seem to.
	for _, w := range algos.Warnings(f.s.Matrix, f.pos, f.rp.results) {
		lines = append(lines, f.st.Retrain.Render("! "+w))
	}
	if f.rp.tuned != nil {
		t := f.rp.tuned
		period := fmt.Sprintf("period %.0f offset %.0f", t["period"], t["offset"])
		if math.IsInf(t["period"], 1) {
			period = "period +inf (never)"
		}
		lines = append(lines, fmt.Sprintf("tuned offline: theta %s  theta_c %s  %s", fmtInf(t["theta"]), fmtInf(t["theta_c"]), period))
	}
	if len(f.rp.results) == 0 {
		if f.pos < f.s.Scenario.Offline-1 {
			lines = append(lines, f.st.Dim.Render(fmt.Sprintf("offline: the algorithms are tuned on batches 0..%d once they are in", f.s.Scenario.Offline-1)))
		}
		return strings.Join(lines, "\n")
	}
	lines = append(lines, f.st.Bold.Render(fmt.Sprintf("%-14s %-8s %8s %11s %10s %9s", "algorithm", "now", "retrains", "cost", "SCPE %", "query acc")))
	for _, r := range f.rp.results {
		if !slices.Contains(f.visible, r.Algorithm) {
			continue
		}
		now := "keep"
		if slices.Contains(r.Strategy.Retrains, f.pos) || f.pos == r.Strategy.Start {
			now = "RETRAIN"
		}
		// SCPE is undefined when the Oracle's cost is <= 0: the plain gap a - b stands in for it.
		scpe := fmt.Sprintf("gap %+.3g", r.Gap)
		if !math.IsNaN(r.SCPE) {
			scpe = fmt.Sprintf("%.1f", r.SCPE)
		}
		name := r.Algorithm.Display()
		if r.Algorithm == f.selected {
			name = "▶" + name
		}
		row := fmt.Sprintf("%-14s %-8s %8d %11.2f %10s %9s", name, now, len(r.Strategy.Retrains), r.Strategy.Cost(), scpe, fmtAcc(r.QueryAccuracy))
		lines = append(lines, f.st.AlgoStyle(r.Algorithm).Render(row))
	}
	return strings.Join(lines, "\n")
}

func fmtInf(v float64) string {
	if math.IsInf(v, 1) {
		return "+inf"
	}
	return fmt.Sprintf("%.4g", v)
}

// --- 6. about and the last decision ---

type aboutPane struct {
	f    *frame
	w, h int
}

func (p *aboutPane) Title() string       { return "About" }
func (p *aboutPane) SetSize(w, h int)    { p.w, p.h = w, h }
func (p *aboutPane) SetFrame(f *frame)   { p.f = f }
func (p *aboutPane) Keys() []key.Binding { return nil }

func (p *aboutPane) View() string {
	if p.f == nil {
		return ""
	}
	s := p.f.s.Scenario
	return lipgloss.NewStyle().Width(max(p.w-4, 10)).Render(s.Title + "\n" + s.About)
}

// explain says why the selected algorithm did what it did at the current batch.
func explain(f *frame) string {
	r, ok := f.result(f.selected)
	if !ok {
		return ""
	}
	i := f.pos - r.Strategy.Start
	if i < 0 || i >= len(r.Strategy.Reasons) {
		return ""
	}
	why := r.Strategy.Reasons[i]
	verb, rest, found := strings.Cut(why, ": ")
	if !found {
		return fmt.Sprintf("%s at %d: %s", r.Algorithm.Display(), f.pos, why)
	}
	switch verb {
	case "retrain":
		return fmt.Sprintf("%s retrained at %d: %s", r.Algorithm.Display(), f.pos, rest)
	case "keep":
		return fmt.Sprintf("%s kept M_%d at %d: %s", r.Algorithm.Display(), r.Strategy.Model[i], f.pos, rest)
	}
	return fmt.Sprintf("%s at %d: %s", r.Algorithm.Display(), f.pos, why)
}
