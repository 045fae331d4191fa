package tui

import (
	"strings"
	"testing"
)

// Issue 33: the About pane says which settings beyond the paper the scenario uses, and says
// nothing of them when it uses none.
func TestAboutSaysBeyondThePaper(t *testing.T) {
	s := loadSmall(t)
	p := pumpedScenario(t, s, asciiStyles(), 100, 40)
	press(p, "6")
	if v := p.View(); strings.Contains(v, "Beyond the paper") {
		t.Errorf("a scenario of the paper's settings shows an extension:\n%s", v)
	}
	s = loadSmall(t)
	s.Window = 3
	p = pumpedScenario(t, s, asciiStyles(), 100, 40)
	press(p, "6")
	v := p.View()
	if !strings.Contains(v, "Beyond the paper: each model trains on its batch and the 2 before") {
		t.Errorf("model.window 3 not in About:\n%s", v)
	}
}
