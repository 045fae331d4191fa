package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/cara-sim/cara/sim"
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
	if p.opt.Scenario != base || p.s.WhatIf != nil || len(p.cmd.sets) != 0 {
		t.Errorf("reset: back to the scenario %v, what-if %v, sets %q", p.opt.Scenario == base, p.s.WhatIf != nil, p.cmd.sets)
	}
}
