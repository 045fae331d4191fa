package workshop

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// Workshop is the teaching side of a player: a tour being played (Tour, tour.go), the guess round
// and its question (Guess, guess.go), the player's place in a workshop room (Room, follow.go), and
// the callout they put over the panes (callout.go). Each part owns its state, its keys and the
// steps that concern it alone; the Workshop routes keys and steps to them and carries out what
// goes from one to another (a tour's quiz is a guess round's question, a presenter's stage holds a
// tour's stop). It reads the player through a Frame, a value, and changes the player only by the
// effects it returns, which the player applies: the player is the one writer of its view state.
type Workshop struct {
	tour  Tour
	guess Guess
	room  Room
	board board
}

// board is what the tour, the guess round and the room put on the screen between them: the
// callout over the panes (a tour's stop, a guess's reveal, a follower's answer waiting for the
// presenter; each part takes down only its own kind) and the question up, which takes the keys.
type board struct {
	callout *Callout
	// asked is the batch the question up is about (-1 when none is), on is the run it is asked on
	// (score.go); questions are the batches a presenter asked about in the tour or guess round
	// going on, each with its run: what the room's summary scores the room's answers on.
	asked     int
	asks      int // counts the questions put up: a presenter's stage numbers them (room.Stage.Asked)
	on        *askedOn
	questions map[int]*askedOn
	// since is when the tour or guess round going on started: the room's answers from before it
	// are an earlier round's.
	since time.Time
}

// newRound starts the board's round of questions: a tour from its start, a guess round.
func (b *board) newRound() {
	clear(b.questions)
	b.since = time.Now()
}

