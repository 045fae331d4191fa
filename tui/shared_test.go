package tui

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// Two players on the same scenario and seed share one computation and see the same matrix; a
// third with another seed gets its own; finished runs nobody watches are kept, at most Cache.
func TestSharedRuns(t *testing.T) {
	runs := NewRuns(RunsConfig{Cache: 2, Workers: 2})
	s := loadSmall(t)
	play := func(seed uint64) *Player {
		p, err := NewPlayer(Options{Scenario: s, Seed: seed, Styles: asciiStyles(), Runs: runs})
		if err != nil {
			t.Fatal(err)
		}
		pump(t, p)
		return p
	}
	var wg sync.WaitGroup
	players := make([]*Player, 4)
	for i := range players {
		wg.Add(1)
		go func() { defer wg.Done(); players[i] = play(3) }()
	}
	wg.Wait()
	if st := runs.Stats(); runs.Len() != 1 || st.Watchers != 4 || st.Finished != 1 || st.Bytes <= 0 {
		t.Fatalf("%d runs, %+v for four players of one scenario and seed, want 1 run with 4 watchers", runs.Len(), st)
	}
	for _, p := range players[1:] {
		for tt := range 12 {
			for tp := 0; tp <= tt; tp++ {
				if a, b := p.s.Matrix.Cell(tp, tt), players[0].s.Matrix.Cell(tp, tt); a.A != b.A || a.B != b.B || a.ErrorRate != b.ErrorRate {
					t.Fatalf("players differ at (%d,%d)", tp, tt)
				}
			}
		}
	}
	// Players of one run at the same batch and R share one replay, the one they would compute alone.
	press(players[0], "end")
	press(players[1], "end")
	a, b := players[0].rp.results, players[1].rp.results
	if len(a) == 0 || &a[0] != &b[0] {
		t.Error("two players at the same batch and R replayed twice")
	}
	names := s.Algorithms
	if !slices.Contains(names, "oracle") {
		names = append([]algos.Name{algos.NameOracle}, names...)
	}
	own, err := s.Evaluation.Evaluate(players[2].s.Matrix, s.RetrainCost, names, 11)
	if err != nil || len(own) != len(a) {
		t.Fatalf("replay alone: %v, %d results against %d", err, len(own), len(a))
	}
	for i := range own {
		if own[i].Algorithm != a[i].Algorithm || own[i].Strategy.Cost() != a[i].Strategy.Cost() {
			t.Errorf("%s: shared replay cost %v, alone %v", own[i].Algorithm, a[i].Strategy.Cost(), own[i].Strategy.Cost())
		}
	}
	press(players[1], "]")
	if &players[1].rp.results[0] == &a[0] {
		t.Error("another R reused the replay")
	}
	for _, p := range players {
		p.s.Stop()
	}
	if st := runs.Stats(); runs.Len() != 1 || st.Watchers != 0 {
		t.Fatalf("after every player left: %d runs, %+v; want the finished run kept", runs.Len(), st)
	}
	// A player opening it again replays the kept run: no second computation.
	again := play(3)
	if again.s.w.run != players[0].s.w.run {
		t.Error("the kept run was computed again")
	}
	again.s.Stop()
	for _, seed := range []uint64{4, 5} {
		play(seed).s.Stop()
	}
	if n := runs.Len(); n != 2 {
		t.Errorf("cache holds %d runs, want Cache = 2", n)
	}
	for _, p := range players {
		p.s.Stop() // a second Stop changes nothing
	}
	if n := runs.Len(); n != 2 {
		t.Errorf("a second Stop changed the cache: %d runs", n)
	}
}

// gatedTrainer fits nearest centroids, but no model before open is closed: runs on it compute
// only when a test lets them.
type gatedTrainer struct {
	sim.NearestCentroid
	open chan struct{}
}

func (g gatedTrainer) Fit(x sim.Points, y []uint8, seed uint64) (sim.Model, error) {
	<-g.open
	return g.NearestCentroid.Fit(x, y, seed)
}

// gated returns a copy of the small scenario (a scenario of its own for the registry) whose runs
// wait for open.
func gated(t *testing.T, open chan struct{}) *scenarios.Scenario {
	s := *loadSmall(t)
	s.Model = gatedTrainer{open: open}
	return &s
}

