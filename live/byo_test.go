package live

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/cara-sim/cara/scenarios"
)

// fleet is the example of a model from outside: scikit-learn's predictions of a CSV stream
// (docs/examples/byo).
func fleet(t *testing.T, sets ...string) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Load("../docs/examples/byo/fleet.yaml", scenarios.Options{Set: sets})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// With a model from outside, what-ifs on R, the kernel, gamma, the weights and queries that are
// rows of the data give a fresh run's matrix bit for bit, query accuracy included (read off the
// errors: the model is not asked again); queries that are not rows of the data have no answers,
// and the what-if says query accuracy is not available, as a fresh run does.
func TestWhatIfModelFromOutside(t *testing.T) {
	s := fleet(t)
	b, err := NewBase(s, s.Seed, keptRun(t, s, 2), 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, sets := range [][]string{
		{"retrain_cost=5"},
		{"kernel.gamma=0.3"},
		{"kernel.standardize=false"},
		{"errors.weights={yes: 5}"},
		{"queries={from: data, size: 40}"},
		{"queries={csv: fleet.csv.gz, label: failure, batch_column: week}", "kernel.gamma=auto"},
	} {
		w, err := b.Apply(context.Background(), sets)
		if err != nil {
			t.Fatalf("%v: %v", sets, err)
		}
		fresh := keptRun(t, w.Scenario, 1)
		sameMatrix(t, w.Matrix, fresh)
		others := strings.HasPrefix(sets[0], "queries={csv")
		if w.Accuracy == others {
			t.Errorf("%v: accuracy available %v", sets, w.Accuracy)
		}
		if acc := w.Matrix.Cell(3, 7).QueryAccuracy; math.IsNaN(acc) != others {
			t.Errorf("%v: query accuracy %v", sets, acc)
		}
		if others && !strings.Contains(strings.Join(fresh.Warnings(), "\n"), "query accuracy is not available") {
			t.Errorf("%v: the fresh run does not say so: %q", sets, fresh.Warnings())
		}
	}
}

// A change that needs the model fitted again (the data, the training window) is refused with the
// reason: the predictions are for the data as the file reads them.
func TestModelFromOutsideRefusesRefits(t *testing.T) {
	s := fleet(t)
	for _, c := range []struct{ set, want string }{
		{"data.missing=mean", "--set data.missing: the model's predictions (model.predictions predictions.csv.gz) are for the data as the scenario file reads them, row by row"},
		{"data.ignore=[truck, hours]", "--set data.ignore: the model's predictions"},
		{"model.window=2", "--set model.window: is how cara fits its own models; predictions from outside come from models already fitted"},
	} {
		if _, err := s.With([]string{c.set}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.set, err)
		}
	}
	if _, err := s.WhatIf([]string{"data.missing=mean"}); err == nil || !strings.Contains(err.Error(), "a what-if changes only") {
		t.Errorf("a what-if of the data: %v", err)
	}
	// A shuffle keeps every row's number, and predictions name labels: both keep the predictions.
	for _, set := range []string{"data.shuffle=within_batch", "data.positive=no"} {
		if _, err := s.With([]string{set}); err != nil {
			t.Errorf("%s: %v", set, err)
		}
	}
	// Another model altogether is a new run of a model cara fits: nothing to refuse.
	if o, err := s.With([]string{"model={knn: {k: 5}}"}); err != nil || o.Outside != nil {
		t.Errorf("model=knn: %v", err)
	}
}
