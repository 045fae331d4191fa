package tui

import (
	"testing"

	"github.com/cara-sim/cara/tui/internal/pane/matrix"
)

// The heat map's scale built a column at a time, as the columns come, is the scale built afresh
// from the same columns; under a what-if of R it covers the what-if's R too, and it is final only
// once the run is.
func TestColoursAColumnAtATime(t *testing.T) {
	p := pumped(t, asciiStyles(), 120, 36)
	s, scen := p.s, p.opt.Scenario
	computed := s.Computed
	s.Done = false
	var inc matrix.Colours
	for s.Computed = 0; s.Computed <= computed; s.Computed++ {
		var fresh matrix.Colours
		if got, want := inc.Of(s, scen), fresh.Of(s, scen); got != want || got.Final {
			t.Fatalf("%d columns: a column at a time %+v, afresh %+v", s.Computed, got, want)
		}
	}
	s.Computed, s.Done = computed, true
	if h := inc.Of(s, scen); !h.Final || h.Hi < scen.RetrainCost(0) {
		t.Errorf("the finished run's scale %+v: want final, up to R %v at least", h, scen.RetrainCost(0))
	}
	pumpCmd(t, p, s.StartWhatIf([]string{"retrain_cost=50"}))
	var fresh matrix.Colours
	if got, want := inc.Of(s, scen), fresh.Of(s, scen); got != want || got.Hi != 50 {
		t.Errorf("under R = 50: %+v, afresh %+v; want the scale up to 50", got, want)
	}
}
