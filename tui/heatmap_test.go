package tui

import (
	"strings"
	"testing"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

// The diverging scale has 11 steps with zero in the middle (index 5): v/scale*5 rounded half away
// from zero, clamped at both ends.
func TestHeatBin(t *testing.T) {
	h := newHeatmap(colorStyles())
	for _, tc := range []struct {
		v, scale float64
		want     int
	}{
		{0, 1, 5}, {1, 1, 10}, {-1, 1, 0}, {3, 1, 10}, {-3, 1, 0},
		{0.1, 1, 6},   // 0.5 rounds away from zero
		{-0.5, 2, 4},  // -1.25 rounds to -1
		{-0.5, 1, 2},  // -2.5 rounds to -3
		{0.09, 1, 5},  // 0.45 rounds to 0
		{-0.09, 1, 5}, // -0.45 rounds to 0
	} {
		if got := h.bin(tc.v, tc.scale); got != tc.want {
			t.Errorf("bin(%v, %v) = %d, want %d", tc.v, tc.scale, got, tc.want)
		}
	}
}

// A hand-built 4x4 matrix revealed up to batch 2, drawn without colour at one character per cell.
// C[0,1] = 2 - 0 = 2, C[0,2] = 0 - 1 = -1, C[1,2] = 0.5 - 0.5 = 0, so the scale's half-range is
// max |C| = 2 and the bins are 5+round(2/2*5) = 10 '@', 5+round(-1/2*5) = 5-3 = 2 '-', 5 ':'. The
// diagonal is '\', column 3 is not revealed yet ('.'), and below the diagonal is blank. A path
// that keeps M_0 at batch 2 draws 'o' on (0, 2).
func TestHeatmapMono(t *testing.T) {
	m := sim.NewMatrix(4, 2)
	set := func(tp, t int, a, b float64) { m.Set(tp, t, sim.Cell{A: a, B: b}) }
	for t := range 4 {
		set(t, t, 1, 1)
	}
	set(0, 1, 2, 0)
	set(0, 2, 0, 1)
	set(1, 2, 0.5, 0.5)
	set(0, 3, 9, 0) // not revealed at pos 2: must not show nor widen the scale
	set(1, 3, 0, 0)
	set(2, 3, 0, 0)
	path := algos.Strategy{Start: 2, End: 2, Model: []int{0}, Cumulative: []float64{-1}}
	for _, tc := range []struct {
		name  string
		paths []heatPath
		want  []string
	}{
		{"cells", nil, []string{`\@-.`, ` \:.`, `  \.`, `   .`}},
		{"oracle path", []heatPath{{colOracle, path}}, []string{`\@o.`, ` \:.`, `  \.`, `   .`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if s := scaleOf(m, 2); s != 2 {
				t.Fatalf("scale %v, want 2", s)
			}
			h := newHeatmap(asciiStyles())
			got := h.render(heatView{m: m, r: algos.Constant(1), pos: 2, paths: tc.paths, width: 10, height: 10, absScale: 2})
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// In colour, a cell is a half block: the upper matrix row in the foreground, the lower in the
// background; equal colour pairs are rendered once and cached.
func TestHeatmapColourCache(t *testing.T) {
	h := newHeatmap(colorStyles())
	a := h.cell(0, 10)
	if !strings.Contains(a, "▀") || len(a) <= len("▀") {
		t.Fatalf("cell(0, 10) = %q: want a styled upper half block", a)
	}
	if h.cell(0, 10) != a || len(h.cache) != 1 {
		t.Errorf("the second cell(0, 10) was not served from the cache (%d entries)", len(h.cache))
	}
	if got := h.cell(colNone, colNone); got != " " {
		t.Errorf("an empty pair draws %q, want a space", got)
	}
}

// In colour, the current batch's diagonal cell is drawn in the "now" colour: with 4 batches in 2
// rows of half blocks, row 1 holds matrix rows 2 (upper half) and 3 (lower half), so at pos 2 its
// third column is the pair (now, empty).
func TestHeatmapNow(t *testing.T) {
	m := sim.NewMatrix(4, 2)
	for t := range 4 {
		for tp := 0; tp <= t; tp++ {
			m.Set(tp, t, sim.Cell{A: 1, B: 1})
		}
	}
	h := newHeatmap(colorStyles())
	rows := h.render(heatView{m: m, r: algos.Constant(1), pos: 2, width: 10, height: 10, absScale: 1})
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	want := h.cell(colNone, colNone) + h.cell(colNone, colNone) + h.cell(colNow, colNone) + h.cell(colHidden, colHidden)
	if rows[1] != want {
		t.Errorf("row 1 = %q, want %q", rows[1], want)
	}
}
