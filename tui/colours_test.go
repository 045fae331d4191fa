package tui

import "testing"

// The heat map's scale built a column at a time, as the columns come, is the scale built afresh
// from the same columns; under a what-if of R it covers the what-if's R too, and it is final only
// once the run is.
func TestColoursAColumnAtATime(t *testing.T) {
	p := pumped(t, asciiStyles(), 120, 36)
	s, scen := p.s, p.opt.Scenario
	computed := s.Computed
	s.Done = false
	var inc colours
	for s.Computed = 0; s.Computed <= computed; s.Computed++ {
		var fresh colours
		if got, want := inc.of(s, scen), fresh.of(s, scen); got != want || got.final {
			t.Fatalf("%d columns: a column at a time %+v, afresh %+v", s.Computed, got, want)
		}
	}
	s.Computed, s.Done = computed, true
	if h := inc.of(s, scen); !h.final || h.hi < scen.RetrainCost(0) {
		t.Errorf("the finished run's scale %+v: want final, up to R %v at least", h, scen.RetrainCost(0))
	}
	pumpCmd(t, p, s.StartWhatIf([]string{"retrain_cost=50"}))
	var fresh colours
	if got, want := inc.of(s, scen), fresh.of(s, scen); got != want || got.hi != 50 {
		t.Errorf("under R = 50: %+v, afresh %+v; want the scale up to 50", got, want)
	}
}
