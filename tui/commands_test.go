package tui

import (
	"math"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/run"
)

var keyEnter = tea.KeyMsg{Type: tea.KeyEnter}

// typeCommand opens the command line, types line and enters it, running what it starts.
func typeCommand(t *testing.T, p *Player, line string) {
	t.Helper()
	drive(t, p, ":")
	for _, r := range line {
		drive(t, p, string(r))
	}
	_, cmd := p.Update(keyEnter)
	pumpCmd(t, p, cmd)
}

// The command line in the player: a replayable change is a what-if on the run; a change of the
// model is a new run of a scenario of its own, named on the status line; reset returns to the
// scenario as it was opened.
func TestPlayerCommandLine(t *testing.T) {
	p := pumped(t, asciiStyles(), 120, 36)
	base := p.opt.Scenario
	typeCommand(t, p, "retrain_cost=2")
	if p.s.WhatIf == nil || p.s.WhatIf.Scenario.RetrainCost(5) != 2 || p.opt.Scenario != base {
		t.Fatalf("retrain_cost=2: what-if %v, a new scenario %v", p.s.WhatIf != nil, p.opt.Scenario != base)
	}
	typeCommand(t, p, "set model={knn: {k: 3}}")
	if _, ok := p.opt.Scenario.Model.(sim.KNN); !ok || p.s.Scenario != p.opt.Scenario {
		t.Fatalf("model={knn: {k: 3}}: the run's model is %s", p.s.Scenario.Model.Name())
	}
	if p.s.WhatIf == nil || p.s.WhatIf.Scenario.RetrainCost(5) != 2 {
		t.Errorf("the new run lost the what-if retrain_cost=2")
	}
	if v := ansi.Strip(p.View()); !strings.Contains(v, "run: model={knn: {k: 3}}") {
		t.Errorf("the status line does not name the new run's change:\n%s", v)
	}
	// Keys that arrive together (a fast typist, a script) go on into the line once : has opened it.
	_, cmd0 := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(":retrain_cost=3")})
	pumpCmd(t, p, cmd0)
	if !p.cmd.Typing() || p.edit != nil || p.cmd.Line() != "retrain_cost=3" {
		t.Fatalf("\":retrain_cost=3\" at once: line open %v (%q), editor open %v", p.cmd.Typing(), p.cmd.Line(), p.edit != nil)
	}
	drive(t, p, "esc")
	// A typo stays on the line with the loader's words; nothing changes.
	drive(t, p, ":")
	for _, r := range "set model.knn.k=many" {
		drive(t, p, string(r))
	}
	_, cmd := p.Update(keyEnter)
	pumpCmd(t, p, cmd)
	if p.err == nil || !strings.Contains(p.err.Error(), "--set model.knn.k") || p.s.Scenario.Model.(sim.KNN).K != 3 {
		t.Errorf("a bad value: err %v, k %d", p.err, p.s.Scenario.Model.(sim.KNN).K)
	}
	drive(t, p, "esc")
	typeCommand(t, p, "reset")
	if p.opt.Scenario != base || p.s.WhatIf != nil || len(p.cmd.Sets()) != 0 {
		t.Errorf("reset: back to the scenario %v, what-if %v, sets %q", p.opt.Scenario == base, p.s.WhatIf != nil, p.cmd.Sets())
	}
}

// editText replaces the editor's text and lets the check run, as a pause in typing does.
func editText(t *testing.T, p *Player, text string) {
	t.Helper()
	pumpCmd(t, p, p.edit.Replace(text))
}

