package pane

import (
	"testing"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/tui/internal/run"
)

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
		f := &Frame{Scen: &scenarios.Scenario{Batches: 6, Offline: 2}, Pos: 4, Selected: "cara-t",
			RP: run.Replay{Results: []algos.Result{{Algorithm: "cara-t", Strategy: s}}}}
		if got := Explain(f); got != tc.want {
			t.Errorf("reason %q: explain = %q, want %q", tc.reason, got, tc.want)
		}
	}
}
