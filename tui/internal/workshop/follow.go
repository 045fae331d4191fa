package workshop

import (
	"math"
	"time"

	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
)

// Room is a player's place in a workshop room (cara serve --presenter-keys): presenting,
// following the presenter's stage, or free. A player without a room (cara play) has m nil.
type Room struct {
	m          *room.Member
	view       room.View  // the newest the relay brought
	following  bool       // the player shows the presenter's stage
	applied    room.Stage // the stage last applied: later ones are applied as changes to it
	fresh      bool       // applied holds nothing yet (joined, or rejoined): apply everything
	appliedVer uint64     // the stage version applied
	// tally is the room's answers to each question the presenter revealed: RETRAIN, KEEP.
	tally map[int][2]int
	// resumed is the stage a presenter back took up (Resume), published as it was until the player
	// shows it (its batch computed, its what-if computed again), so the room stays where it was
	// meanwhile; nil once shown, or after resumeWait.
	resumed   *room.Stage
	resumedAt time.Time
	// asked are the batches the presenter asked about in the tour or guess round going on: what
	// the room's summary scores (summary.go).
	asked map[int]bool
}

// resumeWait bounds how long a presenter back publishes the stage it took up rather than its own.
const resumeWait = 10 * time.Second

// Presenting reports whether the player presents to the room.
func (r *Room) Presenting() bool { return r.m != nil && r.view.Presenter }

// Receive takes the room's newest view: it says what changed (a presenter gone, a presenter on)
// and reports whether the presenter's stage is to be shown now (Follow).
func (w *Workshop) Receive(v room.View) (bool, effect.Effects) {
	r := &w.room
	was, wasOn, wasPresenter := r.following, r.view.On, r.view.Presenter
	r.view = v
	var e effect.Effects
	switch {
	case wasPresenter && !v.Presenter:
		e = effect.Effects{effect.Notice("another presenter took over; you are free (p follows them)")}
	case was && !v.On:
		e = effect.Effects{effect.Notice("the presenter left: you keep what they showed, and you are free now")}
	case !was && !v.Presenter && v.On && !wasOn:
		e = effect.Effects{effect.Notice("a presenter is on: p to follow")}
	}
	r.following = v.Following && v.On
	if !r.following {
		if was {
			w.leftAlone()
		}
		return false, e
	}
	if !was {
		r.fresh = true
	}
	if v.StageVersion == r.appliedVer && !r.fresh {
		return false, e // the room's counts changed, not the stage
	}
	r.appliedVer = v.StageVersion
	return true, e
}

// TakeRoom takes over the place in the room of the workshop before it (a follower's player that
// opened the presenter's scenario in its place): everything of the stage is applied afresh.
func (w *Workshop) TakeRoom(before *Workshop) {
	w.room = before.room
	w.room.fresh = true
}

// Follow shows the presenter's stage, of the scenario shown: the fields that changed since the
// last one applied (all of them on joining), so what a follower changes on their own view (a
// pane's focus, the cursor) stays until the presenter changes it.
func (w *Workshop) Follow(f Frame, st room.Stage) effect.Effects {
	if st.Seed != f.Seed {
		w.room.fresh = true
		return effect.Effects{effect.Reopen(st.Seed), Then(func(f Frame) effect.Effects { return w.followStage(f, st) })}
	}
	return w.followStage(f, st)
}

// followStage is Follow on the presenter's seed.
func (w *Workshop) followStage(f Frame, st room.Stage) effect.Effects {
	r := &w.room
	old, all := r.applied, r.fresh
	r.applied, r.fresh = st, false
	var e effect.Effects
	if all || old.Whatif != st.Whatif {
		e = append(e, effect.FollowWhatIf{Sets: st.Whatif, Name: st.WhatifName, Joining: all})
	}
	// What a follower changes on their own view (the focus, the cursor) stays until the presenter
	// changes it: only the fields that changed since the last stage applied are applied.
	sh, was := st.Shown, old.Shown
	if all {
		was = room.Shown{Pos: -1, Scale: math.NaN(), Focus: -1, Visible: -1}
	}
	e = append(e, effect.Play(sh.Playing), effect.Speed(sh.Speed))
	if was.Visible != sh.Visible {
		e = append(e, effect.Visible(sh.Visible))
	}
	if was.Selected != sh.Selected {
		e = append(e, effect.Select(sh.Selected))
	}
	if was.Focus != sh.Focus {
		e = append(e, effect.Focus(sh.Focus))
	}
	if was.Zoomed != sh.Zoomed || all {
		e = append(e, effect.Zoom(sh.Zoomed))
	}
	if was.Cursor != sh.Cursor || all {
		e = append(e, effect.Cursor(sh.Cursor))
	}
	if f.Scale != sh.Scale {
		e = append(e, effect.Scale(sh.Scale))
	}
	if c := w.callout; c != nil && (c.Kind == RevealCallout || c.Kind == WaitCallout) && st.Pos != old.Pos {
		w.callout = nil
	}
	// The presenter's batch, or as far as the engine has computed, then on as its columns come.
	return append(e, effect.GoTo(st.Pos), Then(func(f Frame) effect.Effects {
		ahead := effect.Ahead(0)
		if st.Pos > f.Pos {
			ahead = effect.Ahead(st.Pos)
		}
		return append(effect.Effects{ahead}, append(w.RevealDue(f), Then(func(f Frame) effect.Effects {
			e := w.followQuiz(old, st, all)
			w.followStop(f, st)
			return e
		}))...)
	}))
}

