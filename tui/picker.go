package tui

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mattn/go-isatty"

	"github.com/cara-sim/cara/internal/palette"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/tui/internal/draw"
)

// entryItem is an Entry in the list: its title, and its name under it.
type entryItem struct{ e scenarios.Entry }

func (i entryItem) Title() string { return i.e.Title }

// Description is the entry's name, and the length of its tour when it has one (t plays it). The
// name, never the Ref: a server's picker must not show its paths, nor an upload's owner.
func (i entryItem) Description() string {
	if n := tourStops()[i.e.Ref]; n > 0 {
		return fmt.Sprintf("%s · tour of %d stops", i.e.Name(), n)
	}
	return i.e.Name()
}

// tourStops is the number of tour stops of each embedded scenario that has a tour.
var tourStops = sync.OnceValue(func() map[string]int {
	out := map[string]int{}
	for _, i := range scenarios.Embedded() {
		if i.Stops > 0 {
			out[i.Name] = i.Stops
		}
	}
	return out
})

func (i entryItem) FilterValue() string { return i.e.Name() + " " + i.e.Title }

// Picker chooses a scenario and opens it in a Player: a filterable list of titles on the left,
// the chosen scenario's description on the right, and, when a scenario cannot be opened (its data
// are missing), the whole message saying why and what to do.
type Picker struct {
	list      list.Model
	st        *Styles
	w, h      int
	errs      map[string]string // by Ref: why the scenario did not open
	play      func(e scenarios.Entry, w, h int, back func() (tea.Model, tea.Cmd)) (*Player, error)
	open      key.Binding
	quit      key.Binding
	forceQuit key.Binding
	entries   []scenarios.Entry
	// In a workshop room: the session's member, how to open the presenter's scenario to follow it,
	// and the room as last seen.
	member    *room.Member
	followKey key.Binding
	openStage func(st room.Stage, w, h int, back func() (tea.Model, tea.Cmd)) (*Player, error)
	room      room.View
	roomErr   string // why following failed, until the next try
}

// Join puts the picker in a workshop room: when its member follows and the presenter has a
// scenario open, open builds the player that shows it (on the presenter's scenario and seed, so
// the run is shared); p follows a presenter, and a presenter arriving is followed at once.
func (p *Picker) Join(m *room.Member, open func(st room.Stage, w, h int, back func() (tea.Model, tea.Cmd)) (*Player, error)) {
	p.member, p.openStage, p.room = m, open, m.View()
	p.followKey = key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "follow the presenter"))
}

// onRoom follows the presenter into their scenario; a presenter arriving while this session is
// still choosing is followed at once.
func (p *Picker) onRoom(v room.View) (tea.Model, tea.Cmd) {
	wasOn := p.room.On
	p.room = v
	switch {
	case v.Presenter && v.Resume:
		// A presenter back within the grace: the room as it was, taken up from there.
		pl, err := p.openStage(v.Stage, p.w, p.h, func() (tea.Model, tea.Cmd) { return p, nil })
		if err != nil {
			p.member.Resumed()
			p.roomErr = "Cannot take up where the room was: " + err.Error()
			return p, nil
		}
		// The presenter back takes up the room's stage within the grace: the player shows it, and
		// publishes it as it was until it does.
		return pl, tea.Batch(pl.Init(), pl.apply(pl.ws.Resume(pl.workshopFrame(), v)))
	case v.Presenter:
	case v.On && !wasOn && !v.Following:
		p.member.Follow(true) // the room's next change brings the stage
		p.room = p.member.View()
	case v.On && v.Following && v.Stage.Scenario != nil:
		p.roomErr = ""
		pl, err := p.openStage(v.Stage, p.w, p.h, func() (tea.Model, tea.Cmd) { return p, nil })
		if err != nil {
			p.member.Follow(false)
			p.roomErr = "Cannot follow the presenter: " + err.Error()
			return p, nil
		}
		m, cmd := pl.onRoom(v)
		return m, tea.Batch(pl.Init(), cmd)
	}
	return p, nil
}