// The editor: the scenario's text, a typo located as you type (file:line:column), ctrl+s runs the
// edited text as a new run; esc closes it and the run stays.
func TestPlayerEditor(t *testing.T) {
	p := pumped(t, asciiStyles(), 120, 36)
	drive(t, p, "e")
	if p.edit == nil || !strings.Contains(p.edit.Text(), "name: small") {
		t.Fatal("e did not open the editor on the scenario's text")
	}
	text := p.edit.Text()
	if p.edit.Line() != 0 || !strings.Contains(ansi.Strip(p.View()), " 1 name: small") {
		t.Errorf("the editor opens at line %d, not at the top:\n%s", p.edit.Line(), ansi.Strip(p.View()))
	}
	editText(t, p, strings.Replace(text, "batches: 12", "batches: twelve", 1))
	if v := ansi.Strip(p.View()); p.edit.Err() == nil || !strings.Contains(v, "small.yaml:7:10") {
		t.Fatalf("a typo at line 7: err %v, view:\n%s", p.edit.Err(), v)
	}
	_, cmd := p.Update(tea.KeyMsg{Type: tea.KeyCtrlS})
	pumpCmd(t, p, cmd)
	if p.edit == nil || p.s.Scenario.Batches != 12 {
		t.Fatal("ctrl+s ran a text that does not load")
	}
	editText(t, p, strings.Replace(text, "batches: 12", "batches: 10", 1))
	_, cmd = p.Update(tea.KeyMsg{Type: tea.KeyCtrlS})
	pumpCmd(t, p, cmd)
	if p.edit != nil || p.s.Scenario.Batches != 10 || p.s.Computed != 10 {
		t.Fatalf("ctrl+s: editor open %v, batches %d, computed %d", p.edit != nil, p.s.Scenario.Batches, p.s.Computed)
	}
	// The run made in the editor is marked so: it is not the scenario's file.
	if st := draw.StripANSI(p.status(p.frame())); !strings.Contains(st, "run: edited") {
		t.Errorf("the edited run's status: %q", st)
	}
	drive(t, p, "e")
	if !strings.Contains(p.edit.Text(), "batches: 10") {
		t.Error("e again does not show the edited text")
	}
	drive(t, p, "esc")
	if p.edit != nil || p.s.Scenario.Batches != 10 {
		t.Error("esc did not close the editor, keeping the run")
	}
}

// A served player's command line and editor read no file of the server's.
func TestServedPlayerIsConfined(t *testing.T) {
	s := loadSmall(t)
	p, err := NewPlayer(Options{Scenario: s, Seed: s.Seed, Workers: 2, Styles: asciiStyles(), Width: 120, Height: 36, Untrusted: true})
	if err != nil {
		t.Fatal(err)
	}
	pump(t, p)
	typeCommand(t, p, "set data={csv: /etc/passwd, label: y}")
	if p.err == nil || !strings.Contains(p.err.Error(), "may read only") || p.opt.Scenario != s {
		t.Errorf("--set of a file on a served player: err %v", p.err)
	}
	drive(t, p, "e")
	editText(t, p, "name: x\nseed: 0\nbatches: 3\noffline: 1\ndata: {csv: /etc/passwd, label: y}\n"+
		"queries: {from: data, fraction: 0.5}\nmodel: {nearest_centroid: {}}\nretrain_cost: 1\n")
	if p.edit.Err() == nil || !strings.Contains(p.edit.Err().Error(), "may read only") {
		t.Errorf("an edit naming a file on a served player: %v", p.edit.Err())
	}
}

// A presenter's command lines are followed by the room: a what-if on R and a new run with another
// model both reach the follower, on the presenter's run; a follower's own : waits.
func TestPresenterCommandLineFollowed(t *testing.T) {
	pres, fol, _ := roomPlayers(t, loadSmall(t))
	fol = deliver(t, fol)
	pres = deliver(t, pres)
	typeCommand(t, pres, "retrain_cost=2")
	fol = deliver(t, fol)
	if fol.s.WhatIf == nil || fol.s.WhatIf.Scenario.RetrainCost(5) != 2 {
		t.Fatalf("the follower does not show the presenter's what-if retrain_cost=2")
	}
	typeCommand(t, pres, "set model={knn: {k: 3}}")
	fol = deliver(t, fol)
	if _, ok := fol.s.Scenario.Model.(sim.KNN); !ok || fol.s.Scenario != pres.s.Scenario {
		t.Fatalf("the follower's run has model %s, not the presenter's new run", fol.s.Scenario.Model.Name())
	}
	drive(t, fol, ":")
	if fol.cmd.Typing() || !strings.Contains(fol.notice, "you follow the presenter") {
		t.Errorf("a follower's : opened the command line (notice %q)", fol.notice)
	}
}