// followQuiz opens the presenter's question, or closes it once the presenter has moved on.
func (w *Workshop) followQuiz(old, st room.Stage, all bool) effect.Effects {
	switch q, open := w.Asking(); {
	case st.Quiz >= 0 && (all || old.Quiz != st.Quiz):
		if _, answered := w.guess.answers[st.Quiz]; !answered {
			return w.ask(st.Quiz)
		}
	case st.Quiz < 0 && open && q == old.Quiz:
		w.asked = -1
	}
	return nil
}

// followStop shows the callout of the presenter's tour stop, and takes it down when the
// presenter's goes.
func (w *Workshop) followStop(f Frame, st room.Stage) {
	switch {
	case st.Stop >= 0:
		w.callout = w.stopCallout(f, st.Stop, "", true)
	case w.callout != nil && w.callout.Kind == StopCallout:
		w.callout = nil
	}
}

// ToggleFollow goes free, or follows the presenter again from where the presenter is now.
func (w *Workshop) ToggleFollow() effect.Effects {
	r := &w.room
	switch {
	case r.m == nil:
		return effect.Effects{effect.Notice("p follows a presenter in a workshop (cara serve --presenter-keys)")}
	case r.Presenting():
		return effect.Effects{effect.Notice("you are presenting: the room follows you")}
	case r.following:
		r.following = false
		r.m.Follow(false)
		w.leftAlone()
		return effect.Effects{effect.Notice("free: explore on your own; p follows the presenter again")}
	case !r.view.On:
		return effect.Effects{effect.Notice("no presenter is on to follow")}
	}
	r.m.Follow(true)
	return effect.Effects{effect.RoomView(r.m.View())}
}

// leftAlone is a follower going free (p, or the presenter gone): the presenter's question closes;
// what the presenter showed stays, a stop's callout with it until esc.
func (w *Workshop) leftAlone() {
	w.asked = -1
	switch c := w.callout; {
	case c == nil:
	case c.Kind == WaitCallout:
		w.callout = nil
	default:
		c.Foot = "esc closes this"
	}
}

// Stage is what the workshop shows, as a presenter's stage carries it: the tour stop whose
// callout is up and the batch the question is about (-1 for none).
func (w *Workshop) Stage() (stop, quiz int) {
	stop, quiz = -1, -1
	if c := w.callout; w.tour.On() && c != nil && c.Kind == StopCallout {
		stop = c.Stop // a stop that plays on keeps its callout on the way to the next
	}
	if t, ok := w.Asking(); ok {
		quiz = t
	}
	return stop, quiz
}

// Publish gives the room a presenter's stage (what stage returns) after each message the player
// handled.
func (r *Room) Publish(stage func() room.Stage) {
	if r.Presenting() {
		r.m.Publish(stage())
	}
}

// Status is the status line's account of the room: a presenter's followers, a follower's state
// ("" when there is no room, or nothing to say).
func (r *Room) Status() (long, short string) {
	v := r.view
	switch {
	case r.m == nil:
		return "", ""
	case r.Presenting():
		n := draw.Itoa(v.Followers) + " follow · " + draw.Itoa(v.Free) + " free"
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

// Resume takes up the room's stage as a presenter back within the grace (or taking over from its
// own old connection): the scenario's seed, batch, R, what-if and tour stop the room shows, applied
// as a follower applies them, the tour standing at its stop; then the room follows this player
// again. Until the player shows the stage, the room keeps it (Resuming).
func (w *Workshop) Resume(f Frame, v room.View) effect.Effects {
	r := &w.room
	r.view, r.fresh = v, true
	st := v.Stage
	r.resumed, r.resumedAt = &st, time.Now()
	e := w.Follow(f, st)
	e = append(e, Then(func(f Frame) effect.Effects {
		if stops := f.Scenario.Tour; st.Stop >= 0 && st.Stop < len(stops) {
			w.tour.run = &tourRun{stops: stops, i: st.Stop, arrived: true}
			w.callout = w.stopCallout(f, st.Stop, "", false)
		}
		return nil
	}), effect.Notice("you are back: the room is where you left it"))
	r.m.Resumed()
	return e
}

// Resuming is the stage a presenter back publishes until its player shows it (shown: its batch
// reached, its what-if shown or failed); false once it does, or after resumeWait.
func (r *Room) Resuming(shown func(st room.Stage) bool) (room.Stage, bool) {
	if r.resumed == nil {
		return room.Stage{}, false
	}
	st := *r.resumed
	if shown(st) || time.Since(r.resumedAt) > resumeWait {
		r.resumed = nil
		return room.Stage{}, false
	}
	return st, true
}

// Leave is the player closing (q): a presenter's room sees no scenario until the next one opens;
// a follower goes free.
func (r *Room) Leave() {
	switch {
	case r.Presenting():
		r.m.Publish(room.Stage{Stop: -1, Quiz: -1})
	case r.following:
		r.following = false
		r.m.Follow(false)
	}
}
