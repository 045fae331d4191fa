package tui

import (
	"math"
	"strings"
	"testing"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// handFrame is a frame over hand-built results (no engine): an online block starting at batch 2 of
// 6, the view at batch 4.
func handFrame(results []algos.Result, selected algos.Name) *frame {
	s := &Session{Scenario: &scenarios.Scenario{Name: "hand", Batches: 6, Offline: 2}, Matrix: sim.NewMatrix(6, 2)}
	return &frame{st: asciiStyles(), s: s, pos: 4, rp: replay{scale: 1, results: results},
		selected: selected, visible: algos.Names}
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
			p := &tablePane{}
			p.SetSize(80, 10)
			p.SetFrame(handFrame(res, "cara-t"))
			v := p.View()
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

// The explanation line names the algorithm, the batch and the decision's reason.
func TestExplain(t *testing.T) {
	for _, tc := range []struct {
		reason, want string
	}{
		{"retrain: QDMdiff 34.2 >= theta 28.1", "CARA-T retrained at 4: QDMdiff 34.2 >= theta 28.1"},
		{"keep: QDMdiff 3 < theta 28.1", "CARA-T kept M_4 at 4: QDMdiff 3 < theta 28.1"},
		{"first model", "CARA-T at 4: first model"},
	} {
		s := algos.Strategy{Start: 2, End: 4, Model: []int{2, 2, 4}, Cumulative: []float64{1, 2, 3},
			Reasons: []string{"", "", tc.reason}}
		f := handFrame([]algos.Result{{Algorithm: "cara-t", Strategy: s}}, "cara-t")
		if got := explain(f); got != tc.want {
			t.Errorf("reason %q: explain = %q, want %q", tc.reason, got, tc.want)
		}
	}
}