// roomLine says where the session is in the room ("" outside one).
func (p *Picker) roomLine() string {
	v := p.room
	switch {
	case p.roomErr != "" && !v.Following:
		return p.roomErr
	case p.member == nil || !v.On:
		return ""
	case v.Presenter:
		return "You present: the room follows the scenario you open."
	case v.Following:
		return "You follow the presenter: their scenario opens here as soon as they choose one."
	}
	return "A presenter is on: p to follow."
}

// NewPicker returns a picker; play builds the player for a chosen entry.
func NewPicker(entries []scenarios.Entry, st *Styles, play func(e scenarios.Entry, w, h int, back func() (tea.Model, tea.Cmd)) (*Player, error)) *Picker {
	items := make([]list.Item, len(entries))
	for i, e := range entries {
		items[i] = entryItem{e}
	}
	d := list.NewDefaultDelegate()
	d.SetSpacing(0) // two lines an entry: every scenario on one page of a usual terminal
	rebind(st, &d.Styles.NormalTitle, &d.Styles.NormalDesc, &d.Styles.SelectedTitle, &d.Styles.SelectedDesc,
		&d.Styles.DimmedTitle, &d.Styles.DimmedDesc, &d.Styles.FilterMatch)
	d.Styles.SelectedTitle = d.Styles.SelectedTitle.BorderForeground(st.Color(palette.Accent)).Foreground(st.Color(palette.Accent))
	d.Styles.SelectedDesc = d.Styles.SelectedDesc.BorderForeground(st.Color(palette.Accent))
	l := list.New(items, d, 40, 20)
	l.SetShowTitle(false)
	l.SetStatusBarItemName("scenario", "scenarios")
	l.DisableQuitKeybindings()
	s := &l.Styles
	rebind(st, &s.TitleBar, &s.Title, &s.Spinner, &s.FilterPrompt, &s.FilterCursor, &s.DefaultFilterCharacterMatch,
		&s.StatusBar, &s.StatusEmpty, &s.StatusBarActiveFilter, &s.StatusBarFilterCount, &s.NoItems,
		&s.PaginationStyle, &s.HelpStyle, &s.ActivePaginationDot, &s.InactivePaginationDot, &s.ArabicPagination, &s.DividerDot)
	l.Help.Styles.ShortKey, l.Help.Styles.ShortDesc, l.Help.Styles.ShortSeparator = st.HelpKey, st.Help, st.Help
	l.Help.Styles.FullKey, l.Help.Styles.FullDesc, l.Help.Styles.FullSeparator = st.HelpKey, st.Help, st.Help
	// A steady cursor: a blinking one redraws the screen twice a second, over SSH too.
	l.FilterInput.Cursor.SetMode(cursor.CursorStatic)
	l.FilterInput.PromptStyle = l.FilterInput.PromptStyle.Renderer(st.Renderer())
	l.FilterInput.TextStyle = l.FilterInput.TextStyle.Renderer(st.Renderer())
	l.Select(max(slices.IndexFunc(entries, func(e scenarios.Entry) bool { return e.Ref == scenarios.Default }), 0))
	return &Picker{list: l, st: st, w: 80, h: 24, play: play, errs: map[string]string{}, entries: entries,
		open:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		forceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
	}
}

// rebind gives list styles (built on the default renderer) the session's renderer, so an SSH
// session gets the colours of its own terminal.
func rebind(st *Styles, styles ...*lipgloss.Style) {
	for _, s := range styles {
		*s = s.Renderer(st.Renderer())
	}
}

// Init implements tea.Model.
func (p *Picker) Init() tea.Cmd { return nil }

// Update implements tea.Model.
func (p *Picker) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		p.w, p.h = msg.Width, msg.Height
		p.list.SetSize(p.listWidth(), max(p.h-2, 3))
		return p, nil
	case roomMsg:
		return p.onRoom(msg.v)
	case tea.KeyMsg:
		filtering := p.list.FilterState() == list.Filtering
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste && !filtering {
			// Keys that arrived together (a fast typist, a slow link): one at a time, as typed.
			return p.runes(msg.Runes)
		}
		switch {
		case !filtering && key.Matches(msg, p.quit), key.Matches(msg, p.forceQuit):
			return p, tea.Quit
		case !filtering && p.member != nil && key.Matches(msg, p.followKey) && p.room.On && !p.room.Presenter:
			p.member.Follow(true)
			p.room = p.member.View()
			return p.onRoom(p.room)
		case !filtering && key.Matches(msg, p.open):
			return p.openSelected()
		}
	}
	var cmd tea.Cmd
	p.list, cmd = p.list.Update(msg)
	return p, cmd
}

