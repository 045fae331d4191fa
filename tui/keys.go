package tui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// Keys by mode: every component (the player, each pane, the what-if bar, the workshop) has a key
// map of its own and enables its bindings for the mode the player is in (key.Binding.SetEnabled),
// so the dispatch (key.Matches) and the help (which skips a disabled binding) follow the mode with
// no rule of their own. The same key in two modes is two bindings, only one enabled at a time.

// playerKeys are the player's own keys: playing, R and the algorithms, the panes' focus, help
// and quit, the what-if views. The panes, the what-if bar and the workshop have their own.
type playerKeys struct {
	// Playing.
	Play, Step, Back, Home, End, Faster, Slower key.Binding
	// Retraining cost and algorithms.
	RUp, RDown, Next, Prev, Visible, Restart key.Binding
	// Panes: Focus is the help's name for the six Pane keys.
	Focus, Maximise, Escape, Help, Quit, ForceQuit key.Binding
	Pane                                           [pane.Count]key.Binding
	// What-ifs: the bar, the split view, back to the scenario, the command line, the editor.
	WhatIf, Split, Scenario, Command, Edit key.Binding
	// The overlays': the help scrolls, a new run is confirmed.
	HelpUp, HelpDown, Confirm key.Binding
}

func newPlayerKeys() playerKeys {
	k := playerKeys{
		Play:    keys.Bind([]string{" "}, "space", "play/pause"),
		Step:    keys.Bind([]string{"right", "l"}, "→/l", "step"),
		Back:    keys.Bind([]string{"left", "h"}, "←/h", "back"),
		Home:    keys.Bind([]string{"home"}, "home", "first batch"),
		End:     keys.Bind([]string{"end"}, "end", "last computed"),
		Faster:  keys.Bind([]string{"+", "="}, "+", "faster"),
		Slower:  keys.Bind([]string{"-"}, "-", "slower"),
		RUp:     keys.Bind([]string{"]"}, "]", "raise R ×1.25"),
		RDown:   keys.Bind([]string{"["}, "[", "lower R ÷1.25"),
		Next:    keys.Bind([]string{"tab"}, "tab", "next algorithm"),
		Prev:    keys.Bind([]string{"shift+tab"}, "shift+tab", "previous algorithm"),
		Visible: keys.Bind([]string{"v"}, "v", "which algorithms show"),
		// A new run throws away the matrix, the tour and the guesses (a presenter's, the room's):
		// a capital of its own, asked to be confirmed, never r, which answers RETRAIN.
		Restart: keys.Bind([]string{"N"}, "N", "new run, next seed (asks)"),

		Focus:     keys.Bind([]string{"1", "2", "3", "4", "5", "6"}, "1-6", "focus pane"),
		Maximise:  keys.Bind([]string{"z", "enter"}, "z", "zoom pane"),
		Escape:    keys.Bind([]string{"esc"}, "esc", "back"),
		Help:      keys.Bind([]string{"?"}, "?", "help"),
		Quit:      keys.Bind([]string{"q"}, "q", "quit"),
		ForceQuit: keys.Bind([]string{"ctrl+c"}, "ctrl+c", "quit at once"),

		WhatIf:   keys.Bind([]string{"w"}, "w", "what-if bar"),
		Split:    keys.Bind([]string{"W"}, "W", "scenario | what-if side by side"),
		Scenario: keys.Bind([]string{"x"}, "x", "back to the scenario"),
		Command:  keys.Bind([]string{":"}, ":", "command line: set PATH=VALUE, unset, reset"),
		Edit:     keys.Bind([]string{"e"}, "e", "edit the scenario file"),

		HelpUp:   keys.Bind([]string{"up", "k"}, "↑↓", "scroll"),
		HelpDown: keys.Bind([]string{"down", "j"}, "↓", "scroll down"),
		Confirm:  keys.Bind([]string{"y", "enter"}, "y", "yes"),
	}
	for i := range k.Pane {
		n := string(rune('1' + i))
		k.Pane[i] = keys.Bind([]string{n}, n, "focus pane "+n)
	}
	return k
}

// enable turns on the player's bindings that work in mode m and off the others.
func (k *playerKeys) enable(m keys.Mode) {
	keys.Enable(m.Free(), &k.Next, &k.Prev, &k.Visible, &k.Escape, &k.Help, &k.Quit)
	keys.Enable(true, &k.ForceQuit, &k.Confirm)
	keys.Enable(m.Drives(), k.driven()...)
	keys.Enable(m.Drives() && !m.Tour, &k.Play)
	keys.Enable(m.Panes(), &k.Focus, &k.Maximise, &k.HelpUp, &k.HelpDown)
	for i := range k.Pane {
		keys.Enable(m.Panes(), &k.Pane[i])
	}
}

