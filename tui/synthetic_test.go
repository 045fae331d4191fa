package tui

import (
	"testing"

	"github.com/cara-sim/cara/scenarios"
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
func syntheticScenario(t testing.TB) *scenarios.Scenario { return synth.Scenario(t) }

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
	// The commands these return would ask the run for more: there is none, so they are not run.
	p.Update(run.ColumnMsg{Session: p.s, Events: synth.Columns()})
	p.Update(run.DoneMsg{Session: p.s})
	p.Update(run.BoundsMsg{Session: p.s, Bounds: synth.Bounds()})
	return p
}

// The synthetic player, fed the run by its messages, holds the hand-made run as synth's session
// does (whose story synth's tests check): every cell, every column in, the scale final, the
// scatter's axes known.
func TestSyntheticPlayer(t *testing.T) {
	p := syntheticPlayer(t, asciiStyles(), 120, 36)
	want := synth.Session(t).Matrix
	for tt := range synth.Batches {
		for tp := 0; tp <= tt; tp++ {
			if got, w := p.s.Matrix.Cell(tp, tt), want.Cell(tp, tt); got.A != w.A || got.B != w.B || got.Errors.Count() != w.Errors.Count() {
				t.Fatalf("cell (%d, %d): %+v, want %+v", tp, tt, got, w)
			}
		}
	}
	if !p.s.Done || p.s.Computed != synth.Batches || !p.frame().Heat.Final || p.bounds == nil {
		t.Fatalf("run not complete: done %v, %d columns, scale final %v, bounds %v", p.s.Done, p.s.Computed, p.frame().Heat.Final, p.bounds)
	}
}
