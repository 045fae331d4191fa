package whatif

import (
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/scenarios/cmdline"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
)

// What the command line (:) does with a command: the player keeps one list of overrides, the
// command line's what-if. The part of it a finished run can be recomputed for (queries, kernel,
// errors, retrain_cost) goes through the one what-if path, the bar's (effect.WhatIf), at once; the
// rest (the data, the model, the offline block, the seed) is a scenario of its own, opened as a new
// run in the registry (effect.Rerun), where a run of the same content is shared like any other,
// and the replayable part applied to it when it is done. reset (or unset of every path) returns to
// the scenario opened.
//
// A command's way, from the key to the new run, each step a function here or the player's:
//
//	enter          Commands.Update: the line parses the command; check clears the error line,
//	               says "checking …" and loads the scenario it makes off the UI goroutine
//	CheckedMsg     Commands.Checked: refused, the loader's words on the error line and nothing
//	               else changed; taken, effect.Rerun of the scenario when its data or model
//	               changed, the notice, and effect.WhatIf of the replayable part
//	Player.apply   Rerun opens the new run on the seed shown and goes back to the batch shown;
//	               WhatIf hands the sets to the bar (Bar.Apply), which starts them once the run is
//	               done (Bar.StartPending, on the run's DoneMsg) and shows them when they arrive
//	               (Bar.Arrived, on the WhatIfMsg)

// Commands is the command line and the what-if it has built.
type Commands struct {
	line commandLine
	sets []string            // every override the command line has set, in order
	base *scenarios.Scenario // the scenario as opened, before any change of its data or model
	kind string              // the kind of model base's file gives (cmdline.FileModelKind)
	seq  int                 // numbers the checks: only the newest one's outcome is applied
	// seed is the seed shown before a set of seed (the player's, which --seed may have chosen
	// over the file's): a run without the set goes back to it. seeded: a set of seed is in force.
	seed   uint64
	seeded bool
	// edited: the scenario opened is the editor's text, not the file (Status says so).
	edited bool
}

func NewCommands() Commands { return Commands{line: newCommandLine()} }

// Typing reports whether the command line is open: it takes every key (Update).
func (c *Commands) Typing() bool { return c.line.open }

// Update takes a message while the line is open: a key typed, the input's own messages. A
// command entered is checked (check).
func (c *Commands) Update(h Host, msg tea.Msg) effect.Effects {
	entered, cmd := c.line.Update(msg)
	if entered == nil {
		return effect.Of(cmd)
	}
	return c.check(h, *entered)
}

// View is the line, w wide.
func (c *Commands) View(st *draw.Styles, w int) string { return c.line.View(st, w) }

// Sets are every override the command line has set, in order.
func (c *Commands) Sets() []string { return c.sets }

// Line is the text on the command line.
func (c *Commands) Line() string { return c.line.input.Value() }

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
func (c *Commands) Open(w int) effect.Effects {
	c.line.SetWidth(w)
	return effect.Of(c.line.Open())
}

// CheckedMsg is a command checked off the UI goroutine: the scenario loads with the overrides it
// makes, or err says why not (Checked applies it, or shows the error).
type CheckedMsg struct {
	seq      int
	sets     []string // every override after the command
	scenario *scenarios.Scenario
	err      error
}

// check checks an entered command before anything changes: the scenario it makes is loaded off the
// UI goroutine (a new run's with its data and model, the what-if's on top), and Checked applies it
// or shows the loader's error at once, the what-if in force and the status line as they were. A
// set into another kind of model than the one in force changes the kind (cmdline.OnModel).
func (c *Commands) check(h Host, cmd cmdline.Command) effect.Effects {
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
	load := func() tea.Msg {
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
	return effect.Effects{effect.Fail{}, effect.Notice("checking " + cmd.String() + "…"), effect.Cmd(load)}
}

// Checked applies a checked command: the rest of the overrides as a new run when they changed
// (keeping the run before for the split view while they differ from the scenario as opened), and
// the replayable part through the bar's what-if path; the new run shows the batch the player was
// at once it is computed. A command the loader refused changes nothing and says why; an outcome
// superseded by a newer command is dropped.
func (c *Commands) Checked(h Host, msg CheckedMsg) effect.Effects {
	if msg.seq != c.seq {
		return nil
	}
	if msg.err != nil {
		return effect.Effects{effect.Notice(""), effect.Fail{Err: msg.err}}
	}
	replaySets, run := splitSets(msg.sets)
	_, was := splitSets(c.sets)
	var e effect.Effects
	if !slices.Equal(run, was) {
		s := c.base
		if len(run) > 0 {
			s = msg.scenario
			if err := h.Check(s); err != nil {
				return effect.Effects{effect.Notice(""), effect.Fail{Err: err}}
			}
		}
		// A set of seed runs on that seed, and the sets after it stay there; without it the run
		// goes back to the seed shown before it. Otherwise the run stays on the seed shown.
		re := effect.Rerun{Scenario: s, KeepBefore: len(run) > 0}
		switch seeded := setsSeed(run); {
		case seeded:
			if !c.seeded {
				c.seed = h.Session().Seed
			}
			re.Seed, re.KeepBefore = &s.Seed, false // another seed's run is no "before" of this one
		case c.seeded:
			seed := c.seed
			re.Seed = &seed
		}
		c.seeded = setsSeed(run)
		e = append(e, re)
	}
	c.sets = msg.sets
	notice := effect.Notice("back to the scenario")
	if len(msg.sets) > 0 {
		notice = effect.Notice("what-if: " + describe(msg.sets))
	}
	return append(e, notice, effect.WhatIf{Sets: replaySets})
}

// Edited starts over from s, the editor's text run as the scenario opened: the command line's
// changes were merged into the text. The run before goes with them.
func (c *Commands) Edited(h Host, s *scenarios.Scenario) effect.Effects {
	re := effect.Rerun{Scenario: s}
	if from := h.Scenario(); s.Seed != from.Seed {
		re.Seed = &s.Seed // the text's seed: line changed: its run
	}
	c.base, c.sets, c.kind, c.seeded, c.edited = s, nil, "", false, true
	c.seq++ // a check still running is about the scenario before
	if text, err := s.Text(); err == nil {
		c.kind = cmdline.FileModelKind(text)
	}
	return effect.Effects{effect.Notice("running the edited scenario (esc e to edit it again)"), re, effect.WhatIf{}}
}

// setsSeed reports whether overrides set the seed.
func setsSeed(sets []string) bool {
	return slices.ContainsFunc(sets, func(s string) bool { path, _, _ := strings.Cut(s, "="); return path == "seed" })
}

// Status names the command line's change of data or model for the status line ("" for none):
// what the run on screen was computed from, beyond the scenario's file.
func (c *Commands) Status() string {
	_, run := splitSets(c.sets)
	switch {
	case c.edited && len(run) > 0:
		return "run: edited, " + describe(run)
	case c.edited:
		return "run: edited"
	case len(run) == 0:
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
