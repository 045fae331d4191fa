package scenarios

import (
	"context"
	"testing"

	"github.com/cara-sim/cara/sim"
)

func TestSmokeEmbedded(t *testing.T) {
	for _, info := range Embedded() {
		s, err := Load(info.Name, Options{})
		if err != nil {
			t.Errorf("%s: %v", info.Name, err)
			continue
		}
		cfg, err := s.Config(s.Seed)
		if err != nil {
			t.Errorf("%s: %v", info.Name, err)
			continue
		}
		if rf, ok := cfg.Trainer.(sim.RandomForest); ok {
			rf.Trees = 5
			cfg.Trainer = rf
		}
		m, err := sim.Run(context.Background(), cfg, nil)
		if err != nil {
			t.Errorf("%s: %v", info.Name, err)
			continue
		}
		t.Logf("%s: T=%d gamma=%.3g C[0,T-1]=%.3g drifts=%v", info.Name, m.T, m.Gamma, m.Staleness(0, m.T-1), m.Drifts)
	}
}
