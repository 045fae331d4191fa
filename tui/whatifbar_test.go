package tui

import (
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/scenarios"
)

// fakeHost is a player as the what-if bar sees it: a run that is not started (so every what-if
// waits for it, and nothing computes), a frame whose data range the test sets, and a record of what
// the bar asked.
type fakeHost struct {
	s      *Session
	opt    Options
	f      frame
	err    error
	fails  int // fail calls, nil (the error line cleared) included
	shown  int // whatIfShown calls: the panes redrawn with the what-if or the scenario
	notice string
	seeds  []uint64 // rerun calls: a new run of the scenario given on each seed
}

func (h *fakeHost) session() *Session                                 { return h.s }
func (h *fakeHost) scenario() *scenarios.Scenario                     { return h.opt.Scenario }
func (h *fakeHost) trusted(s *scenarios.Scenario) *scenarios.Scenario { return s }
func (h *fakeHost) check(*scenarios.Scenario) error                   { return nil }
func (h *fakeHost) frame() *frame                                     { return &h.f }
func (h *fakeHost) refresh()                                          {}
func (h *fakeHost) whatIfShown()                                      { h.shown++ }
func (h *fakeHost) rerun(s *scenarios.Scenario) tea.Cmd {
	h.opt.Scenario = s
	ns, err := NewSession(s, h.s.Seed, nil, nil)
	if err != nil {
		h.fail(err)
		return nil
	}
	h.s, h.seeds = ns, append(h.seeds, ns.Seed)
	return nil
}
func (h *fakeHost) frameOfRun(*Session, *live.WhatIf, replay) *frame { return &h.f }
func (h *fakeHost) say(notice string)                                { h.notice = notice }
func (h *fakeHost) pair() [2]int                                     { return [2]int{0, 1} }
func (h *fakeHost) fail(err error)                                   { h.err, h.fails = err, h.fails+1 }

var _ whatIfHost = (*fakeHost)(nil)

func barKeyMsg(k string) tea.KeyMsg {
	if t, ok := map[string]tea.KeyType{"esc": tea.KeyEscape, "left": tea.KeyLeft, "right": tea.KeyRight,
		"up": tea.KeyUp, "down": tea.KeyDown}[k]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// The bar on its own, over a fake player: its keys build the what-if's --set overrides and the
// words the status line shows, a choice it cannot make yet is an error that changes nothing, and
// keys it does not own go on to the player. small has 100 points and 20 queries a batch, so
// "follow the data" starts at 20 %; its data range is given here as [0, 1] x [0, 2], so the static
// centre starts at (0.50, 1.00) and moves in steps of 0.05.
func TestWhatIfBarOverAHost(t *testing.T) {
	sc := loadSmall(t)
	sess, err := NewSession(sc, sc.Seed, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := &fakeHost{s: sess, opt: Options{Scenario: sc}}
	b := newWhatIfBar()
	press := func(ks ...string) {
		t.Helper()
		for _, k := range ks {
			ok, cmd := b.key(h, barKeyMsg(k))
			if !ok || cmd != nil {
				t.Fatalf("%q: taken %v, command %v (nothing computes while the run is not done)", k, ok, cmd != nil)
			}
		}
	}

	if cmd := b.show(h); cmd != nil || !b.open || fractions[b.state.fraction] != 0.2 || b.geom != nil {
		t.Fatalf("show: command %v, open %v, fraction %v, geometry %v", cmd != nil, b.open, fractions[b.state.fraction], b.geom)
	}
	// Not yet possible: static queries before the data's range is known, alternatives the file
	// does not list.
	for k, want := range map[string]string{"c": "static queries need the data's range", "a": "small lists no other queries"} {
		h.err = nil
		press(k)
		if h.err == nil || !strings.Contains(h.err.Error(), want) || !b.state.scenario() {
			t.Errorf("%s: error %v, state %+v", k, h.err, b.state)
		}
	}
	if ok, _ := b.key(h, barKeyMsg("l")); ok {
		t.Error("l (step) was taken by the bar, not left to the player")
	}

	press("d", ">", "G", "G")
	if h.err != nil || b.state.queries != queriesData || fractions[b.state.fraction] != 0.5 || b.state.gamma != 2 {
		t.Fatalf("d > G G: error %v, state %+v", h.err, b.state)
	}
	want := []string{"queries={from: data, fraction: 0.5}", live.GammaSet(0.25 * 4)}
	if got := b.sets(h, b.state, 0.25); !slices.Equal(got, want) {
		t.Errorf("d > G G on a run of gamma 0.25: sets %q, want %q", got, want)
	}
	if got := b.status(h, false); got != "what-if: queries follow the data (50 % of each batch), gamma x4 (when the run is done)" {
		t.Errorf("status: %q", got)
	}

	h.f.bounds = &bounds{lo: []float64{0, 0}, hi: []float64{1, 2}}
	press("c", "right", "up", "up", "<")
	if got := b.describe(h, b.state, true); got != "static (0.55, 1.10) sd 0.025, gamma x4" {
		t.Errorf("c → ↑ ↑ <: %q", got)
	}
	if got := b.sets(h, b.state, 0.25)[0]; got != "queries={size: 20, gaussian: {mean: [0.55, 1.1], std: 0.025}}" {
		t.Errorf("static sets: %q", got)
	}

	// Back to the scenario's queries and gamma: the scenario at once, redrawn.
	press("s", "b")
	if !b.state.scenario() || h.shown != 1 || b.status(h, false) != "" {
		t.Errorf("s b: state %+v, redrawn %d times, status %q", b.state, h.shown, b.status(h, false))
	}
	// A what-if given whole (a presenter's) is named by its words until a bar key changes it;
	// the bar's own choices (the static centre) stay for when it does.
	if cmd := b.apply(h, []string{"retrain_cost=2"}, "R doubled"); cmd != nil || b.describe(h, b.state, false) != "R doubled" {
		t.Errorf("apply: %q", b.describe(h, b.state, false))
	}
	press("c")
	if b.state.external != nil || b.describe(h, b.state, true) != "static (0.55, 1.10) sd 0.025" {
		t.Errorf("c after a given what-if: %+v", b.state)
	}
	press("esc")
	if b.open {
		t.Error("esc left the bar open")
	}
}
