package keys

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Mode is where the player is, as far as its keys go.
type Mode struct {
	Tour      bool // a tour plays: space goes to the next stop, t leaves it
	Following bool // the player follows a presenter: what the presenter drives is off, p goes free
	Question  bool // the guess round asks: r and k answer, esc puts the question off
	Bar       bool // the what-if bar is open: its keys are on (g is gamma there, not the guess round)
	Split     bool // the split view (W) is on: two matrices and a table, no pane to focus or act in
}

// Free: no question takes the keys (a question takes every key but its own).
func (m Mode) Free() bool { return !m.Question }

// Drives: the keys of what a presenter drives (the batch, play, R, the run, the tour, the guess
// round, the what-if) work, which a follower's keys leave alone; what a follower only looks at
// (panes, zoom, cursor, algorithm, help) stays theirs.
func (m Mode) Drives() bool { return m.Free() && !m.Following }

// Panes: the keys of the panes and of their focus work (the split view has no pane).
func (m Mode) Panes() bool { return m.Free() && !m.Split }

// Bind is a key.Binding of keys, shown in the help as k and desc.
func Bind(keys []string, k, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
}

// Enable turns bindings on or off.
func Enable(on bool, bs ...*key.Binding) {
	for _, b := range bs {
		b.SetEnabled(on)
	}
}

// Pressed reports whether msg is one of the keys of bs, enabled or not: what a follower pressed
// of the keys the presenter drives, to say why nothing happened.
func Pressed(msg tea.KeyMsg, bs ...*key.Binding) bool {
	for _, b := range bs {
		on := *b
		on.SetEnabled(true)
		if key.Matches(msg, on) {
			return true
		}
	}
	return false
}

// named are the keys Msg knows by name, besides the runes.
var named = map[string]tea.KeyType{
	"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight, "home": tea.KeyHome,
	"end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "enter": tea.KeyEnter, "esc": tea.KeyEscape,
	"tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab, "backspace": tea.KeyBackspace, "ctrl+c": tea.KeyCtrlC,
	"ctrl+s": tea.KeyCtrlS,
}

// Msg is the message bubbletea delivers for the key named k as key.Binding names keys ("up",
// "esc", "ctrl+s", " " or "space" for the space bar, "x" for a rune): how the components' tests
// press a key.
func Msg(k string) tea.KeyMsg {
	switch t, ok := named[k]; {
	case ok:
		return tea.KeyMsg{Type: t}
	case k == " " || k == "space":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune(" ")}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// Group is one titled group of the full help.
type Group struct {
	Title string
	Keys  []key.Binding
}
