package tui

import (
	"context"
	"math"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/room"
)

// roomSide is a player's place in a workshop room (cara serve --presenter-keys): presenting,
// following the presenter's stage, or free. A player without a room (cara play) has m nil.
type roomSide struct {
	m          *room.Member
	view       room.View  // the newest the relay brought
	following  bool       // the player shows the presenter's stage
	applied    room.Stage // the stage last applied: later ones are applied as changes to it
	fresh      bool       // applied holds nothing yet (joined, or rejoined): apply everything
	appliedVer uint64     // the stage version applied
	// tally is the room's answers to each question the presenter revealed: RETRAIN, KEEP.
	tally map[int][2]int
	// resumed is the stage a presenter back took up (resume), published as it was until the player
	// shows it (its batch computed, its what-if computed again), so the room stays where it was
	// meanwhile; nil once shown, or after resumeWait.
	resumed   *room.Stage
	resumedAt time.Time
}

// resumeWait bounds how long a presenter back publishes the stage it took up rather than its own.
const resumeWait = 10 * time.Second

func (r *roomSide) presenting() bool { return r.m != nil && r.view.Presenter }

// roomMsg brings the room's newest view to a session's model.
type roomMsg struct{ v room.View }

// Relay hands the room's changes to a session's program (send is its Send) until ctx ends, one
// message per change it sees: the newest view each time, so a slow session skips versions and
// never falls behind.
func Relay(ctx context.Context, m *room.Member, send func(tea.Msg)) {
	var seen uint64
	for {
		v, ok := m.Wait(ctx, seen)
		if !ok {
			return
		}
		seen = v.Version
		send(roomMsg{v})
	}
}

// onRoom takes the room's newest view: a presenter's counts, a follower's stage to show, the
// presenter's arrival or departure. Following into another scenario opens a new player, which
// follows from there in place of this one.
func (p *Player) onRoom(v room.View) (tea.Model, tea.Cmd) {
	if !p.room.receive(p, v) {
		return p, nil
	}
	st := v.Stage
	switch {
	case st.Scenario == nil:
		return p, nil // the presenter is choosing: keep showing the last
	case st.Scenario != p.opt.Scenario:
		opt := p.opt
		opt.Scenario, opt.Seed, opt.Width, opt.Height, opt.Tour = st.Scenario, st.Seed, p.w, p.h, false
		np, err := NewPlayer(opt)
		if err != nil {
			p.notice = "cannot follow the presenter: " + err.Error()
			return p, nil
		}
		p.s.Stop()
		np.room = p.room
		np.room.fresh = true
		np.tick++
		cmd := np.room.follow(np, st)
		return np, tea.Batch(np.Init(), cmd)
	}
	p.tick++ // a follower plays by the presenter's steps, never by its own ticks
	return p, p.room.follow(p, st)
}

// followWhatIf implements stage: the presenter's what-if, computed once for the run (the
// followers' are shared).
func (p *Player) followWhatIf(sets, name string, joining bool) tea.Cmd {
	if joining {
		p.wi.open = false // the presenter decides the what-if, not the follower's own bar
	}
	if sets == shownSets(p.s) {
		return nil
	}
	var list []string
	if sets != "" {
		list = strings.Split(sets, "\n")
	}
	return p.wi.apply(p, list, name)
}

// receive takes the room's newest view: it says what changed (a presenter gone, a presenter on)
// and reports whether the presenter's stage is to be shown now.
func (r *roomSide) receive(s stage, v room.View) bool {
	was, wasOn, wasPresenter := r.following, r.view.On, r.view.Presenter
	r.view = v
	switch {
	case wasPresenter && !v.Presenter:
		s.say("another presenter took over; you are free (p follows them)")
	case was && !v.On:
		s.say("the presenter left: you keep what they showed, and you are free now")
	case !was && !v.Presenter && v.On && !wasOn:
		s.say("a presenter is on: p to follow")
	}
	r.following = v.Following && v.On
	if !r.following {
		if was {
			r.leftAlone(s)
		}
		return false
	}
	if !was {
		r.fresh = true
	}
	if v.StageVersion == r.appliedVer && !r.fresh {
		return false // the room's counts changed, not the stage
	}
	r.appliedVer = v.StageVersion
	return true
}

