package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
)

// keyMap is every key of the player, in one place. The player handles the global ones; each pane
// handles its own (Keys() lists them for the help). Left free for what comes next: w and W (what-if
// bar, split view), t (tour), p (presenter follow) and g (guess round).
type keyMap struct {
	// Playing.
	Play, Step, Back, Home, End, Faster, Slower key.Binding
	// Retraining cost and algorithms.
	RUp, RDown, Next, Prev, Visible, Restart key.Binding
	// Panes.
	Focus, Maximise, Escape, Help, Quit key.Binding
	// Pane 1 (the cost matrix): the cursor and its moves.
	Cursor, Up, Down, Left, Right key.Binding
	// Pane 2: cumulative cost or the gap to the Oracle.
	Gap key.Binding
	// Pane 4: the next pair of features.
	Features key.Binding
	// Pane 6: scrolling.
	ScrollUp, ScrollDown key.Binding
}

func newKeys() keyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return keyMap{
		Play:    b([]string{" "}, "space", "play/pause"),
		Step:    b([]string{"right", "l"}, "→/l", "step"),
		Back:    b([]string{"left", "h"}, "←/h", "back"),
		Home:    b([]string{"home"}, "home", "first batch"),
		End:     b([]string{"end"}, "end", "last computed"),
		Faster:  b([]string{"+", "="}, "+", "faster"),
		Slower:  b([]string{"-"}, "-", "slower"),
		RUp:     b([]string{"]"}, "]", "raise R ×1.25"),
		RDown:   b([]string{"["}, "[", "lower R ÷1.25"),
		Next:    b([]string{"tab"}, "tab", "next algorithm"),
		Prev:    b([]string{"shift+tab"}, "shift+tab", "previous algorithm"),
		Visible: b([]string{"v"}, "v", "which algorithms show"),
		Restart: b([]string{"r"}, "r", "restart, next seed"),

		Focus:    b([]string{"1", "2", "3", "4", "5", "6"}, "1-6", "focus pane"),
		Maximise: b([]string{"z", "enter"}, "z", "zoom pane"),
		Escape:   b([]string{"esc"}, "esc", "back"),
		Help:     b([]string{"?"}, "?", "help"),
		Quit:     b([]string{"q", "ctrl+c"}, "q", "quit"),

		Cursor: b([]string{"m"}, "m", "cell cursor"),
		Up:     b([]string{"up", "k"}, "↑↓←→", "move cursor"),
		Down:   b([]string{"down", "j"}, "↓", "cursor down"),
		// Only the arrows move the cursor sideways, so h and l still step.
		Left:  b([]string{"left"}, "←", "cursor left"),
		Right: b([]string{"right"}, "→", "cursor right"),

		Gap:      b([]string{"o"}, "o", "gap to Oracle"),
		Features: b([]string{"f"}, "f", "next feature pair"),

		ScrollUp:   b([]string{"up", "k", "pgup"}, "↑↓", "scroll"),
		ScrollDown: b([]string{"down", "j", "pgdown"}, "↓", "scroll down"),
	}
}

// helpLine is the one-line help: the focused pane's keys, then the main global ones, as many as
// fit; "? help" and "q quit" are pinned at the end whatever the width.
func helpLine(st *Styles, k keyMap, paneKeys []key.Binding, width int) string {
	h := help.New()
	h.Styles.ShortKey, h.Styles.ShortDesc, h.Styles.ShortSeparator = st.HelpKey, st.Help, st.Help
	h.Styles.Ellipsis = st.Help
	pinned := h.ShortHelpView([]key.Binding{k.Help, k.Quit})
	sep := st.Help.Render(" • ")
	h.Width = width - ansi.StringWidth(pinned) - ansi.StringWidth(sep)
	items := append(append([]key.Binding{}, paneKeys...), k.Play, k.Step, k.Back, k.RUp, k.RDown, k.Next, k.Visible, k.Focus, k.Maximise)
	rest := h.ShortHelpView(items)
	if h.Width <= 0 || rest == "" {
		return truncate(pinned, width)
	}
	return rest + sep + pinned
}

// keyGroup is one titled group of the full help.
type keyGroup struct {
	title string
	keys  []key.Binding
}

// fullHelp writes the groups as two columns of "key  what it does" under their titles.
func fullHelp(st *Styles, groups []keyGroup) string {
	var b strings.Builder
	for i, g := range groups {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(st.Bold.Render(g.title) + "\n")
		for _, k := range g.keys {
			h := k.Help()
			if h.Key == "" {
				continue
			}
			b.WriteString("  " + st.HelpKey.Render(padRight(h.Key, 10)) + " " + h.Desc + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func padRight(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}
