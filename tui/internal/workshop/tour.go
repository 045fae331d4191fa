package workshop

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/scenarios/tour"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/keys"
)

// Tour is the scenario's tour as a player plays it (`cara play --tour`, key t): the tour being
// played, if any, where the last one was left, and its keys.
type Tour struct {
	run  *tourRun // the tour being played; nil when none
	left int      // the stop where the tour was left (t takes it up there); -1 for none
	keys TourKeys
}

func newTour() Tour { return Tour{left: -1, keys: newTourKeys()} }

// TourKeys are the tour's keys: t starts it; while it plays, space goes on and t leaves.
type TourKeys struct{ Tour, TourNext, LeaveTour key.Binding }

func newTourKeys() TourKeys {
	return TourKeys{
		Tour:      keys.Bind([]string{"t"}, "t", "tour: start/leave"),
		TourNext:  keys.Bind([]string{" "}, "space", "next stop"),
		LeaveTour: keys.Bind([]string{"t"}, "t", "leave tour"),
	}
}

func (k *TourKeys) enable(m keys.Mode) {
	keys.Enable(m.Drives() && !m.Tour, &k.Tour)
	keys.Enable(m.Drives() && m.Tour, &k.TourNext, &k.LeaveTour)
}

// tourRun is a tour being played: the player runs to each stop, at least tourRate batches a
// second, stops there (pause: true) and shows the stop's callout over the panes, focused on what
// the stop points at; space goes on, t leaves. A stop with quiz: true asks the guess round's
// question before its batch is shown. A stop's what-if holds until the next stop.
type tourRun struct {
	stops   []tour.Stop
	i       int  // the stop shown or run to
	arrived bool // at stop i, its callout showing
	// whatif: the current stop applied a what-if (StopWhatIf), undone when the tour moves on.
	whatif bool
}

// tourRate is the least speed, in batches per second, at which a tour runs to its next stop: a
// class watches the matrix fill without waiting.
const tourRate = 20

// target is the batch the tour runs to for stop i: the batch before a quiz's (the question comes
// before the batch is shown), the stop's own otherwise.
func (tr *tourRun) target() int {
	st := tr.stops[tr.i]
	if st.Quiz {
		return st.At - 1
	}
	return st.At
}

// On reports whether a tour is being played.
func (ts *Tour) On() bool { return ts.run != nil }

// running reports whether the tour is on its way to a stop.
func (ts *Tour) running() bool { return ts.run != nil && !ts.run.arrived }

// Stop is the stop of the tour being played and whether the player is at it, its callout up,
// rather than on its way to it; -1 when no tour plays.
func (ts *Tour) Stop() (int, bool) {
	if tr := ts.run; tr != nil {
		return tr.i, tr.arrived
	}
	return -1, false
}

// MinRate is the least playing speed, in batches a second, while the tour runs to its next stop
// (0 when none does).
func (ts *Tour) MinRate() float64 {
	if ts.running() {
		return tourRate
	}
	return 0
}

// quizAhead is the batch of the quiz stop the tour is on its way to: its question is up, or
// about to be.
func (ts *Tour) quizAhead() (int, bool) {
	tr := ts.run
	if tr == nil || tr.arrived || !tr.stops[tr.i].Quiz {
		return 0, false
	}
	return tr.stops[tr.i].At, true
}

// quizStop is the tour's quiz stop at batch t, when the player plays the tour or follows (following)
// a presenter who does.
func (ts *Tour) quizStop(f Frame, t int, following bool) (int, bool) {
	if !ts.On() && !following {
		return 0, false
	}
	for i, st := range f.Scenario.Tour {
		if st.Quiz && st.At == t {
			return i, true
		}
	}
	return 0, false
}

// end leaves the tour: what it shows stays (batch, focus, cursor, a stop's what-if), the
// callout goes.
func (ts *Tour) end(b *board) effect.Effects {
	ts.run = nil
	b.takeDown(StopCallout)
	return effect.Effects{effect.Play(false)}
}

// toStop runs to stop i: at once when its batch is shown or behind (arrive, there), playing
// towards it otherwise.
func (ts *Tour) toStop(b *board, f Frame, i int, arrive Then) effect.Effects {
	tr := ts.run
	var e effect.Effects
	if tr.whatif {
		e = append(e, effect.UndoStopWhatIf{})
		tr.whatif = false
	}
	keep := tr.arrived && !tr.stops[tr.i].Pause // a stop that plays on keeps its callout on the way
	tr.i, tr.arrived = i, false
	if !keep {
		b.takeDown(StopCallout, RevealCallout)
	}
	if target := tr.target(); target <= f.Pos {
		return append(e, effect.GoTo(target), arrive)
	}
	return append(e, effect.Play(true), effect.Tick{})
}

