package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// A follower who went free and opened their own what-if, then rejoins, has the presenter's
// what-if (none) and no bar of their own: their what-if no longer changes while the screen says
// following.
func TestRejoinResetsWhatIf(t *testing.T) {
	pres, fol, _ := roomPlayers(t, smallTour(t))
	fol = deliver(t, fol)
	goTo(pres, 6)
	fol = deliver(t, fol)
	press(fol, "p")                                                          // free
	press(fol, "w")                                                          // their own what-if bar
	m, cmd := fol.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("d")}) // queries from the data
	fol = m.(*Player)
	pumpCmd(t, fol, cmd)
	if !fol.wi.Showing() || fol.s.WhatIf == nil {
		t.Fatalf("free with the bar: open %v, what-if %v", fol.wi.Showing(), fol.s.WhatIf)
	}
	m, cmd = fol.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("p")}) // rejoin
	fol = m.(*Player)
	m, cmd = fol.Update(cmd())
	fol = m.(*Player)
	pumpCmd(t, fol, cmd)
	if !fol.ws.Room().Following() || fol.wi.Showing() || fol.s.WhatIf != nil {
		t.Errorf("rejoined: following %v, bar open %v, what-if %v; want following the presenter's (none), bar closed",
			fol.ws.Room().Following(), fol.wi.Showing(), fol.s.WhatIf)
	}
}

// Presenter and follower name a what-if in the same words: the presenter's bar choice ("queries
// follow the data (...)"), not the --set overrides it comes to.
func TestFollowerNamesWhatIfAsPresenter(t *testing.T) {
	pres, fol, _ := roomPlayers(t, smallTour(t))
	fol = deliver(t, fol)
	press(pres, "w")
	m, cmd := pres.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("d")})
	pres = m.(*Player)
	pumpCmd(t, pres, cmd)
	press(pres, "esc")
	fol = deliver(t, fol)
	want := pres.wi.Describe(pres.host(), pres.wi.Current(), false)
	if want == "" || strings.Contains(want, "=") {
		t.Fatalf("the presenter's words for the what-if: %q", want)
	}
	if got := fol.wi.Describe(fol.host(), fol.wi.Current(), false); got != want || fol.s.WhatIf == nil {
		t.Errorf("the follower says %q (what-if %v), the presenter %q", got, fol.s.WhatIf != nil, want)
	}
}
