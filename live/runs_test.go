package live

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cara-sim/cara/internal/budget"
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
	// The first run is granted its slot at once, but starts on a goroutine of its own (admit):
	// until then it is still in the queue, so wait for it rather than read the counts at once.
	simtest.Eventually(t, "the first run computing", func() bool { return runs.Stats().Computing == 1 })
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

// A finished run keeps its matrix and error bits, not its models: what it holds in the budget
// shrinks to its recorded columns. Its watchers share one Base, dropped when the last leaves, and a
// what-if on the queries fits the models again and has query accuracy.
func TestRunsHoldNoModels(t *testing.T) {
	s := load(t, "covcon-d", covconSmall...)
	b := budget.New(budget.Config{Bytes: 1 << 30, Slots: 2})
	runs := NewRuns(RunsConfig{Workers: 2, Cache: 2, Budget: b})
	defer runs.Close()
	wa := finished(t, s, runs)
	wb := finished(t, s, runs)
	run := wa.run
	if st := b.Stats(); st.Held != run.bytes || st.Busy != 0 || run.bytes <= 0 || run.bytes > run.footprint.Held {
		t.Fatalf("a finished run: budget %+v, its columns %d bytes (estimated %d)", st, run.bytes, run.footprint.Held)
	}
	if st := b.Stats(); st.Peak < run.footprint.Peak {
		t.Errorf("while computing the run held %d in the budget, its estimate is %d", st.Peak, run.footprint.Peak)
	}
	x, y := whatIf(t, wa, covconSQueries), whatIf(t, wb, covconSQueries)
	if x.Matrix != y.Matrix || run.base == nil || !x.Accuracy || math.IsNaN(x.Matrix.Cell(3, 40).QueryAccuracy) {
		t.Error("two watchers' what-ifs: computed twice, no Base, or no query accuracy")
	}
	if got := b.Stats().Held; got != run.bytes+baseBytes(run) {
		t.Errorf("with a Base the budget holds %d, want %d", got, run.bytes+baseBytes(run))
	}
	wa.Leave()
	if run.base == nil {
		t.Error("one watcher left, the Base went")
	}
	wb.Leave()
	if run.base != nil || b.Stats().Held != run.bytes {
		t.Errorf("the last watcher left: Base %v, budget holds %d (the kept run %d)", run.base != nil, b.Stats().Held, run.bytes)
	}
}

// Runs are admitted against the budget's memory: a run that does not fit beside one computing
// waits, told that the room's memory is in use, and starts when the other's grant shrinks to
// what it keeps; a run nobody watches is let go when a run in line needs its memory; a run that
// could never fit is refused, saying how many trees would.
func TestRunsWithinBudget(t *testing.T) {
	s := load(t, "covcon-d", covconSmall...)
	other := load(t, "covcon-d", append(covconSmall, "seed=2")...)
	third := load(t, "covcon-d", append(covconSmall, "seed=3")...)
	probe := NewRuns(RunsConfig{Workers: 1, Budget: budget.New(budget.Config{Bytes: 1 << 40, Slots: 1})})
	f, err := probe.Footprint(s, s.Seed)
	f2, err2 := probe.Footprint(other, 2)
	f3, err3 := probe.Footprint(third, 3)
	probe.Close()
	if err := errors.Join(err, err2, err3); err != nil {
		t.Fatal(err)
	}
	// Room for one run computing and one kept, not for two computing, nor for one computing and two
	// kept. (The first run is gated, on nearest centroids: it takes little.)
	b := budget.New(budget.Config{Bytes: max(f2.Peak, f3.Peak) + f.Held, Slots: 4})
	runs := NewRuns(RunsConfig{Workers: 1, Cache: 4, Budget: b})
	defer runs.Close()
	open := make(chan struct{})
	gated := simtest.Gated(s, open)
	st, _ := gated.Stream(1)
	first := runs.Watch(gated, st, 1)
	st2, _ := other.Stream(2)
	second := runs.Watch(other, st2, 2)
	u := second.Next(context.Background(), 0, Queue{})
	if !u.Queued || !u.Queue.Memory || u.Queue.String() != "queued: 1st; the room's memory is in use" {
		t.Fatalf("a second run beside one computing: %+v (%q)", u, u.Queue.String())
	}
	close(open)
	wait := func(w *Watch) {
		t.Helper()
		i, shown := 0, Queue{}
		for {
			u := w.Next(context.Background(), i, shown)
			switch {
			case u.OK:
				i += len(u.Events)
			case u.Queued:
				shown = u.Queue
			case u.Err != nil || i != s.Batches:
				t.Fatalf("run: %v, %d columns", u.Err, i)
			default:
				return
			}
		}
	}
	wait(second) // started once the first finished and kept only its columns
	wait(first)
	first.Leave() // idle in the cache: its memory can go back
	st3, _ := third.Stream(3)
	second.Leave()
	if runs.Len() != 2 {
		t.Fatalf("%d runs held, want the two finished", runs.Len())
	}
	w3 := runs.Watch(third, st3, 3)
	wait(w3) // started once the least recently left run was let go
	w3.Leave()
	if st := b.Stats(); st.Held > b.Capacity() || st.Peak > b.Capacity() || runs.Len() != 2 {
		t.Errorf("budget %+v (capacity %d), %d runs held: want the first let go", st, b.Capacity(), runs.Len())
	}

	tight := budget.New(budget.Config{Bytes: f.Peak * 9 / 10, Slots: 1}) // some of the 10 trees fit
	small := NewRuns(RunsConfig{Workers: 1, Budget: tight})
	defer small.Close()
	stream, _ := s.Stream(s.Seed)
	w := small.Watch(s, stream, s.Seed)
	defer w.Leave()
	u = w.Next(context.Background(), 0, Queue{})
	var tb *TooBig
	if !errors.As(u.Err, &tb) || tb.Fit < 1 || tb.Fit >= tb.Trees || !strings.Contains(u.Err.Error(), "10 trees need about ") ||
		!strings.Contains(u.Err.Error(), "try trees <= "+strconv.Itoa(tb.Fit)) {
		t.Errorf("a run over the whole budget: %v", u.Err)
	}
	if _, err := small.Footprint(s, s.Seed); !errors.As(err, &tb) {
		t.Errorf("Footprint of a run over the budget: %v", err)
	}
	if small.Stats().Refused != 1 || tight.Stats().Held != 0 {
		t.Errorf("refused %d, budget %+v", small.Stats().Refused, tight.Stats())
	}
}

func TestRoundDown(t *testing.T) {
	for n, want := range map[int]int{0: 0, 7: 7, 99: 99, 752: 750, 1234: 1200, 100: 100} {
		if got := roundDown(n); got != want {
			t.Errorf("roundDown(%d) = %d, want %d", n, got, want)
		}
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
// registry, on the heap after a GC: its recorded columns (the matrix and error bits), and with a
// what-if's Base warmed (its batches generated) while a watcher uses what-ifs.
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
		kept, warmed := measure(RunsConfig{Cache: 1}, true)
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
