package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// mode is where the player is, as far as its keys go.
type mode struct {
	tour      bool // a tour plays: space goes to the next stop, t leaves it
	following bool // the player follows a presenter: what the presenter drives is off, p goes free
	question  bool // the guess round asks: r and k answer, esc puts the question off
	bar       bool // the what-if bar is open: its keys are on (g is gamma there, not the guess round)
	split     bool // the split view (W) is on: two matrices and a table, no pane to focus or act in
}

// free: no question takes the keys (a question takes every key but its own).
func (m mode) free() bool { return !m.question }

// drives: the keys of what a presenter drives (the batch, play, R, the run, the tour, the guess
// round, the what-if) work, which a follower's keys leave alone; what a follower only looks at
// (panes, zoom, cursor, algorithm, help) stays theirs.
func (m mode) drives() bool { return m.free() && !m.following }

// panes: the keys of the panes and of their focus work (the split view has no pane).
func (m mode) panes() bool { return m.free() && !m.split }

// binding is a key.Binding of keys, shown in the help as k and desc.
func binding(keys []string, k, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
}

// enable turns bindings on or off.
func enable(on bool, bs ...*key.Binding) {
	for _, b := range bs {
		b.SetEnabled(on)
	}
}

// pressed reports whether msg is one of the keys of bs, enabled or not: what a follower pressed
// of the keys the presenter drives, to say why nothing happened.
func pressed(msg tea.KeyMsg, bs ...*key.Binding) bool {
	for _, b := range bs {
		on := *b
		on.SetEnabled(true)
		if key.Matches(msg, on) {
			return true
		}
	}
	return false
}

// keyGroup is one titled group of the full help.
type keyGroup struct {
	title string
	keys  []key.Binding
}
