package tui

import (
	"math"
	"strings"
	"testing"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/palette"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// handFrame is a frame over hand-built results (no engine): an online block starting at batch 2 of
// 6, the view at batch 4.
func handFrame(results []algos.Result, selected algos.Name) *frame {
	scen := &scenarios.Scenario{Name: "hand", Batches: 6, Offline: 2}
	return &frame{st: asciiStyles(), scen: scen, m: sim.NewMatrix(6, 2), pos: 4, rp: replay{scale: 1, results: results},
		r: algos.Constant(1), rScale: 1, selected: selected, visible: algos.Names, heat: heatScale{hi: 1}}
}

// The results table: SCPE where the Oracle's cost is non-zero, the plain gap where it is zero
// (SCPE undefined), and RETRAIN in the "now" column for an algorithm that retrained at the current
// batch.
func TestTablePane(t *testing.T) {
	// Cumulative costs over batches 2..4: the Oracle's ends at b, the other's at a.
	strat := func(retrains []int, cum ...float64) algos.Strategy {
		return algos.Strategy{Start: 2, End: 4, Model: []int{2, 2, 4}, Retrains: retrains, Cumulative: cum}
	}
	for _, tc := range []struct {
		name      string
		b, a      float64
		retrains  []int
		wantCells []string
	}{
		// a = 15, b = 10: SCPE = 100*|15-10|/10 = 50.0.
		{"scpe", 10, 15, []int{4}, []string{"RETRAIN", "15.00", "50.0"}},
		// b = 0: SCPE undefined; the gap a - b = 2.5 is shown instead.
		{"gap", 0, 2.5, nil, []string{"keep", "2.50", "gap +2.5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scpe := math.NaN()
			if tc.b != 0 {
				scpe = 100 * math.Abs(tc.a-tc.b) / math.Abs(tc.b)
			}
			res := []algos.Result{
				{Algorithm: "oracle", Strategy: strat(nil, 1, 2, tc.b), SCPE: 0, QueryAccuracy: 0.9},
				{Algorithm: "cara-t", Strategy: strat(tc.retrains, 1, 2, tc.a), SCPE: scpe, Gap: tc.a - tc.b, QueryAccuracy: math.NaN()},
			}
			v := (&resultsPane{}).View(handFrame(res, "cara-t"), 80, 10)
			var row string
			for _, l := range strings.Split(v, "\n") {
				if strings.Contains(l, "CARA-T") {
					row = l
				}
			}
			for _, want := range tc.wantCells {
				if !strings.Contains(row, want) {
					t.Errorf("CARA-T row %q lacks %q", row, want)
				}
			}
			if !strings.HasSuffix(strings.TrimSpace(row), "-") {
				t.Errorf("CARA-T row %q: query accuracy without labels should read -", row)
			}
		})
	}
}

// A narrow table keeps the algorithm and its cost, dropping what matters least.
func TestTablePaneNarrow(t *testing.T) {
	s := algos.Strategy{Start: 2, End: 4, Model: []int{2, 2, 2}, Cumulative: []float64{1, 2, 3}}
	res := []algos.Result{{Algorithm: "oracle", Strategy: s, QueryAccuracy: 0.9}, {Algorithm: "never", Strategy: s, QueryAccuracy: 0.9}}
	for _, w := range []int{60, 44, 36} {
		v := (&resultsPane{}).View(handFrame(res, "oracle"), w, 10)
		for _, l := range strings.Split(v, "\n") {
			if width(l) > w {
				t.Errorf("width %d: line %q is %d wide", w, l, width(l))
			}
		}
		if !strings.Contains(v, "Never-retrain") || !strings.Contains(v, "3.00") {
			t.Errorf("width %d: the name or the cost is gone:\n%s", w, v)
		}
	}
}

// The explanation line names the algorithm, the batch and the decision's reason, in the player's
// vocabulary: the cell C[t', t] of the model in use, not "QDMdiff".
func TestExplain(t *testing.T) {
	for _, tc := range []struct {
		model        int // the model in use after the decision at 4 (M_2 before it)
		reason, want string
	}{
		{4, "retrain: QDMdiff 34.2 >= theta 28.1", "CARA-T retrained at 4: C[2, 4] = 34.2 >= theta 28.1"},
		{2, "keep: QDMdiff 3 < theta 28.1", "CARA-T kept M_2 at 4: C[2, 4] = 3 < theta 28.1"},
		{2, "keep: cumulative QDMdiff 9 < theta_c 12", "CARA-T kept M_2 at 4: C[2, 3..4] summed = 9 < theta_c 12"},
		{4, "first model", "CARA-T at 4: first model"},
	} {
		s := algos.Strategy{Start: 2, End: 4, Model: []int{2, 2, tc.model}, Cumulative: []float64{1, 2, 3},
			Reasons: []string{"", "", tc.reason}}
		f := handFrame([]algos.Result{{Algorithm: "cara-t", Strategy: s}}, "cara-t")
		if got := explain(f); got != tc.want {
			t.Errorf("reason %q: explain = %q, want %q", tc.reason, got, tc.want)
		}
	}
}

// Lines that end at the same value share one label, in the order of the table; labels never
// overlap and keep the order of their values.
func TestEndLabels(t *testing.T) {
	ss := []series{
		{name: "never", v: []float64{1, 5, 9}},
		{name: "cara-t", v: []float64{1, 2, 3}},
		{name: "oracle", v: []float64{1, 2, 3}},
		{name: "adwin", v: []float64{1, 2, 3.01}},
	}
	ls := endLabels(ss, 0, 10, 10, 40, false)
	if len(ls) != 3 {
		t.Fatalf("%d labels, want 3 (Oracle and CARA-T merged)", len(ls))
	}
	if ls[2].names[0] != "oracle" || ls[2].names[1] != "cara-t" {
		t.Errorf("merged label %v, want oracle then cara-t", ls[2].names)
	}
	for i := 1; i < len(ls); i++ {
		if ls[i].row < ls[i-1].row+len(ls[i-1].rows) {
			t.Errorf("labels %d and %d overlap: rows %d and %d", i-1, i, ls[i-1].row, ls[i].row)
		}
	}
	if ls[0].names[0] != "never" || ls[0].row != 1 {
		// 9 of 10 on 10 rows of 4 dots: dot row 39 - round(0.9*39) = 4, text row 1.
		t.Errorf("top label %v at row %d, want never at row 1", ls[0].names, ls[0].row)
	}
	// Narrow: short keys, wrapped.
	ls = endLabels(ss[1:3], 0, 10, 10, 6, false)
	if got := ls[0].rows; len(got) != 2 || got[0][0].text != "O" {
		t.Errorf("narrow label rows %v, want [O=T] then the value", got)
	}
}

// A step line holds each value until the next batch, then jumps: the dots of a rising series
// never go down.
func TestStepLine(t *testing.T) {
	g := newBrailleGrid(10, 2) // 20 x 8 dots
	g.stepLine(1, 0, []float64{0, 0, 7}, 0, 4, 0, 7)
	// Batches 0..3 over 20 dot columns: batch t from column 5t. Values 0 and 7 at dot rows 7 and 0.
	want := map[[2]int]bool{}
	for x := 0; x <= 9; x++ {
		want[[2]int{x, 7}] = true
	}
	for y := 0; y <= 7; y++ {
		want[[2]int{10, y}] = true
	}
	for x := 10; x <= 14; x++ {
		want[[2]int{x, 0}] = true
	}
	got := map[[2]int]bool{}
	for _, d := range g.dots[1] {
		got[d] = true
	}
	if len(got) != len(want) {
		t.Errorf("%d dots, want %d: %v", len(got), len(want), g.dots[1])
	}
	for d := range want {
		if !got[d] {
			t.Errorf("dot %v missing", d)
		}
	}
	// Cell (0, 1) holds dots x 0..1, y 4..7: the line at y 7 is its two bottom dots, drawn on the
	// canvas as the braille pattern of dots 7 and 8.
	cv := newCanvas(10, 2)
	g.draw(cv, 0, 0, []ink{{}, inkOf(palette.Axis)})
	if c := cv.at(0, 1); c.r != 0x2800|0x40|0x80 || c.k != inkOf(palette.Axis) {
		t.Errorf("cell (0, 1) %q %+v, want the two bottom dots in the series' ink", c.r, c.k)
	}
}
