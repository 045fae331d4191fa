package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/cara-sim/cara/tui/internal/pane"
)

// The tuned line on screen, the results focused: every word whole at the small sizes.
func TestTunedLineOnScreen(t *testing.T) {
	t.Parallel()
	s := loadEmbedded(t, "covcon-d", covconSmall...)
	p := pumpedScenario(t, s, asciiStyles(), 120, 36)
	goTo(p, 60)
	full := ansi.Strip(strings.Split(paneBox(p, pane.Results), "\n")[1])
	words := strings.Fields(strings.Trim(full, "│┃ "))
	if len(words) < 4 || words[0] != "tuned" {
		t.Fatalf("the results at 120x36 do not open on the tuned line: %q", full)
	}
	for _, size := range [][2]int{{80, 24}, {100, 30}} {
		resize(p, size[0], size[1])
		var in []string
		for _, l := range content(paneBox(p, pane.Results)) {
			in = append(in, string(l))
		}
		text := strings.Join(strings.Fields(strings.Join(in, " ")), " ")
		if !strings.Contains(text, strings.Join(words, " ")) {
			t.Errorf("%dx%d: the tuned line is not whole in\n%s", size[0], size[1], ansi.Strip(paneBox(p, pane.Results)))
		}
	}
}