// ToggleTour starts the scenario's tour (from the stop where it was left, else from the first), or
// leaves the tour being played: a presenter's room is shown its summary.
func (w *Workshop) ToggleTour(f Frame) effect.Effects {
	ts := &w.tour
	if ts.run != nil {
		ts.left = ts.run.i
		e := append(ts.end(&w.board), effect.Notice(fmt.Sprintf("left the tour at stop %d of %d; t takes it up there", ts.left+1, len(f.Scenario.Tour))))
		w.board.show(w.room.summary(f, "tour", false, w.board.questions, w.board.since))
		return e
	}
	stops := f.Scenario.Tour
	if len(stops) == 0 {
		return effect.Effects{effect.Notice(fmt.Sprintf("%s has no tour (cara list marks the scenarios that have one)", f.Scenario.Name))}
	}
	if seed := TourSeed(f.Scenario); f.Seed != seed {
		return effect.Effects{switchSeed(seed, f.Seed, w.room.Presenting(), w.ToggleTour)}
	}
	ts.run = &tourRun{stops: stops}
	if ts.left < 0 {
		// A tour from its start: its quizzes are asked again, and the room's summary scores them.
		w.board.newRound()
		w.guess.newRound()
	}
	from := max(ts.left, 0)
	ts.left = -1
	return ts.toStop(&w.board, f, from, w.arrive)
}

// TourSeed is the seed a scenario's tour was written for, and plays on: every sentence of it that
// states something about the run is about that run (the claims test holds each one to it).
func TourSeed(s *scenarios.Scenario) uint64 { return s.TourSeed() }

// switchSeed asks to open the tour's seed and start the tour there (start); a presenter's room
// follows.
func switchSeed(seed, shown uint64, presenting bool, start Then) effect.Confirm {
	text := "Its words and numbers are that run's. The matrix is computed again on it; your guesses start over."
	if presenting {
		text = "Its words and numbers are that run's. The whole room follows you there: every follower's matrix and guesses start over."
	}
	return effect.Confirm{
		Question: fmt.Sprintf("This tour was written for seed %d: switch to it?", seed),
		Text:     text,
		No:       fmt.Sprintf("kept seed %d; the tour plays on seed %d (t asks again)", shown, seed),
		Yes:      effect.Effects{effect.Reopen(seed), start},
	}
}

// TourStep stops at the tour's stop once it is reached, as the player plays.
func (w *Workshop) TourStep(f Frame) (effect.Effects, bool) {
	if !w.tour.running() || f.Pos < w.tour.run.target() {
		return nil, false
	}
	return w.arrive(f), true
}

// arrive stops at the current stop: a quiz asks first (the guess round's question), then the stop
// is shown.
func (w *Workshop) arrive(f Frame) effect.Effects {
	e := effect.Effects{effect.Play(false)}
	st := w.tour.run.stops[w.tour.run.i]
	if st.Quiz {
		if !w.guess.answeredNow(st.At) {
			return append(e, w.board.ask(f, st.At, w.room.Presenting())...)
		}
		return append(e, effect.GoTo(st.At), Then(w.showStop))
	}
	return append(e, w.showStop(f)...)
}

// showStop shows the current stop: its focus, its what-if and its callout (a quiz's with the
// guess's reveal); a stop that does not pause plays on to the next one with its callout showing.
func (w *Workshop) showStop(f Frame) effect.Effects {
	tr := w.tour.run
	tr.arrived = true
	st := tr.stops[tr.i]
	e := focusOn(st.Focus)
	var note string
	if len(st.Whatif) > 0 {
		sets := st.Sets()
		e = append(e, effect.StopWhatIf(sets))
		tr.whatif = true
		note = "What-if: " + strings.Join(sets, ", ") + ", recomputed from the run without training again."
		if !f.Done {
			note = "What-if: " + strings.Join(sets, ", ") + ", shown once the run is computed."
		}
	}
	w.board.callout = stopCallout(f, tr.i, note, false, w.revealOf)
	if !st.Pause && tr.i+1 < len(tr.stops) {
		return append(e, w.tour.toStop(&w.board, f, tr.i+1, w.arrive)...)
	}
	return e
}

