package live

import (
	"context"
	"math"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/cara-sim/cara/internal/simtest"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// The last watcher to leave a live run ends it: queued, it leaves the queue and the others move up;
// computing, it is cancelled and its slot freed for the next in line. A watcher who is not the last
// changes nothing.
func TestRunsLifetimeAndQueue(t *testing.T) {
	runs := NewRuns(RunsConfig{MaxComputing: 1, Cache: 4, Workers: 1})
	defer runs.Close()
	var ws []*Watch
	var scens []*scenarios.Scenario
	gates := make([]chan struct{}, 3) // closed to let a run's fits through
	for i := range gates {
		gates[i] = make(chan struct{})
		defer func() {
			select {
			case <-gates[i]:
			default:
				close(gates[i])
			}
		}()
		s := simtest.Gated(loadSmall(t), gates[i])
		st, _ := s.Stream(s.Seed)
		scens = append(scens, s)
		ws = append(ws, runs.Watch(s, st, s.Seed))
	}
	st0, _ := scens[0].Stream(scens[0].Seed)
	extra := runs.Watch(scens[0], st0, scens[0].Seed) // a second watcher of the first run
	if st := runs.Stats(); st.Computing != 1 || st.Queued != 2 || st.Watchers != 4 {
		t.Fatalf("three runs, one slot: %+v", st)
	}
	place := func(w *Watch) int {
		runs.mu.Lock()
		defer runs.mu.Unlock()
		return runs.queueLocked(w.run).Pos
	}
	if place(ws[1]) != 1 || place(ws[2]) != 2 {
		t.Fatalf("places %d and %d, want 1 and 2", place(ws[1]), place(ws[2]))
	}
	ws[1].Leave()
	if st := runs.Stats(); st.Queued != 1 || place(ws[2]) != 1 {
		t.Fatalf("after the first in line left: %+v, place %d", st, place(ws[2]))
	}
	ws[0].Leave()
	if st := runs.Stats(); st.Computing != 1 || st.Queued != 1 {
		t.Fatalf("a watcher who is not the last left: %+v; nothing should change", st)
	}
	extra.Leave()
	// The computing run is cancelled; its slot is free once its engine stops (it waits in Fit).
	if st := runs.Stats(); st.Computing != 1 || st.Queued != 1 || runs.Len() != 1 {
		t.Fatalf("while the cancelled run's engine has not stopped: %+v, %d held", st, runs.Len())
	}
	close(gates[0])
	simtest.Eventually(t, "the cancelled run's slot goes to the next in line", func() bool {
		st := runs.Stats()
		return st.Queued == 0 && st.Computing == 1 && runs.Len() == 1
	})
	ws[2].Leave()
	close(gates[2])
	simtest.Eventually(t, "nothing computing, nothing held", func() bool {
		st := runs.Stats()
		return st.Computing == 0 && st.Queued == 0 && runs.Len() == 0
	})
	// A left watch leaves once: a second leave does not steal another watcher's place.
	s := loadSmall(t)
	st, _ := s.Stream(s.Seed)
	a, b := runs.Watch(s, st, s.Seed), runs.Watch(s, st, s.Seed)
	a.Leave()
	a.Leave()
	if got := runs.Stats().Watchers; got != 1 {
		t.Errorf("watchers %d after one of two left twice, want 1", got)
	}
	b.Leave()
}

// The estimate: a computing run ends when its scenario's measured mean has passed, and each run
// ahead in the queue takes its mean; the wait shows in whole seconds.
func TestQueueEstimate(t *testing.T) {
	runs := NewRuns(RunsConfig{MaxComputing: 2})
	runs.took["covcon-d"] = meanDuration{sum: 16 * time.Second, n: 2} // 8 s each
	now := time.Now()
	running := func(elapsed time.Duration, done, all int) *sharedRun {
		r := &sharedRun{state: runComputing, started: now.Add(-elapsed), cfg: sim.Config{Scenario: "covcon-d"}}
		if all > 0 {
			r.events = []sim.Event{{CellsDone: done, CellsAll: all}}
		}
		return r
	}
	// One run half done after 3 s (3 s to go), one just started (8 s to go by the mean).
	runs.runs[runKey{seed: 1}] = running(3*time.Second, 50, 100)
	runs.runs[runKey{seed: 2}] = running(0, 0, 0)
	for range 3 {
		runs.queue = append(runs.queue, &sharedRun{state: runQueued, cfg: sim.Config{Scenario: "covcon-d"}})
	}
	// Slots free at 3 and 8; the 1st in line starts at 3 (then ends at 11), the 2nd at 8, the 3rd at 11
	// (shown to 5 s at that range).
	for i, want := range []string{"queued: 1st, about 3 s", "queued: 2nd, about 8 s", "queued: 3rd, about 10 s"} {
		runs.mu.Lock()
		q := runs.queueLocked(runs.queue[i])
		runs.mu.Unlock()
		if got := q.String(); got != want {
			t.Errorf("place %d: %q, want %q", i+1, got, want)
		}
	}
	// Nothing measured for another scenario: its place, no estimate... unless some scenario has one.
	other := NewRuns(RunsConfig{MaxComputing: 1})
	other.runs[runKey{seed: 1}] = running(0, 0, 0)
	other.queue = []*sharedRun{{state: runQueued, cfg: sim.Config{Scenario: "x"}}}
	other.mu.Lock()
	q := other.queueLocked(other.queue[0])
	other.mu.Unlock()
	if q.String() != "queued: 1st" {
		t.Errorf("no measure yet: %q, want no estimate", q.String())
	}
}

func TestOrdinalAndRoughly(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 101: "101st", 111: "111th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", n, got, want)
		}
	}
	for d, want := range map[time.Duration]string{time.Millisecond: "1 s", 7400 * time.Millisecond: "7 s", 7600 * time.Millisecond: "8 s", 12 * time.Second: "10 s", 13 * time.Second: "15 s", 59 * time.Second: "60 s", 84 * time.Second: "80 s",
		89 * time.Second: "90 s", 150 * time.Second: "3 min"} {
		if got := roughly(d); got != want {
			t.Errorf("roughly(%v) = %q, want %q", d, got, want)
		}
	}
}

