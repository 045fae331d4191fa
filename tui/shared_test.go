package tui

import (
	"sync"
	"testing"
)

// Two players on the same scenario and seed share one computation and see the same matrix; a
// third with another seed gets its own; the cache holds at most Max finished runs.
func TestSharedRuns(t *testing.T) {
	runs := NewRuns(2, 2)
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
	if runs.Len() != 1 {
		t.Fatalf("%d runs for one scenario and seed, want 1", runs.Len())
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
	play(4)
	play(5)
	if n := runs.Len(); n != 2 {
		t.Errorf("cache holds %d runs, want at most Max = 2", n)
	}
}
