package server

import (
	"runtime/debug"
	"sync/atomic"

	tea "github.com/charmbracelet/bubbletea"
)

// guard runs a served session's model and recovers a panic in its Init, Update, View or in the
// commands it returns (which bubbletea runs on goroutines of its own): the panic is reported once,
// with its stack, and the session's program quits, so the server can apologise to that session and
// keep the room. Without it bubbletea would catch the panic too, but print it on the server's
// stdout, out of the log and uncounted.
type guard struct {
	inner   tea.Model
	onPanic func(value any, stack []byte)
	hook    func(tea.Msg) tea.Cmd // tests only: called first in each Update
	quit    func()                // quits the program from outside its event loop (for View)
	done    func()                // ends the session's context once its program has ended
	// note, when set, says why the screen is smaller than the terminal ("" when it is not): the
	// model is given one line less, and the note fills it.
	note  func() string
	shown string             // the note under the screen, as of the last size
	size  *tea.WindowSizeMsg // the last size the terminal gave, before the note took its line
	send  func(tea.Msg)      // sends the program a message from outside (noteChanged)
	// presenter: the session presents, and its note says when the answers are not written
	presenter bool
	failed    atomic.Bool
}

// noteChanged tells a session's guard that its note may read differently now (the answers file
// stopped or started working): it lays the screen out again at the last size.
type noteChanged struct{}

// panicMsg carries a panic recovered in a command back to the event loop.
type panicMsg struct {
	value any
	stack []byte
}

func (g *guard) fail(v any, stack []byte) {
	if g.failed.CompareAndSwap(false, true) && g.onPanic != nil {
		g.onPanic(v, stack)
	}
}

// Init implements tea.Model.
func (g *guard) Init() (cmd tea.Cmd) {
	defer func() {
		if v := recover(); v != nil {
			g.fail(v, debug.Stack())
			cmd = tea.Quit
		}
	}()
	return g.wrap(g.inner.Init())
}

// Update implements tea.Model.
func (g *guard) Update(msg tea.Msg) (m tea.Model, cmd tea.Cmd) {
	if pm, ok := msg.(panicMsg); ok {
		g.fail(pm.value, pm.stack)
	}
	if g.failed.Load() {
		return g, tea.Quit
	}
	defer func() {
		if v := recover(); v != nil {
			g.fail(v, debug.Stack())
			m, cmd = g, tea.Quit
		}
	}()
	if _, ok := msg.(noteChanged); ok {
		if g.size == nil || g.note == nil || g.note() == g.shown {
			return g, nil
		}
		msg = *g.size
	}
	if ws, ok := msg.(tea.WindowSizeMsg); ok && g.note != nil {
		orig := ws // as the terminal gave it: the note's line is taken below
		g.size = &orig
		if g.shown = g.note(); g.shown != "" {
			ws.Height--
			msg = ws
		}
	}
	var cmds []tea.Cmd
	if g.hook != nil {
		cmds = append(cmds, g.hook(msg))
	}
	inner, c := g.inner.Update(msg)
	g.inner = inner
	return g, g.wrap(tea.Batch(append(cmds, c)...))
}

// View implements tea.Model.
func (g *guard) View() (v string) {
	if g.failed.Load() {
		return apology
	}
	defer func() {
		if r := recover(); r != nil {
			g.fail(r, debug.Stack())
			if g.quit != nil {
				g.quit()
			}
			v = apology
		}
	}()
	if g.shown != "" {
		return g.inner.View() + "\n" + g.shown
	}
	return g.inner.View()
}

// wrap makes a command report a panic as a panicMsg instead of ending the process; the commands of
// a batch it returns are wrapped too.
func (g *guard) wrap(c tea.Cmd) tea.Cmd {
	if c == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if v := recover(); v != nil {
				msg = panicMsg{v, debug.Stack()}
			}
		}()
		msg = c()
		if b, ok := msg.(tea.BatchMsg); ok {
			out := make(tea.BatchMsg, len(b))
			for i, c := range b {
				out[i] = g.wrap(c)
			}
			msg = out
		}
		return msg
	}
}
