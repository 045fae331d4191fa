package live

import (
	"context"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/simtest"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// keptRun computes the run of s with its own seed, as a registry keeps it: its matrix.
func keptRun(t testing.TB, s *scenarios.Scenario, workers int) *sim.Matrix {
	t.Helper()
	cfg, err := s.Config(s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = workers
	m, err := sim.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func load(t testing.TB, name string, sets ...string) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Load(name, scenarios.Options{Set: sets})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sameMatrix fails unless every cell of got has want's bits: A, B, error rate, query accuracy and
// error bits; and gamma.
func sameMatrix(t *testing.T, got, want *sim.Matrix) {
	t.Helper()
	bits := math.Float64bits
	if got.Batches() != want.Batches() || bits(got.Gamma) != bits(want.Gamma) {
		t.Fatalf("%d batches, gamma %v; want %d, %v", got.Batches(), got.Gamma, want.Batches(), want.Gamma)
	}
	for tt := range want.Batches() {
		for tp := 0; tp <= tt; tp++ {
			a, b := got.Cell(tp, tt), want.Cell(tp, tt)
			same := bits(a.A) == bits(b.A) && bits(a.B) == bits(b.B) && bits(a.ErrorRate) == bits(b.ErrorRate) &&
				bits(a.QueryAccuracy) == bits(b.QueryAccuracy) && a.Done == b.Done && len(a.Errors.Words) == len(b.Errors.Words)
			for i := range a.Errors.Words {
				same = same && a.Errors.Words[i] == b.Errors.Words[i]
			}
			if !same {
				t.Fatalf("cell (%d,%d): A %v B %v err %v acc %v; fresh run: A %v B %v err %v acc %v",
					tp, tt, a.A, a.B, a.ErrorRate, a.QueryAccuracy, b.A, b.B, b.ErrorRate, b.QueryAccuracy)
			}
		}
	}
}

// smaller keeps covcon's shape at a size the race detector runs in seconds; the equalities hold at
// any size (TestWhatIfCovconFull checks the paper's).
var smaller = []string{"data.size=250", "model.random_forest.trees=10"}

// The paper's point as a what-if: covcon-d's run with covcon-s's queries is covcon-s's run, bit
// for bit, and the other way round (covcon-s with queries from the data is covcon-d).
func TestWhatIfCovcon(t *testing.T) {
	covconD := "queries={from: data, size: 100}"
	covconS := "queries={size: 100, gaussian: {mean: 0.5, std: 0.015}}"
	for _, c := range []struct{ from, to, set string }{
		{"covcon-d", "covcon-s", covconS},
		{"covcon-s", "covcon-d", covconD},
	} {
		t.Run(c.from, func(t *testing.T) {
			s := load(t, c.from, smaller...)
			m := keptRun(t, s, 2)
			b, err := NewBase(s, s.Seed, m, 2)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.Warm(context.Background()); err != nil { // as the player's w does, first
				t.Fatal(err)
			}
			w, err := b.Apply(context.Background(), []string{c.set})
			if err != nil {
				t.Fatal(err)
			}
			if !w.Accuracy || w.Scenario.Name != c.from {
				t.Errorf("accuracy %v, scenario %q", w.Accuracy, w.Scenario.Name)
			}
			sameMatrix(t, w.Matrix, simtest.Matrix(t, load(t, c.to, smaller...)))
			if w.Matrix.Cell(3, 20).C() == m.Cell(3, 20).C() {
				t.Error("the what-if left C[3, 20] as it was: the test would not see a what-if that ignores the queries")
			}
		})
	}
}

// TestWhatIfCovconFull is TestWhatIfCovcon at the paper's size: 100 batches, 100 trees.
func TestWhatIfCovconFull(t *testing.T) {
	if testing.Short() || os.Getenv("CARA_SLOW") == "" {
		t.Skip("two full covcon runs: CARA_SLOW=1 runs it, as CI does")
	}
	s := load(t, "covcon-d")
	m := keptRun(t, s, 0)
	b, err := NewBase(s, s.Seed, m, 0)
	if err != nil {
		t.Fatal(err)
	}
	w, err := b.Apply(context.Background(), []string{"queries={size: 100, gaussian: {mean: 0.5, std: 0.015}}"})
	if err != nil {
		t.Fatal(err)
	}
	sameMatrix(t, w.Matrix, simtest.Matrix(t, load(t, "covcon-s")))
}

// scenario1-far with near's queries is scenario1-near, and the other way round.
func TestWhatIfScenario1(t *testing.T) {
	far := "queries={size: 40, gaussian: {mean: [0.1, 0.9], std: 0.05}}"
	near := "queries={size: 40, gaussian: {mean: [0.85, 0.7], std: 0.05}}"
	for _, c := range []struct{ from, to, set string }{
		{"scenario1-far", "scenario1-near", near},
		{"scenario1-near", "scenario1-far", far},
	} {
		s := load(t, c.from)
		m := keptRun(t, s, 1)
		b, err := NewBase(s, s.Seed, m, 1)
		if err != nil {
			t.Fatal(err)
		}
		w, err := b.Apply(context.Background(), []string{c.set})
		if err != nil {
			t.Fatal(err)
		}
		sameMatrix(t, w.Matrix, simtest.Matrix(t, load(t, c.to)))
	}
}

// Gamma doubled (the what-if bar's x2) is the run with --set kernel.gamma at that value, with and
// without other queries; the scenario's own queries keep the run's accuracies.
func TestWhatIfGamma(t *testing.T) {
	s := load(t, "covcon-d", smaller...)
	m := keptRun(t, s, 2)
	b, err := NewBase(s, s.Seed, m, 2)
	if err != nil {
		t.Fatal(err)
	}
	own, err := b.Gamma(context.Background())
	if err != nil || own != m.Gamma {
		t.Fatalf("the run's gamma %v (%v), want %v", own, err, m.Gamma)
	}
	// A Base of a matrix that does not carry its gamma (a player's, built from columns) finds it.
	bare := sim.NewMatrix(m.Batches(), m.Offline())
	if g, err := (&Base{scenario: s, seed: s.Seed, matrix: bare, workers: 1}).Gamma(context.Background()); err != nil || g != m.Gamma {
		t.Errorf("gamma from the offline data: %v (%v), want %v", g, err, m.Gamma)
	}
	gamma := GammaSet(2 * m.Gamma)
	w, err := b.Apply(context.Background(), []string{gamma})
	if err != nil {
		t.Fatal(err)
	}
	sameMatrix(t, w.Matrix, simtest.Matrix(t, load(t, "covcon-d", append(smaller, gamma)...)))
	if w.Matrix.Gamma != 2*m.Gamma {
		t.Errorf("gamma %v, want twice %v", w.Matrix.Gamma, m.Gamma)
	}
	static := "queries={size: 100, gaussian: {mean: [0.5, 0.5], std: 0.05}}"
	w, err = b.Apply(context.Background(), []string{static, gamma})
	if err != nil {
		t.Fatal(err)
	}
	sameMatrix(t, w.Matrix, simtest.Matrix(t, load(t, "covcon-d", append(smaller, static, gamma)...)))
}

// A what-if on R alone is the run's own matrix with the new cost; a path a what-if cannot change,
// and a bad value, are refused naming --set PATH; a cancelled what-if changes nothing for the next.
func TestWhatIfEdges(t *testing.T) {
	s := load(t, "scenario1-far")
	m := keptRun(t, s, 1)
	b, err := NewBase(s, s.Seed, m, 1)
	if err != nil {
		t.Fatal(err)
	}
	w, err := b.Apply(context.Background(), []string{"retrain_cost=46"})
	if err != nil {
		t.Fatal(err)
	}
	if w.Matrix != m || w.Batches != nil || w.Scenario.RetrainCost(2) != 46 || s.RetrainCost(2) != 1 {
		t.Errorf("R what-if: matrix %p (run's %p), R %v (scenario's %v)", w.Matrix, m, w.Scenario.RetrainCost(2), s.RetrainCost(2))
	}
	for _, c := range []struct{ set, want string }{
		{"data.noise=0.2", "--set data.noise: a what-if changes only queries, kernel, retrain_cost"},
		{"model.random_forest.trees=3", "--set model.random_forest.trees: a what-if changes only"},
		{"kernel.gamma=-2", "--set kernel.gamma: must be scale, auto or a number > 0"},
		{"queries={size: 0, gaussian: {mean: 0.5, std: 0.1}}", "--set queries: queries.size: must be >= 1"},
		{"retrain_cost", "--set retrain_cost: give PATH=VALUE"},
	} {
		if _, err := b.Apply(context.Background(), []string{c.set}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.set, err, c.want)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	near := "queries={size: 40, gaussian: {mean: [0.85, 0.7], std: 0.05}}"
	if _, err := b.Apply(ctx, []string{near}); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := b.Apply(context.Background(), []string{near}); err != nil {
		t.Errorf("after a cancelled what-if: %v", err)
	}

	if _, err := NewBase(s, s.Seed, simtest.Matrix(t, load(t, "covcon-d", smaller...)), 1); err == nil {
		t.Error("another scenario's matrix accepted")
	}
}

// The what-if's results are those of a fresh run of the changed scenario: what the player's
// results pane shows after a what-if (replay included).
func TestWhatIfResults(t *testing.T) {
	s := load(t, "covcon-d", smaller...)
	m := keptRun(t, s, 2)
	b, err := NewBase(s, s.Seed, m, 2)
	if err != nil {
		t.Fatal(err)
	}
	set := "queries={size: 100, gaussian: {mean: 0.5, std: 0.015}}"
	w, err := b.Apply(context.Background(), []string{set, "retrain_cost=30"})
	if err != nil {
		t.Fatal(err)
	}
	other := load(t, "covcon-s", append(smaller, "retrain_cost=30")...)
	got, err := w.Scenario.Evaluation.Evaluate(w.Matrix, w.Scenario.RetrainCost, algos.Names, s.Batches-1)
	if err != nil {
		t.Fatal(err)
	}
	want, err := other.Evaluation.Evaluate(simtest.Matrix(t, other), other.RetrainCost, algos.Names, s.Batches-1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		g, x := got[i], want[i]
		if g.Strategy.Cost() != x.Strategy.Cost() || len(g.Strategy.Retrains) != len(x.Strategy.Retrains) ||
			math.Float64bits(g.QueryAccuracy) != math.Float64bits(x.QueryAccuracy) {
			t.Errorf("%s: cost %v, %d retrains, accuracy %v; fresh covcon-s %v, %d, %v", g.Algorithm,
				g.Strategy.Cost(), len(g.Strategy.Retrains), g.QueryAccuracy, x.Strategy.Cost(), len(x.Strategy.Retrains), x.QueryAccuracy)
		}
	}
}

// covconBase is covcon-d's run at the paper's size (100 batches, 100 trees), kept for what-ifs.
func covconBase(b *testing.B) (*scenarios.Scenario, *sim.Matrix) {
	s := load(b, "covcon-d")
	return s, keptRun(b, s, 0)
}

// BenchmarkWhatIf is a what-if on covcon-d at the paper's size, engine only (the player adds its
// replay and a frame): new queries each time (a static centre moved: queries drawn, A and B from
// the kept errors, every model fitted again and asked about the new queries); what a new Base does
// ahead (Warm: the run's batches generated); and gamma doubled and halved (the batches remembered,
// A and B again, no model asked).
func BenchmarkWhatIf(b *testing.B) {
	s, m := covconBase(b)
	centre := func(i int) []string {
		return []string{"queries={size: 100, gaussian: {mean: [" + strconv.FormatFloat(0.2+0.0001*float64(i), 'f', -1, 64) + ", 0.5], std: 0.05}}"}
	}
	b.Run("queries", func(b *testing.B) {
		base, _ := NewBase(s, s.Seed, m, 0)
		if _, err := base.Apply(context.Background(), centre(-1)); err != nil { // generates the batches
			b.Fatal(err)
		}
		i := 0
		for b.Loop() {
			if _, err := base.Apply(context.Background(), centre(i)); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("warm", func(b *testing.B) { // what opening the what-if bar starts in the background
		for b.Loop() {
			base, _ := NewBase(s, s.Seed, m, 0)
			if err := base.Warm(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("gamma", func(b *testing.B) {
		base, _ := NewBase(s, s.Seed, m, 0)
		sets := [][]string{{GammaSet(2 * m.Gamma)}, {GammaSet(m.Gamma / 2)}}
		if _, err := base.Apply(context.Background(), sets[1]); err != nil { // the scenario's own batches
			b.Fatal(err)
		}
		i := 0
		for b.Loop() {
			if _, err := base.Apply(context.Background(), sets[i%2]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("scenario", func(b *testing.B) { // reading the scenario again under a what-if
		for b.Loop() {
			if _, err := s.WhatIf(centre(0)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// A what-if on a scenario beyond the paper (class weights, standardised features), and one that
// turns them on or off, is the fresh run of the changed scenario, bit for bit: A and B come from
// the run's error bits through the same kernel view as Run's.
func TestWhatIfBeyondThePaper(t *testing.T) {
	weights, standardize := "errors.weights={0: 1, 1: 10}", "kernel.standardize=true"
	static := "queries={size: 100, gaussian: {mean: [0.5, 0.5], std: 0.05}}"
	bases := map[string]*Base{}
	for _, c := range []struct {
		name string
		sets []string // the scenario's own
		what []string // the what-if
	}{
		{"weighted, other queries", []string{weights}, []string{static}},
		{"weighted, gamma", []string{weights}, []string{"kernel.gamma=3"}},
		{"standardised, other queries", []string{standardize}, []string{static}},
		{"standardised, gamma auto", []string{standardize}, []string{"kernel.gamma=auto"}},
		{"weights on", nil, []string{weights}},
		{"weights off", []string{weights}, []string{"errors.weights={0: 1, 1: 1}"}},
		{"standardised on", nil, []string{standardize}},
		{"standardised off, other queries", []string{standardize}, []string{"kernel.standardize=false", static}},
	} {
		t.Run(c.name, func(t *testing.T) {
			key := strings.Join(c.sets, "\n")
			b, ok := bases[key]
			if !ok { // one run of each scenario, as a room keeps it for every what-if on it
				s := load(t, "covcon-d", append(slices.Clone(smaller), c.sets...)...)
				var err error
				if b, err = NewBase(s, s.Seed, keptRun(t, s, 2), 2); err != nil {
					t.Fatal(err)
				}
				bases[key] = b
			}
			m := b.Matrix()
			w, err := b.Apply(context.Background(), c.what)
			if err != nil {
				t.Fatal(err)
			}
			fresh := simtest.Matrix(t, load(t, "covcon-d", slices.Concat(smaller, c.sets, c.what)...))
			sameMatrix(t, w.Matrix, fresh)
			differs := false
			for tt := range m.Batches() {
				for tp := 0; tp < tt; tp++ {
					differs = differs || w.Matrix.Cell(tp, tt).C() != m.Cell(tp, tt).C()
				}
			}
			if !differs {
				t.Error("the what-if left every C as it was: the test would not see a replay that ignores it")
			}
		})
	}
}
