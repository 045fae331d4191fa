package workshop

import (
	"fmt"
	"math"
	"time"

	"github.com/charmbracelet/bubbles/key"

	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// Room is a player's place in a workshop room (cara serve --presenter-keys): presenting,
// following the presenter's stage, or free. A player without a room (cara play) has m nil.
type Room struct {
	keys       RoomKeys
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
}

func newRoom(m *room.Member) Room {
	r := Room{keys: newRoomKeys(), m: m, tally: map[int][2]int{}}
	if m != nil {
		r.view = m.View()
	}
	return r
}

// RoomKeys are the room's keys: p follows the presenter, or, following, goes free.
type RoomKeys struct{ Follow, GoFree key.Binding }

func newRoomKeys() RoomKeys {
	return RoomKeys{
		Follow: keys.Bind([]string{"p"}, "p", "follow the presenter/go free"),
		GoFree: keys.Bind([]string{"p"}, "p", "go free"),
	}
}

func (k *RoomKeys) enable(m keys.Mode) {
	keys.Enable(m.Drives(), &k.Follow)
	keys.Enable(m.Following, &k.GoFree)
}

// resumeWait bounds how long a presenter back publishes the stage it took up rather than its own.
const resumeWait = 10 * time.Second

// Presenting reports whether the player presents to the room; Following, whether it shows the
// presenter's stage.
func (r *Room) Presenting() bool { return r.m != nil && r.view.Presenter }
func (r *Room) Following() bool  { return r.following }

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
			w.board.leftAlone()
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

// Take takes over the place in the room of the player before (a follower's player that opened the
// presenter's scenario in its place): everything of the stage is applied afresh.
func (r *Room) Take(before *Room) {
	*r = *before
	r.fresh = true
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
	if st.Pos != old.Pos {
		w.board.takeDown(RevealCallout, WaitCallout)
	}
	// The presenter's batch, or as far as the engine has computed, then on as its columns come.
	return append(e, effect.GoTo(st.Pos), Then(func(f Frame) effect.Effects {
		ahead := effect.Ahead(0)
		if st.Pos > f.Pos {
			ahead = effect.Ahead(st.Pos)
		}
		return append(effect.Effects{ahead}, append(w.RevealDue(f), Then(func(f Frame) effect.Effects {
			// The presenter's question and tour stop: up as the presenter has them, down once
			// the presenter's go.
			e := w.board.followQuiz(f, old, st, all, w.guess.answered(st.Quiz))
			if st.Stop >= 0 {
				w.board.callout = stopCallout(f, st.Stop, "", true, w.revealOf)
			} else {
				w.board.takeDown(StopCallout)
			}
			return e
		}))...)
	}))
}

// followQuiz opens the presenter's question, or closes it once the presenter has moved on: all,
// the whole stage is applied afresh (joining, rejoining), when a question answered already is not
// asked again. A question the presenter asks again (another round, the tour again) is asked again.
func (b *board) followQuiz(f Frame, old, st room.Stage, all, answered bool) effect.Effects {
	switch q, open := b.asked, b.asked >= 0; {
	case st.Quiz >= 0 && (all || old.Quiz != st.Quiz || old.Asked != st.Asked):
		if !all || !answered {
			return b.ask(f, st.Quiz, false)
		}
	case st.Quiz < 0 && open && q == old.Quiz:
		b.asked = -1
	}
	return nil
}

// toggle goes free, or follows the presenter again from where the presenter is now.
func (r *Room) toggle(b *board) effect.Effects {
	switch {
	case r.m == nil:
		return effect.Effects{effect.Notice("p follows a presenter in a workshop (cara serve --presenter-keys)")}
	case r.Presenting():
		return effect.Effects{effect.Notice("you are presenting: the room follows you")}
	case r.following:
		r.following = false
		r.m.Follow(false)
		b.leftAlone()
		return effect.Effects{effect.Notice("free: explore on your own; p follows the presenter again")}
	case !r.view.On:
		return effect.Effects{effect.Notice("no presenter is on to follow")}
	}
	r.m.Follow(true)
	return effect.Effects{effect.RoomView(r.m.View())}
}

// Stage is what the workshop shows, as a presenter's stage carries it: the tour stop whose
// callout is up, the batch the question is about (-1 for none) and the question's number.
func (w *Workshop) Stage() (stop, quiz, asked int) {
	stop, quiz, asked = -1, -1, w.board.asks
	if c := w.board.callout; w.tour.On() && c != nil && c.Kind == StopCallout {
		stop = c.Stop // a stop that plays on keeps its callout on the way to the next
	}
	if t, ok := w.Asking(); ok {
		quiz = t
	}
	return stop, quiz, asked
}

// answered records the player's answer about batch t for the room: a presenter's closes the
// question with the room's answers as they stand (its tally); a follower's goes to the room with
// the Oracle's decision, and the follower waits for the presenter to show the batch (the callout
// returned; nil for a presenter or a player without a room).
func (r *Room) answered(f Frame, t int, retrain bool) *Callout {
	if r.Presenting() {
		v := r.m.View()
		r.tally[t] = [2]int{v.Retrain, v.Keep}
	}
	if !r.following {
		return nil
	}
	// The Oracle's decision goes with the answer, for the room's record: known once the run is
	// computed (the Oracle is the paper's, in hindsight).
	var oracle, known bool
	if whole := f.WholeBlock; whole != nil {
		if res := whole(); res != nil {
			oracle, known = oracleRetrains(res, t), true
		}
	}
	r.m.Answer(t, retrain, oracle, known)
	return &Callout{Kind: WaitCallout, Pane: pane.Matrix, Title: fmt.Sprintf("guess · batch %d", t),
		Text: fmt.Sprintf("You said %s at %d. The presenter shows the batch and the Oracle's decision.", word(retrain), t),
		Foot: "p to go free"}
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
	w.board.asks = st.Asked // the questions go on being numbered where the room's are
	e := w.Follow(f, st)
	e = append(e, Then(func(f Frame) effect.Effects {
		if stops := f.Scenario.Tour; st.Stop >= 0 && st.Stop < len(stops) {
			w.tour.run = &tourRun{stops: stops, i: st.Stop, arrived: true}
			w.board.callout = stopCallout(f, st.Stop, "", false, w.revealOf)
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
