package whatif

import (
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/scenarios/cmdline"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/run"
)

// What the command line (:) does with a command: the player keeps one list of overrides, the
// command line's what-if. The part of it a finished run can be recomputed for (queries, kernel,
// retrain_cost) goes through the one what-if path, the bar's apply, at once; the rest (the
// data, the model, the offline block, the seed) is a scenario of its own, opened as a new run in
// the registry, where a run of the same content is shared like any other, and the replayable part
// applied to it when it is done. reset (or unset of every path) returns to the scenario opened.

// Commands is the command line and the what-if it has built.
type Commands struct {
	line commandLine
	sets []string            // every override the command line has set, in order
	base *scenarios.Scenario // the scenario as opened, before any change of its data or model
	// orig is the run of base while the command line's scenario is another: the split view (W)
	// shows it beside the new run. origRp is its replay at the batch shown.
	orig   *run.Session
	origRp run.Replay
}

func NewCommands() Commands { return Commands{line: newCommandLine()} }

// Typing reports whether the command line is open: it takes every key (update).
func (c *Commands) Typing() bool { return c.line.open }

// Update takes a message while the line is open.
func (c *Commands) Update(msg tea.Msg) tea.Cmd { return c.line.Update(msg) }

// View is the line, w wide.
func (c *Commands) View(st *draw.Styles, w int) string { return c.line.View(st, w) }

// Sets are every override the command line has set, in order.
func (c *Commands) Sets() []string { return c.sets }

// Line is the text on the command line.
func (c *Commands) Line() string { return c.line.input.Value() }

// BeforeReplay is the replay of the run before at the batch shown (the split view's).
func (c *Commands) BeforeReplay() run.Replay { return c.origRp }

// Before is the run of the scenario as opened while the command line's is another: the split
// view's "before" (nil when there is none).
func (c *Commands) Before() *run.Session { return c.orig }

// Run applies an entered command (run).
func (c *Commands) Run(h Host, bar *Bar, msg CommandMsg) tea.Cmd {
	return c.run(h, bar, msg.cmd)
}

// DropBefore lets the "before" run go (back to the scenario, a new seed, the player closed).
func (c *Commands) DropBefore() {
	if c.orig != nil {
		c.orig.Stop()
		c.orig, c.origRp = nil, run.Replay{}
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

// Open opens the command line, w wide. A follower's : never gets here: the player keeps the keys
// of what a presenter drives, : and e among them, from a follower (followBlocks).
func (c *Commands) Open(w int) tea.Cmd {
	c.line.SetWidth(w)
	return c.line.Open()
}

// run applies an entered command to the command line's what-if: the replayable part through the
// bar's what-if path, the rest as a new run of the player's.
func (c *Commands) run(h Host, bar *Bar, cmd cmdline.Command) tea.Cmd {
	if c.base == nil {
		c.base = h.Scenario()
	}
	sets := cmd.Apply(c.sets)
	replaySets, run := splitSets(sets)
	_, was := splitSets(c.sets)
	var reopen tea.Cmd
	if !slices.Equal(run, was) {
		s := c.base
		if len(run) > 0 {
			var err error
			if s, err = h.Trusted(c.base).With(run); err != nil {
				h.Fail(err)
				return nil
			}
			if err := h.Check(s); err != nil {
				h.Fail(err)
				return nil
			}
		}
		if len(run) > 0 && c.orig == nil {
			c.orig = h.Session() // reopen leaves it watched
		}
		reopen = h.Rerun(s)
		if len(run) == 0 {
			c.DropBefore()
		}
	}
	c.sets = sets
	if len(sets) == 0 {
		h.Say("back to the scenario")
	} else {
		h.Say("what-if: " + strings.Join(sets, ", "))
	}
	return tea.Batch(reopen, bar.Apply(h, replaySets, ""))
}

// runEdited runs s, the editor's text, as the scenario opened: the command line's changes were
// merged into the text, so they start over from it.
func (c *Commands) runEdited(h Host, bar *Bar, s *scenarios.Scenario) tea.Cmd {
	c.base, c.sets = s, nil
	h.Say("running the edited scenario (esc e to edit it again)")
	return tea.Batch(h.Rerun(s), bar.Apply(h, nil, ""))
}

// Status names the command line's change of data or model for the status line ("" for none):
// what the run on screen was computed from, beyond the scenario's file.
func (c *Commands) Status() string {
	_, run := splitSets(c.sets)
	if len(run) == 0 {
		return ""
	}
	return "run: " + strings.Join(run, ", ")
}
