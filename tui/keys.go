package tui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// keyMap is every key of the player, in one place. The player handles the global ones; each pane
// handles its own (Keys() lists them for the help), and the what-if bar its own while it is open
// (inside the bar g halves gamma); a question of the guess round takes r and k while it shows.
type keyMap struct {
	// Playing.
	Play, Step, Back, Home, End, Faster, Slower key.Binding
	// Retraining cost and algorithms.
	RUp, RDown, Next, Prev, Visible, Restart key.Binding
	// Panes: Focus is the help's name for the six Pane keys.
	Focus, Maximise, Escape, Help, Quit, ForceQuit key.Binding
	Pane                                           [numPanes]key.Binding
	// Pane 1 (the cost matrix): the cursor and its moves.
	Cursor, Up, Down, Left, Right key.Binding
	Show                          key.Binding // A, B or C: which matrix the heat map shows
	// Pane 2: cumulative cost or the gap to the Oracle.
	Gap key.Binding
	// Pane 4: the next pair of features.
	Features key.Binding
	// Pane 6: scrolling.
	ScrollUp, ScrollDown, PageUp, PageDown key.Binding
	// Teaching: the tour, the guess round and its answers, following a presenter. The same key
	// says another thing in another mode (t starts the tour, or leaves it): one binding each, only
	// one enabled at a time.
	Tour, TourNext, LeaveTour, Guess, AnswerRetrain, AnswerKeep, NotNow, Follow, GoFree key.Binding
	// What-ifs: the bar, the split view, back to the scenario; and the bar's own keys.
	WhatIf, Split, Scenario                                key.Binding
	Command, Edit                                          key.Binding
	WIOwn, WIData, WIStatic, WIAlt, WIMove                 key.Binding
	WINarrow, WIWiden, WIGammaDown, WIGammaUp, WIGammaBack key.Binding
}

func newKeys() keyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	k := keyMap{
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
		// A new run throws away the matrix, the tour and the guesses (a presenter's, the room's):
		// a capital of its own, asked to be confirmed, never r, which answers RETRAIN.
		Restart: b([]string{"N"}, "N", "new run, next seed (asks)"),

		Focus:     b([]string{"1", "2", "3", "4", "5", "6"}, "1-6", "focus pane"),
		Maximise:  b([]string{"z", "enter"}, "z", "zoom pane"),
		Escape:    b([]string{"esc"}, "esc", "back"),
		Help:      b([]string{"?"}, "?", "help"),
		Quit:      b([]string{"q"}, "q", "quit"),
		ForceQuit: b([]string{"ctrl+c"}, "ctrl+c", "quit at once"),

		Cursor: b([]string{"m"}, "m", "cell cursor"),
		Show:   b([]string{"A", "B", "C"}, "A/B/C", "show A, B or C = A − B"),
		Up:     b([]string{"up", "k"}, "↑↓←→", "move cursor"),
		Down:   b([]string{"down", "j"}, "↓", "cursor down"),
		// Only the arrows move the cursor sideways, so h and l still step.
		Left:  b([]string{"left"}, "←", "cursor left"),
		Right: b([]string{"right"}, "→", "cursor right"),

		Gap:      b([]string{"o"}, "o", "gap to Oracle"),
		Features: b([]string{"f"}, "f", "next feature pair"),

		ScrollUp:   b([]string{"up", "k"}, "↑↓", "scroll"),
		ScrollDown: b([]string{"down", "j"}, "↓", "scroll down"),
		PageUp:     b([]string{"pgup"}, "pgup/pgdn", "scroll a page"),
		PageDown:   b([]string{"pgdown"}, "pgdn", "page down"),

		Tour:          b([]string{"t"}, "t", "tour: start/leave"),
		TourNext:      b([]string{" "}, "space", "next stop"),
		LeaveTour:     b([]string{"t"}, "t", "leave tour"),
		NotNow:        b([]string{"esc", "q", "g"}, "esc", "not now"),
		GoFree:        b([]string{"p"}, "p", "go free"),
		Guess:         b([]string{"g"}, "g", "guess the decision"),
		AnswerRetrain: b([]string{"r"}, "r", "answer RETRAIN"),
		AnswerKeep:    b([]string{"k"}, "k", "answer KEEP"),
		Follow:        b([]string{"p"}, "p", "follow the presenter/go free"),
		WhatIf:        b([]string{"w"}, "w", "what-if bar"),
		Split:         b([]string{"W"}, "W", "scenario | what-if side by side"),
		Scenario:      b([]string{"x"}, "x", "back to the scenario"),
		Command:       b([]string{":"}, ":", "command line: set PATH=VALUE, unset, reset"),
		Edit:          b([]string{"e"}, "e", "edit the scenario file"),

		WIOwn:       b([]string{"s"}, "s", "the scenario's queries"),
		WIData:      b([]string{"d"}, "d", "queries follow the data"),
		WIStatic:    b([]string{"c"}, "c", "static queries at a point"),
		WIAlt:       b([]string{"a"}, "a", "the file's other queries"),
		WIMove:      b([]string{"up", "down", "left", "right"}, "←↑↓→", "move the static point"),
		WINarrow:    b([]string{"<"}, "<", "narrower (static) / fewer (data)"),
		WIWiden:     b([]string{">"}, ">", "wider / more"),
		WIGammaDown: b([]string{"g"}, "g", "gamma ÷2"),
		WIGammaUp:   b([]string{"G"}, "G", "gamma ×2"),
		WIGammaBack: b([]string{"b"}, "b", "gamma back"),
	}
	for i := range k.Pane {
		n := string(rune('1' + i))
		k.Pane[i] = b([]string{n}, n, "focus pane "+n)
	}
	return k
}

