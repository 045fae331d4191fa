package tui

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/scenarios"
)

// The scenario editor (e): the scenario's file, with the command line's changes merged in, in a
// text area. A pause in typing checks it as the loader does, off the UI goroutine, and the error
// (file:line:column, in the loader's words) shows under it; ctrl+s runs the text as a new run
// once it checks. The text lives in the player only: nothing is written to disk, and a served
// player's text stays untrusted (it reads no file but the embedded data and the offered folder).

const (
	editMax   = 64 << 10               // bytes of text the editor takes: a scenario is a few kB
	editPause = 300 * time.Millisecond // typing pause before the text is checked
)

var editKeys = struct{ Run, Close key.Binding }{
	Run:   key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "run it")),
	Close: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close, keeping the run")),
}

// editor is the editor's state.
type editor struct {
	area    textarea.Model
	from    *scenarios.Scenario // what the text was made from: its folder and trust
	version int                 // bumped by every edit; a check of an older text is dropped
	checked int                 // the version the last check was of
	s       *scenarios.Scenario // the checked text's scenario (nil when it does not load)
	err     error
}

type editPauseMsg struct{ version int }

type editCheckedMsg struct {
	version int
	s       *scenarios.Scenario
	err     error
}

// openEditor opens the editor on the scenario shown, w x h.
func (p *Player) openEditor() tea.Cmd {
	if p.room.following {
		p.notice = "e waits: you follow the presenter (p goes free)"
		return nil
	}
	text, err := p.opt.Scenario.Text()
	if err != nil {
		p.err = err
		return nil
	}
	a := textarea.New()
	a.CharLimit = editMax
	a.MaxHeight = 0
	a.ShowLineNumbers = true
	a.Prompt = ""
	a.SetValue(string(text))
	a.Cursor.SetMode(cursor.CursorStatic) // steady: see newCommandLine
	e := &editor{area: a, from: p.trusted(p.opt.Scenario), s: p.opt.Scenario}
	p.edit = e
	p.sizeEditor()
	// The text starts at its top (SetValue leaves the cursor at its end).
	for i := 0; i < 4*e.area.LineCount() && e.area.Line() > 0; i++ {
		e.area.CursorUp()
	}
	e.area.CursorStart()
	return e.area.Focus()
}

func (p *Player) sizeEditor() {
	if p.edit != nil {
		p.edit.area.SetWidth(max(p.w, 20))
		p.edit.area.SetHeight(max(p.h-3, 3))
	}
}

// editorUpdate takes a message while the editor is open.
func (p *Player) editorUpdate(msg tea.Msg) tea.Cmd {
	e := p.edit
	switch msg := msg.(type) {
	case editPauseMsg:
		if msg.version != e.version {
			return nil
		}
		text, from, v := []byte(e.area.Value()), e.from, e.version
		return func() tea.Msg {
			s, err := from.Reparse(text)
			return editCheckedMsg{v, s, err}
		}
	case editCheckedMsg:
		if msg.version == e.version {
			e.checked, e.s, e.err = msg.version, msg.s, msg.err
		}
		return nil
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, editKeys.Close):
			p.edit = nil
			return nil
		case key.Matches(msg, editKeys.Run):
			return p.runEdited()
		}
		before := e.area.Value()
		var cmd tea.Cmd
		e.area, cmd = e.area.Update(msg)
		if e.area.Value() == before {
			return cmd
		}
		e.version++
		v := e.version
		return tea.Batch(cmd, tea.Tick(editPause, func(time.Time) tea.Msg { return editPauseMsg{v} }))
	}
	var cmd tea.Cmd
	e.area, cmd = e.area.Update(msg)
	return cmd
}

// runEdited runs the edited text as a new run, once a check of this very text has passed.
func (p *Player) runEdited() tea.Cmd {
	e := p.edit
	switch {
	case e.checked != e.version:
		p.notice = "checking the text: ctrl+s again in a moment"
		return func() tea.Msg { return editPauseMsg{e.version} }
	case e.err != nil:
		return nil // the error is on screen
	}
	if p.opt.Check != nil {
		if err := p.opt.Check(e.s); err != nil {
			e.err = err
			return nil
		}
	}
	p.edit = nil
	p.opt.Scenario, p.cmd.base, p.cmd.sets = e.s, e.s, nil
	p.notice = "running the edited scenario (esc e to edit it again)"
	return tea.Batch(p.reopen(p.s.Seed), p.ApplyWhatIf(nil))
}

// editorView is the editor filling the screen: a title, the text, the check's outcome and keys.
func (p *Player) editorView() string {
	e := p.edit
	title := p.st.Bold.Render(" Edit "+p.opt.Scenario.Name+" ") + p.st.Dim.Render("(in this session only; nothing is written to disk)")
	state := p.st.Dim.Render(" checking…")
	switch {
	case e.checked != e.version:
	case e.err != nil:
		state = p.st.Error.Render(" " + oneLineErr(e.err))
	default:
		state = p.st.Bold.Render(" ok: ctrl+s runs it")
	}
	help := p.st.Help.Render(" ctrl+s run · esc close (the run stays) · the scenario format: cara new NAME writes a commented template")
	return truncate(title, p.w) + "\n" + e.area.View() + "\n" + truncate(state, p.w) + "\n" + truncate(help, p.w)
}

// oneLineErr keeps a multi-line loader message on the editor's one line.
func oneLineErr(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }
