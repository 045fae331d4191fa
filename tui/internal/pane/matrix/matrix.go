package matrix

import (
	"fmt"
	"math"
	"strings"
	"sync/atomic"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/palette"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// Pane is pane 1, the cost matrix as the paper's figure 4a: the upper triangle of C as a
// heat map on one colour scale fixed for the run, R on the diagonal, the Oracle's and the
// selected algorithm's paths drawn over it (a retrain on the diagonal, a keep along the row of
// the model kept), batch ticks on both axes, the offline block and the known drifts marked above.
// Maximised, it zooms to one screen cell per matrix cell around a cursor that reads out the cell.
type Pane struct {
	keys    KeyMap
	win     [2]int // the zoom window's first row and column
	winSet  bool
	marks   []uint8
	cv      atomic.Pointer[draw.Canvas] // the last drawing's, blanked for the next (unless let go: draw.Blank)
	sampled [2]int                      // batches per drawn cell across and down when the overview samples (0: it does not)
	show    byte                        // 'A', 'B' or 'C' (0 is C): which of C = A − B the heat map shows
	key     matrixKey
	cache   string
	// Render, when set, renders the heat map's canvas in place of its own renderer: the benchmark
	// that measures ntcharts' View for the heat map sets it.
	Render func(*draw.Canvas, *draw.Styles) []string
}

// New returns the cost matrix's pane, showing C.
func New() *Pane { return &Pane{keys: NewKeyMap()} }

// Help is the full help's group of the pane's keys.
func (p *Pane) Help() keys.Group { return p.keys.Group() }

// Where is where a matrix pane draws a frame in its inside: the rows of the column labels, of the
// heat and of the readout, the gutter of the row labels left of the heat, and each batch's column
// and model's row in the heat. The tests read the screen with it.
type Where struct {
	LabelsY, HeatY, ReadoutY, Gutter, Rows int
	g                                      heatGeom
}

// X is the heat's column of batch t; -1 when it is not in view.
func (w Where) X(t int) int { return w.g.xOf(t) }

// Y is the heat's row of model t'; -1 when it is not in view.
func (w Where) Y(tp int) int { return w.g.yOf(tp) }

// Cell is the matrix cell under (x, y) of the heat.
func (w Where) Cell(x, y int) (tp, t int) { return w.g.cellAt(x, y) }

// Where is where the pane draws frame f in a w x h inside.
func (p *Pane) Where(f *pane.Frame, w, h int) Where {
	l := p.layout(f, w, h)
	return Where{LabelsY: l.labelsY, HeatY: l.heatY, ReadoutY: l.readoutY, Gutter: l.gw, Rows: l.g.rows, g: l.g}
}

// Canvas is the last drawing's canvas: what each cell was drawn in.
func (p *Pane) Canvas() *draw.Canvas { return p.cv.Load() }

// Value is what cell (t', t) shows in frame f: the value, and whether it shows one (false below the
// diagonal and for batches not revealed yet, told apart by hidden).
func (p *Pane) Value(f *pane.Frame, tp, t int) (v float64, ok, hidden bool) {
	return p.data(f).value(tp, t)
}

// matrixKey is what the matrix pane's drawing depends on.
type matrixKey struct {
	view             pane.ViewKey
	heat             draw.Scale
	cursorOn, zoomed bool
	cur, win         [2]int
	show             byte
	computed         int // A's and B's scales grow with the columns computed
}

func (p *Pane) Title(f *pane.Frame) string {
	what := "Cost matrix C[t', t]"
	switch p.show {
	case 'A':
		what = "A[t', t] = QDM(Q_t, D_t, M_t'), the first term of C"
	case 'B':
		what = "B[t', t] = QDM(Q_t, D_t', M_t'), the term C subtracts"
	}
	if f.Zoomed {
		return what + ", zoomed (arrows move the cursor, esc back)"
	}
	if p.show == 'A' || p.show == 'B' {
		return what + " (C: back to C)"
	}
	return what + ": row t' model, column t batch"
}

// term is the letter of the matrix shown: A, B or C.
func (p *Pane) term() string {
	if p.show == 'A' || p.show == 'B' {
		return string(p.show)
	}
	return "C"
}

// Legend placements.
const (
	legendRight = iota
	legendTriangle
	legendBelow
	legendNone
)

// matrixLayout is where everything of the pane goes in a w x h inside.
type matrixLayout struct {
	g              heatGeom
	gw             int // the row labels' gutter
	heatY          int // first row of the heat
	legend, lx, ly int
	legendLines    []string // the legend below the heat
	readoutY       int
	labelsY, axisY int
	offY           int // the offline/online row
}

const matrixTop = 3 // rows above the heat: offline and drifts, column labels, the axis

// Size: the pane wants the box width that makes the heat square in the height it gets; the layout
// asks through width.
func (p *Pane) Size(f *pane.Frame, w int) (want, least int) { return 0, 12 }

// Width is the box width that shows the heat map square and as large as a box of height h allows.
func (p *Pane) Width(f *pane.Frame, h int) int {
	T := f.M.Batches()
	gw := len(draw.Itoa(T-1)) + 1
	inner := h - 2 - matrixTop - 1
	g := overviewGeom(T, 1<<20, inner)
	return g.cols + gw + 4 + 1
}

// MinWidth is the narrowest box that still draws the matrix well: blocks of 8 columns (room for a
// value) for a small matrix, about 45 columns of heat for a large one.
func (p *Pane) MinWidth(f *pane.Frame) int {
	T := f.M.Batches()
	gw := len(draw.Itoa(T-1)) + 1
	if T <= 8 {
		return 8*T + gw + 5
	}
	return min(45, T) + gw + 5
}

func (p *Pane) layout(f *pane.Frame, w, h int) matrixLayout {
	T := f.M.Batches()
	l := matrixLayout{gw: len(draw.Itoa(T-1)) + 1, offY: 0, labelsY: 1, axisY: 2, heatY: matrixTop}
	l.readoutY = h - 1
	heatH := h - matrixTop - 1
	heatW := w - l.gw
	geom := func(hh int) heatGeom {
		if f.Zoomed {
			return zoomGeom(T, heatW, hh, p.win[0], p.win[1])
		}
		return overviewGeom(T, heatW, hh)
	}
	l.g = geom(heatH)
	tall := p.Legend(f)
	tallW := 0
	for _, s := range tall {
		tallW = max(tallW, len([]rune(draw.StripANSI(s))))
	}
	switch {
	case heatW-l.g.cols-2 >= tallW:
		l.legend, l.lx, l.ly = legendRight, l.gw+l.g.cols+2, l.heatY
	case !f.Zoomed && fitsTriangle(l.g, len(tall), tallW+1):
		l.legend, l.lx, l.ly = legendTriangle, l.gw, l.heatY+l.g.rows-len(tall)
	case f.Split:
		// Side by side, the two matrices share one scale and the table below explains the paths:
		// the heat keeps the room a legend below would take.
		l.legend = legendNone
	default:
		l.legend = legendBelow
		l.legendLines = p.legendBelow(f, w-l.gw)
		l.g = geom(heatH - len(l.legendLines))
		l.lx, l.ly = l.gw, l.heatY+l.g.rows
	}
	return l
}

// fitsTriangle reports whether a block of n lines of width w fits in the empty lower-left
// triangle of the heat, at its bottom.
func fitsTriangle(g heatGeom, n, w int) bool {
	if g.rows < n+2 {
		return false
	}
	for y := g.rows - n; y < g.rows; y++ {
		var tp int
		if g.block {
			tp = g.r0 + y/g.bh
		} else {
			tp, _ = g.halfRange(2 * y)
		}
		// The first screen column holding a cell on or above the diagonal of row t'.
		x := 0
		for x < g.cols {
			if _, t1 := g.colRange(x); t1-1 >= tp {
				break
			}
			x++
		}
		if x < w {
			return false
		}
	}
	return true
}

// Legend is the legend as a column: colour bar, its ticks, one line per path, the marks.
func (p *Pane) Legend(f *pane.Frame) []string {
	st := f.St
	// R is marked on the bar (the diagonal's colour follows it); its value joins the marks when
	// that makes the legend no wider.
	r := diagonal(f.R, max(f.Pos, 0))
	heat := f.Heat
	if p.term() != "C" {
		heat, r = termScale(f.M, f.Computed, p.show), math.NaN() // no R on A's or B's scale
	}
	bar, labels := colourBar(st, heat, r)
	lines := []string{bar.String(st) + st.Dim.Render(" "+p.term()), labels.String(st)}
	lines = append(lines, p.pathLegend(f)...)
	marks := "▼ now"
	if len(f.Drifts) > 0 { // real data know no drifts: no mark to explain
		marks += "  ≋ known drift"
	}
	wide := 0
	for _, l := range lines {
		wide = max(wide, draw.Width(l))
	}
	rText := "R " + draw.Num(r)
	if r > f.Heat.Top() {
		rText += "▸"
	}
	if draw.Width(marks)+2+draw.Width(rText) <= wide && p.term() == "C" {
		marks += "  " + rText
	}
	lines = append(lines, st.Dim.Render(marks))
	if !f.Heat.Final {
		lines = append(lines, st.Dim.Render("scale grows while computing"))
	}
	return lines
}

// legendBelow is the legend in lines of at most w columns: the bar and its ticks, with the paths
// and marks beside them when they fit, under them otherwise.
func (p *Pane) legendBelow(f *pane.Frame, w int) []string {
	tall := p.Legend(f)
	bar, ticks := tall[0], tall[1]
	paths := p.pathLegend(f)
	marks := tall[2+len(paths):]
	barW := max(draw.Width(bar), draw.Width(ticks)) + 2
	beside := draw.PackLine(paths, w-barW)
	if len(beside) == 1 && len(marks) > 0 && draw.Width(strings.Join(marks, "  ")) <= w-barW {
		return []string{bar + draw.Pad(barW-draw.Width(bar)) + beside[0], ticks + draw.Pad(barW-draw.Width(ticks)) + strings.Join(marks, "  ")}
	}
	out := []string{bar, ticks}
	out = append(out, draw.PackLine(paths, w)...)
	return append(out, draw.PackLine(marks, w)...)
}

// pathLegend has one entry per path drawn.
func (p *Pane) pathLegend(f *pane.Frame) []string {
	st := f.St
	or := st.AlgoStyle("oracle").Render("○─ Oracle")
	if f.RP.Provisional {
		or = st.AlgoStyle("oracle").Faint(true).Render("○┄ " + pane.BestSoFar)
	}
	if f.Selected == "oracle" {
		return []string{or}
	}
	sel := st.AlgoStyle(f.Selected).Bold(true)
	return []string{
		sel.Render("●━ " + f.Selected.Display()),
		or,
		sel.Render("◉═ both"),
	}
}

// data gathers what the heat map draws.
func (p *Pane) data(f *pane.Frame) *heatData {
	var sel, or *algos.Strategy
	if r, ok := f.Result("oracle"); ok {
		or = &r.Strategy
	}
	if f.Selected != "oracle" {
		if r, ok := f.Result(f.Selected); ok {
			sel = &r.Strategy
		}
	}
	if sel == nil && f.Selected == "oracle" {
		// The Oracle alone: drawn as the Oracle.
		sel = nil
	}
	p.marks = buildMarks(p.marks, f.M.Batches(), f.Pos, sel, or)
	scale := f.Heat
	if p.term() != "C" {
		scale = termScale(f.M, f.Computed, p.show)
	}
	return &heatData{m: f.M, r: f.R, pos: f.Pos, scale: scale, marks: p.marks, provisional: f.RP.Provisional, show: p.show,
		selColour: palette.Screen(f.Selected), cursor: f.Cursor.At, cursorOn: f.Cursor.On || f.Zoomed}
}

func (p *Pane) View(f *pane.Frame, w, h int) string {
	if f.M == nil || w < 8 || h < 6 {
		return ""
	}
	st := f.St
	l := p.layout(f, w, h)
	if f.Zoomed {
		p.follow(&l, f, w, h)
	}
	p.sampled = [2]int{}
	if g := l.g; !g.block && g.cols > 0 && g.rows > 0 {
		p.sampled = [2]int{(g.nc + g.cols - 1) / g.cols, (g.nr + 2*g.rows - 1) / (2 * g.rows)}
	}
	k := matrixKey{f.Key(w, h, 0), f.Heat, f.Cursor.On, f.Zoomed, f.Cursor.At, p.win, p.show, f.Computed}
	if k == p.key && p.cache != "" {
		return p.cache
	}
	cv := draw.BlankGrid(&p.cv, w, h)
	d := p.data(f)
	drawHeat(cv, st, l.g, d, l.gw, l.heatY)
	p.drawAxes(cv, f, l)
	render := (*draw.Canvas).Lines
	if p.Render != nil {
		render = p.Render
	}
	out := render(cv, st)
	cv.Keep(&p.cv)
	// The legend is styled text: it is laid over the canvas's lines.
	p.cache, p.key = strings.Join(p.overlayLegend(out, f, l, w), "\n"), k
	return p.cache
}

// follow moves the zoom window so the cursor stays in it.
func (p *Pane) follow(l *matrixLayout, f *pane.Frame, w, h int) {
	g := l.g
	if g.bw != 2 || g.bh != 1 || g.nc == f.M.Batches() {
		return
	}
	r0, c0 := p.win[0], p.win[1]
	tp, t := f.Cursor.At[0], f.Cursor.At[1]
	if !p.winSet {
		c0 = max(f.Pos, 0) + 3 - g.nc
		r0 = max(f.Pos, 0) + 2 - g.nr
		p.winSet = true
	}
	c0 = min(max(c0, t-g.nc+1), t)
	r0 = min(max(r0, tp-g.nr+1), tp)
	p.win = [2]int{r0, c0}
	*l = p.layout(f, w, h)
}

// CursorOn is the cursor of frame f turned on: where it is when it is on, else on the selected
// algorithm's model at the current batch.
func CursorOn(f *pane.Frame) room.Cursor {
	if f.Cursor.On {
		return f.Cursor
	}
	t := max(f.Pos, 0)
	tp := max(t-1, 0)
	if r, ok := f.Result(f.Selected); ok {
		if i := t - r.Strategy.Start; i >= 0 && i < len(r.Strategy.Model) {
			tp = r.Strategy.Model[i]
		}
	}
	return room.Cursor{On: true, At: [2]int{tp, t}}
}

// drawAxes draws the offline bracket and drift marks, the column labels and axis, the row labels
// and the readout.
func (p *Pane) drawAxes(cv *draw.Canvas, f *pane.Frame, l matrixLayout) {
	drawBlocksRow(cv, f, l)
	drawColumnAxis(cv, f, l)
	drawRowAxis(cv, l)
	if f.Cursor.On || f.Zoomed {
		p.drawCursorLabels(cv, f, l)
	}
}

// drawBlocksRow brackets the offline and online blocks over their columns.
func drawBlocksRow(cv *draw.Canvas, f *pane.Frame, l matrixLayout) {
	g, x0, dim := l.g, l.gw, draw.InkOf(palette.Axis)
	bracket := func(from, to int, word string) {
		from, to = max(from, g.c0), min(to, g.c0+g.nc-1)
		if from > to {
			return
		}
		a, b := colStart(g, from), colEnd(g, to)
		for x := a; x <= b; x++ {
			cv.Set(x0+x, l.offY, '─', dim)
		}
		cv.Set(x0+a, l.offY, '╶', dim)
		cv.Set(x0+b, l.offY, '╴', dim)
		if b-a+1 >= len(word)+4 {
			cv.Text(x0+a+(b-a+1-len(word))/2, l.offY, " "+word+" ", dim)
		}
	}
	off := f.Scen.Offline
	bracket(0, off-1, "offline")
	bracket(off, f.M.Batches()-1, "online")
	// Where both blocks share a screen column, the border goes there.
	if x := g.xOf(off); x >= 0 && colStart(g, off) == colEnd(g, off-1) {
		cv.Set(x0+x, l.offY, '┼', dim)
	}
}

// drawColumnAxis draws the batch ticks and labels over the columns, the known drifts on the axis
// (over the ticks they fall on) and the current batch.
func drawColumnAxis(cv *draw.Canvas, f *pane.Frame, l matrixLayout) {
	g, x0, dim := l.g, l.gw, draw.InkOf(palette.Axis)
	step := draw.BatchStep(g.nc, g.cols)
	if g.block && g.bw >= 2 {
		step = draw.BatchStep(g.nc, g.cols*2)
	}
	for x := range g.cols {
		cv.Set(x0+x, l.axisY, '─', dim)
	}
	next := 0
	for t := (g.c0 + step - 1) / step * step; t < g.c0+g.nc; t += step {
		x := g.xOf(t)
		cv.Set(x0+x, l.axisY, '┬', dim)
		label := draw.Itoa(t)
		if lx := x - (len(label)-1)/2; lx >= next && lx+len(label) <= g.cols {
			cv.Text(x0+lx, l.labelsY, label, dim)
			next = lx + len(label) + 1
		}
	}
	mark := draw.Ink{FG: palette.Query, Bold: true}
	for _, d := range f.Drifts {
		for t := d.From; t <= d.To; t++ {
			if x := g.xOf(t); x >= 0 {
				cv.Set(x0+x, l.axisY, '≋', mark)
			}
		}
	}
	if x := g.xOf(f.Pos); x >= 0 {
		cv.Set(x0+x, l.axisY, '▼', mark)
	}
}

// drawRowAxis draws the model ticks and labels left of the rows, each on its own row.
func drawRowAxis(cv *draw.Canvas, l matrixLayout) {
	g, x0, dim := l.g, l.gw, draw.InkOf(palette.Axis)
	for y := range g.rows {
		cv.Set(x0-1, l.heatY+y, '│', dim)
	}
	cv.Set(x0-1, l.axisY, '┌', dim)
	step := draw.BatchStep(g.nr, g.rows*2)
	lastY := -2
	for tp := (g.r0 + step - 1) / step * step; tp < g.r0+g.nr; tp += step {
		if y := g.yOf(tp); y > lastY {
			label := draw.Itoa(tp)
			cv.Set(x0-1, l.heatY+y, '┤', dim)
			cv.Text(x0-1-len(label), l.heatY+y, label, dim)
			lastY = y
		}
	}
}

// drawCursorLabels names the cursor's row and column on the axes, highlighted. Each replaces the
// tick labels it would touch whole: a label cut short reads as another number (the "1" of "10"
// beside the cursor's "9" reads "19"), and neither ever reaches the row axis or the pane's edge.
func (p *Pane) drawCursorLabels(cv *draw.Canvas, f *pane.Frame, l matrixLayout) {
	g, x0 := l.g, l.gw
	hl := draw.Ink{FG: palette.Colour{Hex: "#000000", X256: 16, X16: 0}, BG: palette.Cursor, Bold: true}
	if f.St.Mono {
		hl = draw.Ink{}
	}
	if y := g.yOf(f.Cursor.At[0]); y >= 0 {
		// The whole gutter left of the axis is the cursor's row's: its label, right-aligned, and a
		// tick that points at the row.
		label := draw.Itoa(f.Cursor.At[0])
		cv.Text(0, l.heatY+y, strings.Repeat(" ", x0-1), draw.Ink{})
		if len(label) <= x0-1 {
			cv.Text(x0-1-len(label), l.heatY+y, label, hl)
		}
		cv.Set(x0-1, l.heatY+y, '┤', draw.InkOf(palette.Axis))
	}
	if x := g.xOf(f.Cursor.At[1]); x >= 0 {
		// Cleared a column either side, so it does not run into a tick's label.
		label := draw.Itoa(f.Cursor.At[1])
		lx := x0 + min(max(x-(len(label)-1)/2, 0), g.cols-len(label))
		clearWords(cv, l.labelsY, lx-1, lx+len(label)+1)
		cv.Text(lx, l.labelsY, label, hl)
	}
}

// clearWords blanks row y from x0 to x1 (exclusive), widened to whole words: a word the range
// would cut goes entirely.
func clearWords(cv *draw.Canvas, y, x0, x1 int) {
	x0, x1 = max(x0, 0), min(x1, cv.Width())
	inWord := func(x int) bool { r := cv.RuneAt(x, y); return r != ' ' && r != 0 }
	for x0 > 0 && inWord(x0) && inWord(x0-1) {
		x0--
	}
	for x1 < cv.Width() && inWord(x1-1) && inWord(x1) {
		x1++
	}
	for x := x0; x < x1; x++ {
		cv.Set(x, y, ' ', draw.Ink{})
	}
}

// colStart and colEnd are the first and last screen columns of matrix column t.
func colStart(g heatGeom, t int) int {
	if g.block {
		return (t - g.c0) * g.bw
	}
	return g.xOf(t)
}

func colEnd(g heatGeom, t int) int {
	if g.block {
		return (t-g.c0)*g.bw + g.bw - 1
	}
	x := g.xOf(t)
	for x+1 < g.cols {
		if a, _ := g.colRange(x + 1); a > t {
			break
		}
		x++
	}
	return x
}

// overlayLegend lays the legend's lines and the readout over the rendered canvas lines.
func (p *Pane) overlayLegend(out []string, f *pane.Frame, l matrixLayout, w int) []string {
	tall := p.Legend(f)
	switch l.legend {
	case legendRight, legendTriangle:
		for i, s := range tall {
			if y := l.ly + i; y >= 0 && y < len(out) {
				out[y] = draw.OverlayAt(out[y], s, l.lx)
			}
		}
	case legendBelow:
		for i, s := range l.legendLines {
			if y := l.ly + i; y < l.readoutY {
				out[y] = draw.OverlayAt(out[y], s, l.lx)
			}
		}
	}
	if l.readoutY >= 0 && l.readoutY < len(out) {
		out[l.readoutY] = draw.Truncate(p.Readout(f), w)
	}
	return out
}

// Readout names the cursor's cell, or says how to get a cursor.
func (p *Pane) Readout(f *pane.Frame) string {
	st := f.St
	if f.Split {
		return st.Dim.Render(fmt.Sprintf("▼ now t=%d   W back to the panes", max(f.Pos, 0)))
	}
	if !(f.Cursor.On || f.Zoomed) {
		if s := p.sampled; s[0] > 1 || s[1] > 1 {
			// Say so: a cell of this overview is several cells of C.
			return st.Dim.Render(fmt.Sprintf("▼ now t=%d   1 cell = %d×%d batches: z for detail · m cursor", max(f.Pos, 0), s[0], s[1]))
		}
		return st.Dim.Render(fmt.Sprintf("▼ now t=%d   m cursor · z zoom · click a cell", max(f.Pos, 0)))
	}
	tp, t := f.Cursor.At[0], f.Cursor.At[1]
	switch {
	case t > f.Pos:
		return fmt.Sprintf("t'=%d t=%d: not revealed yet", tp, t)
	case tp == t:
		return fmt.Sprintf("t'=t=%d  R %s: retraining at %d costs this%s", t, draw.Num(diagonal(f.R, t)), t, p.onPath(f, tp, t))
	}
	c := f.M.Cell(tp, t)
	if !c.Done {
		return fmt.Sprintf("t'=%d t=%d: not computed yet", tp, t)
	}
	return fmt.Sprintf("t'=%d t=%d  C %s = A %s − B %s  err %s  q.acc %s%s", tp, t, draw.Num(c.C()), draw.Num(c.A), draw.Num(c.B),
		draw.Frac(c.ErrorRate), draw.Frac(c.QueryAccuracy), p.onPath(f, tp, t))
}

// onPath says which paths pass through a cell.
func (p *Pane) onPath(f *pane.Frame, tp, t int) string {
	var who []string
	for _, name := range []algos.Name{f.Selected, algos.NameOracle} {
		r, ok := f.Result(name)
		if !ok {
			continue
		}
		i := t - r.Strategy.Start
		if i >= 0 && i < len(r.Strategy.Model) && r.Strategy.Model[i] == tp && !containsStr(who, f.Label(name)) {
			who = append(who, f.Label(name))
		}
	}
	if len(who) == 0 {
		return ""
	}
	verb := "keeps"
	if tp == t {
		verb = "retrains"
	}
	return "  · " + strings.Join(who, ", ") + " " + verb + " here"
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// KeyMap are the matrix pane's keys: the cell cursor and its moves (only the arrows move it
// sideways, so h and l still step), and which of C = A − B the heat map shows.
type KeyMap struct {
	Cursor, Up, Down, Left, Right key.Binding
	ShowA, ShowB, ShowC           key.Binding // the help names the three as ShowA's "A/B/C"
}

func NewKeyMap() KeyMap {
	return KeyMap{
		Cursor: keys.Bind([]string{"m"}, "m", "cell cursor"),
		Up:     keys.Bind([]string{"up", "k"}, "↑↓←→", "move cursor"),
		Down:   keys.Bind([]string{"down", "j"}, "↓", "cursor down"),
		Left:   keys.Bind([]string{"left"}, "←", "cursor left"),
		Right:  keys.Bind([]string{"right"}, "→", "cursor right"),
		ShowA:  keys.Bind([]string{"A"}, "A/B/C", "show A, B or C = A − B"),
		ShowB:  keys.Bind([]string{"B"}, "B", "show B"),
		ShowC:  keys.Bind([]string{"C"}, "C", "show C"),
	}
}

func (p *Pane) Enable(m keys.Mode) { p.keys.Enable(m) }

// Enable turns the pane's keys on where the panes' keys work (keys.Mode.Panes).
func (k *KeyMap) Enable(m keys.Mode) {
	keys.Enable(m.Panes(), &k.Cursor, &k.Up, &k.Down, &k.Left, &k.Right, &k.ShowA, &k.ShowB, &k.ShowC)
}

// Group is the full help's group of the pane's keys.
func (k *KeyMap) Group() keys.Group {
	return keys.Group{Title: "1 Cost matrix", Keys: []key.Binding{k.Cursor, k.Up, k.ShowA}}
}

func (p *Pane) Keys(f *pane.Frame, focused bool) []key.Binding {
	k := p.keys
	if focused && (f.Cursor.On || f.Zoomed) {
		return []key.Binding{k.Up, k.Cursor, k.ShowA}
	}
	return []key.Binding{k.Cursor, k.ShowA}
}

// Key: A, B and C choose the term shown; m turns the cursor on and off, the arrows move it (the
// player makes the move: the cursor is its view's, effect.Cursor).
func (p *Pane) Key(msg tea.KeyMsg, f *pane.Frame, focused bool) (effect.Effects, bool) {
	k := p.keys
	for _, s := range []struct {
		b    key.Binding
		term byte
	}{{k.ShowA, 'A'}, {k.ShowB, 'B'}, {k.ShowC, 'C'}} {
		if focused && key.Matches(msg, s.b) {
			p.show = s.term
			return nil, true
		}
	}
	if key.Matches(msg, k.Cursor) {
		c := CursorOn(f)
		if f.Cursor.On {
			c = f.Cursor
			c.On = false
		}
		return effect.Effects{effect.Cursor(c)}, true
	}
	if !focused || !(f.Cursor.On || f.Zoomed) {
		return nil, false
	}
	tp, t := f.Cursor.At[0], f.Cursor.At[1]
	switch {
	case key.Matches(msg, k.Up):
		tp = max(tp-1, 0)
	case key.Matches(msg, k.Down):
		tp = min(tp+1, t)
	case key.Matches(msg, k.Left):
		t = max(t-1, tp)
	case key.Matches(msg, k.Right):
		t = min(t+1, max(f.Pos, 0))
	default:
		return nil, false
	}
	c := f.Cursor
	c.At = [2]int{tp, t}
	return effect.Effects{effect.Cursor(c)}, true
}

// cellAt is where cell (tp, t) of the heat map is drawn when the matrix's box is r, in body
// coordinates; false when the cell is not in view.
func (p *Pane) cellAt(f *pane.Frame, r pane.Rect, tp, t int) (x, y int, ok bool) {
	l := p.layout(f, r.W-4, r.H-2)
	cx, cy := l.g.xOf(t), l.g.yOf(tp)
	if cx < 0 || cy < 0 {
		return 0, 0, false
	}
	return r.X + 2 + l.gw + cx, r.Y + 1 + l.heatY + cy, true
}

// Avoid is what a callout over the matrix's box r should not cover, in body coordinates: the cell
// under the cursor, with a margin so that its row and column labels show too, and the readout
// under the matrix, which gives the cell's value a stop's text quotes.
func (p *Pane) Avoid(f *pane.Frame, r pane.Rect) []pane.Rect {
	if !f.Cursor.On && !f.Zoomed {
		return nil
	}
	var out []pane.Rect
	if x, y, ok := p.cellAt(f, r, f.Cursor.At[0], f.Cursor.At[1]); ok {
		out = append(out, pane.Rect{X: x - 6, Y: y - 2, W: 13, H: 5, Shown: true})
	}
	ml := p.layout(f, r.W-4, r.H-2)
	return append(out, pane.Rect{X: r.X, Y: r.Y + 1 + ml.readoutY, W: min(r.W, 40), H: 1, Shown: true})
}

// Click puts the cursor on the clicked cell.
func (p *Pane) Click(f *pane.Frame, x, y, w, h int) effect.Effects {
	l := p.layout(f, w, h)
	hx, hy := x-l.gw, y-l.heatY
	if hx < 0 || hy < 0 || hx >= l.g.cols || hy >= l.g.rows {
		return nil
	}
	tp, t := l.g.cellAt(hx, hy)
	if tp > t || t > f.Pos {
		return nil
	}
	return effect.Effects{effect.Cursor{On: true, At: [2]int{tp, t}}}
}