func loadSmall(t testing.TB) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Load(filepath.Join("testdata", "small.yaml"), scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// covconSmall keeps covcon's batches, drifts and queries at a size a test runs in a second.
var covconSmall = []string{"data.size=250", "model.random_forest.trees=10"}

const covconSQueries = "queries={size: 100, gaussian: {mean: 0.5, std: 0.015}}"

// finished watches the run of s in runs until it has ended, and fails unless it is complete.
func finished(t testing.TB, s *scenarios.Scenario, runs *Runs) *Watch {
	t.Helper()
	st, err := s.Stream(s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	w := runs.Watch(s, st, s.Seed)
	i, shown := 0, Queue{}
	for {
		u := w.Next(context.Background(), i, shown)
		switch {
		case u.OK:
			i += len(u.Events)
			continue
		case u.Queued:
			shown = u.Queue
			continue
		}
		if u.Err != nil || i != s.Batches {
			t.Fatalf("run: %v, %d of %d columns", u.Err, i, s.Batches)
		}
		return w
	}
}

// whatIf computes a what-if on a watched run.
func whatIf(t testing.TB, w *Watch, sets ...string) *WhatIf {
	t.Helper()
	res, err := w.WhatIf(context.Background(), sets)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A run keeps its models within the budget (counted in the registry's bytes) and its watchers
// share one Base, dropped when the last leaves; over the budget it keeps none, and a what-if on
// the queries then has exact costs but no query accuracy.
func TestRunsKeepModels(t *testing.T) {
	s := load(t, "covcon-d", covconSmall...)
	runs := NewRuns(RunsConfig{Workers: 2, Cache: 2})
	defer runs.Close()
	a := finished(t, s, runs)
	b := finished(t, s, runs)
	run := a.run
	var kept int64
	for _, m := range run.models {
		kept += sim.KeptBytes(m)
	}
	if len(run.models) != s.Batches || kept <= 0 || runs.Stats().Bytes <= kept {
		t.Fatalf("%d models kept (%d bytes), registry bytes %d", len(run.models), kept, runs.Stats().Bytes)
	}
	wa, wb := whatIf(t, a, covconSQueries), whatIf(t, b, covconSQueries)
	if wa.Matrix != wb.Matrix || run.base == nil {
		t.Error("two watchers' what-ifs: computed twice, or no Base") // one what-if for the run's watchers
	}
	if !wa.Accuracy {
		t.Error("kept models, yet no query accuracy")
	}
	a.Leave()
	if run.base == nil {
		t.Error("one watcher left, the Base went")
	}
	b.Leave()
	if run.base != nil {
		t.Error("the last watcher left, the Base (compiled models) stayed")
	}

	tight := NewRuns(RunsConfig{Workers: 2, ModelBytes: kept / 2})
	defer tight.Close()
	c := finished(t, s, tight)
	defer c.Leave()
	if c.run.models != nil || !c.run.dropped {
		t.Fatalf("over the budget, %d models kept", len(c.run.models))
	}
	wc := whatIf(t, c, covconSQueries)
	if wc.Accuracy || !math.IsNaN(wc.Matrix.Cell(3, 40).QueryAccuracy) {
		t.Errorf("no models, accuracy %v (%v)", wc.Accuracy, wc.Matrix.Cell(3, 40).QueryAccuracy)
	}

	none := NewRuns(RunsConfig{Workers: 2, ModelBytes: -1})
	defer none.Close()
	d := finished(t, s, none)
	defer d.Leave()
	if d.run.models != nil {
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
	s := load(b, "covcon-d")
	for b.Loop() {
		measure := func(cfg RunsConfig, warm bool) (held, withBase int64) {
			runs := NewRuns(cfg)
			defer runs.Close()
			before := heapBytes()
			finished(b, s, runs).Leave() // idle, in the cache
			held = heapBytes() - before
			if warm {
				w := finished(b, s, runs) // the cached run again
				base, err := w.Base()
				if err != nil {
					b.Fatal(err)
				}
				if err := base.Warm(context.Background()); err != nil {
					b.Fatal(err)
				}
				withBase = heapBytes() - before
				w.Leave()
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
	var ws []*Watch
	for seed := range uint64(3) {
		s := load(t, "scenario1-far", "seed="+strconv.FormatUint(seed, 10))
		ws = append(ws, finished(t, s, runs))
		defer ws[seed].Leave()
	}
	whatIf(t, ws[0], "retrain_cost=2")
	whatIf(t, ws[1], "retrain_cost=2")
	whatIf(t, ws[0], "retrain_cost=3") // 0 is now the most recent
	whatIf(t, ws[2], "retrain_cost=2")
	if ws[0].run.base == nil || ws[1].run.base != nil || ws[2].run.base == nil {
		t.Errorf("bases held: %v %v %v, want the least recently used (1) dropped",
			ws[0].run.base != nil, ws[1].run.base != nil, ws[2].run.base != nil)
	}
	w := whatIf(t, ws[1], "retrain_cost=4") // made again
	if w.Scenario.RetrainCost(0) != 4 || ws[0].run.base != nil {
		t.Error("the dropped run's what-if, or the next drop")
	}
}
