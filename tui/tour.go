package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/scenarios/tour"
)

// tours is the scenario's tour as a player plays it (`cara play --tour`, key t): the tour being
// played, if any, and where the last one was left.
type tours struct {
	run  *tourRun // the tour being played; nil when none
	left int      // the stop where the tour was left (t takes it up there); -1 for none
}

// tourRun is a tour being played: the player runs to each stop, at least tourRate batches a
// second, stops there (pause: true) and shows the stop's callout over the panes, focused on what
// the stop points at; space goes on, t leaves. A stop with quiz: true asks the guess round's
// question before its batch is shown. A stop's what-if holds until the next stop.
type tourRun struct {
	stops   []tour.Stop
	i       int  // the stop shown or run to
	arrived bool // at stop i, its callout showing
	// whatif is the what-if the current stop applied, undone when the tour moves on.
	whatif *whatifUndo
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

// on reports whether a tour is being played.
func (ts *tours) on() bool { return ts.run != nil }

// running reports whether the tour is on its way to a stop.
func (ts *tours) running() bool { return ts.run != nil && !ts.run.arrived }

// quizAhead is the batch of the quiz stop the tour is on its way to: its question is up, or
// about to be.
func (ts *tours) quizAhead() (int, bool) {
	tr := ts.run
	if tr == nil || tr.arrived || !tr.stops[tr.i].Quiz {
		return 0, false
	}
	return tr.stops[tr.i].At, true
}

// toggle starts the scenario's tour (from the stop where it was left, else from the first), or
// leaves the tour being played.
func (ts *tours) toggle(s stage) tea.Cmd {
	sc := s.scene()
	if ts.run != nil {
		ts.left = ts.run.i
		ts.end(s)
		s.say(fmt.Sprintf("left the tour at stop %d of %d; t takes it up there", ts.left+1, len(sc.scen.Tour)))
		return nil
	}
	stops := sc.scen.Tour
	if len(stops) == 0 {
		s.say(fmt.Sprintf("%s has no tour (cara list marks the scenarios that have one)", sc.scen.Name))
		return nil
	}
	ts.run = &tourRun{stops: stops}
	from := max(ts.left, 0)
	ts.left = -1
	return ts.toStop(s, from)
}

// end leaves the tour: what it shows stays (batch, focus, cursor, a stop's what-if), the callout
// goes.
func (ts *tours) end(s stage) {
	sc := s.scene()
	ts.run = nil
	sc.Playing = false
	if c := sc.ws.callout; c != nil && c.kind == calloutTour {
		sc.ws.callout = nil
	}
}

// toStop runs to stop i: at once when its batch is shown or behind, playing towards it otherwise.
func (ts *tours) toStop(s stage, i int) tea.Cmd {
	sc, tr := s.scene(), ts.run
	var undo tea.Cmd
	if tr.whatif != nil {
		undo = s.undoWhatif(tr.whatif)
		tr.whatif = nil
	}
	keep := tr.arrived && !tr.stops[tr.i].Pause // a stop that plays on keeps its callout on the way
	tr.i, tr.arrived = i, false
	if c := sc.ws.callout; !keep && c != nil && (c.kind == calloutTour || c.kind == calloutReveal) {
		sc.ws.callout = nil
	}
	if target := tr.target(); target <= sc.Pos {
		s.goTo(target)
		return tea.Batch(undo, ts.arrive(s))
	}
	sc.Playing = true
	return tea.Batch(undo, s.ticker())
}

// step is called as the player plays: it stops at the tour's stop once it is reached.
func (ts *tours) step(s stage) (tea.Cmd, bool) {
	if !ts.running() || s.scene().Pos < ts.run.target() {
		return nil, false
	}
	return ts.arrive(s), true
}

// arrive stops at the current stop: a quiz asks first, then the stop is shown.
func (ts *tours) arrive(s stage) tea.Cmd {
	sc := s.scene()
	sc.Playing = false
	st := ts.run.stops[ts.run.i]
	if st.Quiz {
		if _, ok := sc.ws.guess.answers[st.At]; !ok {
			return sc.ws.guess.ask(s, st.At)
		}
		s.goTo(st.At)
	}
	return ts.showStop(s)
}

// showStop shows the current stop: its focus, its what-if and its callout; a stop that does not
// pause plays on to the next one with its callout showing.
func (ts *tours) showStop(s stage) tea.Cmd {
	tr := ts.run
	tr.arrived = true
	st := tr.stops[tr.i]
	focusOn(s, st.Focus)
	var note string
	var apply tea.Cmd
	if len(st.Whatif) > 0 {
		tr.whatif, note, apply = s.tourWhatIf(st.Sets())
	}
	s.scene().ws.callout = stopCallout(s, tr.i, note, false)
	if !st.Pause && tr.i+1 < len(tr.stops) {
		return tea.Batch(apply, ts.toStop(s, tr.i+1))
	}
	return apply
}

// space is space during a tour: at a stop it goes on to the next (or ends the tour after the
// last); on the way it goes straight to the stop when its batch is computed.
func (ts *tours) space(s stage) tea.Cmd {
	tr := ts.run
	switch {
	case !tr.arrived && tr.target() < s.scene().s.Computed:
		s.goTo(tr.target())
		return ts.arrive(s)
	case !tr.arrived:
		return nil // on its way, waiting for the engine
	case tr.i+1 < len(tr.stops):
		return ts.toStop(s, tr.i+1)
	}
	ts.end(s)
	s.say("end of the tour; t takes it again from the start")
	return nil
}

// focusOn points the player at a stop's focus: a pane, or a cell of the cost matrix under the
// cursor. A stop changes only what it names.
func focusOn(s stage, f tour.Focus) {
	if f.Pane == tour.NoPane {
		return
	}
	s.setFocus(int(f.Pane) - 1) // the panes in the tour's order are the player's, from 1
	if f.Cell != nil {
		cur := &s.scene().Cursor
		cur.On, cur.At = true, [2]int{f.Cell.Model, f.Cell.Batch}
	}
}

// stopCallout is the callout of stop i: the stop's text, a what-if's note, the guess's reveal at
// a quiz stop; the keys that go on are the presenter's or the follower's.
func stopCallout(s stage, i int, note string, following bool) *callout {
	sc := s.scene()
	stops := sc.scen.Tour
	if i < 0 || i >= len(stops) {
		return nil
	}
	st := stops[i]
	c := &callout{kind: calloutTour, pane: int(st.Focus.Pane) - 1, stop: i, batch: st.Quiz,
		title: fmt.Sprintf("tour %d/%d · batch %d", i+1, len(stops), st.At)}
	g := &sc.ws.guess
	_, answered := g.answers[st.At]
	if st.Quiz {
		c.head = g.revealLines(s, st.At)
	}
	c.fill = func() string {
		text := sayText(s, st)
		if st.Quiz && answered {
			text = "" // the question's words were shown with it; now the answer
		}
		return strings.TrimSpace(text + "\n\n" + note)
	}
	c.text = c.fill()
	switch {
	case following:
		c.foot = "the presenter goes on · p to go free"
	case i+1 < len(stops) && !st.Pause:
		c.foot = "playing on to the next stop · t leave the tour"
	case i+1 < len(stops):
		c.foot = "space next stop · t leave the tour"
	default:
		c.foot = "space end the tour · t leave"
	}
	return c
}

// sayText is a stop's text with its templates filled from the run shown: the matrix (a what-if's
// under the stop's what-if), the R in force, every algorithm over the whole online block (so the
// Oracle is the paper's). A number not known yet (the matrix or a what-if still computing) reads
// "…" until it is. On a seed other than the scenario's the words were written for another run,
// and the callout says so.
func sayText(s stage, st tour.Stop) string {
	sc := s.scene()
	m, _ := sc.s.Shown()
	f := tour.Facts{M: m, R: sc.s.retrainCost(sc.Scale), At: st.At}
	if sc.s.WhatIfSince.IsZero() {
		f.Results = sc.s.wholeBlock(sc.Scale)
	}
	text := st.Text(f)
	if sc.s.Seed != sc.scen.Seed {
		text += fmt.Sprintf("\n\n(Written for seed %d: the numbers are this run's, seed %d.)", sc.scen.Seed, sc.s.Seed)
	}
	return text
}
