package draw

import (
	"container/list"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	ntcanvas "github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/canvas/graph"
	"github.com/NimbleMarkets/ntcharts/canvas/runes"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// Canvas is what every pane draws on (the heat map, the cumulative-cost chart, the decisions strip,
// the batch scatter, the colour bar), each cell a rune with its ink beside it. The chart, the
// decisions and the scatter draw on an ntcharts canvas (NewCanvas: its canvas.Model holds the
// runes; braille is drawn with its graph and runes helpers). The heat map and the colour bar draw
// on a grid (NewGrid): the same Canvas with its runes in a plain slice, since a canvas.Model cell
// carries a lipgloss style (about 600 bytes a cell with its ink, 60 on a grid), and the heat map
// is the pane that grows with the terminal: 28 MB a drawing at 500x200 on ntcharts' cells. The
// inks become escape sequences only when the canvas is rendered (String), with the session's
// Styles: a served player's colour depth is its SSH session's, so none can be chosen before.
type Canvas struct {
	w, h  int
	m     *ntcanvas.Model // the runes of an ntcharts canvas; nil on a grid
	runes []rune          // the runes of a grid (0 for an empty cell); nil on an ntcharts canvas
	inks  []Ink
	elem  *list.Element // its place among the canvases kept, while kept (guarded by canvases.mu)
}

// cell is a canvas cell read back: its rune (' ' when empty) and its ink.
type cell struct {
	Rune rune
	Ink  Ink
}

// NewCanvas is a blank w x h ntcharts canvas.
func NewCanvas(w, h int) *Canvas {
	w, h = max(w, 0), max(h, 0)
	m := ntcanvas.New(w, h)
	return &Canvas{w: w, h: h, m: &m, inks: make([]Ink, w*h)}
}

// NewGrid is a blank w x h grid: a Canvas whose runes are a plain slice (see Canvas).
func NewGrid(w, h int) *Canvas {
	w, h = max(w, 0), max(h, 0)
	return &Canvas{w: w, h: h, runes: make([]rune, w*h), inks: make([]Ink, w*h)}
}

// Blank returns a blank w x h canvas for the pane whose canvas slot is last: the one it drew on
// last time when it has that size, else a new one; the pane's Render hands it back to the slot.
// ntcharts' canvas.New allocates a lipgloss style with every cell (560 bytes: about 1 ms and as much
// garbage for a 100x30 pane), where blanking the cells with its Fill takes some 30 µs. A pane kept
// its last canvas for as long as its session lasted (0.8 MB a session at 120x40 for the chart,
// the decisions and the scatter, tens of MB at 500x200, idle or not); now the canvases kept are
// bounded in all (canvasKeep), the least recently drawn let go first, so a room's idle sessions
// keep none and its drawing ones keep theirs. A pane's canvas is drawn by one goroutine at a time.
func Blank(last *atomic.Pointer[Canvas], w, h int) *Canvas { return blank(last, w, h, NewCanvas) }

// BlankGrid is Blank for a pane that draws on a grid (NewGrid).
func BlankGrid(last *atomic.Pointer[Canvas], w, h int) *Canvas { return blank(last, w, h, NewGrid) }

func blank(last *atomic.Pointer[Canvas], w, h int, fresh func(w, h int) *Canvas) *Canvas {
	w, h = max(w, 0), max(h, 0)
	c := last.Swap(nil) // the pane's, not the cache's, while it draws
	canvases.forget(c)
	if c == nil || c.w != w || c.h != h {
		return fresh(w, h)
	}
	if c.m != nil {
		c.m.Fill(ntcanvas.Cell{})
	}
	clear(c.runes)
	clear(c.inks)
	return c
}

// Render writes the canvas (String) and hands it back to the pane's slot, to be reused by its next
// drawing unless the cache lets it go first.
func (c *Canvas) Render(st *Styles, last *atomic.Pointer[Canvas]) string {
	out := c.String(st)
	c.Keep(last)
	return out
}

// Keep hands a canvas drawn and rendered back to its pane's slot (Render does it for a canvas
// rendered whole).
func (c *Canvas) Keep(last *atomic.Pointer[Canvas]) {
	last.Store(c)
	canvases.keep(c, last)
}

// canvasKeep bounds the bytes of the canvases kept between drawings, every session's together:
// about forty sessions' at 120x40. A server counts it once in its budget (CanvasKeep).
const canvasKeep = 32 << 20

// CanvasKeep is what the canvases kept between drawings hold at most, all sessions together.
const CanvasKeep = canvasKeep

// CanvasesKept is what the canvases kept between drawings hold now.
func CanvasesKept() int {
	canvases.mu.Lock()
	defer canvases.mu.Unlock()
	return canvases.bytes
}

// canvases are the canvases kept between drawings, least recently drawn last.
var canvases = canvasCache{order: list.New()}

type canvasCache struct {
	mu    sync.Mutex
	order *list.List // of *kept, the most recently drawn first
	bytes int
}

// kept is a canvas in its pane's slot.
type kept struct {
	c    *Canvas
	slot *atomic.Pointer[Canvas]
}

// canvasBytes is what a canvas holds: an ink a cell, and a rune on a grid or ntcharts' cell (with
// its lipgloss style) on an ntcharts canvas.
func canvasBytes(c *Canvas) int {
	if c.m == nil {
		return c.w * c.h * int(unsafe.Sizeof(rune(0))+unsafe.Sizeof(Ink{}))
	}
	return c.w * c.h * 600
}

// keep records c, just stored in slot, as the most recently drawn, and lets the least recently
// drawn go while the canvases kept are over canvasKeep.
func (k *canvasCache) keep(c *Canvas, slot *atomic.Pointer[Canvas]) {
	k.mu.Lock()
	defer k.mu.Unlock()
	c.elem = k.order.PushFront(&kept{c, slot})
	k.bytes += canvasBytes(c)
	for k.bytes > canvasKeep && k.order.Len() > 1 {
		old := k.order.Remove(k.order.Back()).(*kept)
		old.c.elem = nil
		k.bytes -= canvasBytes(old.c)
		old.slot.CompareAndSwap(old.c, nil) // unless its pane took it to draw meanwhile
	}
}

// forget takes c (taken from its slot by its pane) out of the cache.
func (k *canvasCache) forget(c *Canvas) {
	if c == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if c.elem != nil {
		k.order.Remove(c.elem)
		c.elem = nil
		k.bytes -= canvasBytes(c)
	}
}

// Width is the canvas's width in cells.
func (c *Canvas) Width() int { return c.w }

func (c *Canvas) in(x, y int) bool { return x >= 0 && y >= 0 && x < c.w && y < c.h }

// At returns a copy of the cell at (x, y); nil outside the canvas.
func (c *Canvas) At(x, y int) *cell {
	if !c.in(x, y) {
		return nil
	}
	r := c.runeOf(x, y)
	if r == 0 {
		r = ' '
	}
	return &cell{r, c.inks[y*c.w+x]}
}

// runeOf is the rune stored at (x, y), inside the canvas: 0 for an empty cell.
func (c *Canvas) runeOf(x, y int) rune {
	if c.m == nil {
		return c.runes[y*c.w+x]
	}
	return c.m.Cell(ntcanvas.Point{X: x, Y: y}).Rune
}

func (c *Canvas) Set(x, y int, r rune, k Ink) {
	if !c.in(x, y) {
		return
	}
	if c.m == nil {
		c.runes[y*c.w+x] = r
	} else {
		c.m.SetCell(ntcanvas.Point{X: x, Y: y}, ntcanvas.Cell{Rune: r})
	}
	c.inks[y*c.w+x] = k
}

// braille adds the dots of the braille rune r to those at (x, y), in ink k (ntcharts' graph
// combines the patterns).
func (c *Canvas) braille(x, y int, r rune, k Ink) {
	if !c.in(x, y) {
		return
	}
	if c.m == nil {
		if runes.IsBraillePattern(r) { // as graph.DrawBrailleRune does on ntcharts' cells
			c.runes[y*c.w+x] = runes.CombineBraillePatterns(c.runes[y*c.w+x], r)
		}
	} else {
		graph.DrawBrailleRune(c.m, ntcanvas.Point{X: x, Y: y}, r, lipgloss.Style{})
	}
	c.inks[y*c.w+x] = k
}

// Text writes s from (x, y) on one line, clipped at the right edge, and returns the column after
// it. Every rune is taken as one column wide, which holds for every glyph the panes use.
func (c *Canvas) Text(x, y int, s string, k Ink) int { return writeText(c.Set, x, y, s, k) }

func writeText(set func(x, y int, r rune, k Ink), x, y int, s string, k Ink) int {
	for _, r := range s {
		set(x, y, r, k)
		x++
	}
	return x
}

// RuneAt is the rune at (x, y) (' ' for an empty cell), or 0 outside.
func (c *Canvas) RuneAt(x, y int) rune {
	if cl := c.At(x, y); cl != nil {
		return cl.Rune
	}
	return 0
}

// String renders the canvas: its runes are read back from ntcharts' cells and written with their
// inks by writeInkLine, one escape sequence per change of ink along a line. ntcharts' own View
// renders every cell through lipgloss, which made a step at 200x60 two to three times slower
// (docs/benchmarks.md); the screen is the same cell for cell.
func (c *Canvas) String(st *Styles) string { return strings.Join(c.Lines(st), "\n") }

// Lines renders the canvas, one string per row (String joins them).
func (c *Canvas) Lines(st *Styles) []string {
	out := make([]string, c.h)
	var b strings.Builder
	for y := range c.h {
		b.Reset()
		inks := c.inks[y*c.w : (y+1)*c.w]
		writeInkLine(&b, st, c.w, func(x int) (rune, Ink) {
			if r := c.runeOf(x, y); r != 0 {
				return r, inks[x]
			}
			return ' ', inks[x]
		})
		out[y] = b.String()
	}
	return out
}

// writeInkLine writes a line of n cells, cell x's rune and ink given by cellAt: an SGR sequence
// where the ink changes (none for an ink without attributes at this depth, so NO_COLOR writes bare
// runes), and a reset before the next ink and at the end of the line, so no ink runs past it.
func writeInkLine(b *strings.Builder, st *Styles, n int, cellAt func(x int) (rune, Ink)) {
	open := false
	var cur Ink
	for x := range n {
		r, k := cellAt(x)
		if x == 0 || k != cur {
			if open {
				b.WriteString("\x1b[0m")
				open = false
			}
			if seq := st.seq(k); seq != "" {
				b.WriteString("\x1b[")
				b.WriteString(seq)
				b.WriteByte('m')
				open = true
			}
			cur = k
		}
		b.WriteRune(r)
	}
	if open {
		b.WriteString("\x1b[0m")
	}
}

// NtchartsView renders a canvas through ntcharts' own View, each cell in its ink's lipgloss style:
// what String replaced, kept as the reference it must match (TestCanvasRendersAsNtcharts) and for
// the benchmarks that measure the difference. It sets the cells' styles, which the next Blank
// clears.
func NtchartsView(c *Canvas, st *Styles) string {
	m := c.m
	if m == nil { // a grid: its runes on an ntcharts canvas of its own
		n := ntcanvas.New(c.w, c.h)
		m = &n
		for i, r := range c.runes {
			m.SetCell(ntcanvas.Point{X: i % c.w, Y: i / c.w}, ntcanvas.Cell{Rune: r})
		}
	}
	for i, k := range c.inks {
		if k != (Ink{}) {
			m.SetCellStyle(ntcanvas.Point{X: i % c.w, Y: i / c.w}, inkStyle(st, k))
		}
	}
	return m.View()
}

// inkStyle is an ink as a lipgloss style of the session's renderer, with the attributes Styles.seq
// gives it (a cell with a background is bold too).
func inkStyle(s *Styles, k Ink) lipgloss.Style {
	v := s.NewStyle().Bold(k.Bold || k.BG.Hex != "").Faint(k.Faint)
	if k.FG.Hex != "" {
		v = v.Foreground(s.Color(k.FG))
	}
	if k.BG.Hex != "" {
		v = v.Background(s.Color(k.BG))
	}
	return v
}

// Braille is a chart's plot: one ntcharts braille grid (2 x 4 dots a cell) per series, on
// axes the chart fixes (a batch's dots and a value's row are computed here, not fitted to the
// data by ntcharts), drawn in order so that a cell's ink is the last series' to draw in it.
type Braille struct {
	w, h  int // terminal cells
	grids []*graph.BrailleGrid
	Dots  [][][2]int // per series (index = id), the dots it drew: for tests
}

func NewBraille(w, h int) *Braille { return &Braille{w: w, h: h} }

func (g *Braille) dot(id, x, y int) {
	if x < 0 || y < 0 || x >= 2*g.w || y >= 4*g.h {
		return
	}
	for len(g.grids) <= id {
		// The grid's own value range is unused: dots are set at grid points.
		g.grids = append(g.grids, graph.NewBrailleGrid(g.w, g.h, 0, 1, 0, 1))
		g.Dots = append(g.Dots, nil)
	}
	g.grids[id].Set(ntcanvas.Point{X: x, Y: y})
	g.Dots[id] = append(g.Dots[id], [2]int{x, y})
}

// StepLine draws a series as steps: value v[i] held from batch start+i to the next batch, then a
// vertical jump to v[i+1], over an x axis of batches [x0, x1) and a y axis [lo, hi].
func (g *Braille) StepLine(id, start int, v []float64, x0, x1 int, lo, hi float64) {
	W, H := 2*g.w, 4*g.h
	dx := func(t int) int { return (t - x0) * W / max(x1-x0, 1) }
	dy := func(v float64) int { return H - 1 - int(math.Round((v-lo)/(hi-lo)*float64(H-1))) }
	for i, val := range v {
		t := start + i
		a, b := dx(t), dx(t+1)-1
		y := dy(val)
		for x := a; x <= max(a, b); x++ {
			g.dot(id, x, y)
		}
		if i+1 < len(v) {
			y2 := dy(v[i+1])
			x := dx(t + 1)
			for yy := min(y, y2); yy <= max(y, y2); yy++ {
				g.dot(id, x, yy)
			}
		}
	}
}

// Draw puts the grid on cv at (x0, y0), series by series, each in its ink.
func (g *Braille) Draw(cv *Canvas, x0, y0 int, inks []Ink) {
	for id, bg := range g.grids {
		for y, row := range bg.BraillePatterns() {
			for x, r := range row {
				if r != runes.BrailleBlockOffset {
					cv.braille(x0+x, y0+y, r, inks[id])
				}
			}
		}
	}
}

// Truncate cuts a possibly styled line to w terminal columns, with an ellipsis when it cuts.
func Truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// Clip cuts a block to at most w columns and h lines, so a pane never breaks the layout.
func Clip(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:max(h, 0)]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	return strings.Join(lines, "\n")
}

// padTo pads or cuts every line of a block to exactly w columns and h lines.
func padTo(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lw := ansi.StringWidth(l)
		switch {
		case lw > w:
			lines[i] = ansi.Truncate(l, w, "")
		case lw < w:
			lines[i] = l + strings.Repeat(" ", w-lw)
		}
	}
	return strings.Join(lines, "\n")
}