// mode is where the player is, as far as its keys go. Each binding is enabled only in the modes
// where it works (key.Binding.SetEnabled), so the dispatch (key.Matches) and the help (which
// skips a disabled binding) follow the mode with no rule of their own.
type mode struct {
	tour      bool // a tour plays: space goes to the next stop, t leaves it
	following bool // the player follows a presenter: what the presenter drives is off, p goes free
	question  bool // the guess round asks: r and k answer, esc puts the question off
	bar       bool // the what-if bar is open: its keys are on (g is gamma there, not the guess round)
	split     bool // the split view (W) is on: two matrices and a table, no pane to focus or act in
}

// enable turns on the bindings that work in mode m and off the others.
func (k *keyMap) enable(m mode) {
	set := func(on bool, bs ...*key.Binding) {
		for _, b := range bs {
			b.SetEnabled(on)
		}
	}
	free := !m.question            // a question takes every key but its own
	drives := free && !m.following // what a presenter drives, which a follower's keys leave alone
	set(free, k.all()...)
	set(drives, k.driven()...)
	set(m.question, &k.AnswerRetrain, &k.AnswerKeep, &k.NotNow)
	set(true, &k.ForceQuit)
	set(m.following, &k.GoFree)
	set(drives, &k.Follow)
	set(drives && !m.tour, &k.Play, &k.Tour)
	set(drives && m.tour, &k.TourNext, &k.LeaveTour)
	set(drives && !m.bar, &k.Guess)
	set(free && m.bar, k.bar()...)
	set(free && !m.split, k.panes()...)
}

// panes are the keys of the panes and of their focus, which the split view has none of.
func (k *keyMap) panes() []*key.Binding {
	out := []*key.Binding{&k.Focus, &k.Maximise, &k.Cursor, &k.Up, &k.Down, &k.Left, &k.Right, &k.Show, &k.Gap,
		&k.Features, &k.ScrollUp, &k.ScrollDown, &k.PageUp, &k.PageDown}
	for i := range k.Pane {
		out = append(out, &k.Pane[i])
	}
	return out
}

// all is every binding of the map.
func (k *keyMap) all() []*key.Binding {
	out := []*key.Binding{&k.Play, &k.Step, &k.Back, &k.Home, &k.End, &k.Faster, &k.Slower, &k.RUp, &k.RDown, &k.Next,
		&k.Prev, &k.Visible, &k.Restart, &k.Focus, &k.Maximise, &k.Escape, &k.Help, &k.Quit, &k.ForceQuit, &k.Cursor,
		&k.Up, &k.Down, &k.Left, &k.Right, &k.Show, &k.Gap, &k.Features, &k.ScrollUp, &k.ScrollDown, &k.PageUp,
		&k.PageDown, &k.Tour, &k.TourNext, &k.LeaveTour, &k.Guess, &k.AnswerRetrain, &k.AnswerKeep, &k.NotNow,
		&k.Follow, &k.GoFree, &k.WhatIf, &k.Split, &k.Scenario, &k.Command, &k.Edit}
	for i := range k.Pane {
		out = append(out, &k.Pane[i])
	}
	return append(out, k.bar()...)
}

// driven are the keys of what a presenter drives (the batch, play, R, the run, the tour, the guess
// round, the what-if), which a follower's keys leave alone; what a follower only looks at (panes,
// zoom, cursor, algorithm, help) stays theirs.
func (k *keyMap) driven() []*key.Binding {
	return []*key.Binding{&k.Play, &k.Step, &k.Back, &k.Home, &k.End, &k.Faster, &k.Slower, &k.RUp, &k.RDown,
		&k.Restart, &k.Tour, &k.TourNext, &k.LeaveTour, &k.Guess, &k.WhatIf, &k.Split, &k.Scenario, &k.Command, &k.Edit}
}

// bar are the open what-if bar's own keys.
func (k *keyMap) bar() []*key.Binding {
	return []*key.Binding{&k.WIOwn, &k.WIData, &k.WIStatic, &k.WIAlt, &k.WIMove, &k.WINarrow, &k.WIWiden,
		&k.WIGammaDown, &k.WIGammaUp, &k.WIGammaBack}
}

// pressed reports whether msg is one of the keys of bs, enabled or not: what a follower pressed
// of the keys the presenter drives, to say why nothing happened.
func pressed(msg tea.KeyMsg, bs []*key.Binding) bool {
	for _, b := range bs {
		if slices.Contains(b.Keys(), msg.String()) {
			return true
		}
	}
	return false
}

// contextKeys are the help's keys where the player is: the mode's and the focused pane's first,
// then the player's. It is the help's KeyMap: one line of the most useful keys, or every key by
// group. Disabled bindings (enable) show in neither.
type contextKeys struct {
	k      *keyMap
	pane   []key.Binding
	groups []keyGroup
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
		out = append(out, g.keys)
	}
	return out
}

// helpLine is the one-line help: the short help, as much as fits, with "? help" and "q quit"
// pinned at the end whatever the width.
func helpLine(st *Styles, c contextKeys, width int) string {
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
		return truncate(pinned, width)
	}
	return rest + sep + pinned
}

// keyGroups are the full help's groups: the player's keys, then each pane's.
func (k *keyMap) groups() []keyGroup {
	return []keyGroup{
		{"Play", []key.Binding{k.Play, k.Step, k.Back, k.Home, k.End, k.Faster, k.Slower}},
		{"Retraining cost and algorithms", []key.Binding{k.RUp, k.RDown, k.Next, k.Prev, k.Visible, k.Restart}},
		{"Panes", []key.Binding{k.Focus, k.Maximise, k.Escape, k.Help, k.Quit, k.ForceQuit}},
		{"Teaching", []key.Binding{k.Tour, k.TourNext, k.LeaveTour, k.Guess, k.AnswerRetrain, k.AnswerKeep, k.NotNow, k.Follow, k.GoFree}},
		{"1 Cost matrix", []key.Binding{k.Cursor, k.Up, k.Show}},
		{"2 Cumulative cost", []key.Binding{k.Gap}},
		{"4 Batch", []key.Binding{k.Features}},
		{"6 About (when it has the focus)", []key.Binding{k.ScrollUp, k.PageUp}},
		{"What-if", []key.Binding{k.WhatIf, k.Split, k.Scenario, k.Command, k.Edit}},
		{"What-if bar (open)", []key.Binding{k.WIOwn, k.WIData, k.WIStatic, k.WIAlt, k.WIMove, k.WINarrow, k.WIWiden,
			k.WIGammaDown, k.WIGammaUp, k.WIGammaBack, k.Escape}},
	}
}

// keyGroup is one titled group of the full help.
type keyGroup struct {
	title string
	keys  []key.Binding
}

// fullHelp writes every group of keys under its title, the keys of a group packed into lines of
// at most w columns ("space play/pause · →/l step · ...").
func fullHelp(st *Styles, c contextKeys, w int) string {
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
		b.WriteString(st.Bold.Render(c.groups[i].title) + "\n")
		cur := ""
		for _, it := range items {
			switch {
			case cur == "":
				cur = "  " + it
			case width(cur)+3+width(it) <= w:
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

func padRight(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

var _ help.KeyMap = contextKeys{}
