package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

// heatmap draws the upper triangle of the cost matrix C with half-block cells: each terminal cell
// shows two matrix rows (the upper half in the foreground colour of "▀", the lower in its
// background). Cell strings are cached per colour pair, so a 100x100 matrix is a few thousand map
// lookups, not a few thousand style renders.
type heatmap struct {
	st    *Styles
	cache map[[2]int]string
}

func newHeatmap(st *Styles) *heatmap { return &heatmap{st: st, cache: map[[2]int]string{}} }

func (h *heatmap) cell(top, bottom int) string {
	k := [2]int{top, bottom}
	if s, ok := h.cache[k]; ok {
		return s
	}
	st := h.st.r.NewStyle()
	glyph := "▀"
	tc, tok := h.st.color(top)
	bc, bok := h.st.color(bottom)
	switch {
	case tok && bok:
		st = st.Foreground(tc).Background(bc)
	case tok:
		st = st.Foreground(tc)
	case bok:
		glyph = "▄"
		st = st.Foreground(bc)
	default:
		glyph = " "
	}
	s := st.Render(glyph)
	h.cache[k] = s
	return s
}

// heatView is what a heat map render needs.
type heatView struct {
	m        *sim.Matrix
	r        algos.RetrainCost
	pos      int // last revealed batch
	paths    []heatPath
	cursor   [2]int // (t', t)
	showCur  bool
	width    int // terminal columns for the cells
	height   int // terminal rows for the cells
	absScale float64
}

type heatPath struct {
	color int
	s     algos.Strategy
}

// scaleOf is the colour scale's half-range: the largest |C| revealed off the diagonal (1 if none).
func scaleOf(m *sim.Matrix, pos int) float64 {
	b := 0.0
	for t := 0; t <= pos && t < m.Batches(); t++ {
		for tp := 0; tp < t; tp++ {
			if c := m.Cell(tp, t); c.Done {
				b = max(b, math.Abs(c.C()))
			}
		}
	}
	if b == 0 {
		return 1
	}
	return b
}

// bin maps a value to the diverging scale.
func (h *heatmap) bin(v, scale float64) int {
	n := len(h.st.heat)
	half := n / 2
	i := half + int(math.Round(v/scale*float64(half)))
	return min(max(i, 0), n-1)
}

// render returns the heat map's rows. Matrix columns map to terminal columns and matrix rows to
// half terminal rows by nearest index, so any size fits.
func (h *heatmap) render(v heatView) []string {
	T := v.m.Batches()
	cols := min(T, v.width)
	rows := min((T+1)/2, v.height)
	if h.st.Mono {
		rows = min(T, v.height)
	}
	if cols < 1 || rows < 1 {
		return nil
	}
	onPath := map[[2]int]int{}
	for _, p := range v.paths {
		for i, model := range p.s.Model {
			if t := p.s.Start + i; t <= v.pos {
				onPath[[2]int{model, t}] = p.color
			}
		}
	}
	colorAt := func(tp, t int) int {
		if tp > t {
			return colNone
		}
		if t > v.pos {
			return colHidden
		}
		if v.showCur && v.cursor == [2]int{tp, t} {
			return colCursor
		}
		if c, ok := onPath[[2]int{tp, t}]; ok {
			return c
		}
		if tp == t {
			if t == v.pos {
				return colNow // the current column stands out at its head
			}
			return colDiag
		}
		c := v.m.Cell(tp, t)
		if !c.Done {
			return colHidden
		}
		return h.bin(c.C(), v.absScale)
	}
	// Pick for each screen cell a representative matrix cell, preferring path and cursor cells
	// when several matrix cells share a screen cell, so a path stays visible when scaled down.
	pick := func(tp0, tp1, t0, t1 int) int {
		best, bestRank := colNone, -1
		for tp := tp0; tp < max(tp1, tp0+1); tp++ {
			for t := t0; t < max(t1, t0+1); t++ {
				c := colorAt(tp, t)
				rank := 0
				switch {
				case c == colCursor:
					rank = 4
				case c >= colOracle && c != colHidden && c != colNow:
					rank = 3
				case c == colDiag || c == colNow:
					rank = 2
				case c >= 0:
					rank = 1
				}
				if rank > bestRank {
					best, bestRank = c, rank
				}
			}
		}
		return best
	}
	out := make([]string, rows)
	var b strings.Builder
	for y := range rows {
		b.Reset()
		for x := range cols {
			t0, t1 := x*T/cols, (x+1)*T/cols
			if h.st.Mono {
				tp0, tp1 := y*T/rows, (y+1)*T/rows
				b.WriteString(h.glyph(pick(tp0, tp1, t0, t1)))
				continue
			}
			a0, a1 := (2*y)*T/(2*rows), (2*y+1)*T/(2*rows)
			b0, b1 := (2*y+1)*T/(2*rows), (2*y+2)*T/(2*rows)
			b.WriteString(h.cell(pick(a0, a1, t0, t1), pick(b0, b1, t0, t1)))
		}
		out[y] = b.String()
	}
	return out
}

// glyph draws a cell without colour: shades for the scale, marks for paths and the cursor.
func (h *heatmap) glyph(c int) string {
	switch {
	case c == colNone:
		return " "
	case c == colHidden:
		return "."
	case c == colCursor:
		return "X"
	case c == colDiag, c == colNow:
		return "\\"
	case c == colOracle:
		return "o"
	case c >= colAlgo:
		return "*"
	}
	ramp := []string{"=", "=", "-", "-", "-", " ", "+", "+", "#", "#", "@"}
	if c < len(ramp) {
		if c == len(ramp)/2 {
			return ":"
		}
		return ramp[c]
	}
	return "?"
}

// legend is the colour scale with its values.
func (h *heatmap) legend(scale float64, width int) string {
	if h.st.Mono {
		return fmt.Sprintf("C: = < -%.3g  - < 0  : ~0  + > 0  # @ > +%.3g   o Oracle  * selected  \\ R", scale/2, scale/2)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-7s", fmtShort(-scale))
	for i := range h.st.heat {
		b.WriteString(h.cell(i, i))
	}
	fmt.Fprintf(&b, " %s", fmtShort(scale))
	b.WriteString("  " + h.cell(colOracle, colOracle) + " Oracle  " + h.cell(colDiag, colDiag) + " R  " + h.cell(colNow, colNow) + " now")
	return b.String()
}

func fmtShort(v float64) string {
	switch a := math.Abs(v); {
	case a >= 100:
		return fmt.Sprintf("%+.0f", v)
	case a >= 10:
		return fmt.Sprintf("%+.1f", v)
	}
	return fmt.Sprintf("%+.2f", v)
}

// algoColorIndex is an algorithm's heat-map colour.
func algoColorIndex(name algos.Name) int {
	if name == "oracle" {
		return colOracle
	}
	return colAlgo + slices.Index(algos.Names, name)
}
