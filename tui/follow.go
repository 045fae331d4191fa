package tui

import (
	"context"
	"math"
	"strings"

	"github.com/charmbracelet/bubbles/key"
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
}

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
// presenter's arrival or departure. Following into another scenario opens a new player.
func (p *Player) onRoom(v room.View) (tea.Model, tea.Cmd) {
	r := &p.room
	was, wasOn, wasPresenter := r.following, r.view.On, r.view.Presenter
	r.view = v
	switch {
	case wasPresenter && !v.Presenter:
		p.notice = "another presenter took over; you are free (p follows them)"
	case was && !v.On:
		p.notice = "the presenter left: you keep what they showed, and you are free now"
	case !was && !v.Presenter && v.On && !wasOn:
		p.notice = "a presenter is on: p to follow"
	}
	r.following = v.Following && v.On
	if !r.following {
		if was {
			p.leftAlone()
		}
		return p, nil
	}
	if !was {
		r.fresh = true
	}
	if v.StageVersion == r.appliedVer && !r.fresh {
		return p, nil // the room's counts changed, not the stage
	}
	r.appliedVer = v.StageVersion
	return p.follow(v.Stage)
}

// follow shows the presenter's stage: the fields that changed since the last one applied (all of
// them on joining), so what a follower changes on their own view (a pane's focus, the cursor)
// stays until the presenter changes it.
func (p *Player) follow(st room.Stage) (tea.Model, tea.Cmd) {
	r := &p.room
	if st.Scenario == nil {
		return p, nil // the presenter is choosing: keep showing the last
	}
	if st.Scenario != p.opt.Scenario {
		return p.followInto(st)
	}
	var cmds []tea.Cmd
	if st.Seed != p.s.Seed {
		cmds = append(cmds, p.reopen(st.Seed))
		r.fresh = true
	}
	old, all := r.applied, r.fresh
	r.applied, r.fresh = st, false
	if all {
		p.wi.open = false // joining: the presenter decides the what-if, not the follower's own bar
	}
	if (all || old.Whatif != st.Whatif) && st.Whatif != p.shownSets() {
		var sets []string
		if st.Whatif != "" {
			sets = strings.Split(st.Whatif, "\n")
		}
		// The presenter's what-if, computed once for the run: the followers' are shared.
		cmds = append(cmds, p.applyNamedWhatIf(sets, st.WhatifName))
	}
	p.tick++ // a follower plays by the presenter's steps, never by its own ticks
	// What a follower changes on their own view (the focus, the cursor) stays until the presenter
	// changes it: only the fields that changed since the last stage applied are applied.
	sh, was := st.Shown, old.Shown
	if all {
		was = room.Shown{Pos: -1, Scale: math.NaN(), Focus: -1, Visible: -1}
	}
	p.Playing, p.Speed = sh.Playing, sh.Speed
	if was.Visible != sh.Visible {
		p.Visible = sh.Visible % len(visibleSets)
	}
	if was.Selected != sh.Selected {
		p.Selected = sh.Selected
	}
	if was.Focus != sh.Focus {
		p.setFocus(sh.Focus)
	}
	if was.Zoomed != sh.Zoomed || all {
		p.Zoomed = sh.Zoomed
	}
	if was.Cursor != sh.Cursor || all {
		p.Cursor = sh.Cursor
	}
	if p.Scale != sh.Scale {
		p.Scale = sh.Scale
		p.refresh()
	}
	if c := p.callout; c != nil && (c.kind == calloutReveal || c.kind == calloutWait) && st.Pos != old.Pos {
		p.callout = nil
	}
	p.show(st.Pos)
	p.followQuiz(old, st, all)
	p.followStop(st)
	return p, tea.Batch(cmds...)
}

// show goes to batch t, or as far as the engine has computed, then on as its columns come.
func (p *Player) show(t int) {
	p.goTo(t)
	if t > p.Pos {
		p.ahead = t
	} else {
		p.ahead = 0
	}
	p.revealDue()
}

// followQuiz opens the presenter's question, or closes it once the presenter has moved on.
func (p *Player) followQuiz(old, st room.Stage, all bool) {
	q, open := p.overlay.(*guessOverlay)
	switch {
	case st.Quiz >= 0 && (all || old.Quiz != st.Quiz):
		if _, answered := p.guess.answers[st.Quiz]; !answered {
			p.ask(st.Quiz)
		}
	case st.Quiz < 0 && open && q.t == old.Quiz:
		p.overlay = nil
	}
}

