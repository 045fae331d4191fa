package whatif

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/scenarios/cmdline"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/run"
)

// fakeHost is a player as the what-if parts see it: a run that is not started (so every what-if
// waits for it, and nothing computes), a frame whose data range the test sets, and the effects the
// parts return made as the player makes them, with a record of them.
type fakeHost struct {
	t         *testing.T
	s, before *run.Session
	scen      *scenarios.Scenario // the scenario the player runs
	f         pane.Frame
	bar       *Bar // the what-if bar effect.WhatIf goes to
	err       error
	fails     int // effect.Fail made, nil (the error line cleared) included
	shown     int // effect.Refresh made: the algorithms replayed on the what-if or the scenario
	notice    string
	seeds     []uint64  // effect.Rerun made: a new run of the scenario given on each seed
	cmds      []tea.Cmd // the commands effects came with, in order
}

func (h *fakeHost) Session() *run.Session                             { return h.s }
func (h *fakeHost) Before() *run.Session                              { return h.before }
func (h *fakeHost) Scenario() *scenarios.Scenario                     { return h.scen }
func (h *fakeHost) Trusted(s *scenarios.Scenario) *scenarios.Scenario { return s }
func (h *fakeHost) Check(*scenarios.Scenario) error                   { return nil }
func (h *fakeHost) Reparse(from *scenarios.Scenario, text []byte) (*scenarios.Scenario, error) {
	return from.Reparse(text)
}
func (h *fakeHost) Frame() *pane.Frame                                            { return &h.f }
func (h *fakeHost) FrameOfRun(*run.Session, *live.WhatIf, run.Replay) *pane.Frame { return &h.f }
func (h *fakeHost) Pair() [2]int                                                  { return [2]int{0, 1} }

var _ Host = (*fakeHost)(nil)

// apply makes the effects as the player does (Player.apply), recording them.
func (h *fakeHost) apply(effects effect.Effects) {
	for _, e := range effects {
		switch e := e.(type) {
		case effect.Fail:
			h.err, h.fails = e.Err, h.fails+1
		case effect.Notice:
			h.notice = string(e)
		case effect.Refresh:
			h.shown++
		case effect.Cmd:
			h.cmds = append(h.cmds, tea.Cmd(e))
		case effect.WhatIf:
			h.apply(h.bar.Apply(h, e.Sets, e.Name))
		case effect.Rerun:
			if e.KeepBefore && h.before == nil {
				h.before = h.s
			}
			if !e.KeepBefore {
				h.before = nil
			}
			h.scen = e.Scenario
			ns, err := run.New(e.Scenario, h.s.Seed, nil, nil)
			if err != nil {
				h.err = err
				continue
			}
			h.s, h.seeds = ns, append(h.seeds, ns.Seed)
		default:
			h.t.Errorf("an effect the fake does not know: %T", e)
		}
	}
}

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
	sc := smallScenario(t)
	sess, err := run.New(sc, sc.Seed, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBar()
	h := &fakeHost{t: t, s: sess, scen: sc, bar: &b}
	press := func(ks ...string) {
		t.Helper()
		for _, k := range ks {
			e, ok := b.Key(h, barKeyMsg(k))
			h.apply(e)
			if !ok || len(h.cmds) > 0 {
				t.Fatalf("%q: taken %v, commands %d (nothing computes while the run is not done)", k, ok, len(h.cmds))
			}
		}
	}

	if h.apply(b.Show(h)); len(h.cmds) > 0 || !b.open || fractions[b.state.Fraction] != 0.2 || b.geom != nil {
		t.Fatalf("show: commands %d, open %v, fraction %v, geometry %v", len(h.cmds), b.open, fractions[b.state.Fraction], b.geom)
	}
	// Not yet possible: static queries before the data's range is known, alternatives the file
	// does not list.
	for k, want := range map[string]string{"c": "static queries need the data's range", "a": "small lists no other queries"} {
		h.err = nil
		press(k)
		if h.err == nil || !strings.Contains(h.err.Error(), want) || !b.state.IsScenario() {
			t.Errorf("%s: error %v, state %+v", k, h.err, b.state)
		}
	}
	if _, ok := b.Key(h, barKeyMsg("l")); ok {
		t.Error("l (step) was taken by the bar, not left to the player")
	}

	press("d", ">", "G", "G")
	if h.err != nil || b.state.Queries != QueriesData || fractions[b.state.Fraction] != 0.5 || b.state.Gamma != 2 {
		t.Fatalf("d > G G: error %v, state %+v", h.err, b.state)
	}
	want := []string{"queries={from: data, fraction: 0.5}", live.GammaSet(0.25 * 4)}
	if got := b.sets(h, b.state, 0.25); !slices.Equal(got, want) {
		t.Errorf("d > G G on a run of gamma 0.25: sets %q, want %q", got, want)
	}
	if got := b.Status(h, false); got != "what-if: queries follow the data (50 % of each batch), gamma x4 (when the run is done)" {
		t.Errorf("status: %q", got)
	}

	h.f.Bounds = &run.Bounds{Lo: []float64{0, 0}, Hi: []float64{1, 2}}
	press("c", "right", "up", "up", "<")
	if got := b.Describe(h, b.state, true); got != "static (0.55, 1.10) sd 0.025, gamma x4" {
		t.Errorf("c → ↑ ↑ <: %q", got)
	}
	if got := b.sets(h, b.state, 0.25)[0]; got != "queries={size: 20, gaussian: {mean: [0.55, 1.1], std: 0.025}}" {
		t.Errorf("static sets: %q", got)
	}

	// Back to the scenario's queries and gamma: the scenario at once, redrawn.
	press("s", "b")
	if !b.state.IsScenario() || h.shown != 1 || b.Status(h, false) != "" {
		t.Errorf("s b: state %+v, redrawn %d times, status %q", b.state, h.shown, b.Status(h, false))
	}
	// A what-if given whole (a presenter's) is named by its words until a bar key changes it;
	// the bar's own choices (the static centre) stay for when it does.
	if h.apply(b.Apply(h, []string{"retrain_cost=2"}, "R doubled")); len(h.cmds) > 0 || b.Describe(h, b.state, false) != "R doubled" {
		t.Errorf("apply: %q", b.Describe(h, b.state, false))
	}
	press("c")
	if b.state.External != nil || b.Describe(h, b.state, true) != "static (0.55, 1.10) sd 0.025" {
		t.Errorf("c after a given what-if: %+v", b.state)
	}
	press("esc")
	if b.open {
		t.Error("esc left the bar open")
	}
}

