package scenarios

import (
	"slices"
	"strings"
	"testing"

	"github.com/cara-sim/cara/algos"
)

// The data and model streams do not depend on the queries: covcon-d with covcon-s's queries block
// set from the command line yields covcon-s's batches, point for point.
func TestSetQueriesGivesTheOtherScenario(t *testing.T) {
	for _, c := range []struct{ from, to, set string }{
		{"covcon-d", "covcon-s", "queries={size: 100, gaussian: {mean: 0.5, std: 0.015}}"},
		{"scenario1-far", "scenario1-near", "queries.gaussian.mean=[0.85, 0.7]"},
		{"gauss-s", "gauss-d", "queries={from: data, size: 100}"},
	} {
		a, err := Load(c.from, Options{Set: []string{c.set}})
		if err != nil {
			t.Fatalf("%s --set %s: %v", c.from, c.set, err)
		}
		b, err := Load(c.to, Options{})
		if err != nil {
			t.Fatal(err)
		}
		sa, _ := a.Stream(a.Seed)
		sb, _ := b.Stream(b.Seed)
		for _, tt := range []int{0, 1, a.Batches - 1} {
			ba, err := sa.Batch(tt)
			if err != nil {
				t.Fatal(err)
			}
			bb, _ := sb.Batch(tt)
			if !slices.Equal(ba.X.V, bb.X.V) || !slices.Equal(ba.Y, bb.Y) || !slices.Equal(ba.Q.V, bb.Q.V) || !slices.Equal(ba.QY, bb.QY) {
				t.Errorf("%s --set %s: batch %d differs from %s", c.from, c.set, tt, c.to)
			}
		}
	}
}

func TestSetValues(t *testing.T) {
	for _, c := range []struct {
		set   []string
		check func(*Scenario) bool
	}{
		{[]string{"retrain_cost=35"}, func(s *Scenario) bool { return s.RetrainCost(30) == 35 && s.RetrainCostText == "35" }},
		{[]string{"retrain_cost=10 + t"}, func(s *Scenario) bool { return s.RetrainCost(30) == 40 }},
		{[]string{"kernel.gamma=2"}, func(s *Scenario) bool { return s.Gamma.Value == 2 }},
		{[]string{"model.random_forest.trees=7"}, func(s *Scenario) bool { return strings.Contains(s.Model.Name(), "forest") }},
		{[]string{"model={knn: {k: 3}}"}, func(s *Scenario) bool { return s.Model.Name() == "knn" }},
		{[]string{"batches=95", "offline=10"}, func(s *Scenario) bool { return s.Batches == 95 && s.Offline == 10 }},
		{[]string{"seed=5", "seed=6"}, func(s *Scenario) bool { return s.Seed == 6 }}, // the last wins
		{[]string{"data.concepts.1.at=12"}, func(s *Scenario) bool { return s.Batches == 100 }},
		{[]string{"algorithms=[oracle, cara-t]"}, func(s *Scenario) bool {
			return slices.Equal(s.Algorithms, []algos.Name{algos.NameOracle, algos.NameCaraT})
		}},
	} {
		s, err := Load("covcon-d", Options{Set: c.set})
		if err != nil {
			t.Errorf("--set %v: %v", c.set, err)
			continue
		}
		if !c.check(s) {
			t.Errorf("--set %v: not applied", c.set)
		}
	}
}

// Errors in a value from the command line name `--set PATH` and what is allowed.
func TestSetErrors(t *testing.T) {
	for _, c := range []struct{ set, want string }{
		{"kernel.gama=2", `--set kernel.gama: unknown field "gama" (known: gamma, standardize)`},
		{"kernal.gamma=2", `--set kernal.gamma: unknown field "kernal" (known: name, title, about, seed, batches, offline, data, queries, model, kernel, retrain_cost, algorithms, detectors, schedules, tuning, errors, tour, tour_seed, whatif)`},
		{"kernel.gamma=-1", `--set kernel.gamma: must be scale, auto or a number > 0, got "-1"`},
		{"model.random_forest.trees=0", `--set model.random_forest.trees: must be >= 1, got 0`},
		{"queries={size: 100", `--set queries: "{size: 100" is not a YAML value`},
		{"queries={size: 0, gaussian: {mean: 0.5, std: 0.1}}", `--set queries: queries.size: must be`},
		{"offline=100", `--set offline: must be in 1..99`},
		{"data.concepts.12.at=3", `--set data.concepts.12.at: "12": this is a list of 10 items; give an index 0..9`},
		{"kernel.gamma", `--set kernel.gamma: give PATH=VALUE`},
		{"=3", `give PATH=VALUE`},
		{"kernel..gamma=3", `an empty key`},
		{"data.size=[1, 2]", `--set data.size: expected a single value, got a list`},
	} {
		_, err := Load("covcon-d", Options{Set: []string{c.set}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--set %s:\n got %v\nwant %s", c.set, err, c.want)
		}
	}
	// An expression that fails only when a batch is generated still names the --set.
	s, err := Load("covcon-d", Options{Set: []string{`data.gaussian.mean=1/(t-3)`}})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := s.Stream(s.Seed)
	if _, err := st.Batch(3); err == nil || !strings.HasPrefix(err.Error(), "--set data.gaussian.mean: ") {
		t.Fatalf("generating batch 3: %v", err)
	}
	// Errors in the file itself still name the file's line.
	_, err = Parse("x.yaml", []byte("name: x\nbatches: 0\n"), "", Options{Set: []string{"seed=2"}})
	if err == nil || !strings.HasPrefix(err.Error(), "x.yaml:") {
		t.Fatalf("a file's own error with a --set: %v", err)
	}
}
