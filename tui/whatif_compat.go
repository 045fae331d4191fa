package tui

import tea "github.com/charmbracelet/bubbletea"

// The what-if as tour.go and follow.go call it today. Their owners are turning them into types of
// their own, so these one-line forwarders keep them building until their call sites call the
// what-if parts directly; then this file goes:
//
//	p.tourWhatIf(sets)             -> p.wi.tourWhatIf(p, sets)
//	p.undoWhatif(u)                -> p.wi.undoWhatif(p, u)
//	p.applyNamedWhatIf(sets, name) -> p.wi.apply(p, sets, name)
//	p.shownSets()                  -> shownSets(p.s)
//	p.describe(p.wi.state, short)  -> p.wi.describe(p, p.wi.state, short)

func (p *Player) tourWhatIf(sets []string) (*whatifUndo, string, tea.Cmd) {
	return p.wi.tourWhatIf(p, sets)
}

func (p *Player) undoWhatif(u *whatifUndo) tea.Cmd { return p.wi.undoWhatif(p, u) }

func (p *Player) applyNamedWhatIf(sets []string, name string) tea.Cmd {
	return p.wi.apply(p, sets, name)
}

func (p *Player) shownSets() string { return shownSets(p.s) }

func (p *Player) describe(st whatIfState, short bool) string { return p.wi.describe(p, st, short) }
