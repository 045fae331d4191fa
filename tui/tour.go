package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/scenarios"
)

// tourRun is a tour being played (`cara play --tour`, key t): the player runs to each stop, at
// least tourRate batches a second, stops there (pause: true) and shows the stop's callout over the
// panes, focused on what the stop points at; space goes on, t leaves. A stop with quiz: true asks
// the guess round's question before its batch is shown. A stop's what-if holds until the next stop.
type tourRun struct {
	stops   []scenarios.Stop
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

// running reports whether the tour is on its way to a stop.
func (p *Player) tourRunning() bool { return p.tour != nil && !p.tour.arrived }

// toggleTour starts the scenario's tour (from the stop where it was left, else from the first),
// or leaves the tour being played.
func (p *Player) toggleTour() tea.Cmd {
	if p.tour != nil {
		p.tourLeft = p.tour.i
		p.endTour()
		p.notice = fmt.Sprintf("left the tour at stop %d of %d; t takes it up there", p.tourLeft+1, len(p.opt.Scenario.Tour))
		return nil
	}
	stops := p.opt.Scenario.Tour
	if len(stops) == 0 {
		p.notice = fmt.Sprintf("%s has no tour (cara list marks the scenarios that have one)", p.opt.Scenario.Name)
		return nil
	}
	p.tour = &tourRun{stops: stops}
	from := max(p.tourLeft, 0)
	p.tourLeft = -1
	return p.toStop(from)
}

// endTour leaves the tour: what it shows stays (batch, focus, cursor, a stop's what-if), the
// callout goes.
func (p *Player) endTour() {
	p.tour = nil
	p.Playing = false
	if p.callout != nil && p.callout.kind == calloutTour {
		p.callout = nil
	}
}

// toStop runs to stop i: at once when its batch is shown or behind, playing towards it otherwise.
func (p *Player) toStop(i int) tea.Cmd {
	tr := p.tour
	var undo tea.Cmd
	if tr.whatif != nil {
		undo = p.undoWhatif(tr.whatif)
		tr.whatif = nil
	}
	keep := tr.arrived && !tr.stops[tr.i].Pause // a stop that plays on keeps its callout on the way
	tr.i, tr.arrived = i, false
	if !keep && p.callout != nil && (p.callout.kind == calloutTour || p.callout.kind == calloutReveal) {
		p.callout = nil
	}
	if target := tr.target(); target <= p.Pos {
		p.goTo(target)
		return tea.Batch(undo, p.arrive())
	}
	p.Playing = true
	return tea.Batch(undo, p.ticker())
}

// tourStep is called as the player plays: it stops at the tour's stop once it is reached.
func (p *Player) tourStep() (tea.Cmd, bool) {
	if !p.tourRunning() || p.Pos < p.tour.target() {
		return nil, false
	}
	return p.arrive(), true
}

// arrive stops at the current stop: a quiz asks first, then the stop is shown.
func (p *Player) arrive() tea.Cmd {
	p.Playing = false
	st := p.tour.stops[p.tour.i]
	if st.Quiz {
		if _, ok := p.guess.answers[st.At]; !ok {
			return p.ask(st.At)
		}
		p.goTo(st.At)
	}
	return p.showStop()
}

// showStop shows the current stop: its focus, its what-if and its callout; a stop that does not
// pause plays on to the next one with its callout showing.
func (p *Player) showStop() tea.Cmd {
	tr := p.tour
	tr.arrived = true
	st := tr.stops[tr.i]
	p.focusOn(st.Focus)
	var note string
	var apply tea.Cmd
	if len(st.Whatif) > 0 {
		tr.whatif, note, apply = p.tourWhatIf(st.Sets())
	}
	p.callout = p.stopCallout(tr.i, note, false)
	if !st.Pause && tr.i+1 < len(tr.stops) {
		return tea.Batch(apply, p.toStop(tr.i+1))
	}
	return apply
}

// tourSpace is space during a tour: at a stop it goes on to the next (or ends the tour after the
// last); on the way it goes straight to the stop when its batch is computed.
func (p *Player) tourSpace() tea.Cmd {
	tr := p.tour
	switch {
	case !tr.arrived && tr.target() < p.s.Computed:
		p.goTo(tr.target())
		return p.arrive()
	case !tr.arrived:
		return nil // on its way, waiting for the engine
	case tr.i+1 < len(tr.stops):
		return p.toStop(tr.i + 1)
	}
	p.endTour()
	p.notice = "end of the tour; t takes it again from the start"
	return nil
}

// focusOn points the player at a stop's focus: a pane, or a cell of the cost matrix under the
// cursor. A stop changes only what it names.
func (p *Player) focusOn(f scenarios.Focus) {
	if f.Pane == scenarios.NoPane {
		return
	}
	p.setFocus(int(f.Pane) - 1) // the panes in the tour's order are the player's, from 1
	if f.Cell != nil {
		mp := p.panes.matrix
		mp.cur.On, mp.cur.At = true, [2]int{f.Cell.Model, f.Cell.Batch}
	}
}

// stopCallout is the callout of stop i: the stop's text, a what-if's note, the guess's reveal at
// a quiz stop; the keys that go on are the presenter's or the follower's.
func (p *Player) stopCallout(i int, note string, following bool) *callout {
	stops := p.opt.Scenario.Tour
	if i < 0 || i >= len(stops) {
		return nil
	}
	st := stops[i]
	c := &callout{kind: calloutTour, pane: int(st.Focus.Pane) - 1, stop: i,
		title: fmt.Sprintf("tour %d/%d · batch %d", i+1, len(stops), st.At)}
	_, answered := p.guess.answers[st.At]
	if st.Quiz {
		c.head = p.revealLines(st.At)
	}
	c.fill = func() string {
		text := p.sayText(st)
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
func (p *Player) sayText(st scenarios.Stop) string {
	m, _ := p.s.Shown()
	f := scenarios.Facts{M: m, R: p.s.retrainCost(p.Scale), At: st.At}
	if p.s.WhatIfSince.IsZero() {
		f.Results = p.s.wholeBlock(p.Scale)
	}
	text := st.Text(f)
	if p.s.Seed != p.opt.Scenario.Seed {
		text += fmt.Sprintf("\n\n(Written for seed %d: the numbers are this run's, seed %d.)", p.opt.Scenario.Seed, p.s.Seed)
	}
	return text
}

// workshopKeys are the keys the help line shows first while a tour plays or a follower follows.
func (p *Player) workshopKeys() []key.Binding {
	k := p.keys
	if _, ok := p.overlay.(*guessOverlay); ok {
		return []key.Binding{k.AnswerRetrain, k.AnswerKeep, key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "not now"))}
	}
	switch {
	case p.room.following:
		return []key.Binding{key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "go free"))}
	case p.tour != nil:
		return []key.Binding{k.TourNext, key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "leave tour"))}
	}
	return nil
}

// resetWorkshop forgets the tour and the guesses: the run they were about is gone.
func (p *Player) resetWorkshop() {
	if p.tour != nil {
		p.endTour()
	}
	p.callout = nil
	p.tourLeft = -1
	p.guess.reset()
}