// follow shows the presenter's stage, of the scenario shown: the fields that changed since the
// last one applied (all of them on joining), so what a follower changes on their own view (a
// pane's focus, the cursor) stays until the presenter changes it.
func (r *roomSide) follow(s stage, st room.Stage) tea.Cmd {
	var cmds []tea.Cmd
	if st.Seed != s.scene().s.Seed {
		cmds = append(cmds, s.reopen(st.Seed))
		r.fresh = true
	}
	sc := s.scene() // after reopen: the new run
	old, all := r.applied, r.fresh
	r.applied, r.fresh = st, false
	if all || old.Whatif != st.Whatif {
		cmds = append(cmds, s.followWhatIf(st.Whatif, st.WhatifName, all))
	}
	// What a follower changes on their own view (the focus, the cursor) stays until the presenter
	// changes it: only the fields that changed since the last stage applied are applied.
	sh, was := st.Shown, old.Shown
	if all {
		was = room.Shown{Pos: -1, Scale: math.NaN(), Focus: -1, Visible: -1}
	}
	v := sc.Shown
	v.Playing, v.Speed = sh.Playing, sh.Speed
	if was.Visible != sh.Visible {
		v.Visible = sh.Visible % len(visibleSets)
	}
	if was.Selected != sh.Selected {
		v.Selected = sh.Selected
	}
	if was.Focus != sh.Focus {
		s.setFocus(sh.Focus)
	}
	if was.Zoomed != sh.Zoomed || all {
		v.Zoomed = sh.Zoomed
	}
	if was.Cursor != sh.Cursor || all {
		v.Cursor = sh.Cursor
	}
	if v.Scale != sh.Scale {
		v.Scale = sh.Scale
		s.refresh()
	}
	if c := sc.ws.callout; c != nil && (c.kind == calloutReveal || c.kind == calloutWait) && st.Pos != old.Pos {
		sc.ws.callout = nil
	}
	r.show(s, st.Pos)
	r.followQuiz(s, old, st, all)
	r.followStop(s, st)
	return tea.Batch(cmds...)
}

// show goes to batch t, or as far as the engine has computed, then on as its columns come.
func (r *roomSide) show(s stage, t int) {
	sc := s.scene()
	s.goTo(t)
	if t > sc.Pos {
		*sc.ahead = t
	} else {
		*sc.ahead = 0
	}
	sc.ws.guess.revealDue(s)
}

// followQuiz opens the presenter's question, or closes it once the presenter has moved on.
func (r *roomSide) followQuiz(s stage, old, st room.Stage, all bool) {
	sc := s.scene()
	q, open := (*sc.overlay).(*guessOverlay)
	switch {
	case st.Quiz >= 0 && (all || old.Quiz != st.Quiz):
		if _, answered := sc.ws.guess.answers[st.Quiz]; !answered {
			sc.ws.guess.ask(s, st.Quiz)
		}
	case st.Quiz < 0 && open && q.t == old.Quiz:
		*sc.overlay = nil
	}
}

// followStop shows the callout of the presenter's tour stop, and takes it down when the
// presenter's goes.
func (r *roomSide) followStop(s stage, st room.Stage) {
	ws := s.scene().ws
	switch {
	case st.Stop >= 0:
		ws.callout = stopCallout(s, st.Stop, "", true)
	case ws.callout != nil && ws.callout.kind == calloutTour:
		ws.callout = nil
	}
}

// toggleFollow goes free, or follows the presenter again from where the presenter is now.
func (r *roomSide) toggleFollow(s stage) tea.Cmd {
	switch {
	case r.m == nil:
		s.say("p follows a presenter in a workshop (cara serve --presenter-keys)")
		return nil
	case r.presenting():
		s.say("you are presenting: the room follows you")
		return nil
	case r.following:
		r.following = false
		r.m.Follow(false)
		r.leftAlone(s)
		s.say("free: explore on your own; p follows the presenter again")
		return nil
	case !r.view.On:
		s.say("no presenter is on to follow")
		return nil
	}
	r.m.Follow(true)
	v := r.m.View()
	return func() tea.Msg { return roomMsg{v} }
}

// leftAlone is a follower going free (p, or the presenter gone): the presenter's question closes;
// what the presenter showed stays, a stop's callout with it until esc.
func (r *roomSide) leftAlone(s stage) {
	sc := s.scene()
	if _, ok := (*sc.overlay).(*guessOverlay); ok {
		*sc.overlay = nil
	}
	switch c := sc.ws.callout; {
	case c == nil:
	case c.kind == calloutWait:
		sc.ws.callout = nil
	default:
		c.foot = "esc closes this"
	}
}

// presented is what this player shows, as the room's followers apply it.
func (p *Player) presented() room.Stage {
	sh := p.Shown
	sh.Selected = p.selected()
	st := room.Stage{Scenario: p.opt.Scenario, Seed: p.s.Seed, Shown: sh, Whatif: shownSets(p.s), Stop: -1, Quiz: -1}
	if st.Whatif != "" {
		st.WhatifName = p.wi.describe(p, p.wi.state, false)
	}
	if resumed, ok := p.resuming(); ok {
		return resumed
	}
	if c := p.callout; p.tour.on() && c != nil && c.kind == calloutTour {
		st.Stop = c.stop // a stop that plays on keeps its callout on the way to the next
	}
	if q, ok := p.overlay.(*guessOverlay); ok {
		st.Quiz = q.t
	}
	return st
}

// publish gives the room a presenter's stage (what stage returns) after each message the player
// handled.
func (r *roomSide) publish(stage func() room.Stage) {
	if r.presenting() {
		r.m.Publish(stage())
	}
}

// resume takes up the room's stage as a presenter back within the grace (or taking over from its
// own old connection): the scenario, seed, batch, R, what-if and tour stop the room shows, applied
// as a follower applies them, the tour standing at its stop; then the room follows this player
// again. Until the what-if is computed again the room keeps the one it had.
func (p *Player) resume(v room.View) (tea.Model, tea.Cmd) {
	r := &p.room
	r.view, r.fresh = v, true
	st := v.Stage
	cmd := r.follow(p, st)
	r.resumed, r.resumedAt = &st, time.Now()
	if tour := p.opt.Scenario.Tour; st.Stop >= 0 && st.Stop < len(tour) {
		p.tour.run = &tourRun{stops: tour, i: st.Stop, arrived: true}
		p.callout = stopCallout(p, st.Stop, "", false)
	}
	r.m.Resumed()
	p.say("you are back: the room is where you left it")
	return p, cmd
}

// resuming is the stage a presenter back publishes until its player shows it: false once it does
// (the batch reached, the what-if shown or failed), or after resumeWait.
func (p *Player) resuming() (room.Stage, bool) {
	r := &p.room
	if r.resumed == nil {
		return room.Stage{}, false
	}
	st, s := *r.resumed, p.s
	whatif := st.Whatif == "" || shownSets(s) == st.Whatif || (s.WhatIfSince.IsZero() && s.WhatIfErr != nil)
	if (p.ahead <= p.Pos && whatif) || time.Since(r.resumedAt) > resumeWait { // no step waits for its batch
		r.resumed = nil
		return room.Stage{}, false
	}
	return st, true
}

// status is the status line's account of the room: a presenter's followers, a follower's state
// ("" when there is no room, or nothing to say).
func (r *roomSide) status() (long, short string) {
	v := r.view
	switch {
	case r.m == nil:
		return "", ""
	case r.presenting():
		n := itoa(v.Followers) + " follow · " + itoa(v.Free) + " free"
		return "presenting: " + n, n
	case r.following && v.Stage.Scenario == nil:
		return "following: the presenter is choosing a scenario", "following"
	case r.following:
		return "following the presenter", "following"
	case v.On:
		return "free: p to follow", "free: p to follow"
	}
	return "", ""
}

// leave is the player closing (q): a presenter's room sees no scenario until the next one opens;
// a follower goes free.
func (r *roomSide) leave() {
	switch {
	case r.presenting():
		r.m.Publish(room.Stage{Stop: -1, Quiz: -1})
	case r.following:
		r.following = false
		r.m.Follow(false)
	}
}
