// Package effect is how a part of the player talks back to it. A part (a pane, the what-if bar,
// the command line, the editor, the split view, the workshop, an overlay) handles a key, a click
// or a message, changes its own state, and returns Effects: values that say what it wants changed
// of the player (the batch shown, the focus, a notice, a new run, a what-if, a command for the
// program to run). Player.apply makes them, in order; it is the one writer of the player's state,
// and a part never holds the player, nor a sibling.
package effect

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/scenarios"
)

// Effect is one change a part asks of the player.
type Effect interface{ effect() }

// Effects are the changes a part asks for, in the order the player makes them.
type Effects []Effect

// The view state (room.Shown): what the player shows.
type (
	// Play plays (true) or pauses.
	Play bool
	// GoTo shows batch t, or the last computed one when t is not computed yet.
	GoTo int
	// Step shows the next batch, or waits for the engine to compute it (a guess round asks first).
	Step struct{}
	// End shows the last computed batch, and each column as it comes until the last.
	End struct{}
	// Ahead is a batch to show as soon as its column is computed (0: none).
	Ahead int
	// Focus focuses pane i; a pane that changes is no longer maximised.
	Focus int
	// Cursor places the matrix's cell cursor.
	Cursor room.Cursor
	// Zoom maximises the focused pane, or not.
	Zoom bool
	// Speed is the playing speed (an index into the player's speeds, kept within them).
	Speed int
	// Visible is which algorithms show (an index into the player's sets, round their end).
	Visible int
	// Select selects an algorithm.
	Select algos.Name
	// Scale is R's scale: the algorithms are replayed at it.
	Scale float64
	// Tick plays on: the command of the next tick (one tick pending at a time).
	Tick struct{}
)

// What the player says, and the commands it runs.
type (
	// Notice is the one-line notice that the next key clears ("" clears it now).
	Notice string
	// Fail puts Err on the error line; a nil Err clears it.
	Fail struct{ Err error }
	// Quit closes the player: back to the picker when there is one (a room's member, after asking).
	Quit struct{}
	// Cmd is a command for the program to run: work off the UI goroutine, a timer, a cursor's
	// blink. Its message comes back to the player's Update.
	Cmd tea.Cmd
)

// Runs and what-ifs.
type (
	// Refresh replays the algorithms at the batch shown: the what-if shown changed.
	Refresh struct{}
	// WhatIf shows the what-if of Sets (--set overrides a finished run is recomputed for: queries,
	// kernel, errors, retrain_cost), named Name when that is not empty; no Sets is the scenario.
	// It is the what-if bar's one path from outside it (Bar.Apply).
	WhatIf struct {
		Sets []string
		Name string
	}
	// StopWhatIf shows a tour stop's what-if until UndoStopWhatIf puts back the one in force
	// before it.
	StopWhatIf []string
	// UndoStopWhatIf undoes StopWhatIf.
	UndoStopWhatIf struct{}
	// FollowWhatIf shows a presenter's what-if (Sets one a line, "" for the scenario, Name the
	// words that describe it) unless it is the one shown; Joining, the player's own what-if bar
	// closes, as the presenter decides the what-if.
	FollowWhatIf struct {
		Sets, Name string
		Joining    bool
	}
	// WhatIfBar opens the what-if bar (the split view, turned on with nothing to compare, asks
	// for one).
	WhatIfBar struct{}
	// Reopen runs the scenario again on a seed: a new matrix, so the workshop starts over.
	Reopen uint64
	// Rerun runs Scenario, the scenario the player opens from now on, on Seed (nil: the seed
	// shown), and goes back to the batch shown once the new run has computed it. KeepBefore keeps
	// the run shown watched as the run before (the split view's "before": the scenario as opened,
	// while a change of its data or model runs in its place), when there is none yet and the seed
	// stays; without it the run before goes.
	Rerun struct {
		Scenario   *scenarios.Scenario
		Seed       *uint64
		KeepBefore bool
	}
	// Edited runs Scenario, the editor's text, as the scenario opened: the command line, whose
	// changes the text took in, starts over from it.
	Edited struct{ Scenario *scenarios.Scenario }
)

// The workshop's room and questions.
type (
	// RoomView hands the player the room's view, as the relay would: following again, the
	// presenter's stage is shown.
	RoomView room.View
	// TakeKeys says a question is up and takes the keys: an overlay the player shows goes.
	TakeKeys struct{}
	// Confirm asks the player yes or no over the panes: y or enter makes Yes, any other key
	// leaves everything as it is and says No.
	Confirm struct {
		Question, Text, No string
		Yes                Effects
	}
	// Then goes on from the view the effects before it left (a batch shown, the algorithms
	// replayed there): the player reads itself again as F, the frame of the part that asked, and
	// makes the effects the function returns.
	Then[F any] func(F) Effects
)

func (Play) effect()           {}
func (GoTo) effect()           {}
func (Step) effect()           {}
func (End) effect()            {}
func (Ahead) effect()          {}
func (Focus) effect()          {}
func (Cursor) effect()         {}
func (Zoom) effect()           {}
func (Speed) effect()          {}
func (Visible) effect()        {}
func (Select) effect()         {}
func (Scale) effect()          {}
func (Tick) effect()           {}
func (Notice) effect()         {}
func (Fail) effect()           {}
func (Quit) effect()           {}
func (Cmd) effect()            {}
func (Refresh) effect()        {}
func (WhatIf) effect()         {}
func (StopWhatIf) effect()     {}
func (UndoStopWhatIf) effect() {}
func (FollowWhatIf) effect()   {}
func (WhatIfBar) effect()      {}
func (Reopen) effect()         {}
func (Rerun) effect()          {}
func (Edited) effect()         {}
func (RoomView) effect()       {}
func (TakeKeys) effect()       {}
func (Confirm) effect()        {}
func (Then[F]) effect()        {}

// Of wraps a command as Effects: none for a nil command.
func Of(cmd tea.Cmd) Effects {
	if cmd == nil {
		return nil
	}
	return Effects{Cmd(cmd)}
}