// After a change of the model (a new run), W shows the run before beside the new one, on one
// scale, with both costs in the table; reset lets the run before go.
func TestSplitAgainstTheRunBefore(t *testing.T) {
	p := pumped(t, asciiStyles(), 160, 48)
	before := p.s
	typeCommand(t, p, "set model={knn: {k: 3}}")
	if p.before != before || p.s == before {
		t.Fatalf("the run before is not kept (orig %p, before %p, now %p)", p.before, before, p.s)
	}
	goTo(p, 8)
	drive(t, p, "W")
	v := ansi.Strip(p.View())
	for _, want := range []string{"Before: small", "run: model={knn: {k: 3}}", "before | now"} {
		if !strings.Contains(v, want) {
			t.Errorf("the split view lacks %q:\n%s", want, v)
		}
	}
	if p.wi.Showing() {
		t.Error("W opened the what-if bar though there is a run to compare with")
	}
	own, now := p.split.BeforeReplay().Results, p.rp.Results
	if len(own) == 0 || len(now) == 0 || own[0].Strategy.Cost() == now[0].Strategy.Cost() {
		t.Errorf("the table compares nothing: before %d results, now %d", len(own), len(now))
	}
	drive(t, p, "W")
	typeCommand(t, p, "reset")
	if p.before != nil || p.opt.Scenario != before.Scenario {
		t.Errorf("reset kept the run before (%v) or left the scenario", p.before != nil)
	}
}

// Two students who make the same change share one new run: runs are keyed by the scenario's
// content, not by which load of it a player holds.
func TestSameChangeSameRun(t *testing.T) {
	runs := live.NewRuns(live.RunsConfig{Workers: 2})
	t.Cleanup(runs.Close)
	s := loadSmall(t)
	open := func() *Player {
		p, err := NewPlayer(Options{Scenario: s, Seed: s.Seed, Styles: asciiStyles(), Width: 120, Height: 36, Runs: runs})
		if err != nil {
			t.Fatal(err)
		}
		pump(t, p)
		return p
	}
	a, b := open(), open()
	started := runs.Stats().Started
	typeCommand(t, a, "set model={knn: {k: 3}}")
	typeCommand(t, b, "set model={knn: {k: 3}}")
	if a.opt.Scenario == b.opt.Scenario {
		t.Fatal("the two players hold one load: the test shows nothing")
	}
	if got := runs.Stats().Started - started; got != 1 {
		t.Errorf("the same change made twice started %d runs, want 1 shared", got)
	}
	typeCommand(t, b, "set model={knn: {k: 5}}")
	if got := runs.Stats().Started - started; got != 2 {
		t.Errorf("another change started %d runs in all, want 2", got)
	}
}

// A player standing at a batch while the matrix computes shows the best so far; when the last
// column arrives the panes show the paper's Oracle without a key pressed.
func TestOracleWhenTheLastColumnArrives(t *testing.T) {
	s := loadSmall(t)
	p, err := NewPlayer(Options{Scenario: s, Seed: s.Seed, Workers: 2, Styles: asciiStyles(), Width: 120, Height: 36})
	if err != nil {
		t.Fatal(err)
	}
	stepped := false
	pumpWatching(p, p.Init(), func(msg tea.Msg) {
		if col, ok := msg.(run.ColumnMsg); ok && !stepped && p.s.Computed >= 7 && p.s.Computed < s.Batches && col.Session == p.s {
			goTo(p, 6)
			stepped = true
			if !p.rp.Provisional {
				t.Fatalf("at 6 with %d of %d columns the replay is not the best so far", p.s.Computed, s.Batches)
			}
		}
	})
	if !stepped {
		t.Skip("the engine delivered every column at once: nothing to see")
	}
	if p.rp.Provisional || strings.Contains(ansi.Strip(p.View()), "best so far") {
		t.Errorf("all %d columns in, the panes still show the best so far", p.s.Computed)
	}
}