// runes hands keys that arrived in one message to Update one by one, until one opens a player.
func (p *Picker) runes(runes []rune) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	for i, r := range runes {
		m, cmd := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		cmds = append(cmds, cmd)
		if m != tea.Model(p) {
			if i+1 < len(runes) { // the rest belongs to the player now
				var next tea.Cmd
				m, next = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: runes[i+1:]})
				cmds = append(cmds, next)
			}
			return m, tea.Batch(cmds...)
		}
	}
	return p, tea.Batch(cmds...)
}

func (p *Picker) openSelected() (tea.Model, tea.Cmd) {
	it, ok := p.list.SelectedItem().(entryItem)
	if !ok {
		return p, nil
	}
	pl, err := p.play(it.e, p.w, p.h, func() (tea.Model, tea.Cmd) { return p, nil })
	if err != nil {
		p.errs[it.e.Ref] = err.Error()
		return p, nil
	}
	if p.member != nil && p.room.Following {
		// A scenario of one's own choosing: free, until p follows the presenter again.
		p.member.Follow(false)
		p.room.Following = false
	}
	delete(p.errs, it.e.Ref)
	return pl, pl.Init()
}

func (p *Picker) listWidth() int { return min(46, p.w*2/5) }

// View implements tea.Model.
func (p *Picker) View() string {
	if p.w < MinWidth || p.h < MinHeight {
		return lipgloss.Place(p.w, p.h, lipgloss.Center, lipgloss.Center,
			fmt.Sprintf("cara needs at least %dx%d; this terminal is %dx%d.", MinWidth, MinHeight, p.w, p.h))
	}
	if p.member != nil && p.room.Presenter && p.room.Resume {
		return p.st.Bold.Render("cara: you are back; taking up the room where it was…") // the player comes next
	}
	head := p.st.Title.Render("cara: pick a scenario") + p.st.Dim.Render("   ↑/↓ choose · / filter · enter open · q quit")
	lw := p.listWidth()
	dw := max(p.w-lw-3, 10)
	var detail string
	if it, ok := p.list.SelectedItem().(entryItem); ok {
		e := it.e
		wrap := p.st.NewStyle().Width(dw)
		parts := []string{wrap.Inherit(p.st.Bold).Render(e.Title), p.st.Dim.Render(entryItem{e}.Description())}
		if msg, ok := p.errs[e.Ref]; ok {
			// The whole message, above the description: a missing data file's says where it was
			// looked for and how to give it.
			parts = append(parts, wrap.Inherit(p.st.Error).Render("Cannot open it: "+msg))
		}
		parts = append(parts, wrap.Render(e.About))
		detail = strings.Join(parts, "\n\n")
	}
	body := beside(p.list.View(), detail, lw, 3)
	sub := ""
	if l := p.roomLine(); l != "" {
		sub = p.st.Bold.Render(l)
	}
	return draw.Clip(head+"\n"+sub+"\n"+body, p.w, p.h)
}

// beside puts two blocks side by side, gap columns apart; the left one is padded to lw columns.
func beside(left, right string, lw, gap int) string {
	ls, rs := strings.Split(left, "\n"), strings.Split(right, "\n")
	var out strings.Builder
	for i := range max(len(ls), len(rs)) {
		if i > 0 {
			out.WriteByte('\n')
		}
		l, r := "", ""
		if i < len(ls) {
			l = ls[i]
		}
		if i < len(rs) {
			r = rs[i]
		}
		if strings.Contains(l, "\x1b") {
			l += "\x1b[0m" // a style left open by the list must not colour the right block
		}
		out.WriteString(l + draw.Pad(lw-draw.Width(l)+gap) + r)
	}
	return out.String()
}

// IsTerminal reports whether f is a terminal (the UI needs one). /dev/null is a character device
// but not a terminal, so the mode bits are not enough: ask the terminal driver.
func IsTerminal(f *os.File) bool { return isatty.IsTerminal(f.Fd()) }
