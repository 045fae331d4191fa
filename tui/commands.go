package tui

import (
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/scenarios"
)

// What the command line (:) does with a command: the player keeps one list of overrides, the
// command line's what-if. The part of it a finished run can be recomputed for (queries, kernel,
// retrain_cost) goes through the one what-if path, the bar's apply, at once; the rest (the
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

func newCommandState() commandState { return commandState{line: newCommandLine()} }

// typing reports whether the command line is open: it takes every key (update).
func (c *commandState) typing() bool { return c.line.open }

// update takes a message while the line is open.
func (c *commandState) update(msg tea.Msg) tea.Cmd { return c.line.Update(msg) }

// view is the line, w wide.
func (c *commandState) view(st *Styles, w int) string { return c.line.View(st, w) }

// before is the run of the scenario as opened while the command line's is another: the split
// view's "before" (nil when there is none).
func (c *commandState) before() *Session { return c.orig }

// runMsg applies an entered command (run).
func (c *commandState) runMsg(h whatIfHost, bar *whatIfBar, msg commandMsg) tea.Cmd {
	return c.run(h, bar, msg.cmd)
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

// open opens the command line, w wide. A follower's : never gets here: the player keeps the keys
// of what a presenter drives, : and e among them, from a follower (followBlocks).
func (c *commandState) open(w int) tea.Cmd {
	c.line.SetWidth(w)
	return c.line.Open()
}

// run applies an entered command to the command line's what-if: the replayable part through the
// bar's what-if path, the rest as a new run of the player's.
func (c *commandState) run(h whatIfHost, bar *whatIfBar, cmd scenarios.Command) tea.Cmd {
	if c.base == nil {
		c.base = h.scenario()
	}
	sets := cmd.Apply(c.sets)
	replaySets, run := splitSets(sets)
	_, was := splitSets(c.sets)
	var reopen tea.Cmd
	if !slices.Equal(run, was) {
		s := c.base
		if len(run) > 0 {
			var err error
			if s, err = h.trusted(c.base).With(run); err != nil {
				h.fail(err)
				return nil
			}
			if err := h.check(s); err != nil {
				h.fail(err)
				return nil
			}
		}
		if len(run) > 0 && c.orig == nil {
			c.orig = h.session() // reopen leaves it watched
		}
		reopen = h.rerun(s)
		if len(run) == 0 {
			c.dropOrig()
		}
	}
	c.sets = sets
	if len(sets) == 0 {
		h.say("back to the scenario")
	} else {
		h.say("what-if: " + strings.Join(sets, ", "))
	}
	return tea.Batch(reopen, bar.apply(h, replaySets, ""))
}

// runEdited runs s, the editor's text, as the scenario opened: the command line's changes were
// merged into the text, so they start over from it.
func (c *commandState) runEdited(h whatIfHost, bar *whatIfBar, s *scenarios.Scenario) tea.Cmd {
	c.base, c.sets = s, nil
	h.say("running the edited scenario (esc e to edit it again)")
	return tea.Batch(h.rerun(s), bar.apply(h, nil, ""))
}

// status names the command line's change of data or model for the status line ("" for none):
// what the run on screen was computed from, beyond the scenario's file.
func (c *commandState) status() string {
	_, run := splitSets(c.sets)
	if len(run) == 0 {
		return ""
	}
	return "run: " + strings.Join(run, ", ")
}
