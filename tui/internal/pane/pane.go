package pane

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/keys"
)

// Pane is one component of the player. The player gives it a box of the layout's size; the pane
// draws its content (View) in the box's inside, says which keys it owns (Keys, for the help) and
// handles them (Key), and answers the mouse inside its content (Click). A key or a click changes
// the pane's own state (a mode, a scroll) and returns the changes it asks of the player's view
// (effect.Cursor, effect.GoTo): a pane reads the view from the frame and never writes it.
type Pane interface {
	Title(f *Frame) string
	// Enable turns the pane's keys on or off for the mode the player is in.
	Enable(m keys.Mode)
	// Size is the box height the pane asks for at a box width of w: want 0 means it can use any
	// height, least is the smallest it can be drawn in.
	Size(f *Frame, w int) (want, least int)
	// View draws the content of a w x h inside.
	View(f *Frame, w, h int) string
	Keys(f *Frame, focused bool) []key.Binding
	// Key handles one of the pane's keys, reporting whether it was one; focused says whether
	// the pane has the focus (some keys work only then).
	Key(msg tea.KeyMsg, f *Frame, focused bool) (effect.Effects, bool)
	// Click handles a left click at (x, y) of the content of a w x h inside.
	Click(f *Frame, x, y, w, h int) effect.Effects
}

// BoxTitle is pane p's title in its box's top edge, as pane i of the screen: " 1 Cost matrix ... ".
func BoxTitle(i int, p Pane, f *Frame) string { return fmt.Sprintf(" %d %s ", i+1, p.Title(f)) }

// Pane indices.
const (
	Matrix = iota
	Chart
	Decisions
	Batch
	Results
	About
	Count
)

// TabNames name the panes on the small layout's tab line.
var TabNames = [Count]string{"Matrix", "Cost", "Decisions", "Batch", "Results", "About"}

// Rect is where a pane's box goes.
type Rect struct {
	X, Y, W, H int
	Shown      bool
	Collapsed  bool // a one-line title bar
	// Strip: the results in a few lines without a box (results.Pane.Strip), where the layout
	// has no room for the table.
	Strip bool
}

func (r Rect) Contains(x, y int) bool {
	return r.Shown && x >= r.X && y >= r.Y && x < r.X+r.W && y < r.Y+r.H
}