// eventually waits up to 5 s for cond.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within 5 s: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The last watcher to leave a live run ends it: queued, it leaves the queue and the others move up;
// computing, it is cancelled and its slot freed for the next in line. A watcher who is not the last
// changes nothing.
func TestRunsLifetimeAndQueue(t *testing.T) {
	runs := NewRuns(RunsConfig{MaxComputing: 1, Cache: 4, Workers: 1})
	defer runs.Close()
	var ws []*watch
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
		s := gated(t, gates[i])
		st, _ := s.Stream(s.Seed)
		scens = append(scens, s)
		ws = append(ws, runs.watch(s, st, s.Seed))
	}
	st0, _ := scens[0].Stream(scens[0].Seed)
	extra := runs.watch(scens[0], st0, scens[0].Seed) // a second watcher of the first run
	if st := runs.Stats(); st.Computing != 1 || st.Queued != 2 || st.Watchers != 4 {
		t.Fatalf("three runs, one slot: %+v", st)
	}
	place := func(w *watch) int {
		runs.mu.Lock()
		defer runs.mu.Unlock()
		return runs.queueLocked(w.run).Pos
	}
	if place(ws[1]) != 1 || place(ws[2]) != 2 {
		t.Fatalf("places %d and %d, want 1 and 2", place(ws[1]), place(ws[2]))
	}
	ws[1].leave()
	if st := runs.Stats(); st.Queued != 1 || place(ws[2]) != 1 {
		t.Fatalf("after the first in line left: %+v, place %d", st, place(ws[2]))
	}
	ws[0].leave()
	if st := runs.Stats(); st.Computing != 1 || st.Queued != 1 {
		t.Fatalf("a watcher who is not the last left: %+v; nothing should change", st)
	}
	extra.leave()
	// The computing run is cancelled; its slot is free once its engine stops (it waits in Fit).
	if st := runs.Stats(); st.Computing != 1 || st.Queued != 1 || runs.Len() != 1 {
		t.Fatalf("while the cancelled run's engine has not stopped: %+v, %d held", st, runs.Len())
	}
	close(gates[0])
	eventually(t, "the cancelled run's slot goes to the next in line", func() bool {
		st := runs.Stats()
		return st.Queued == 0 && st.Computing == 1 && runs.Len() == 1
	})
	ws[2].leave()
	close(gates[2])
	eventually(t, "nothing computing, nothing held", func() bool {
		st := runs.Stats()
		return st.Computing == 0 && st.Queued == 0 && runs.Len() == 0
	})
	// A left watch leaves once: a second leave does not steal another watcher's place.
	s := loadSmall(t)
	st, _ := s.Stream(s.Seed)
	a, b := runs.watch(s, st, s.Seed), runs.watch(s, st, s.Seed)
	a.leave()
	a.leave()
	if got := runs.Stats().Watchers; got != 1 {
		t.Errorf("watchers %d after one of two left twice, want 1", got)
	}
	b.leave()
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

// A queued player's status line says where it waits, and the place moves up as runs ahead finish.
func TestQueuedStatusLine(t *testing.T) {
	open := make(chan struct{})
	runs := NewRuns(RunsConfig{MaxComputing: 1, Workers: 1})
	defer runs.Close()
	ahead := gated(t, open)
	st, _ := ahead.Stream(ahead.Seed)
	w := runs.watch(ahead, st, ahead.Seed)
	defer w.leave()
	p, err := NewPlayer(Options{Scenario: loadSmall(t), Seed: 3, Styles: asciiStyles(), Runs: runs, Width: 120, Height: 40})
	if err != nil {
		t.Fatal(err)
	}
	msg := p.s.Start()() // the session alone: Init also starts the scatter's axes and the mouse
	if _, ok := msg.(queuedMsg); !ok {
		t.Fatalf("first message %T, want the queue place", msg)
	}
	cmd := func() tea.Cmd { _, c := p.Update(msg); return c }()
	if v := p.View(); !strings.Contains(v, "queued: 1st") {
		t.Fatalf("status line does not show the queue:\n%s", v)
	}
	close(open) // the run ahead computes, then this one
	for !p.s.Done {
		_, cmd = p.Update(cmd())
	}
	if v := p.View(); !strings.Contains(v, "computed all") || strings.Contains(v, "queued") {
		t.Errorf("after the wait:\n%s", v)
	}
}