// driven are the player's keys of what a presenter drives.
func (k *playerKeys) driven() []*key.Binding {
	return []*key.Binding{&k.Play, &k.Step, &k.Back, &k.Home, &k.End, &k.Faster, &k.Slower, &k.RUp, &k.RDown,
		&k.Restart, &k.WhatIf, &k.Split, &k.Scenario, &k.Command, &k.Edit}
}

// contextKeys are the help's keys where the player is: the mode's and the focused pane's first,
// then the player's. It is the help's KeyMap: one line of the most useful keys, or every key by
// group. Disabled bindings show in neither.
type contextKeys struct {
	k      *playerKeys
	pane   []key.Binding
	groups []keys.Group
}

// ShortHelp implements help.KeyMap.
func (c contextKeys) ShortHelp() []key.Binding {
	k := c.k
	out := append([]key.Binding{}, c.pane...)
	for _, b := range []key.Binding{k.Play, k.Step, k.Back, k.RUp, k.RDown, k.Next, k.Visible, k.Focus, k.Maximise} {
		// A key the context has given another meaning (an arrow: the static point's move) shows once.
		same := func(o key.Binding) bool { return o.Enabled() && slices.Equal(o.Keys(), b.Keys()) }
		if b.Enabled() && !slices.ContainsFunc(out, same) {
			out = append(out, b)
		}
	}
	return out
}

// FullHelp implements help.KeyMap: every group's keys; the help skips the disabled ones, and
// fullHelp a group left with none.
func (c contextKeys) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range c.groups {
		out = append(out, g.Keys)
	}
	return out
}

// helpLine is the one-line help: the short help, as much as fits, with "? help" and "q quit"
// pinned at the end whatever the width.
func helpLine(st *draw.Styles, c contextKeys, width int) string {
	h := help.New()
	h.Styles.ShortKey, h.Styles.ShortDesc, h.Styles.ShortSeparator = st.HelpKey, st.Help, st.Help
	h.Styles.Ellipsis = st.Help
	pinned := h.ShortHelpView([]key.Binding{c.k.Help, c.k.Quit}) // "" while a question takes the keys
	sep := st.Help.Render(" • ")
	if pinned == "" {
		sep = ""
	}
	h.Width = width - ansi.StringWidth(pinned) - ansi.StringWidth(sep)
	// bubbles' help adds every item when the one that overflows leaves no room for its ellipsis:
	// drop items from the end until the line fits.
	keys := c.ShortHelp()
	rest := h.ShortHelpView(keys)
	for len(keys) > 0 && ansi.StringWidth(rest) > h.Width {
		keys = keys[:len(keys)-1]
		rest = h.ShortHelpView(keys) + st.Help.Render(" …")
	}
	if h.Width <= 0 || rest == "" {
		return draw.Truncate(pinned, width)
	}
	return rest + sep + pinned
}

// groups are the player's groups of the full help.
func (k *playerKeys) groups() (play, costs, panes, whatIf keys.Group) {
	return keys.Group{Title: "Play", Keys: []key.Binding{k.Play, k.Step, k.Back, k.Home, k.End, k.Faster, k.Slower}},
		keys.Group{Title: "Retraining cost and algorithms", Keys: []key.Binding{k.RUp, k.RDown, k.Next, k.Prev, k.Visible, k.Restart}},
		keys.Group{Title: "Panes", Keys: []key.Binding{k.Focus, k.Maximise, k.Escape, k.Help, k.Quit, k.ForceQuit}},
		keys.Group{Title: "What-if", Keys: []key.Binding{k.WhatIf, k.Split, k.Scenario, k.Command, k.Edit}}
}

// fullHelp writes every group of keys under its title, the keys of a group packed into lines of
// at most w columns ("space play/pause · →/l step · ...").
func fullHelp(st *draw.Styles, c contextKeys, w int) string {
	var b strings.Builder
	for i, keys := range c.FullHelp() {
		var items []string
		for _, k := range keys {
			if h := k.Help(); h.Key != "" && k.Enabled() {
				items = append(items, st.HelpKey.Render(h.Key)+" "+h.Desc)
			}
		}
		if len(items) == 0 {
			continue // none works here (the bar's keys while it is closed)
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(st.Bold.Render(c.groups[i].Title) + "\n")
		cur := ""
		for _, it := range items {
			switch {
			case cur == "":
				cur = "  " + it
			case draw.Width(cur)+3+draw.Width(it) <= w:
				cur += st.Help.Render(" · ") + it
			default:
				b.WriteString(cur + "\n")
				cur = "  " + it
			}
		}
		b.WriteString(cur + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

var _ help.KeyMap = contextKeys{}
