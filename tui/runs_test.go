package tui

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/simtest"
	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/run"
)

// Two players on the same scenario and seed share one computation and see the same matrix; a
// third with another seed gets its own; finished runs nobody watches are kept, at most Cache.
func TestSharedRuns(t *testing.T) {
	runs := live.NewRuns(live.RunsConfig{Cache: 2, Workers: 2})
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
	a, b := players[0].rp.Results, players[1].rp.Results
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
	if &players[1].rp.Results[0] == &a[0] {
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
	if runs.Stats().Started != 1 {
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

// A queued player's status line says where it waits, and the place moves up as runs ahead finish.
func TestQueuedStatusLine(t *testing.T) {
	open := make(chan struct{})
	runs := live.NewRuns(live.RunsConfig{MaxComputing: 1, Workers: 1})
	defer runs.Close()
	ahead := gated(t, open)
	st, _ := ahead.Stream(ahead.Seed)
	w := runs.Watch(ahead, st, ahead.Seed)
	defer w.Leave()
	p, err := NewPlayer(Options{Scenario: loadSmall(t), Seed: 3, Styles: asciiStyles(), Runs: runs, Width: 120, Height: 40})
	if err != nil {
		t.Fatal(err)
	}
	msg := p.s.Start()() // the session alone: Init also starts the scatter's axes and the mouse
	if _, ok := msg.(run.QueuedMsg); !ok {
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
	runs := live.NewRuns(live.RunsConfig{OnPanic: func(v any, stack []byte) {
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
	simtest.Eventually(t, "one run alive after 20 restarts", func() bool {
		st := runs.Stats()
		return st.Watchers == 1 && st.Computing+st.Finished == 1 && st.Queued == 0 && runs.Len() == 1
	})
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	simtest.Eventually(t, "no run alive after q", func() bool {
		st := runs.Stats()
		return st.Watchers == 0 && st.Computing == 0 && st.Queued == 0
	})
	cancel()
	simtest.Eventually(t, "goroutines back to idle", func() bool { return runtime.NumGoroutine() <= idle+3 })
}

// gated returns a copy of the small scenario whose runs wait for open.
func gated(t *testing.T, open chan struct{}) *scenarios.Scenario {
	return simtest.Gated(loadSmall(t), open)
}