// A panic in a run's engine ends that run with an error its players see, is reported once, and
// leaves the registry working.
func TestRunsEnginePanic(t *testing.T) {
	var mu sync.Mutex
	var got []any
	runs := NewRuns(RunsConfig{OnPanic: func(v any, stack []byte) {
		mu.Lock()
		defer mu.Unlock()
		if len(stack) == 0 {
			t.Error("no stack")
		}
		got = append(got, v)
	}})
	defer runs.Close()
	bad := *loadSmall(t)
	bad.Model = panicky{}
	p, err := NewPlayer(Options{Scenario: &bad, Seed: 3, Styles: asciiStyles(), Runs: runs})
	if err != nil {
		t.Fatal(err)
	}
	cmd := p.s.Start()
	for !p.s.Done {
		_, cmd = p.Update(cmd())
	}
	var pe *sim.PanicError
	if !errors.As(p.s.Err, &pe) || !strings.Contains(p.View(), "engine: internal error: a bug in a model") {
		t.Errorf("player's error %v", p.s.Err)
	}
	mu.Lock()
	if len(got) != 1 {
		t.Errorf("OnPanic told %d times, want once", len(got))
	}
	mu.Unlock()
	good := pumped(t, asciiStyles(), 100, 32) // another run goes on
	good.s.Stop()
}

type panicky struct{ sim.NearestCentroid }

func (panicky) Fit(sim.Points, []uint8, uint64) (sim.Model, error) { panic("a bug in a model") }

// Local play through a real program: r pressed 20 times leaves one run alive (the last), and q
// leaves none, with the goroutines back where they were.
func TestLocalRestartLeavesOneRun(t *testing.T) {
	s, err := scenarios.Load("covcon-d", scenarios.Options{}) // about 3 s a run: r comes faster
	if err != nil {
		t.Fatal(err)
	}
	idle := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, err := NewPlayer(Options{Scenario: s, Seed: s.Seed, Styles: asciiStyles(), Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	runs := p.opt.Runs
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(120, 40))
	for range 20 {
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("N")})
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	}
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("seed 20 ")) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	eventually(t, "one run alive after 20 restarts", func() bool {
		st := runs.Stats()
		return st.Watchers == 1 && st.Computing+st.Finished == 1 && st.Queued == 0 && runs.Len() == 1
	})
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	eventually(t, "no run alive after q", func() bool {
		st := runs.Stats()
		return st.Watchers == 0 && st.Computing == 0 && st.Queued == 0
	})
	cancel()
	eventually(t, "goroutines back to idle", func() bool { return runtime.NumGoroutine() <= idle+3 })
}

// The catalog reads its entries once and loads each scenario once, for everyone.
func TestCatalogReadsOnce(t *testing.T) {
	dir := t.TempDir()
	src, _ := os.ReadFile(filepath.Join("testdata", "small.yaml"))
	path := filepath.Join(dir, "small.yaml")
	os.WriteFile(path, src, 0o644)
	c := NewCatalog(dir, nil)
	n := len(c.Entries())
	os.WriteFile(path, bytes.Replace(src, []byte("Small: a test scenario"), []byte("Changed"), 1), 0o644)
	os.WriteFile(filepath.Join(dir, "more.yaml"), src, 0o644)
	if len(c.Entries()) != n || !strings.Contains(c.Entries()[n-1].Title, "Small: a test scenario") {
		t.Errorf("the entries changed after the files did: %+v", c.Entries()[n-1])
	}
	a, err := c.Load(path)
	b, _ := c.Load(path)
	if err != nil || a != b {
		t.Errorf("two loads: %p %p %v, want one scenario", a, b, err)
	}
	if again := NewCatalog(dir, nil); len(again.Entries()) != n+1 {
		t.Errorf("a new catalog (SIGHUP) has %d entries, want %d", len(again.Entries()), n+1)
	}
}
