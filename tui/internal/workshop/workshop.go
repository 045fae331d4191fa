package workshop

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/keys"
)

// Workshop is the teaching side of a player: a tour being played (tour.go), the guess round and its
// question (guess.go), the player's place in a workshop room (follow.go), and the callout they put
// over the panes (callout.go). It reads the player through a Frame, a value, and changes the
// player only by the effect.Effects it returns, which the player applies: the player is the one writer of
// its view state. What the workshop owns (where the tour is, the answers, the question up, the
// callout) it changes itself.
type Workshop struct {
	Keys  KeyMap
	tour  Tour
	guess Guess
	room  Room
	// callout is the box over the panes (nil when none): a tour's stop, a guess's reveal, a
	// follower's answer waiting for the presenter. Each part clears only its own kind.
	callout *Callout
	// asked is the batch the guess round's question is about while it is up (it takes the keys);
	// -1 when none is.
	asked int
}

// New returns the workshop of a player in the room of m (nil: no room).
func New(m *room.Member) Workshop {
	w := Workshop{Keys: NewKeyMap(), room: Room{m: m, tally: map[int][2]int{}, asked: map[int]bool{}}, asked: -1}
	if m != nil {
		w.room.view = m.View()
	}
	w.tour.left = -1
	w.guess.reset()
	return w
}

// Frame is the player as the workshop reads it: what it shows, of which run. The player builds one
// for each call; nothing in it changes the player.
type Frame struct {
	room.Shown                              // the view state: batch, playing, R's scale, focus, cursor, ...
	Scenario          *scenarios.Scenario   // the scenario opened: its tour, offline block and seed
	Seed              uint64                // the run's seed
	Computed, Batches int                   // the columns computed so far; the batches of the run
	Done              bool                  // the run is computed (a what-if can be made of it)
	Matrix            *sim.Matrix           // the matrix the panes show: a what-if's, or the run's
	R                 algos.RetrainCost     // the retraining cost in force (R's scale applied)
	Results           []algos.Result        // every algorithm at the batch shown, as the panes show them
	Provisional       bool                  // the matrix is still being computed: Results' Oracle is the best so far
	WhatIfComputing   bool                  // a what-if is being computed, its numbers not in yet
	WhatIf            []string              // the what-if shown, as --set overrides (nil: the scenario)
	WholeBlock        func() []algos.Result // every algorithm over the whole online block (nil until the matrix is in)
	Styles            *draw.Styles
}

// Then goes on from the view the effects before it left, read again as a Frame.
type Then = effect.Then[Frame]

// Reset forgets the tour and the guesses: the run they were about is gone (a new seed).
func (w *Workshop) Reset() effect.Effects {
	var e effect.Effects
	if w.tour.On() {
		e = w.endTour()
	}
	w.callout = nil
	w.tour.left = -1
	w.guess.reset()
	return e
}

// CloseCallout takes down a callout nothing else will (a guess's reveal, a followed stop once the
// presenter is gone); a stop of the tour being played stays until the tour moves on.
func (w *Workshop) CloseCallout() bool {
	c := w.callout
	if c == nil || (c.Kind == StopCallout && (w.tour.On() || w.room.following)) {
		return false
	}
	w.callout = nil
	return true
}

// Asking is the batch the question up is about, while one is: it takes the keys (QuestionKey).
func (w *Workshop) Asking() (int, bool) { return w.asked, w.asked >= 0 }

// Stop is the stop of the tour being played and whether the player is at it, its callout up,
// rather than on its way to it; -1 when no tour plays.
func (ts *Tour) Stop() (int, bool) {
	if tr := ts.run; tr != nil {
		return tr.i, tr.arrived
	}
	return -1, false
}

// Answered is how many batches have an answer.
func (g *Guess) Answered() int { return len(g.answers) }

// MinRate is the least playing speed, in batches a second, while the tour runs to its next stop
// (0 when none does).
func (ts *Tour) MinRate() float64 {
	if ts.running() {
		return tourRate
	}
	return 0
}

// Tour is the workshop's tour; Guess, its guess round; Room, the player's place in a room.
func (w *Workshop) Tour() *Tour   { return &w.tour }
func (w *Workshop) Guess() *Guess { return &w.guess }
func (w *Workshop) Room() *Room   { return &w.room }

// Following reports whether the player shows the presenter's stage.
func (r *Room) Following() bool { return r.following }

// RestartRefused says why a new run waits (a tour, a guess round, an answer shown), "" when
// nothing of the workshop's stands in its way.
func (w *Workshop) RestartRefused() string {
	switch {
	case w.tour.On():
		return "N (a new run) waits for the tour: t leaves it"
	case w.guess.on:
		return "N (a new run) waits for the guess round: g ends it"
	case w.callout != nil && w.callout.Kind == SummaryCallout:
		return "N (a new run) waits for the room's summary: esc closes it"
	case w.callout != nil && w.callout.Kind != StopCallout:
		return "N (a new run) waits for the answer shown: esc closes it"
	}
	return ""
}