// TourNext is space during a tour: at a stop it goes on to the next (or ends the tour after the
// last, a presenter's room shown its summary); on the way it goes straight to the stop when its
// batch is computed.
func (w *Workshop) TourNext(f Frame) effect.Effects {
	tr := w.tour.run
	switch {
	case !tr.arrived && tr.target() < f.Computed:
		return effect.Effects{effect.GoTo(tr.target()), Then(w.arrive)}
	case !tr.arrived:
		return nil // on its way, waiting for the engine
	case tr.i+1 < len(tr.stops):
		return w.tour.toStop(&w.board, f, tr.i+1, w.arrive)
	}
	e := append(w.tour.end(&w.board), effect.Notice("end of the tour; t takes it again from the start"))
	w.board.show(w.room.summary(f, "tour", false, w.board.questions, w.board.since))
	return e
}

// focusOn points the player at a stop's focus: a pane, or a cell of the cost matrix under the
// cursor. A stop changes only what it names; a stop that names a pane takes the cursor off the
// cell an earlier stop put it on, whose readout would otherwise stay under the matrix, about
// another batch.
func focusOn(fc tour.Focus) effect.Effects {
	if fc.Pane == tour.NoPane {
		return nil
	}
	e := effect.Effects{effect.Focus(int(fc.Pane) - 1)} // the panes in the tour's order are the player's, from 1
	if fc.Cell != nil {
		return append(e, effect.Cursor{On: true, At: [2]int{fc.Cell.Model, fc.Cell.Batch}})
	}
	return append(e, effect.Cursor{On: false})
}

// stopCallout is the callout of stop i: the stop's text, a what-if's note, the guess's reveal at
// a quiz stop (reveal: its lines, and whether the batch was answered); the keys that go on are the
// presenter's or the follower's.
func stopCallout(f Frame, i int, note string, following bool, reveal func(f Frame, t int) ([]string, bool)) *Callout {
	stops := f.Scenario.Tour
	if i < 0 || i >= len(stops) {
		return nil
	}
	st := stops[i]
	c := &Callout{Kind: StopCallout, Pane: int(st.Focus.Pane) - 1, Stop: i, Batch: st.Quiz,
		Title: fmt.Sprintf("tour %d/%d · batch %d", i+1, len(stops), st.At)}
	var answered bool
	if st.Quiz {
		c.Head, answered = reveal(f, st.At)
	}
	c.fill = func(f Frame) string {
		text := sayText(f, st)
		if st.Quiz && answered {
			text = "" // the question's words were shown with it; now the answer
		}
		return strings.TrimSpace(text + "\n\n" + note)
	}
	c.Text = c.fill(f)
	switch {
	case following:
		c.Foot = "the presenter goes on · p to go free"
	case i+1 < len(stops) && !st.Pause:
		c.Foot = "playing on to the next stop · t leave the tour"
	case i+1 < len(stops):
		c.Foot = "space next stop · t leave the tour"
	default:
		c.Foot = "space end the tour · t leave"
	}
	return c
}

// sayText is a stop's text with its templates filled from the run shown: the matrix (a what-if's
// under the stop's what-if), the R in force, every algorithm over the whole online block (so the
// Oracle is the paper's). A number not known yet (the matrix or a what-if still computing) reads
// "…" until it is. A tour plays only on the seed it was written for (ToggleTour), so its words
// are about the run shown.
func sayText(f Frame, st tour.Stop) string {
	facts := tour.Facts{M: f.Matrix, R: f.R, At: st.At}
	if !f.WhatIfComputing {
		facts.Results = f.WholeBlock()
	}
	text := st.Text(facts)
	// The words were checked on the stop's own view: R as the scenario (or the stop's what-if)
	// has it. Under another R or what-if the numbers follow, and the callout says the words may not.
	switch {
	case math.Abs(f.Scale-1) > 1e-12:
		text += fmt.Sprintf("\n\n(R is ×%.3g here: the numbers are this view's; the words were written for the tour's R.)", f.Scale)
	case !f.WhatIfComputing && len(f.WhatIf) > 0 && !slices.Equal(f.WhatIf, st.Sets()):
		text += "\n\n(Another what-if is shown: the numbers are its own; the words were written for the tour's.)"
	}
	return text
}
