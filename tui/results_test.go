package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The parameters tuned offline are never cut inside a word, nor a parameter parted from its value:
// at every width from 24 columns (the widest parameter, "tuned on 0..24: θ 21.75", and one) to
// the full line, the results pane starts with lines within the width that hold the full line's
// words in order, none ending in a parameter's name; the table follows them, and the pane asks
// for a row per line.
func TestTunedLineWholeWords(t *testing.T) {
	s := loadEmbedded(t, "covcon-d", covconSmall...)
	p := pumpedScenario(t, s, asciiStyles(), 120, 36)
	goTo(p, 60)
	f := p.frame()
	rp := p.panes.results
	full := rp.tuned(f, 1000)
	if len(full) != 1 || !strings.HasPrefix(full[0], "tuned on 0..24: θ ") || !strings.Contains(full[0], "  θc ") {
		t.Fatalf("the tuned line at full width: %q", full)
	}
	words := strings.Fields(full[0])
	for w := 24; w <= width(full[0])+1; w++ {
		var tuned []string
		for _, l := range strings.Split(ansi.Strip(rp.draw(f, w)), "\n") {
			if strings.HasPrefix(l, "algorithm") {
				break
			}
			tuned = append(tuned, l)
		}
		if got := strings.Fields(strings.Join(tuned, " ")); !slices.Equal(got, words) {
			t.Errorf("width %d: the tuned lines read %q, want the words %q", w, tuned, words)
		}
		for _, l := range tuned {
			if width(l) > w {
				t.Errorf("width %d: %q is wider", w, l)
			}
			if f := strings.Fields(l); slices.Contains([]string{"θ", "θc", "period", "offset"}, f[len(f)-1]) {
				t.Errorf("width %d: %q parts %s from its value", w, l, f[len(f)-1])
			}
		}
		want, _ := rp.Size(f, w+4)
		if n := len(tuned) + len(f.visible) + 2 + 2; want != n {
			t.Errorf("width %d: the pane asks for %d rows, draws %d", w, want, n)
		}
	}
	// On screen, the results focused: every word whole at the small sizes.
	for _, size := range [][2]int{{80, 24}, {100, 30}} {
		resize(p, size[0], size[1])
		var in []string
		for _, l := range content(paneBox(p, paneResults)) {
			in = append(in, string(l))
		}
		text := strings.Join(strings.Fields(strings.Join(in, " ")), " ")
		if !strings.Contains(text, strings.Join(words, " ")) {
			t.Errorf("%dx%d: the tuned line is not whole in\n%s", size[0], size[1], ansi.Strip(paneBox(p, paneResults)))
		}
	}
}
