package matrix

import (
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/palette"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/synth"
)

// The sequential scale has 9 steps over [0, hi]: step floor(v/hi*9), the top clamped; negative
// values take the 5 steps of the other half over [lo, 0).
func TestHeatStep(t *testing.T) {
	h := draw.Scale{Hi: 9}
	for _, tc := range []struct {
		v    float64
		want int
	}{{0, 0}, {0.99, 0}, {1, 1}, {4.5, 4}, {8.99, 8}, {9, 8}, {50, 8}, {-1, 0}} {
		if got := h.Step(tc.v); got != tc.want {
			t.Errorf("hi 9: step(%v) = %d, want %d", tc.v, got, tc.want)
		}
	}
	d := draw.Scale{Lo: -5, Hi: 9}
	// -1/-5*5 = 1 -> step -2; -5 -> 5, clamped to 4 -> step -5.
	for _, tc := range []struct {
		v    float64
		want int
	}{{-0.5, -1}, {-1, -2}, {-5, -5}, {-50, -5}, {0, 0}} {
		if got := d.Step(tc.v); got != tc.want {
			t.Errorf("lo -5: step(%v) = %d, want %d", tc.v, got, tc.want)
		}
	}
	if draw.StepColour(-1) != palette.Negative[0] || draw.StepColour(8) != palette.Sequential[8] {
		t.Error("step colours")
	}
}

// The scale comes from every computed cell off the diagonal and R, and only grows.
func TestHeatScaleAddColumn(t *testing.T) {
	m := sim.NewMatrix(3, 1)
	m.Set(0, 1, sim.Cell{A: 5, B: 1})
	m.Set(1, 1, sim.Cell{A: 100, B: 0}) // the diagonal: not a staleness cost
	m.Set(0, 2, sim.Cell{A: 0, B: 2})
	h := draw.NewScale()
	h.Add(3)
	addColumn(&h, m, 1)
	addColumn(&h, m, 2)
	if h.Lo != -2 || h.Hi != 4 {
		t.Errorf("scale [%v, %v], want [-2, 4]", h.Lo, h.Hi)
	}
}

// A small matrix is drawn as square blocks, as large as fit; a large one one column per batch
// when it fits, else sampled.
func TestOverviewGeom(t *testing.T) {
	for _, tc := range []struct {
		T, w, h            int
		block              bool
		bw, bh, cols, rows int
	}{
		{4, 60, 20, true, 10, 5, 40, 20}, // min(60/8, 20/4) = 5
		{4, 7, 20, false, 0, 0, 4, 2},    // too narrow for 2-wide blocks: half rows
		{100, 120, 60, false, 0, 0, 100, 50},
		{100, 60, 50, false, 0, 0, 60, 30},
		{100, 120, 20, false, 0, 0, 40, 20},
	} {
		g := overviewGeom(tc.T, tc.w, tc.h)
		if g.block != tc.block || g.bw != tc.bw || g.bh != tc.bh || g.cols != tc.cols || g.rows != tc.rows {
			t.Errorf("T %d in %dx%d: %+v", tc.T, tc.w, tc.h, g)
		}
	}
	// Sampled: screen column x covers batches [x*100/40, (x+1)*100/40).
	g := overviewGeom(100, 120, 20)
	if a, b := g.colRange(3); a != 7 || b != 10 {
		t.Errorf("column 3 covers %d..%d, want 7..10", a, b)
	}
	if x := g.xOf(50); x != 20 {
		t.Errorf("batch 50 at column %d, want 20", x)
	}
	if y := g.yOf(50); y != 10 {
		t.Errorf("model 50 at row %d, want 10", y)
	}
}

