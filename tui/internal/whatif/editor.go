package whatif

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
)

// The scenario editor (e): the scenario's file, with the command line's changes merged in, in a
// text area. A pause in typing checks it as the loader does, off the UI goroutine, and the error
// (file:line:column, in the loader's words) shows under it; ctrl+s runs the text as a new run
// once it checks. The text lives in the player only: nothing is written to disk, and a served
// player's text stays untrusted (it reads no file but the embedded data and the offered folder).
//
// What typing costs is bounded whatever is typed, and does not grow with the text: the text
// (editMax characters, editLines lines of editLine characters each; a scenario is a few kB), a key
// what it changes (textarea.go), one check a pause (editPause after the last key, one timer for all
// the keys; a server admits the check against its memory: Host.Reparse), and one drawing a frame at
// most (editFrame), of the screen only. With bubbles' textarea, one 4 kB paste then typing cost a
// core, and 27 kB of memory a key.

const (
	editMax   = 16 << 10               // characters of text the editor takes
	editLines = 400                    // lines of text
	editLine  = 500                    // characters of one line
	editPause = 300 * time.Millisecond // typing pause before the text is checked
	editFrame = 50 * time.Millisecond  // the editor is drawn at most this often
)

var editKeys = struct{ Run, Close key.Binding }{
	Run:   key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "run it")),
	Close: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close, keeping the run")),
}

// Editor is the editor's state.
type Editor struct {
	area    *textArea
	from    *scenarios.Scenario // what the text was made from: its folder and trust
	version int                 // bumped by every edit; a check of an older text is dropped
	checked int                 // the version the last check was of
	s       *scenarios.Scenario // the checked text's scenario (nil when it does not load)
	err     error

	edited time.Time // the last edit
	paused bool      // a pause timer is running
	drawn  string    // the text area as last drawn
	drawnW int       // ... at this width
	dirty  bool      // changed since
	drawAt time.Time // when it was drawn
	frame  bool      // a frame timer is running
}

// EditMsg is a message for the editor, which the player hands it while it is open.
type EditMsg interface{ forEditor() }

// EditPauseMsg asks for a check of the text: of its version, or (timer) of whatever the text is
// once typing has paused.
type EditPauseMsg struct {
	version int
	timer   bool
}

type EditCheckedMsg struct {
	version int
	s       *scenarios.Scenario
	err     error
}

// editFrameMsg says a frame has passed since the editor's last drawing.
type editFrameMsg struct{}

func (EditPauseMsg) forEditor()   {}
func (EditCheckedMsg) forEditor() {}
func (editFrameMsg) forEditor()   {}

// OpenEditor opens the editor on the scenario shown, w x h; nil, and the error, when its text
// cannot be read. A follower's e never gets here (see Commands.Open).
func OpenEditor(h Host, w, ht int) (*Editor, effect.Effects) {
	s := h.Scenario()
	text, err := s.Text()
	if err != nil {
		return nil, effect.Effects{effect.Fail{Err: err}}
	}
	a := newTextArea()
	a.SetValue(string(text)) // cut to the bounds, the cursor at the top
	e := &Editor{area: a, from: h.Trusted(s), s: s, dirty: true}
	e.Resize(w, ht)
	return e, nil
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
	e.dirty = true
	v := e.version
	return func() tea.Msg { return EditPauseMsg{version: v} }
}

// Resize fits the editor to a w x h screen; a closed (nil) editor has nothing to fit.
func (e *Editor) Resize(w, h int) {
	if e != nil {
		e.area.SetSize(max(w, 20), max(h-3, 3))
		e.dirty = true
	}
}

// Update takes a message while the editor is open, and returns the editor, nil once it closes
// (esc, or ctrl+s running the text: effect.Edited).
func (e *Editor) Update(h Host, msg tea.Msg) (*Editor, effect.Effects) {
	switch msg := msg.(type) {
	case EditPauseMsg:
		if msg.timer {
			e.paused = false
			if rest := editPause - time.Since(e.edited); rest > 0 { // typed on since the timer began
				return e, effect.Of(e.pause(rest))
			}
		}
		if msg.version != e.version && !msg.timer || e.checked == e.version {
			return e, nil
		}
		text, from, v := []byte(e.area.Value()), e.from, e.version
		return e, effect.Effects{effect.Cmd(func() tea.Msg {
			s, err := h.Reparse(from, text)
			return EditCheckedMsg{v, s, err}
		})}
	case EditCheckedMsg:
		if msg.version == e.version {
			e.checked, e.s, e.err = msg.version, msg.s, msg.err
			e.dirty = true
		}
		return e, nil
	case editFrameMsg:
		e.frame = false // the program draws after this message, a frame after the last drawing
		return e, nil
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, editKeys.Close):
			return nil, nil
		case key.Matches(msg, editKeys.Run):
			return e.run(h)
		}
		changed, refused := e.area.Update(msg)
		var out effect.Effects
		if refused != "" {
			out = append(out, effect.Notice(refused))
		}
		e.dirty = true // the cursor moved, at least
		out = append(out, effect.Of(e.nextFrame())...)
		if !changed {
			return e, out
		}
		e.version++
		e.edited = time.Now()
		if !e.paused {
			out = append(out, effect.Cmd(e.pause(editPause)))
		}
		return e, out
	}
	return e, nil
}

// pause starts the one pause timer, to fire after d.
func (e *Editor) pause(d time.Duration) tea.Cmd {
	e.paused = true
	return tea.Tick(d, func(time.Time) tea.Msg { return EditPauseMsg{timer: true} })
}

// nextFrame starts the frame timer, unless it runs: a drawing skipped for coming too soon after
// the last one is made when it fires.
func (e *Editor) nextFrame() tea.Cmd {
	if e.frame {
		return nil
	}
	e.frame = true
	return tea.Tick(editFrame, func(time.Time) tea.Msg { return editFrameMsg{} })
}

// run runs the edited text as a new run (effect.Edited), once a check of this very text has
// passed.
func (e *Editor) run(h Host) (*Editor, effect.Effects) {
	switch {
	case e.checked != e.version:
		v := e.version
		return e, effect.Effects{effect.Notice("checking the text: ctrl+s again in a moment"),
			effect.Cmd(func() tea.Msg { return EditPauseMsg{version: v} })}
	case e.err != nil:
		return e, nil // the error is on screen
	}
	if err := h.Check(e.s); err != nil {
		e.err = err
		return e, nil
	}
	return nil, effect.Effects{effect.Edited{Scenario: e.s}}
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
	return draw.Truncate(title, w) + "\n" + e.areaView(st, w) + "\n" + draw.Truncate(state, w) + "\n" + draw.Truncate(help, w)
}

// areaView is the text area drawn: again only when it changed and a frame has passed since it was
// last drawn (the frame timer brings the drawing skipped).
func (e *Editor) areaView(st *draw.Styles, w int) string {
	if e.dirty && (time.Since(e.drawAt) >= editFrame || e.drawn == "" || w != e.drawnW) {
		e.drawn, e.drawnW, e.dirty, e.drawAt = e.area.View(st), w, false, time.Now()
	}
	return e.drawn
}

// oneLineErr keeps a multi-line loader message on the editor's one line.
func oneLineErr(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }
