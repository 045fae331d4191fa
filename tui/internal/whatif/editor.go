package whatif

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/tui/internal/draw"
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

// Editor is the editor's state.
type Editor struct {
	area    textarea.Model
	from    *scenarios.Scenario // what the text was made from: its folder and trust
	version int                 // bumped by every edit; a check of an older text is dropped
	checked int                 // the version the last check was of
	s       *scenarios.Scenario // the checked text's scenario (nil when it does not load)
	err     error
}

type EditPauseMsg struct{ version int }

type EditCheckedMsg struct {
	version int
	s       *scenarios.Scenario
	err     error
}

// OpenEditor opens the editor on the scenario shown, w x h; nil when its text cannot be read. A
// follower's e never gets here (see Commands.Open).
func OpenEditor(h Host, w, ht int) (*Editor, tea.Cmd) {
	s := h.Scenario()
	text, err := s.Text()
	if err != nil {
		h.Fail(err)
		return nil, nil
	}
	a := textarea.New()
	a.CharLimit = editMax
	a.MaxHeight = 0
	a.ShowLineNumbers = true
	a.Prompt = ""
	a.SetValue(string(text))
	a.Cursor.SetMode(cursor.CursorStatic) // steady: see newCommandLine
	e := &Editor{area: a, from: h.Trusted(s), s: s}
	e.Resize(w, ht)
	// The text starts at its top (SetValue leaves the cursor at its end).
	for i := 0; i < 4*e.area.LineCount() && e.area.Line() > 0; i++ {
		e.area.CursorUp()
	}
	e.area.CursorStart()
	return e, e.area.Focus()
}

// Text is the text in the editor.
func (e *Editor) Text() string { return e.area.Value() }

// Line is the line of the text the cursor is on.
func (e *Editor) Line() int { return e.area.Line() }

// Err is why the text last checked does not load (nil when it does, or before a check).
func (e *Editor) Err() error { return e.err }

// Replace puts text in place of the editor's, as a paste of a whole file would, and returns the
// pause after which it is checked.
func (e *Editor) Replace(text string) tea.Cmd {
	e.area.SetValue(text)
	e.version++
	v := e.version
	return func() tea.Msg { return EditPauseMsg{v} }
}

// Resize fits the editor to a w x h screen; a closed (nil) editor has nothing to fit.
func (e *Editor) Resize(w, h int) {
	if e != nil {
		e.area.SetWidth(max(w, 20))
		e.area.SetHeight(max(h-3, 3))
	}
}

// Update takes a message while the editor is open, and returns the editor, nil once it closes
// (esc, or ctrl+s running the text through the command line's runEdited).
func (e *Editor) Update(h Host, c *Commands, bar *Bar, msg tea.Msg) (*Editor, tea.Cmd) {
	switch msg := msg.(type) {
	case EditPauseMsg:
		if msg.version != e.version {
			return e, nil
		}
		text, from, v := []byte(e.area.Value()), e.from, e.version
		return e, func() tea.Msg {
			s, err := from.Reparse(text)
			return EditCheckedMsg{v, s, err}
		}
	case EditCheckedMsg:
		if msg.version == e.version {
			e.checked, e.s, e.err = msg.version, msg.s, msg.err
		}
		return e, nil
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, editKeys.Close):
			return nil, nil
		case key.Matches(msg, editKeys.Run):
			return e.run(h, c, bar)
		}
		before := e.area.Value()
		var cmd tea.Cmd
		e.area, cmd = e.area.Update(msg)
		if e.area.Value() == before {
			return e, cmd
		}
		e.version++
		v := e.version
		return e, tea.Batch(cmd, tea.Tick(editPause, func(time.Time) tea.Msg { return EditPauseMsg{v} }))
	}
	var cmd tea.Cmd
	e.area, cmd = e.area.Update(msg)
	return e, cmd
}

// run runs the edited text as a new run, once a check of this very text has passed.
func (e *Editor) run(h Host, c *Commands, bar *Bar) (*Editor, tea.Cmd) {
	switch {
	case e.checked != e.version:
		h.Say("checking the text: ctrl+s again in a moment")
		return e, func() tea.Msg { return EditPauseMsg{e.version} }
	case e.err != nil:
		return e, nil // the error is on screen
	}
	if err := h.Check(e.s); err != nil {
		e.err = err
		return e, nil
	}
	return nil, c.runEdited(h, bar, e.s)
}

// View is the editor filling a screen w wide: a title, the text, the check's outcome and keys.
func (e *Editor) View(h Host, st *draw.Styles, w int) string {
	title := st.Bold.Render(" Edit "+h.Scenario().Name+" ") + st.Dim.Render("(in this session only; nothing is written to disk)")
	state := st.Dim.Render(" checking…")
	switch {
	case e.checked != e.version:
	case e.err != nil:
		state = st.Error.Render(" " + oneLineErr(e.err))
	default:
		state = st.Bold.Render(" ok: ctrl+s runs it")
	}
	help := st.Help.Render(" ctrl+s run · esc close (the run stays) · the scenario format: cara new NAME writes a commented template")
	return draw.Truncate(title, w) + "\n" + e.area.View() + "\n" + draw.Truncate(state, w) + "\n" + draw.Truncate(help, w)
}

// oneLineErr keeps a multi-line loader message on the editor's one line.
func oneLineErr(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }
