package matrix

import (
	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/palette"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
)

// Path marks: where the selected algorithm and the Oracle pass. A retrain sits on the diagonal,
// a keep along the row of the model kept.
const (
	markSelKeep uint8 = 1 << iota
	markSelRetrain
	markOrKeep
	markOrRetrain
	markSel = markSelKeep | markSelRetrain
	markOr  = markOrKeep | markOrRetrain
)

// pathGlyph is the glyph of a cell's marks: ● ━ for the selected algorithm, ○ ─ for the Oracle,
// ◉ ═ where both pass.
func pathGlyph(m uint8) rune {
	retrain := m&(markSelRetrain|markOrRetrain) != 0
	switch {
	case m&markSel != 0 && m&markOr != 0:
		if retrain {
			return '◉'
		}
		return '═'
	case m&markSel != 0:
		if m&markSelRetrain != 0 {
			return '●'
		}
		return '━'
	case m&markOr != 0:
		if m&markOrRetrain != 0 {
			return '○'
		}
		return '─'
	}
	return 0
}

// heatGeom maps matrix cells to screen cells. In block mode every matrix cell is a block of bw x bh
// screen cells. Otherwise the matrix is sampled: screen column x covers the matrix columns
// c0 + [x*nc/cols, (x+1)*nc/cols), and each screen row two half rows, each covering its share of
// the nr matrix rows, so that with cols = 2*rows a square matrix stays square.
type heatGeom struct {
	block      bool
	bw, bh     int
	r0, c0     int // first matrix row and column shown
	nr, nc     int // matrix rows and columns shown
	cols, rows int // screen cells of the heat area
}

// overviewGeom fits the whole T x T matrix in at most w x h screen cells, square: big blocks when
// it is small, one half row per matrix row when that fits, sampled otherwise.
func overviewGeom(T, w, h int) heatGeom {
	g := heatGeom{nr: T, nc: T}
	if T <= 0 || w < 1 || h < 1 {
		return g
	}
	if bh := min(w/(2*T), h/T); bh >= 1 {
		g.block, g.bh, g.bw = true, bh, 2*bh
		g.cols, g.rows = g.bw*T, g.bh*T
		return g
	}
	g.cols = min(T, w, 2*h)
	g.rows = (g.cols + 1) / 2
	if g.cols == T {
		g.rows = (T + 1) / 2
	}
	return g
}

// zoomGeom shows a window of the matrix at one cell per matrix cell, two columns wide so that it
// stays square (or the overview's bigger blocks when the whole matrix fits so).
func zoomGeom(T, w, h, r0, c0 int) heatGeom {
	if g := overviewGeom(T, w, h); g.block {
		return g
	}
	n := min(T, w/2, h)
	g := heatGeom{block: true, bw: 2, bh: 1, nc: n, nr: n}
	g.cols, g.rows = 2*n, n
	g.r0, g.c0 = min(max(r0, 0), T-g.nr), min(max(c0, 0), T-g.nc)
	return g
}

// colRange is the matrix columns under screen column x.
func (g heatGeom) colRange(x int) (int, int) {
	if g.block {
		t := g.c0 + x/g.bw
		return t, t + 1
	}
	a, b := g.c0+x*g.nc/g.cols, g.c0+(x+1)*g.nc/g.cols
	return a, max(b, a+1)
}

// halfRange is the matrix rows under half row hy (0..2*rows-1) in sampled mode.
func (g heatGeom) halfRange(hy int) (int, int) {
	a, b := g.r0+hy*g.nr/(2*g.rows), g.r0+(hy+1)*g.nr/(2*g.rows)
	return a, max(b, a+1)
}

// xOf is the screen column of matrix column t (the middle of its block); -1 when not shown.
func (g heatGeom) xOf(t int) int {
	if t < g.c0 || t >= g.c0+g.nc {
		return -1
	}
	if g.block {
		return (t-g.c0)*g.bw + g.bw/2
	}
	// The column whose range holds t (the ranges round down, so a first guess can be one off).
	x := min((t-g.c0)*g.cols/g.nc, g.cols-1)
	for x+1 < g.cols {
		if a, _ := g.colRange(x + 1); a > t {
			break
		}
		x++
	}
	for x > 0 {
		if a, _ := g.colRange(x); a <= t {
			break
		}
		x--
	}
	return x
}

// yOf is the screen row of matrix row t'; -1 when not shown.
func (g heatGeom) yOf(tp int) int {
	if tp < g.r0 || tp >= g.r0+g.nr {
		return -1
	}
	if g.block {
		return (tp-g.r0)*g.bh + g.bh/2
	}
	hy := min((tp-g.r0)*2*g.rows/g.nr, 2*g.rows-1)
	for hy+1 < 2*g.rows {
		if a, _ := g.halfRange(hy + 1); a > tp {
			break
		}
		hy++
	}
	for hy > 0 {
		if a, _ := g.halfRange(hy); a <= tp {
			break
		}
		hy--
	}
	return hy / 2
}

// cellAt is the matrix cell under screen cell (x, y) (the upper half row's in sampled mode).
func (g heatGeom) cellAt(x, y int) (tp, t int) {
	t0, t1 := g.colRange(x)
	if g.block {
		return g.r0 + y/g.bh, t0
	}
	a, b := g.halfRange(2 * y)
	return a + (b-a-1)/2, t0 + (t1-t0)/2
}

// heatData is what the heat map draws from one frame.
type heatData struct {
	m         *sim.Matrix
	r         algos.RetrainCost
	pos       int
	scale     draw.Scale
	marks     []uint8 // T*T path marks, row-major
	selColour palette.Colour
	cursor    [2]int
	cursorOn  bool
	// provisional: the Oracle's path is the best so far, drawn dashed and faint
	provisional bool
	show        byte // 'A' or 'B' to draw that term of C instead of C (0 or 'C': C)
}

// glyph is a path mark's glyph: the best so far's keeps dashed.
func (d *heatData) glyph(m uint8) rune {
	g := pathGlyph(m)
	if d.provisional && g == '─' {
		return '┄'
	}
	return g
}

func (d *heatData) mark(tp, t int) uint8 {
	if d.marks == nil {
		return 0
	}
	return d.marks[tp*d.m.Batches()+t]
}

// value is what cell (t', t) shows, and whether it shows anything (false below the diagonal and
// for batches not revealed yet, told apart by hidden).
func (d *heatData) value(tp, t int) (v float64, ok, hidden bool) {
	switch {
	case tp > t || t >= d.m.Batches():
		return 0, false, false
	case t > d.pos:
		return 0, false, true
	case tp == t && d.show != 'A' && d.show != 'B':
		return diagonal(d.r, t), true, false
	}
	c := d.m.Cell(tp, t)
	if !c.Done {
		return 0, false, true
	}
	if d.show == 'A' || d.show == 'B' {
		return termOf(c, d.show), true, false
	}
	return c.C(), true, false
}

// buildMarks sets the marks of the Oracle's and the selected algorithm's paths up to pos.
func buildMarks(buf []uint8, T, pos int, sel, oracle *algos.Strategy) []uint8 {
	if cap(buf) < T*T {
		buf = make([]uint8, T*T)
	}
	buf = buf[:T*T]
	clear(buf)
	add := func(s *algos.Strategy, keep, retrain uint8) {
		if s == nil {
			return
		}
		for i, model := range s.Model {
			t := s.Start + i
			if t > pos || model < 0 || model >= T || t >= T {
				break
			}
			if model == t {
				buf[model*T+t] |= retrain
			} else {
				buf[model*T+t] |= keep
			}
		}
	}
	add(oracle, markOrKeep, markOrRetrain)
	add(sel, markSelKeep, markSelRetrain)
	return buf
}

