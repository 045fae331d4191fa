package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/scenarios"
)

// workshop is the teaching side of a player: a tour being played (tour.go), the guess round
// (guess.go), the player's place in a workshop room (follow.go), and the callout they put over the
// panes (callout.go). Each part is its own type with its own state; what a part needs of the
// player goes through stage, and one part reaches another through the scene's workshop.
type workshop struct {
	tour  tours
	guess guessRound
	room  roomSide
	// callout is the box over the panes (nil when none): a tour's stop, a guess's reveal, a
	// follower's answer waiting for the presenter. Each part clears only its own kind.
	callout *callout
}

// stage is what the workshop's parts ask of the player showing them. *Player implements it; a
// part's test drives the part through a fake.
type stage interface {
	// scene is the player as the parts see it: what it shows, and the state they change in place.
	scene() scene
	// say puts up the one-line notice that the next key clears.
	say(notice string)
	// goTo shows batch t, or the last computed one when t is not computed yet.
	goTo(t int)
	// setFocus focuses pane i; a pane that changes is no longer maximised.
	setFocus(i int)
	// ticker plays on: the command of the next tick (one tick pending at a time).
	ticker() tea.Cmd
	// refresh replays the algorithms at the batch and R shown, after R's scale changed.
	refresh()
	// reopen runs the scenario again with seed: a new matrix, so the workshop starts over.
	reopen(seed uint64) tea.Cmd
	// frame is what the panes draw now, and layout where they go in a body of w x h: a callout
	// drawn by itself (the guess round's question) is placed clear of what it is about.
	frame() *frame
	layout(f *frame, w, h int) screenLayout
	// tourWhatIf applies a tour stop's what-if (--set overrides) and says how to undo it, with a
	// line for the stop's callout; undoWhatif undoes it.
	tourWhatIf(sets []string) (*whatifUndo, string, tea.Cmd)
	undoWhatif(u *whatifUndo) tea.Cmd
	// followWhatIf shows a presenter's what-if (sets one a line, "" for the scenario; name the
	// words that describe it) unless it is the one shown; joining, the player's own what-if bar
	// closes, as the presenter decides the what-if.
	followWhatIf(sets, name string, joining bool) tea.Cmd
}

// scene is the player as the workshop's parts see it. The pointers are the player's own: the
// parts change the view state, the overlay and the batch to show ahead in place.
type scene struct {
	*room.Shown                     // the view state (batch, playing, scale, focus, cursor, ...)
	s           *Session            // the run the panes show
	scen        *scenarios.Scenario // the scenario opened: its tour, offline block and seed
	rp          *replay             // the algorithms at the batch shown, as the panes show them
	st          *Styles
	keys        *keyMap
	overlay     *overlay    // the box that takes the keys: the guess round's question goes there
	ahead       *int        // a batch asked for before it was computed: shown when it comes
	matrix      *matrixPane // the cost matrix's pane: a callout keeps clear of its cursor
	ws          *workshop   // the workshop's parts, for one part to reach another
}

func (p *Player) scene() scene {
	return scene{Shown: &p.Shown, s: p.s, scen: p.opt.Scenario, rp: &p.rp, st: p.st, keys: &p.keys,
		overlay: &p.overlay, ahead: &p.ahead, matrix: p.panes.matrix, ws: &p.workshop}
}

func (p *Player) say(notice string) { p.notice = notice }

// tourWhatIf and undoWhatif are the stage's what-if: the bar's one path for every what-if.
func (p *Player) tourWhatIf(sets []string) (*whatifUndo, string, tea.Cmd) {
	return p.wi.tourWhatIf(p, sets)
}

func (p *Player) undoWhatif(u *whatifUndo) tea.Cmd { return p.wi.undoWhatif(p, u) }

// reset forgets the tour and the guesses: the run they were about is gone.
func (w *workshop) reset(s stage) {
	if w.tour.on() {
		w.tour.end(s)
	}
	w.callout = nil
	w.tour.left = -1
	w.guess.reset()
}

// closeCallout takes down a callout nothing else will (a guess's reveal, a followed stop once the
// presenter is gone); a stop of the tour being played stays until the tour moves on.
func (w *workshop) closeCallout() bool {
	c := w.callout
	if c == nil || (c.kind == calloutTour && (w.tour.on() || w.room.following)) {
		return false
	}
	w.callout = nil
	return true
}
