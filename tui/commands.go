package tui

import (
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/scenarios"
)

// What the command line (:) does with a command: the player keeps one list of overrides, the
// command line's what-if. The part of it a finished run can be recomputed for (queries, kernel,
// retrain_cost) goes through the player's one what-if path, ApplyWhatIf, at once; the rest (the
// data, the model, the offline block, the seed) is a scenario of its own, opened as a new run in
// the registry, where a run of the same content is shared like any other, and the replayable part
// applied to it when it is done. reset (or unset of every path) returns to the scenario opened.

// commandState is the command line and the what-if it has built.
type commandState struct {
	line commandLine
	sets []string            // every override the command line has set, in order
	base *scenarios.Scenario // the scenario as opened, before any change of its data or model
	// orig is the run of base while the command line's scenario is another: the split view (W)
	// shows it beside the new run. origRp is its replay at the batch shown.
	orig   *Session
	origRp replay
}

// dropOrig lets the "before" run go (back to the scenario, a new seed, the player closed).
func (c *commandState) dropOrig() {
	if c.orig != nil {
		c.orig.Stop()
		c.orig, c.origRp = nil, replay{}
	}
}

// splitSets parts overrides into those a replay serves and those that need a new run.
func splitSets(sets []string) (replay, run []string) {
	for _, s := range sets {
		path, _, _ := strings.Cut(s, "=")
		if scenarios.Replayable(path) {
			replay = append(replay, s)
		} else {
			run = append(run, s)
		}
	}
	return replay, run
}

// openCommand opens the command line, unless the room decides what this player shows.
func (p *Player) openCommand() tea.Cmd {
	if p.room.following {
		p.notice = ": waits: you follow the presenter (p goes free)"
		return nil
	}
	p.cmd.line.SetWidth(p.w)
	return p.cmd.line.Open()
}

// trusted is s as the player may change it: confined to the embedded data and the offered folder
// when the player is served.
func (p *Player) trusted(s *scenarios.Scenario) *scenarios.Scenario {
	if p.opt.Untrusted {
		return s.Confined(p.opt.FilesDir)
	}
	return s
}

// runCommand applies an entered command to the command line's what-if.
func (p *Player) runCommand(c scenarios.Command) tea.Cmd {
	if p.cmd.base == nil {
		p.cmd.base = p.opt.Scenario
	}
	sets := c.Apply(p.cmd.sets)
	replaySets, run := splitSets(sets)
	_, was := splitSets(p.cmd.sets)
	var reopen tea.Cmd
	if !slices.Equal(run, was) {
		s := p.cmd.base
		if len(run) > 0 {
			var err error
			if s, err = p.trusted(p.cmd.base).With(run); err != nil {
				p.err = err
				return nil
			}
			if p.opt.Check != nil {
				if err := p.opt.Check(s); err != nil {
					p.err = err
					return nil
				}
			}
		}
		if len(run) > 0 && p.cmd.orig == nil {
			p.cmd.orig = p.s // reopen leaves it watched
		}
		p.opt.Scenario = s
		reopen = p.reopen(p.s.Seed)
		if len(run) == 0 {
			p.cmd.dropOrig()
		}
	}
	p.cmd.sets = sets
	p.notice = "what-if: " + strings.Join(sets, ", ")
	if len(sets) == 0 {
		p.notice = "back to the scenario"
	}
	return tea.Batch(reopen, p.ApplyWhatIf(replaySets))
}

// commandStatus names the command line's change of data or model for the status line ("" for
// none): what the run on screen was computed from, beyond the scenario's file.
func (p *Player) commandStatus() string {
	_, run := splitSets(p.cmd.sets)
	if len(run) == 0 {
		return ""
	}
	return "run: " + strings.Join(run, ", ")
}