// drawHeat draws the heat area of geometry g into cv at (x0, y0).
func drawHeat(cv *draw.Canvas, st *draw.Styles, g heatGeom, d *heatData, x0, y0 int) {
	if g.block {
		drawBlocks(cv, st, g, d, x0, y0)
		return
	}
	for y := range g.rows {
		for x := range g.cols {
			r, k := sampledCell(st, g, d, x, y)
			if r != 0 {
				cv.Set(x0+x, y0+y, r, k)
			}
		}
	}
}

// half is what one half of a sampled screen cell shows.
type half struct {
	v          float64
	ok, hidden bool
}

// sampledCell draws screen cell (x, y) of a sampled heat map: the cursor, or a path's glyph over
// the heat, or the two halves' colours (a shade glyph without colours).
func sampledCell(st *draw.Styles, g heatGeom, d *heatData, x, y int) (rune, draw.Ink) {
	t0, t1 := g.colRange(x)
	var m uint8
	cursor := false
	var halves [2]half
	for i := range halves {
		a, b := g.halfRange(2*y + i)
		for tp := a; tp < b; tp++ {
			for t := t0; t < t1; t++ {
				if tp <= t && t <= d.pos {
					m |= d.mark(tp, t)
				}
				cursor = cursor || (d.cursorOn && d.cursor == [2]int{tp, t})
			}
		}
		// The representative cell: the diagonal's where the region holds a piece of it (so R
		// stays a line however the matrix is sampled), else the middle one.
		tp, t := a+(b-a-1)/2, t0+(t1-t0)/2
		if lo, hi := max(a, t0), min(b, t1); lo < hi {
			tp, t = lo, lo
		}
		h := &halves[i]
		h.v, h.ok, h.hidden = d.value(tp, t)
	}
	top, bot := halves[0], halves[1]
	shown := top
	if !top.ok {
		shown = bot
	}
	s := d.scale.Step(shown.v)
	var bg palette.Colour
	if shown.ok {
		bg = draw.StepColour(s)
	}
	switch {
	case cursor:
		return '◆', cursorInk(st, bg, shown.ok, s)
	case m != 0:
		return d.glyph(m), pathInk(st, d, m, bg)
	case !top.ok && !bot.ok:
		// Batches not revealed yet: faint dots (blank in shade glyphs, where a dot is the scale's
		// lowest step).
		if (top.hidden || bot.hidden) && !st.Glyphs {
			return '·', draw.Ink{FG: palette.Hidden}
		}
		return 0, draw.Ink{}
	case st.Glyphs:
		return draw.StepGlyph(s), draw.InkOf(draw.StepColour(s))
	case top.ok && bot.ok:
		tc, bc := draw.StepColour(s), draw.StepColour(d.scale.Step(bot.v))
		if tc == bc {
			// A full block: a half block whose two halves match is drawn by some renderers as a
			// bar over the text that follows.
			return '█', draw.Ink{FG: tc}
		}
		return '▀', draw.Ink{FG: tc, BG: bc}
	case top.ok:
		return '▀', draw.Ink{FG: bg}
	}
	return '▄', draw.Ink{FG: bg}
}

// pathInk is the ink of a path glyph: the selected algorithm's colour (also where both pass), or
// the Oracle's, over the heat.
func pathInk(st *draw.Styles, d *heatData, m uint8, bg palette.Colour) draw.Ink {
	k := draw.Ink{FG: palette.Algo("oracle"), BG: bg, Faint: d.provisional}
	if m&markSel != 0 {
		k = draw.Ink{FG: d.selColour, BG: bg, Bold: true}
	}
	if st.Glyphs {
		k.BG = palette.Colour{}
	}
	return k
}

// cursorInk draws the cursor white on dark cells and black on light ones.
func cursorInk(st *draw.Styles, bg palette.Colour, ok bool, s int) draw.Ink {
	k := draw.Ink{FG: palette.Cursor, BG: bg, Bold: true}
	if ok && s >= 6 {
		k.FG = palette.Colour{Hex: "#000000", X256: 16, X16: 0}
	}
	if st.Glyphs {
		k.BG = palette.Colour{}
	}
	return k
}

