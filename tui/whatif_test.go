package tui

import (
	"context"
	"math"
	"runtime"
	"strconv"
	"testing"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// covconSmall keeps covcon's batches, drifts and queries at a size a test runs in a second.
var covconSmall = []string{"data.size=250", "model.random_forest.trees=10"}

const covconSQueries = "queries={size: 100, gaussian: {mean: 0.5, std: 0.015}}"

func loadEmbedded(t testing.TB, name string, sets ...string) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Load(name, scenarios.Options{Set: sets})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// finished runs a session of s in runs to its end, on this goroutine.
func finished(t testing.TB, s *scenarios.Scenario, runs *Runs) *Session {
	t.Helper()
	sess, err := NewSession(s, s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	sess.runs, sess.parent = runs, context.Background()
	cmd := sess.Start()
	for cmd != nil {
		switch msg := cmd().(type) {
		case columnMsg:
			cmd = sess.apply(msg)
		case queuedMsg:
			cmd = sess.queued(msg)
		case engineDoneMsg:
			sess.Done, sess.Err, cmd = true, msg.err, nil
		}
	}
	if sess.Err != nil || sess.Computed != s.Batches {
		t.Fatalf("run: %v, %d of %d columns", sess.Err, sess.Computed, s.Batches)
	}
	return sess
}

// whatIf runs a session's what-if to its message and shows it.
func whatIf(t testing.TB, sess *Session, sets ...string) {
	t.Helper()
	msg := sess.StartWhatIf(sets)().(whatIfMsg)
	if !sess.TakeWhatIf(msg) {
		t.Fatal("the newest what-if's message was dropped")
	}
	if sess.WhatIfErr != nil {
		t.Fatal(sess.WhatIfErr)
	}
}

// sameResults fails unless two replays agree bit for bit on cost, retrains and query accuracy.
func sameResults(t *testing.T, got, want []algos.Result) {
	t.Helper()
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("%d results, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Algorithm != w.Algorithm || math.Float64bits(g.Strategy.Cost()) != math.Float64bits(w.Strategy.Cost()) ||
			len(g.Strategy.Retrains) != len(w.Strategy.Retrains) || math.Float64bits(g.QueryAccuracy) != math.Float64bits(w.QueryAccuracy) {
			t.Errorf("%s: cost %v, %d retrains, accuracy %v; want %v, %d, %v", g.Algorithm, g.Strategy.Cost(), len(g.Strategy.Retrains),
				g.QueryAccuracy, w.Strategy.Cost(), len(w.Strategy.Retrains), w.QueryAccuracy)
		}
	}
}

// A session's what-if replays every algorithm (tuning included) on the what-if's matrix: covcon-d
// with covcon-s's queries gives covcon-s's results, and returning to the scenario gives its own.
func TestSessionWhatIf(t *testing.T) {
	runs := NewRuns(RunsConfig{Workers: 2})
	defer runs.Close()
	s := loadEmbedded(t, "covcon-d", covconSmall...)
	sess := finished(t, s, runs)
	defer sess.Stop()
	end := s.Batches - 1
	own, err := sess.evaluate(end, 1, s.Algorithms)
	if err != nil {
		t.Fatal(err)
	}

	whatIf(t, sess, covconSQueries)
	got, err := sess.evaluate(end, 1, s.Algorithms)
	if err != nil {
		t.Fatal(err)
	}
	other := finished(t, loadEmbedded(t, "covcon-s", covconSmall...), runs)
	defer other.Stop()
	want, err := other.evaluate(end, 1, s.Algorithms)
	if err != nil {
		t.Fatal(err)
	}
	sameResults(t, got.results, want.results)
	if got.tuned["theta"] != want.tuned["theta"] {
		t.Errorf("tuned theta %v, covcon-s's %v", got.tuned["theta"], want.tuned["theta"])
	}
	b, err := sess.Batch(40)
	if err != nil || b.Q.Len() != 100 || math.Abs(b.Q.V[0]-0.5) > 0.1 {
		t.Errorf("the what-if's batch 40: %v, %d queries, first at %v", err, b.Q.Len(), b.Q.V[:2])
	}

	// R doubled as the player's ] does it, on top of the what-if: covcon-s's at twice R.
	got2, _ := sess.evaluate(end, 2, s.Algorithms)
	want2, _ := other.evaluate(end, 2, s.Algorithms)
	sameResults(t, got2.results, want2.results)

	sess.ClearWhatIf()
	back, err := sess.evaluate(end, 1, s.Algorithms)
	if err != nil {
		t.Fatal(err)
	}
	sameResults(t, back.results, own.results)
	if m, sc := sess.Shown(); m != sess.Matrix || sc != s {
		t.Error("back to the scenario, the panes would still show the what-if")
	}
}

// A newer what-if supersedes an older one: the older's message is dropped; a what-if before the
// run has finished is refused with a reason.
func TestSessionWhatIfSupersedes(t *testing.T) {
	runs := NewRuns(RunsConfig{Workers: 2})
	defer runs.Close()
	s := loadEmbedded(t, "scenario1-far")
	sess := finished(t, s, runs)
	defer sess.Stop()
	near := "queries={size: 40, gaussian: {mean: [0.85, 0.7], std: 0.05}}"
	first := sess.StartWhatIf([]string{"retrain_cost=3"})
	second := sess.StartWhatIf([]string{near})
	if sess.TakeWhatIf(first().(whatIfMsg)) {
		t.Error("a superseded what-if's message was taken")
	}
	if !sess.TakeWhatIf(second().(whatIfMsg)) || sess.WhatIf == nil || sess.WhatIf.Sets[0] != near {
		t.Fatalf("the newest what-if was not shown: %+v, %v", sess.WhatIf, sess.WhatIfErr)
	}
	m, _ := sess.Shown()
	want := loadEmbedded(t, "scenario1-near")
	cfg, _ := want.Config(want.Seed)
	wm, err := sim.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Cell(0, 3).C() != wm.Cell(0, 3).C() || m.Cell(0, 3).QueryAccuracy != wm.Cell(0, 3).QueryAccuracy {
		t.Errorf("C[0, 3] %v (accuracy %v), scenario1-near's %v (%v)", m.Cell(0, 3).C(), m.Cell(0, 3).QueryAccuracy, wm.Cell(0, 3).C(), wm.Cell(0, 3).QueryAccuracy)
	}
	// An error is kept for the status line, and the what-if shown stays.
	whatIfErr := sess.StartWhatIf([]string{"data.noise=0.3"})().(whatIfMsg)
	if !sess.TakeWhatIf(whatIfErr) || sess.WhatIfErr == nil || sess.WhatIf == nil {
		t.Errorf("a refused what-if: err %v, shown %v", sess.WhatIfErr, sess.WhatIf)
	}

	live, err := NewSession(loadEmbedded(t, "covcon-d"), 0)
	if err != nil {
		t.Fatal(err)
	}
	live.runs, live.parent = NewRuns(RunsConfig{MaxComputing: 1}), context.Background()
	live.Start() // queued or computing; its first message is not awaited
	defer live.Stop()
	msg := live.StartWhatIf([]string{near})().(whatIfMsg)
	if msg.err != errComputing {
		t.Errorf("a what-if on a run still computing: %v", msg.err)
	}
}

// A run keeps its models within the budget (counted in the registry's bytes) and its watchers
// share one Base, dropped when the last leaves; over the budget it keeps none, and a what-if on
// the queries then has exact costs but no query accuracy.
func TestRunsKeepModels(t *testing.T) {
	s := loadEmbedded(t, "covcon-d", covconSmall...)
	runs := NewRuns(RunsConfig{Workers: 2, Cache: 2})
	defer runs.Close()
	a := finished(t, s, runs)
	b := finished(t, s, runs)
	run := a.w.run
	var kept int64
	for _, m := range run.models {
		kept += sim.KeptBytes(m)
	}
	if len(run.models) != s.Batches || kept <= 0 || runs.Stats().Bytes <= kept {
		t.Fatalf("%d models kept (%d bytes), registry bytes %d", len(run.models), kept, runs.Stats().Bytes)
	}
	whatIf(t, a, covconSQueries)
	whatIf(t, b, covconSQueries)
	if a.WhatIf.Matrix == b.WhatIf.Matrix || run.base == nil {
		t.Error("two watchers' what-ifs: one matrix, or no Base") // each gets its own matrix from the one Base
	}
	if !a.WhatIf.Accuracy {
		t.Error("kept models, yet no query accuracy")
	}
	a.Stop()
	if run.base == nil {
		t.Error("one watcher left, the Base went")
	}
	b.Stop()
	if run.base != nil {
		t.Error("the last watcher left, the Base (compiled models) stayed")
	}

	tight := NewRuns(RunsConfig{Workers: 2, ModelBytes: kept / 2})
	defer tight.Close()
	c := finished(t, s, tight)
	defer c.Stop()
	if c.w.run.models != nil || !c.w.run.dropped {
		t.Fatalf("over the budget, %d models kept", len(c.w.run.models))
	}
	whatIf(t, c, covconSQueries)
	if c.WhatIf.Accuracy || !math.IsNaN(c.WhatIf.Matrix.Cell(3, 40).QueryAccuracy) {
		t.Errorf("no models, accuracy %v (%v)", c.WhatIf.Accuracy, c.WhatIf.Matrix.Cell(3, 40).QueryAccuracy)
	}

	none := NewRuns(RunsConfig{Workers: 2, ModelBytes: -1})
	defer none.Close()
	d := finished(t, s, none)
	defer d.Stop()
	if d.w.run.models != nil {
		t.Error("ModelBytes < 0 kept models")
	}
}

func heapBytes() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// BenchmarkRunMemory measures what a finished covcon-d run (100 batches, 100 trees) holds in the
// registry, on the heap after a GC: its recorded columns alone (a registry that keeps no models:
// the matrix), with its kept models (the default), and with a what-if's Base warmed (its models
// compiled for asking and its batches generated) while a watcher uses what-ifs.
func BenchmarkRunMemory(b *testing.B) {
	s := loadEmbedded(b, "covcon-d")
	for b.Loop() {
		measure := func(cfg RunsConfig, warm bool) (held, withBase int64) {
			runs := NewRuns(cfg)
			defer runs.Close()
			before := heapBytes()
			sess := finished(b, s, runs)
			sess.Stop() // idle, in the cache
			held = heapBytes() - before
			if warm {
				sess = finished(b, s, runs) // the cached run again
				base, err := sess.w.base()
				if err != nil {
					b.Fatal(err)
				}
				if err := base.Warm(context.Background()); err != nil {
					b.Fatal(err)
				}
				withBase = heapBytes() - before
				sess.Stop()
			}
			return held, withBase
		}
		matrix, _ := measure(RunsConfig{Cache: 1, ModelBytes: -1}, false)
		kept, warmed := measure(RunsConfig{Cache: 1}, true)
		b.ReportMetric(float64(matrix)/(1<<20), "MB-matrix")
		b.ReportMetric(float64(kept)/(1<<20), "MB-kept")
		b.ReportMetric(float64(warmed)/(1<<20), "MB-whatif")
	}
}

// At most MaxBases runs hold what-if state: a third run's what-if drops the least recently used.
func TestRunsMaxBases(t *testing.T) {
	runs := NewRuns(RunsConfig{Workers: 1, MaxBases: 2})
	defer runs.Close()
	var sess []*Session
	for seed := range uint64(3) {
		s := loadEmbedded(t, "scenario1-far", "seed="+strconv.FormatUint(seed, 10))
		sess = append(sess, finished(t, s, runs))
		defer sess[seed].Stop()
	}
	whatIf(t, sess[0], "retrain_cost=2")
	whatIf(t, sess[1], "retrain_cost=2")
	whatIf(t, sess[0], "retrain_cost=3") // 0 is now the most recent
	whatIf(t, sess[2], "retrain_cost=2")
	if sess[0].w.run.base == nil || sess[1].w.run.base != nil || sess[2].w.run.base == nil {
		t.Errorf("bases held: %v %v %v, want the least recently used (1) dropped",
			sess[0].w.run.base != nil, sess[1].w.run.base != nil, sess[2].w.run.base != nil)
	}
	whatIf(t, sess[1], "retrain_cost=4") // made again
	if sess[1].WhatIf.Scenario.RetrainCost(0) != 4 || sess[0].w.run.base != nil {
		t.Error("the dropped run's what-if, or the next drop")
	}
}
