package figures

import (
	"context"
	"testing"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// The paper's figure 4a: with static queries (CovCon-S) fewer cells of the offline cost matrix are
// expensive than with queries drawn from the data (CovCon-D), because only drift near the queries
// costs anything. Both matrices come from our own runs (10-tree forests, the offline block), and
// both are drawn.
func TestCovconStaticQueriesFewerHighCostCells(t *testing.T) {
	counts := map[string]int{}
	dir := t.TempDir()
	for _, name := range []string{"covcon-d", "covcon-s"} {
		s, err := scenarios.Load(name, scenarios.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rf := s.Model.(sim.RandomForest)
		rf.Trees = 10
		s.Model = rf
		cfg, err := s.Config(s.Seed)
		if err != nil {
			t.Fatal(err)
		}
		cfg.SkipCross = true
		m, err := sim.Run(context.Background(), cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		// "High cost": above R = 20, the cost at which the paper draws figure 4a.
		for tt := 0; tt < m.Offline(); tt++ {
			for tp := 0; tp < tt; tp++ {
				if m.Staleness(tp, tt) > 20 {
					counts[name]++
				}
			}
		}
		if _, err := MatrixFigure(m, s.RetrainCost, nil, dir, name, PNG); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("offline cells above 20: covcon-d %d, covcon-s %d", counts["covcon-d"], counts["covcon-s"])
	if counts["covcon-s"] >= counts["covcon-d"] {
		t.Errorf("covcon-s has %d high-cost offline cells, covcon-d %d; the paper has fewer with static queries", counts["covcon-s"], counts["covcon-d"])
	}
}