// drawBlocks draws every shown cell as a block: filled with its colour (or shade), its value in
// the middle when the block is wide enough, a path mark over it: ━ across the block for a keep,
// ● in the middle for a retrain with ━ to the right when the next batch keeps that model.
func drawBlocks(cv *draw.Canvas, st *draw.Styles, g heatGeom, d *heatData, x0, y0 int) {
	for i := range g.nr {
		for j := range g.nc {
			drawBlock(cv, st, g, d, g.r0+i, g.c0+j, x0+j*g.bw, y0+i*g.bh)
		}
	}
}

// drawBlock draws cell (t', t) as the block whose top-left corner is (bx, by).
func drawBlock(cv *draw.Canvas, st *draw.Styles, g heatGeom, d *heatData, tp, t, bx, by int) {
	v, ok, hidden := d.value(tp, t)
	if !ok {
		if hidden && !st.Glyphs {
			cv.Set(bx+g.bw/2, by+g.bh/2, '·', draw.Ink{FG: palette.Hidden})
		}
		return
	}
	s := d.scale.Step(v)
	bg := draw.StepColour(s)
	fill, r := draw.Ink{BG: bg}, ' '
	if st.Glyphs {
		fill, r = draw.InkOf(bg), draw.StepGlyph(s)
	}
	for yy := range g.bh {
		for xx := range g.bw {
			cv.Set(bx+xx, by+yy, r, fill)
		}
	}
	cy := by + g.bh/2
	m := uint8(0)
	if t <= d.pos {
		m = d.mark(tp, t)
	}
	if m != 0 {
		drawBlockMark(cv, st, g, d, m, tp, t, bx, cy, bg)
	}
	// The value, where the block has room for it beside or below the mark.
	if text, ty := draw.Short(v), cy+boolInt(m != 0); g.bw >= len(text)+2 && ty < by+g.bh {
		cv.Text(bx+(g.bw-len(text))/2, ty, text, valueInk(st, s, bg))
	}
	if d.cursorOn && d.cursor == [2]int{tp, t} {
		k := cursorInk(st, bg, true, s)
		if g.bw >= 2 {
			cv.Set(bx, cy, '[', k)
			cv.Set(bx+g.bw-1, cy, ']', k)
		} else {
			cv.Set(bx+g.bw/2, cy, '◆', k)
		}
	}
}

// drawBlockMark draws a path across a block's middle row: a keep all across, a retrain in the
// middle with the keep of the next batch leaving it to the right.
func drawBlockMark(cv *draw.Canvas, st *draw.Styles, g heatGeom, d *heatData, m uint8, tp, t, bx, cy int, bg palette.Colour) {
	k := pathInk(st, d, m, bg)
	if tp != t {
		for xx := bx; xx < bx+g.bw; xx++ {
			cv.Set(xx, cy, d.glyph(m), k)
		}
		return
	}
	cx := bx + g.bw/2
	if g.bw >= 3 && t+1 < d.m.Batches() && t+1 <= d.pos {
		if next := d.mark(tp, t+1); next != 0 {
			for xx := cx + 1; xx < bx+g.bw; xx++ {
				cv.Set(xx, cy, d.glyph(next), pathInk(st, d, next, bg))
			}
		}
	}
	cv.Set(cx, cy, d.glyph(m), k)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// valueInk writes a value over its cell: black on light steps, light on dark ones.
func valueInk(st *draw.Styles, s int, bg palette.Colour) draw.Ink {
	if st.Glyphs {
		return draw.Ink{FG: palette.Query}
	}
	if s >= 5 {
		return draw.Ink{FG: palette.Colour{Hex: "#000000", X256: 16, X16: 0}, BG: bg}
	}
	return draw.Ink{FG: palette.Colour{Hex: "#E4E4E4", X256: 254, X16: 15}, BG: bg}
}
