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
// errors, retrain_cost) goes through the one what-if path, the bar's apply, at once; the rest (the
// data, the model, the offline block, the seed) is a scenario of its own, opened as a new run in
// the registry, where a run of the same content is shared like any other, and the replayable part
// applied to it when it is done. reset (or unset of every path) returns to the scenario opened.

// Commands is the command line and the what-if it has built.
type Commands struct {
	line commandLine
	sets []string            // every override the command line has set, in order
	base *scenarios.Scenario // the scenario as opened, before any change of its data or model
	kind string              // the kind of model base's file gives (cmdline.FileModelKind)
	seq  int                 // numbers the checks: only the newest one's outcome is applied
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

// CheckedMsg is a command checked off the UI goroutine: the scenario loads with the overrides it
// makes, or err says why not (Run applies it, or shows the error).
type CheckedMsg struct {
	seq      int
	sets     []string // every override after the command
	scenario *scenarios.Scenario
	err      error
}

// run checks an entered command before anything changes: the scenario it makes is loaded off the
// UI goroutine (a new run's with its data and model, the what-if's on top), and Checked applies it
// or shows the loader's error at once, the what-if in force and the status line as they were. A
// set into another kind of model than the one in force changes the kind (cmdline.OnModel).
func (c *Commands) run(h Host, bar *Bar, cmd cmdline.Command) tea.Cmd {
	if c.base == nil {
		c.base = h.Scenario()
		if text, err := c.base.Text(); err == nil {
			c.kind = cmdline.FileModelKind(text)
		}
	}
	sets := cmd.OnModel(c.sets, c.kind)
	replaySets, run := splitSets(sets)
	_, was := splitSets(c.sets)
	base, shown := h.Trusted(c.base), h.Scenario()
	c.seq++
	seq := c.seq
	h.Fail(nil)
	h.Say("checking " + cmd.String() + "…")
	return func() tea.Msg {
		s := shown
		var err error
		switch {
		case len(run) == 0:
			s = base
		case !slices.Equal(run, was):
			s, err = base.With(run)
		}
		if err == nil && len(replaySets) > 0 {
			_, err = s.WhatIf(replaySets)
		}
		return CheckedMsg{seq: seq, sets: sets, scenario: s, err: err}
	}
}

// Checked applies a checked command: the replayable part through the bar's what-if path, the rest
// as a new run, which shows the batch the player was at once it is computed. A command the loader
// refused changes nothing and says why; an outcome superseded by a newer command is dropped.
func (c *Commands) Checked(h Host, bar *Bar, msg CheckedMsg) tea.Cmd {
	if msg.seq != c.seq {
		return nil
	}
	if msg.err != nil {
		h.Say("")
		h.Fail(msg.err)
		return nil
	}
	replaySets, run := splitSets(msg.sets)
	_, was := splitSets(c.sets)
	var reopen tea.Cmd
	if !slices.Equal(run, was) {
		s := c.base
		if len(run) > 0 {
			s = msg.scenario
			if err := h.Check(s); err != nil {
				h.Say("")
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
	c.sets = msg.sets
	if len(msg.sets) == 0 {
		h.Say("back to the scenario")
	} else {
		h.Say("what-if: " + describe(msg.sets))
	}
	return tea.Batch(reopen, bar.Apply(h, replaySets, ""))
}

// runEdited runs s, the editor's text, as the scenario opened: the command line's changes were
// merged into the text, so they start over from it.
func (c *Commands) runEdited(h Host, bar *Bar, s *scenarios.Scenario) tea.Cmd {
	c.base, c.sets, c.kind = s, nil, ""
	c.seq++ // a check still running is about the scenario before
	if text, err := s.Text(); err == nil {
		c.kind = cmdline.FileModelKind(text)
	}
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
	return "run: " + describe(run)
}

// describe writes overrides as the status line says them: a model kind set to null by a change of
// kind (cmdline.Command.OnModel) as the kind it replaced, "model.knn.k=1 in place of random_forest".
func describe(sets []string) string {
	var out, gone []string
	for _, s := range sets {
		if kind, ok := strings.CutSuffix(s, "=null"); ok && strings.HasPrefix(kind, "model.") && !strings.Contains(kind[len("model."):], ".") {
			gone = append(gone, strings.TrimPrefix(kind, "model."))
			continue
		}
		out = append(out, s)
	}
	text := strings.Join(out, ", ")
	if len(gone) > 0 {
		text += " in place of " + strings.Join(gone, ", ")
	}
	return text
}
