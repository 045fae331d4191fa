package tui

import (
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
	if !fol.wi.open || fol.s.WhatIf == nil {
		t.Fatalf("free with the bar: open %v, what-if %v", fol.wi.open, fol.s.WhatIf)
	}
	m, cmd = fol.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("p")}) // rejoin
	fol = m.(*Player)
	m, cmd = fol.Update(cmd())
	fol = m.(*Player)
	pumpCmd(t, fol, cmd)
	if !fol.room.following || fol.wi.open || fol.s.WhatIf != nil {
		t.Errorf("rejoined: following %v, bar open %v, what-if %v; want following the presenter's (none), bar closed",
			fol.room.following, fol.wi.open, fol.s.WhatIf)
	}
}
