package tui

import (
	"context"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/room"
)

// workshopFrame is the player as its workshop reads it.
func (p *Player) workshopFrame() Frame {
	s, scale := p.s, p.Scale
	m, _ := s.Shown()
	return Frame{Shown: p.Shown, Scenario: p.opt.Scenario, Seed: s.Seed, Computed: s.Computed, Batches: s.Matrix.Batches(),
		Done: s.Done, Matrix: m, R: s.retrainCost(scale), Results: p.rp.results, Provisional: p.rp.provisional,
		WhatIfComputing: !s.WhatIfSince.IsZero(), Styles: p.st,
		WholeBlock: func() []algos.Result { return s.wholeBlock(scale) }}
}

// apply makes the workshop's effects, in order, and returns the commands they come with. A Then
// reads the player as the effects before it left it.
func (p *Player) apply(effects Effects) tea.Cmd {
	var cmds []tea.Cmd
	for _, e := range effects {
		switch e := e.(type) {
		case Play:
			p.Playing = bool(e)
		case GoTo:
			p.goTo(int(e))
		case Ahead:
			p.ahead = int(e)
		case Focus:
			p.setFocus(int(e))
		case Cursor:
			p.Cursor = room.Cursor(e)
		case Zoom:
			p.Zoomed = bool(e)
		case Speed:
			p.Speed = min(max(int(e), 0), len(speeds)-1)
		case Visible:
			p.Visible = int(e) % len(visibleSets)
		case Select:
			p.Selected = algos.Name(e)
		case Scale:
			p.Scale = float64(e)
			p.refresh()
		case Notice:
			p.notice = string(e)
		case Tick:
			cmds = append(cmds, p.ticker())
		case StopWhatIf:
			p.stopUndo = p.wi.current()
			cmds = append(cmds, p.wi.apply(p.host(), e, ""))
		case UndoStopWhatIf:
			cmds = append(cmds, p.wi.set(p.host(), p.stopUndo))
		case FollowWhatIf:
			cmds = append(cmds, p.followWhatIf(e.Sets, e.Name, e.Joining))
		case Reopen:
			cmds = append(cmds, p.reopen(uint64(e)))
		case RoomView:
			v := room.View(e)
			cmds = append(cmds, func() tea.Msg { return roomMsg{v} })
		case TakeKeys:
			p.overlay = nil
		case Then:
			cmds = append(cmds, p.apply(e(p.workshopFrame())))
		}
	}
	return tea.Batch(cmds...)
}

// roomMsg brings the room's newest view to a session's model.
type roomMsg struct{ v room.View }

// Relay hands the room's changes to a session's program (send is its Send) until ctx ends, one
// message per change it sees: the newest view each time, so a slow session skips versions and
// never falls behind.
func Relay(ctx context.Context, m *room.Member, send func(tea.Msg)) {
	var seen uint64
	for {
		v, ok := m.Wait(ctx, seen)
		if !ok {
			return
		}
		seen = v.Version
		send(roomMsg{v})
	}
}

// onRoom takes the room's newest view: a presenter's counts, a follower's stage to show, the
// presenter's arrival or departure. Following into another scenario opens a new player, which
// follows from there in place of this one.
func (p *Player) onRoom(v room.View) (tea.Model, tea.Cmd) {
	show, e := p.ws.Receive(v)
	p.apply(e)
	if !show {
		return p, nil
	}
	st := v.Stage
	switch {
	case st.Scenario == nil:
		return p, nil // the presenter is choosing: keep showing the last
	case st.Scenario != p.opt.Scenario:
		opt := p.opt
		opt.Scenario, opt.Seed, opt.Width, opt.Height, opt.Tour = st.Scenario, st.Seed, p.w, p.h, false
		np, err := NewPlayer(opt)
		if err != nil {
			p.notice = "cannot follow the presenter: " + err.Error()
			return p, nil
		}
		p.s.Stop()
		np.ws.TakeRoom(&p.ws)
		np.tick++
		cmd := np.apply(np.ws.Follow(np.workshopFrame(), st))
		return np, tea.Batch(np.Init(), cmd)
	}
	p.tick++ // a follower plays by the presenter's steps, never by its own ticks
	return p, p.apply(p.ws.Follow(p.workshopFrame(), st))
}

// followWhatIf shows the presenter's what-if, computed once for the run (the followers' are
// shared).
func (p *Player) followWhatIf(sets, name string, joining bool) tea.Cmd {
	if joining {
		p.wi.hide() // the presenter decides the what-if, not the follower's own bar
	}
	if sets == shownSets(p.s) {
		return nil
	}
	var list []string
	if sets != "" {
		list = strings.Split(sets, "\n")
	}
	return p.wi.apply(p.host(), list, name)
}

// presented is what this player shows, as the room's followers apply it.
func (p *Player) presented() room.Stage {
	sh := p.Shown
	sh.Selected = p.selected()
	st := room.Stage{Scenario: p.opt.Scenario, Seed: p.s.Seed, Shown: sh, Whatif: shownSets(p.s)}
	if st.Whatif != "" {
		st.WhatifName = p.wi.describe(p.host(), p.wi.current(), false)
	}
	st.Stop, st.Quiz = p.ws.Stage()
	return st
}

// shownSets are the what-if the panes show of run s, as --set overrides, one a line ("" for the
// scenario).
func shownSets(s *Session) string {
	if w := s.WhatIf; w != nil {
		return strings.Join(w.Sets, "\n")
	}
	return ""
}