// The command line never pretends (covcon-d, made small): a change the loader refuses (Gaussian
// queries' mean on a scenario whose queries are drawn from the data) shows its error at once and
// is never named in the status line; a model by its path (model.knn.k=1 on a forest) replaces the
// model's kind and runs a kNN with k = 1; the new run comes back to the batch shown, with the
// columns' progress on the way.
func TestCommandLineNeverPretends(t *testing.T) {
	t.Parallel()
	s := loadEmbedded(t, "covcon-d", "data.size=200", "model.random_forest.trees=5")
	p := pumpedScenario(t, s, asciiStyles(), 120, 36)
	goTo(p, 60)
	typeCommand(t, p, "queries.gaussian.mean=0.8")
	status := draw.StripANSI(p.status(p.frame()))
	if p.err == nil || !strings.Contains(p.err.Error(), "queries") || strings.Contains(status, "gaussian") || p.s.WhatIf != nil || len(p.cmd.Sets()) != 0 {
		t.Fatalf("a refused change: error %v, status %q, what-if %v, sets %q", p.err, status, p.s.WhatIf != nil, p.cmd.Sets())
	}
	if v := draw.StripANSI(p.View()); !strings.Contains(v, p.err.Error()[:40]) {
		t.Errorf("the error is not on the screen:\n%s", v)
	}
	drive(t, p, ":")
	for _, r := range "set model.knn.k=1" {
		drive(t, p, string(r))
	}
	_, cmd := p.Update(keyEnter)
	var onTheWay []string
	pumpWatching(p, cmd, func(tea.Msg) {
		if p.Pos >= 0 && p.Pos < 60 && p.s.Computed > 0 {
			onTheWay = append(onTheWay, draw.StripANSI(p.status(p.frame())))
		}
	})
	if m, ok := p.s.Scenario.Model.(sim.KNN); !ok || m.K != 1 || p.opt.Scenario != p.s.Scenario {
		t.Fatalf("model.knn.k=1: the run's model is %s %+v", p.s.Scenario.Model.Name(), p.s.Scenario.Model)
	}
	if p.Pos != 60 || !p.s.Done {
		t.Errorf("the new run: batch %d (done %v), want 60, the batch shown before", p.Pos, p.s.Done)
	}
	if len(onTheWay) == 0 || !strings.Contains(onTheWay[0], "to batch 60") {
		t.Errorf("on the way back to batch 60 the status said %q", onTheWay)
	}
	if st := draw.StripANSI(p.status(p.frame())); !strings.Contains(st, "run: model.knn.k=1 in place of random_forest") {
		t.Errorf("the status line does not name the new run's change: %q", st)
	}
}

// :set seed=5 runs on seed 5 (gauss-d's Oracle: 172.92 there, 185.27 on seed 0, cara run's), and
// the sets after it stay on it; the status says R as the what-if sets it, beside the scenario's;
// unset seed goes back to the seed shown before. The Oracle is checked against the DP over a run
// of seed 5 made apart from the player.
func TestSetSeedRunsOnIt(t *testing.T) {
	t.Parallel()
	s := loadEmbedded(t, "gauss-d")
	p := pumpedScenario(t, s, asciiStyles(), 120, 36)
	oracle := func() float64 {
		for _, r := range p.s.WholeBlock(1) {
			if r.Algorithm == algos.NameOracle {
				return r.Strategy.Cost()
			}
		}
		t.Fatal("no Oracle")
		return 0
	}
	seed0 := oracle()
	typeCommand(t, p, "set seed=5")
	if p.s.Seed != 5 || p.opt.Scenario.Seed != 5 {
		t.Fatalf(":set seed=5: the run is on seed %d", p.s.Seed)
	}
	apart := finished(t, loadEmbedded(t, "gauss-d", "seed=5"), live.NewRuns(live.RunsConfig{MaxComputing: 1, Workers: 1}))
	c := algos.Costs{M: apart.Matrix, R: s.RetrainCost}
	want := algos.Oracle(c, s.Offline, s.Batches-1).Cost()
	if got := oracle(); math.Abs(got-want) > 1e-9 || math.Abs(got-seed0) < 1e-6 {
		t.Errorf("the Oracle on seed 5: %v, want %v (seed 0's: %v)", got, want, seed0)
	}
	if st := draw.StripANSI(p.status(p.frame())); !strings.Contains(st, "seed 5") || !strings.Contains(st, "run: seed=5") {
		t.Errorf("status %q", st)
	}
	typeCommand(t, p, "set retrain_cost=7")
	if p.s.Seed != 5 || p.s.WhatIf == nil {
		t.Fatalf("retrain_cost=7 after seed=5: seed %d, what-if %v", p.s.Seed, p.s.WhatIf != nil)
	}
	if st := draw.StripANSI(p.status(p.frame())); !strings.Contains(st, "R 7 (what-if)") || strings.Contains(st, "(the scenario's)") {
		t.Errorf("status under retrain_cost=7: %q", st)
	}
	if long := p.rText(p.frame(), false); long != "R 7 (the what-if's; the scenario's 10)" {
		t.Errorf("R's long form under retrain_cost=7: %q", long)
	}
	typeCommand(t, p, "unset seed")
	if p.s.Seed != 0 || p.s.WhatIf == nil || math.Abs(p.s.WhatIf.Scenario.RetrainCost(30)-7) > 0 {
		t.Errorf("unset seed: seed %d, what-if %v", p.s.Seed, p.s.WhatIf != nil)
	}
}
