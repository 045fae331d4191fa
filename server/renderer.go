package server

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/muesli/termenv"
)

// renderer is a session's lipgloss renderer: the colours its terminal says it has (TERM and
// COLORTERM from the session), and no question asked of the terminal. wish's MakeRenderer asks
// for the background colour (OSC 11, with a one-second wait for the answer) on the session's own
// input: an answer that comes later than that, or that another reader of the input gets first,
// is read as keys, and "rgb:0000/0000/0000" typed into the picker opens its filter. Nothing of
// ours depends on the background; bubbles' adaptive colours take their dark side.
func renderer(sess ssh.Session) *lipgloss.Renderer {
	pty, _, ok := sess.Pty()
	if !ok || pty.Term == "" || pty.Term == "dumb" {
		return lipgloss.NewRenderer(sess, termenv.WithProfile(termenv.Ascii))
	}
	// WithUnsafe: the session is not a file, and termenv reads a profile only from a terminal's.
	// Without WithColorCache termenv asks the terminal nothing; a background set here is never
	// asked for.
	r := lipgloss.NewRenderer(sess, termenv.WithEnvironment(environ(append(sess.Environ(), "TERM="+pty.Term))), termenv.WithUnsafe())
	r.SetHasDarkBackground(true)
	return r
}

// environ is a session's environment, for termenv.
type environ []string

func (e environ) Environ() []string { return e }

func (e environ) Getenv(k string) string {
	for i := len(e) - 1; i >= 0; i-- { // the last one set wins, as TERM appended above
		if v, ok := strings.CutPrefix(e[i], k+"="); ok {
			return v
		}
	}
	return ""
}