// followStop shows the callout of the presenter's tour stop, and takes it down when the
// presenter's goes.
func (p *Player) followStop(st room.Stage) {
	switch {
	case st.Stop >= 0:
		p.callout = p.stopCallout(st.Stop, "", true)
	case p.callout != nil && p.callout.kind == calloutTour:
		p.callout = nil
	}
}

// followInto opens the presenter's scenario in a new player that follows, in place of this one.
func (p *Player) followInto(st room.Stage) (tea.Model, tea.Cmd) {
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
	m, cmd := np.follow(st)
	return m, tea.Batch(np.Init(), cmd)
}

// toggleFollow goes free, or follows the presenter again from where the presenter is now.
func (p *Player) toggleFollow() tea.Cmd {
	r := &p.room
	switch {
	case r.m == nil:
		p.notice = "p follows a presenter in a workshop (cara serve --presenter-keys)"
		return nil
	case r.presenting():
		p.notice = "you are presenting: the room follows you"
		return nil
	case r.following:
		r.following = false
		r.m.Follow(false)
		p.leftAlone()
		p.notice = "free: explore on your own; p follows the presenter again"
		return nil
	case !r.view.On:
		p.notice = "no presenter is on to follow"
		return nil
	}
	r.m.Follow(true)
	v := r.m.View()
	return func() tea.Msg { return roomMsg{v} }
}

// leftAlone is a follower going free (p, or the presenter gone): the presenter's question closes;
// what the presenter showed stays, a stop's callout with it until esc.
func (p *Player) leftAlone() {
	if _, ok := p.overlay.(*guessOverlay); ok {
		p.overlay = nil
	}
	switch c := p.callout; {
	case c == nil:
	case c.kind == calloutWait:
		p.callout = nil
	default:
		c.foot = "esc closes this"
	}
}

// followBlocks keeps a follower's keys off what the presenter drives (the batch, play, R, the
// tour, the guess round, the what-if): the key says how to go free instead. What a follower only looks at
// (panes, zoom, cursor, algorithm, help) stays theirs.
func (p *Player) followBlocks(msg tea.KeyMsg) bool {
	if !p.room.following {
		return false
	}
	if key.Matches(msg, p.presenterKeys()...) {
		p.notice = "you follow the presenter: p to go free and explore on your own"
		return true
	}
	return false
}

// presenterKeys are the keys of what the presenter drives, which a follower's keys leave alone.
func (p *Player) presenterKeys() []key.Binding {
	k := &p.keys
	return []key.Binding{k.Play, k.Step, k.Back, k.Home, k.End, k.Faster, k.Slower, k.RUp, k.RDown, k.Restart,
		k.Tour, k.Guess, k.WhatIf, k.Split, k.Scenario, k.Command, k.Edit}
}

// stage is what this player shows, as the room's followers apply it.
func (p *Player) stage() room.Stage {
	sh := p.Shown
	sh.Selected = p.selected()
	st := room.Stage{Scenario: p.opt.Scenario, Seed: p.s.Seed, Shown: sh, Whatif: p.shownSets(), Stop: -1, Quiz: -1}
	if st.Whatif != "" {
		st.WhatifName = p.describe(p.wi.state, false)
	}
	if c := p.callout; p.tour != nil && c != nil && c.kind == calloutTour {
		st.Stop = c.stop // a stop that plays on keeps its callout on the way to the next
	}
	if q, ok := p.overlay.(*guessOverlay); ok {
		st.Quiz = q.t
	}
	return st
}

// publish gives the room a presenter's stage after each message the player handled.
func (p *Player) publish() {
	if p.room.presenting() {
		p.room.m.Publish(p.stage())
	}
}

// roomStatus is the status line's account of the room: a presenter's followers, a follower's
// state ("" when there is no room, or nothing to say).
func (p *Player) roomStatus() (long, short string) {
	r := &p.room
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

// leaveRoom is the player closing (q): a presenter's room sees no scenario until the next one
// opens; a follower goes free.
func (p *Player) leaveRoom() {
	switch r := &p.room; {
	case r.presenting():
		r.m.Publish(room.Stage{Stop: -1, Quiz: -1})
	case r.following:
		r.following = false
		r.m.Follow(false)
	}
}
