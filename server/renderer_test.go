package server

import (
	"strings"
	"testing"
)

// A session's renderer asks the terminal nothing (no background colour, no device attributes):
// a late answer would be read as keys, typed into the picker. The first key after the picker
// shows is the student's.
func TestServeAsksTheTerminalNothing(t *testing.T) {
	t.Parallel()
	addr := startServer(t, Config{})
	c, _, sc := atPicker(t, addr)
	defer c.Close()
	sc.send("\r")
	sc.waitFor(t, "covcon-d · seed 0 · ")
	out := sc.String()
	if !strings.Contains(out, "\x1b[38;5;") {
		t.Error("an xterm-256color session is drawn without its 256 colours")
	}
	for _, q := range []string{"\x1b]11;?", "\x1b[c", "\x1b[6n"} {
		if n := strings.Count(out, q); n > 0 {
			t.Errorf("the server asked the terminal %q %d times", q, n)
		}
	}
}