// A hand-built 4x4 matrix revealed up to batch 2, drawn without colour in blocks of 2x1: C[0,1] =
// 8 of a top of 9 (step 8, '█'); the diagonal is R = 9 (step 8); column 3 is not revealed (blank
// without colour). A path that trains M_1 at 1 and keeps it at 2 draws ● on (1, 1) and ━ across
// (1, 2), over C[1,2]; the Oracle's keep of M_0 at 2 draws ─ across (0, 2), over C[0,2].
func TestDrawBlocksMono(t *testing.T) {
	m := sim.NewMatrix(4, 1)
	set := func(tp, t int, c float64) { m.Set(tp, t, sim.Cell{A: c}) }
	set(0, 1, 8)
	set(0, 2, -1)
	set(1, 2, 4.5)
	set(0, 3, 99) // not revealed at pos 2
	sel := algos.Strategy{Start: 1, Model: []int{1, 1}}
	or := algos.Strategy{Start: 2, Model: []int{0}}
	d := &heatData{m: m, r: algos.Constant(9), pos: 2, scale: draw.Scale{Hi: 9},
		marks: buildMarks(nil, 4, 2, &sel, &or), selColour: palette.Algo("cara-t")}
	g := heatGeom{block: true, bw: 2, bh: 1, nr: 4, nc: 4, cols: 8, rows: 4}
	cv := draw.NewCanvas(8, 4)
	drawBlocks(cv, draw.ForProfile(termenv.Ascii), g, d, 0, 0)
	got := strings.Split(cv.String(draw.ForProfile(termenv.Ascii)), "\n")
	want := []string{"████──  ", "  █●━━  ", "    ██  ", "        "}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Where the selected path and the Oracle's pass the same cell they are told apart: ◉ and ═.
func TestPathGlyph(t *testing.T) {
	for _, tc := range []struct {
		m    uint8
		want rune
	}{
		{markSelRetrain, '●'}, {markSelKeep, '━'}, {markOrRetrain, '○'}, {markOrKeep, '─'},
		{markSelRetrain | markOrRetrain, '◉'}, {markSelKeep | markOrKeep, '═'}, {0, 0},
	} {
		if got := pathGlyph(tc.m); got != tc.want {
			t.Errorf("pathGlyph(%04b) = %q, want %q", tc.m, got, tc.want)
		}
	}
}

// In colour, two matrix rows share a screen row as half blocks; two halves of one colour are a
// full block (a renderer draws equal halves as a bar over the text that follows).
func TestHalfBlocks(t *testing.T) {
	m := sim.NewMatrix(4, 1)
	for tt := range 4 {
		for tp := 0; tp < tt; tp++ {
			m.Set(tp, tt, sim.Cell{A: float64(tp)})
		}
	}
	d := &heatData{m: m, r: algos.Constant(0), pos: 3, scale: draw.Scale{Hi: 9}}
	g := overviewGeom(4, 4, 2) // 4 columns, 2 rows of half blocks: one cell each
	cv := draw.NewCanvas(4, 2)
	drawHeat(cv, draw.ForProfile(termenv.TrueColor), g, d, 0, 0)
	// Row 0 holds matrix rows 0 and 1. Column 0: (0,0) = R 0 over nothing (below the diagonal):
	// ▀. Column 1: (0,1) = 0 and (1,1) = R 0, both step 0: █. Column 3: (0,3) = 0, (1,3) = 1: steps
	// 0 and 1, ▀ on a background.
	if c := cv.At(0, 0); c.Rune != '▀' || c.Ink.BG.Hex != "" {
		t.Errorf("column 0: %q %+v", c.Rune, c.Ink)
	}
	if c := cv.At(1, 0); c.Rune != '█' || c.Ink.FG != palette.Sequential[0] {
		t.Errorf("column 1: %q %+v", c.Rune, c.Ink)
	}
	if c := cv.At(3, 0); c.Rune != '▀' || c.Ink.FG != palette.Sequential[0] || c.Ink.BG != palette.Sequential[1] {
		t.Errorf("column 3: %q %+v", c.Rune, c.Ink)
	}
}

// The heat map alone, drawn afresh and rendered by ntcharts' View.
func BenchmarkHeat100Ntcharts(b *testing.B) {
	f := synth.RandomFrame(b, draw.ForProfile(termenv.TrueColor), 100, 25)
	mp := New()
	mp.Render = func(cv *draw.Canvas, st *draw.Styles) []string { return strings.Split(draw.NtchartsView(cv, st), "\n") }
	for b.Loop() {
		mp.cache = ""
		mp.View(f, 104, 56)
	}
}

// The heat map alone, drawn afresh: a 100x100 matrix with two paths at one screen column per
// batch.
func BenchmarkHeat100(b *testing.B) {
	f := synth.RandomFrame(b, draw.ForProfile(termenv.TrueColor), 100, 25)
	mp := New()
	for b.Loop() {
		mp.cache = "" // no reuse: every cell drawn
		mp.View(f, 104, 56)
	}
}
