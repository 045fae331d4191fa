package tui

import (
	"math"
	"slices"
	"testing"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/run"
	"github.com/cara-sim/cara/tui/internal/synth"
)

// syntheticPlayer is a player of the synthetic scenario with the hand-made matrix delivered as if
// its run had computed it (every column, then the end, then the features' ranges), no engine run.
func syntheticPlayer(t testing.TB, st *draw.Styles, w, h int) *Player {
	t.Helper()
	return syntheticPlayerOf(t, syntheticScenario(t), Options{Styles: st, Width: w, Height: h})
}

// syntheticScenario is the synthetic scenario as loaded (its stream is replaced by the player).
func syntheticScenario(t testing.TB) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Parse("synthetic", []byte(synth.YAML), "", scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// syntheticPlayerOf is syntheticPlayer of the scenario s (the synthetic one, perhaps with a tour)
// with the options opt (its styles, size, room).
func syntheticPlayerOf(t testing.TB, s *scenarios.Scenario, opt Options) *Player {
	t.Helper()
	opt.Scenario, opt.Seed = s, s.Seed
	p, err := NewPlayer(opt)
	if err != nil {
		t.Fatal(err)
	}
	p.s.Stream = synth.Stream{}
	var evs []sim.Event
	for tt := range synth.Batches {
		ev := sim.Event{Kind: sim.ColumnDone, Index: tt}
		for tp := 0; tp <= tt; tp++ {
			ev.Cells = append(ev.Cells, synth.Cell(tp, tt))
		}
		evs = append(evs, ev)
	}
	// The commands these return would ask the run for more: there is none, so they are not run.
	p.Update(run.ColumnMsg{Session: p.s, Events: evs})
	p.Update(run.DoneMsg{Session: p.s})
	b := run.NewBounds(2)
	for tt := range synth.Batches {
		batch, _ := synth.Stream{}.Batch(tt)
		b.Add(batch.X)
		b.Add(batch.Q)
	}
	p.Update(run.BoundsMsg{Session: p.s, Bounds: b})
	return p
}

// The synthetic player holds the hand-made numbers: a cell's staleness and errors as the story
// says, the stream's drifts, and the Oracle retraining at the online block's drifts.
func TestSyntheticPlayer(t *testing.T) {
	p := syntheticPlayer(t, asciiStyles(), 120, 36)
	m := p.s.Matrix
	for _, tc := range []struct {
		tp, t  int
		stale  float64
		errors int
	}{
		{3, 3, 0, 0},      // the diagonal
		{10, 17, 1.75, 3}, // same concept, 7 batches old: 0.25 x 7, three points across
		{20, 24, 7, 8},    // across the drift at 24: 0.25 x 4 + 6, every point
		{30, 34, 1, 2},    // concept a, 4 batches old
		{4, 30, 6.5, 8},   // concept a again after b, 26 batches old: the points all across
	} {
		if got := m.Staleness(tc.tp, tc.t); math.Abs(got-tc.stale) > 1e-12 {
			t.Errorf("C[%d, %d] = %v, want %v", tc.tp, tc.t, got, tc.stale)
		}
		if got := m.Errors(tc.tp, tc.t).Count(); got != tc.errors {
			t.Errorf("errors of M_%d on D_%d: %d, want %d", tc.tp, tc.t, got, tc.errors)
		}
	}
	if !p.s.Done || p.s.Computed != synth.Batches || !p.frame().Heat.Final {
		t.Fatalf("run not complete: done %v, %d columns, scale final %v", p.s.Done, p.s.Computed, p.frame().Heat.Final)
	}
	goTo(p, synth.Batches-1)
	or, ok := p.frame().Result(algos.NameOracle)
	if !ok {
		t.Fatal("no Oracle")
	}
	for _, d := range []int{24, 36, 48} {
		if !slices.Contains(or.Strategy.Retrains, d) {
			t.Errorf("the Oracle does not retrain at the drift at %d: retrains %v", d, or.Strategy.Retrains)
		}
	}
}