// Callout is the callout over the panes, its text filled from f (a tour stop's templates read the
// run as it stands); nil when none is up.
func (w *Workshop) Callout(f Frame) *Callout {
	c := w.callout
	if c == nil {
		return nil
	}
	out := *c
	if c.fill != nil {
		out.Text = c.fill(f)
	}
	return &out
}

// Key handles the workshop's keys outside a question (QuestionKey has those): t starts or leaves
// the tour, space goes to its next stop, g starts or ends the guess round, p follows or goes free.
func (w *Workshop) Key(f Frame, msg tea.KeyMsg) (effect.Effects, bool) {
	k := &w.Keys
	switch {
	case key.Matches(msg, k.Tour), key.Matches(msg, k.LeaveTour):
		return w.ToggleTour(f), true
	case key.Matches(msg, k.TourNext):
		return w.TourNext(f), true
	case key.Matches(msg, k.Guess):
		return w.ToggleGuess(f), true
	case key.Matches(msg, k.Follow), key.Matches(msg, k.GoFree):
		return w.ToggleFollow(), true
	}
	return nil, false
}

// KeyMap are the workshop's keys: the tour, the guess round and its question, following a
// presenter. The same key says another thing in another mode (t starts the tour, or leaves it):
// one binding each, only one enabled at a time.
type KeyMap struct {
	Tour, TourNext, LeaveTour, Guess, AnswerRetrain, AnswerKeep, NotNow, Follow, GoFree key.Binding
}

func NewKeyMap() KeyMap {
	return KeyMap{
		Tour:          keys.Bind([]string{"t"}, "t", "tour: start/leave"),
		TourNext:      keys.Bind([]string{" "}, "space", "next stop"),
		LeaveTour:     keys.Bind([]string{"t"}, "t", "leave tour"),
		NotNow:        keys.Bind([]string{"esc", "q", "g"}, "esc", "not now"),
		GoFree:        keys.Bind([]string{"p"}, "p", "go free"),
		Guess:         keys.Bind([]string{"g"}, "g", "guess the decision"),
		AnswerRetrain: keys.Bind([]string{"r"}, "r", "answer RETRAIN"),
		AnswerKeep:    keys.Bind([]string{"k"}, "k", "answer KEEP"),
		Follow:        keys.Bind([]string{"p"}, "p", "follow the presenter/go free"),
	}
}

// Enable turns on the workshop's bindings that work in mode m and off the others.
func (k *KeyMap) Enable(m keys.Mode) {
	keys.Enable(m.Drives() && !m.Tour, &k.Tour)
	keys.Enable(m.Drives() && m.Tour, &k.TourNext, &k.LeaveTour)
	keys.Enable(m.Drives() && !m.Bar, &k.Guess)
	keys.Enable(m.Question, &k.AnswerRetrain, &k.AnswerKeep, &k.NotNow)
	keys.Enable(m.Drives(), &k.Follow)
	keys.Enable(m.Following, &k.GoFree)
}

// Driven are the workshop's keys of what a presenter drives.
func (k *KeyMap) Driven() []*key.Binding {
	return []*key.Binding{&k.Tour, &k.TourNext, &k.LeaveTour, &k.Guess}
}

// ShortHelp are the keys of the workshop's modes, first on the help line when they work.
func (k *KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.AnswerRetrain, k.AnswerKeep, k.NotNow, k.GoFree, k.TourNext, k.LeaveTour}
}

// Group is the full help's group of the workshop's keys.
func (k *KeyMap) Group() keys.Group {
	return keys.Group{Title: "Teaching", Keys: []key.Binding{k.Tour, k.TourNext, k.LeaveTour, k.Guess, k.AnswerRetrain, k.AnswerKeep, k.NotNow, k.Follow, k.GoFree}}
}

// QuestionKey handles a key while a question is up: r and k answer; esc (or q, g) puts the question
// off and leaves the batch unshown; p lets a follower go free. Every other key does nothing.
func (w *Workshop) QuestionKey(f Frame, msg tea.KeyMsg) effect.Effects {
	t, k := w.asked, &w.Keys
	switch {
	case key.Matches(msg, k.AnswerRetrain):
		w.asked = -1
		return w.answer(f, t, true)
	case key.Matches(msg, k.AnswerKeep):
		w.asked = -1
		return w.answer(f, t, false)
	case key.Matches(msg, k.NotNow):
		w.asked = -1
		if _, ok := w.tour.quizAhead(); ok {
			// A quiz put off shows its stop all the same.
			return effect.Effects{effect.GoTo(t), Then(w.showStop)}
		}
		return nil
	case key.Matches(msg, k.GoFree):
		w.asked = -1
		return w.ToggleFollow()
	}
	return nil
}