// The command line's state over a fake player: a replayable set is a what-if through the bar, a
// change of the model a new run on the same seed with the run before kept for the split view, a
// bad value an error that changes nothing, and reset the scenario as opened.
func TestCommandStateOverAHost(t *testing.T) {
	sc := smallScenario(t)
	first, err := run.New(sc, 7, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	bar := NewBar()
	h := &fakeHost{t: t, s: first, scen: sc, bar: &bar}
	c := Commands{line: newCommandLine()}
	// check is the command of the line as entered, and the load it asks to run off the UI goroutine.
	check := func(line string) tea.Cmd {
		t.Helper()
		cmd, err := cmdline.Parse(line)
		if err != nil {
			t.Fatal(err)
		}
		h.cmds = nil
		h.apply(c.check(h, cmd))
		if len(h.cmds) != 1 || h.notice != "checking "+cmd.String()+"…" || h.err != nil {
			t.Fatalf("%s: %d commands, notice %q, error %v", line, len(h.cmds), h.notice, h.err)
		}
		return h.cmds[0]
	}
	run := func(line string) {
		t.Helper()
		// The check runs off the UI goroutine; the player hands its outcome back.
		h.apply(c.Checked(h, check(line)().(CheckedMsg)))
	}

	run("retrain_cost=2")
	if len(h.seeds) != 0 || !slices.Equal(bar.state.External, []string{"retrain_cost=2"}) || c.Status() != "" || h.notice != "what-if: retrain_cost=2" {
		t.Fatalf("retrain_cost=2: reopened on %v, bar %q, status %q, notice %q", h.seeds, bar.state.External, c.Status(), h.notice)
	}
	run("set model={knn: {k: 3}}")
	if m, ok := h.scen.Model.(sim.KNN); !ok || m.K != 3 || !slices.Equal(h.seeds, []uint64{7}) || h.s.Scenario != h.scen {
		t.Fatalf("model={knn: {k: 3}}: model %v, reopened on %v", h.scen.Model, h.seeds)
	}
	if h.before != first || c.Status() != "run: model={knn: {k: 3}}" || !slices.Equal(bar.state.External, []string{"retrain_cost=2"}) {
		t.Errorf("model={knn: {k: 3}}: the run before kept %v, status %q, what-if %q", h.before == first, c.Status(), bar.state.External)
	}
	changed := h.scen
	run("set model.knn.k=many")
	if h.err == nil || !strings.Contains(h.err.Error(), "model.knn.k") || h.scen != changed || len(h.seeds) != 1 || len(c.sets) != 2 {
		t.Errorf("a bad value: error %v, scenario changed %v, reopened on %v, sets %q", h.err, h.scen != changed, h.seeds, c.sets)
	}
	// A change the loader refuses says why at once and is named nowhere: the queries are not
	// data-drawn here, and a what-if cannot change what it does not have.
	run("queries.from=nowhere")
	if h.err == nil || !strings.Contains(h.err.Error(), "queries") || h.notice != "" || len(c.sets) != 2 || c.Status() != "run: model={knn: {k: 3}}" ||
		!slices.Equal(bar.state.External, []string{"retrain_cost=2"}) {
		t.Errorf("a refused what-if: error %v, notice %q, sets %q, bar %q", h.err, h.notice, c.sets, bar.state.External)
	}
	// Two commands checked at once: only the newer one's outcome counts.
	slow := check("retrain_cost=5")
	h.apply(c.Checked(h, check("retrain_cost=6")().(CheckedMsg)))
	h.apply(c.Checked(h, slow().(CheckedMsg)))
	if !slices.Contains(c.sets, "retrain_cost=6") || slices.Contains(c.sets, "retrain_cost=5") {
		t.Errorf("an older check's outcome applied over a newer one: %q", c.sets)
	}
	shown := h.shown
	run("reset")
	if h.scen != sc || h.before != nil || !slices.Equal(h.seeds, []uint64{7, 7}) || !bar.state.IsScenario() || h.shown != shown+1 || h.notice != "back to the scenario" {
		t.Errorf("reset: scenario as opened %v, run before %v, reopened on %v, bar %+v, notice %q", h.scen == sc, h.before != nil, h.seeds, bar.state, h.notice)
	}
}

// smallScenario is tui/testdata/small.yaml: 12 batches of 100 points and 20 queries.
func smallScenario(t *testing.T) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Load(filepath.Join("..", "..", "testdata", "small.yaml"), scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
