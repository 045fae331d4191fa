package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mattn/go-isatty"

	"github.com/cara-sim/cara/scenarios"
)

// Entry is a scenario the picker offers: embedded (by name) or a file.
type Entry struct {
	Ref   string // what scenarios.Load takes
	Title string
	About string
}

// Entries lists the embedded scenarios, then *.yaml in dir (none when dir is ""), then paths.
func Entries(dir string, paths []string) []Entry {
	var out []Entry
	for _, i := range scenarios.Embedded() {
		out = append(out, Entry{Ref: i.Name, Title: i.Title, About: i.About})
	}
	var files []string
	if dir != "" {
		files, _ = filepath.Glob(filepath.Join(dir, "*.yaml"))
	}
	for _, f := range append(files, paths...) {
		e := Entry{Ref: f, Title: f}
		if s, err := scenarios.Load(f, scenarios.Options{}); err == nil {
			e.Title, e.About = s.Title+"  ("+f+")", s.About
		} else {
			e.About = err.Error()
		}
		out = append(out, e)
	}
	return out
}

// Picker chooses a scenario and opens it in a Player.
type Picker struct {
	entries []Entry
	i       int
	st      *Styles
	w, h    int
	err     string
	play    func(e Entry, w, h int, back func() (tea.Model, tea.Cmd)) (*Player, error)
	up, dn  key.Binding
	open    key.Binding
	quit    key.Binding
}

// NewPicker returns a picker; play builds the player for a chosen entry.
func NewPicker(entries []Entry, st *Styles, play func(e Entry, w, h int, back func() (tea.Model, tea.Cmd)) (*Player, error)) *Picker {
	i := max(slices.IndexFunc(entries, func(e Entry) bool { return e.Ref == scenarios.Default }), 0)
	return &Picker{entries: entries, i: i, st: st, w: 80, h: 24, play: play,
		up:   key.NewBinding(key.WithKeys("up", "k")),
		dn:   key.NewBinding(key.WithKeys("down", "j")),
		open: key.NewBinding(key.WithKeys("enter", " ")),
		quit: key.NewBinding(key.WithKeys("q", "ctrl+c", "esc")),
	}
}

// Init implements tea.Model.
func (p *Picker) Init() tea.Cmd { return nil }

// Update implements tea.Model.
func (p *Picker) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		p.w, p.h = msg.Width, msg.Height
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, p.quit):
			return p, tea.Quit
		case key.Matches(msg, p.up):
			p.i = max(p.i-1, 0)
		case key.Matches(msg, p.dn):
			p.i = min(p.i+1, len(p.entries)-1)
		case key.Matches(msg, p.open):
			pl, err := p.play(p.entries[p.i], p.w, p.h, func() (tea.Model, tea.Cmd) { return p, nil })
			if err != nil {
				p.err = err.Error()
				return p, nil
			}
			p.err = ""
			return pl, pl.Init()
		}
	}
	return p, nil
}

// View implements tea.Model.
func (p *Picker) View() string {
	if p.w < MinWidth || p.h < MinHeight {
		return lipgloss.Place(p.w, p.h, lipgloss.Center, lipgloss.Center,
			fmt.Sprintf("cara needs at least %dx%d; this terminal is %dx%d.", MinWidth, MinHeight, p.w, p.h))
	}
	var b strings.Builder
	b.WriteString(p.st.Title.Render("cara: pick a scenario") + p.st.Dim.Render("   ↑/↓ choose, enter open, q quit") + "\n\n")
	listW := min(38, p.w/2)
	var list []string
	for i, e := range p.entries {
		name := truncate(e.Ref, listW-3)
		if i == p.i {
			list = append(list, p.st.StatusKey.Render("▶ "+name))
		} else {
			list = append(list, "  "+name)
		}
	}
	e := p.entries[p.i]
	detail := lipgloss.NewStyle().Width(p.w - listW - 4).Render(p.st.Bold.Render(e.Title) + "\n\n" + e.About)
	b.WriteString(lipgloss.JoinHorizontal(lipgloss.Top, lipgloss.NewStyle().Width(listW).Render(strings.Join(list, "\n")), "  ", detail))
	if p.err != "" {
		b.WriteString("\n\n" + p.st.Error.Render(p.err))
	}
	return clip(b.String(), p.w, p.h)
}

// IsTerminal reports whether f is a terminal (the UI needs one). /dev/null is a character device
// but not a terminal, so the mode bits are not enough: ask the terminal driver.
func IsTerminal(f *os.File) bool { return isatty.IsTerminal(f.Fd()) }