// New returns the workshop of a player in the room of m (nil: no room).
func New(m *room.Member) Workshop {
	w := Workshop{tour: newTour(), guess: Guess{keys: newGuessKeys()}, room: newRoom(m), board: board{asked: -1, questions: map[int]*askedOn{}}}
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

// ask puts up the question about batch t, asked on the run f shows: it takes the keys, and a
// callout other than a tour's stop goes. A presenter's question is one the room's summary scores.
func (b *board) ask(f Frame, t int, presenting bool) effect.Effects {
	if c := b.callout; c != nil && c.Kind != StopCallout {
		b.callout = nil
	}
	b.asked, b.on = t, runOf(f)
	b.asks++
	if presenting {
		b.questions[t] = b.on
	}
	// The batch asked about is what the question is about: its pane shows whatever the layout.
	return effect.Effects{effect.Play(false), effect.TakeKeys{}, effect.Focus(pane.Batch)}
}

// takeDown takes the callout down when it is of one of kinds.
func (b *board) takeDown(kinds ...CalloutKind) {
	for _, k := range kinds {
		if b.callout != nil && b.callout.Kind == k {
			b.callout = nil
		}
	}
}

// show puts c up as the callout, unless it is nil (nothing to show).
func (b *board) show(c *Callout) {
	if c != nil {
		b.callout = c
	}
}

// leftAlone is a follower going free (p, or the presenter gone): the presenter's question closes;
// what the presenter showed stays, a stop's callout with it until esc.
func (b *board) leftAlone() {
	b.asked = -1
	switch c := b.callout; {
	case c == nil:
	case c.Kind == WaitCallout:
		b.callout = nil
	default:
		c.Foot = "esc closes this"
	}
}

// Reset forgets the tour and the guesses: the run they were about is gone (a new seed).
func (w *Workshop) Reset() effect.Effects {
	var e effect.Effects
	if w.tour.On() {
		e = w.tour.end(&w.board)
	}
	w.board.callout = nil
	w.tour.left = -1
	w.guess.reset()
	return e
}

// CloseCallout takes down a callout nothing else will (a guess's reveal, a followed stop once the
// presenter is gone); a stop of the tour being played stays until the tour moves on.
func (w *Workshop) CloseCallout() bool {
	c := w.board.callout
	if c == nil || (c.Kind == StopCallout && (w.tour.On() || w.room.following)) {
		return false
	}
	w.board.callout = nil
	return true
}

// Asking is the batch the question up is about, while one is: it takes the keys (QuestionKey).
func (w *Workshop) Asking() (int, bool) { return w.board.asked, w.board.asked >= 0 }

// Tour is the workshop's tour; Guess, its guess round; Room, the player's place in a room.
func (w *Workshop) Tour() *Tour   { return &w.tour }
func (w *Workshop) Guess() *Guess { return &w.guess }
func (w *Workshop) Room() *Room   { return &w.room }

// RestartRefused says why a new run waits (a tour, a guess round, an answer shown), "" when
// nothing of the workshop's stands in its way.
func (w *Workshop) RestartRefused() string {
	c := w.board.callout
	switch {
	case w.tour.On():
		return "N (a new run) waits for the tour: t leaves it"
	case w.guess.on:
		return "N (a new run) waits for the guess round: g ends it"
	case c != nil && c.Kind == SummaryCallout:
		return "N (a new run) waits for the room's summary: esc closes it"
	case c != nil && c.Kind != StopCallout:
		return "N (a new run) waits for the answer shown: esc closes it"
	}
	return ""
}

// Callout is the callout over the panes, its text filled from f (a tour stop's templates read the
// run as it stands); nil when none is up.
func (w *Workshop) Callout(f Frame) *Callout {
	c := w.board.callout
	if c == nil {
		return nil
	}
	out := *c
	if c.fill != nil {
		out.Text = c.fill(f)
	}
	return &out
}

// Keys are the workshop's keys, each part's own, for the player's dispatch and help.
func (w *Workshop) Keys() KeyMap { return KeyMap{&w.tour.keys, &w.guess.keys, &w.room.keys} }

// Key handles the workshop's keys outside a question (QuestionKey has those), each part's: t
// starts or leaves the tour, space goes to its next stop, g starts or ends the guess round, p
// follows or goes free.
func (w *Workshop) Key(f Frame, msg tea.KeyMsg) (effect.Effects, bool) {
	tk, gk, rk := &w.tour.keys, &w.guess.keys, &w.room.keys
	switch {
	case key.Matches(msg, tk.Tour), key.Matches(msg, tk.LeaveTour):
		return w.ToggleTour(f), true
	case key.Matches(msg, tk.TourNext):
		return w.TourNext(f), true
	case key.Matches(msg, gk.Guess):
		return w.ToggleGuess(f), true
	case key.Matches(msg, rk.Follow), key.Matches(msg, rk.GoFree):
		return w.room.toggle(&w.board), true
	}
	return nil, false
}

// QuestionKey handles a key while a question is up: r and k answer; esc (or q, g) puts the question
// off and leaves the batch unshown; p lets a follower go free. Every other key does nothing.
func (w *Workshop) QuestionKey(f Frame, msg tea.KeyMsg) effect.Effects {
	t, gk := w.board.asked, &w.guess.keys
	switch {
	case key.Matches(msg, gk.AnswerRetrain):
		w.board.asked = -1
		return w.answer(f, t, true)
	case key.Matches(msg, gk.AnswerKeep):
		w.board.asked = -1
		return w.answer(f, t, false)
	case w.guess.on && !w.room.following && keys.Pressed(msg, &gk.Guess):
		// g ends the round, its question up or not (the reveal's foot says so).
		return w.ToggleGuess(f)
	case key.Matches(msg, gk.NotNow):
		w.board.asked = -1
		if _, ok := w.tour.quizAhead(); ok {
			// A quiz put off shows its stop all the same.
			return effect.Effects{effect.GoTo(t), Then(w.showStop)}
		}
		return nil
	case key.Matches(msg, w.room.keys.GoFree):
		w.board.asked = -1
		return w.room.toggle(&w.board)
	}
	return nil
}

// KeyMap is the workshop's keys, for the player: the tour's, the guess round's and its
// question's, the room's. The same key says another thing in another mode (t starts the tour, or
// leaves it): one binding each, only one enabled at a time.
type KeyMap struct {
	Tour  *TourKeys
	Guess *GuessKeys
	Room  *RoomKeys
}

// Enable turns on the workshop's bindings that work in mode m and off the others.
func (k KeyMap) Enable(m keys.Mode) {
	k.Tour.enable(m)
	k.Guess.enable(m)
	k.Room.enable(m)
}

// Driven are the workshop's keys of what a presenter drives.
func (k KeyMap) Driven() []*key.Binding {
	return []*key.Binding{&k.Tour.Tour, &k.Tour.TourNext, &k.Tour.LeaveTour, &k.Guess.Guess}
}

// ShortHelp are the keys of the workshop's modes, first on the help line when they work.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Guess.AnswerRetrain, k.Guess.AnswerKeep, k.Guess.NotNow, k.Room.GoFree, k.Tour.TourNext, k.Tour.LeaveTour}
}

// Group is the full help's group of the workshop's keys.
func (k KeyMap) Group() keys.Group {
	return keys.Group{Title: "Teaching", Keys: []key.Binding{k.Tour.Tour, k.Tour.TourNext, k.Tour.LeaveTour, k.Guess.Guess,
		k.Guess.AnswerRetrain, k.Guess.AnswerKeep, k.Guess.NotNow, k.Room.Follow, k.Room.GoFree}}
}
