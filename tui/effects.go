package tui

import (
	"context"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/tui/internal/run"
	"github.com/cara-sim/cara/tui/internal/workshop"
)

// workshopFrame is the player as its workshop reads it.
func (p *Player) workshopFrame() workshop.Frame {
	s, scale := p.s, p.Scale
	m, _ := s.Shown()
	f := workshop.Frame{Shown: p.Shown, Scenario: p.opt.Scenario, Seed: s.Seed, Computed: s.Computed, Batches: s.Matrix.Batches(),
		Done: s.Done, Matrix: m, R: s.RetrainCost(scale), Results: p.rp.Results, Provisional: p.rp.Provisional,
		WhatIfComputing: !s.WhatIfSince.IsZero(), Styles: p.st,
		WholeBlock: func() []algos.Result { return s.WholeBlock(scale) }}
	if s.WhatIf != nil {
		f.WhatIf = s.WhatIf.Sets
	}
	return f
}

// apply makes the workshop's effects, in order, and returns the commands they come with. A Then
// reads the player as the effects before it left it.
func (p *Player) apply(effects workshop.Effects) tea.Cmd {
	var cmds []tea.Cmd
	for _, e := range effects {
		switch e := e.(type) {
		case workshop.Play:
			p.Playing = bool(e)
		case workshop.GoTo:
			p.goTo(int(e))
		case workshop.Ahead:
			p.ahead = int(e)
		case workshop.Focus:
			p.setFocus(int(e))
		case workshop.Cursor:
			p.Cursor = room.Cursor(e)
		case workshop.Zoom:
			p.Zoomed = bool(e)
		case workshop.Speed:
			p.Speed = min(max(int(e), 0), len(speeds)-1)
		case workshop.Visible:
			p.Visible = int(e) % len(visibleSets)
		case workshop.Select:
			p.Selected = algos.Name(e)
		case workshop.Scale:
			p.Scale = float64(e)
			p.refresh()
		case workshop.Notice:
			p.notice = string(e)
		case workshop.Tick:
			cmds = append(cmds, p.ticker())
		case workshop.StopWhatIf:
			p.stopUndo = p.wi.Current()
			cmds = append(cmds, p.wi.Apply(p.host(), e, ""))
		case workshop.UndoStopWhatIf:
			cmds = append(cmds, p.wi.Set(p.host(), p.stopUndo))
		case workshop.FollowWhatIf:
			cmds = append(cmds, p.followWhatIf(e.Sets, e.Name, e.Joining))
		case workshop.Reopen:
			cmds = append(cmds, p.reopen(uint64(e)))
		case workshop.RoomView:
			v := room.View(e)
			cmds = append(cmds, func() tea.Msg { return roomMsg{v} })
		case workshop.TakeKeys:
			p.overlay = nil
		case workshop.Confirm:
			p.overlay = &confirmOverlay{p: p, c: e}
		case workshop.Then:
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
		p.wi.Hide() // the presenter decides the what-if, not the follower's own bar
	}
	if sets == shownSets(p.s) {
		return nil
	}
	var list []string
	if sets != "" {
		list = strings.Split(sets, "\n")
	}
	return p.wi.Apply(p.host(), list, name)
}

// resume takes up the room's stage as a presenter back within the grace: the player shows it,
// and publishes it as it was until it does.
func (p *Player) resume(v room.View) (tea.Model, tea.Cmd) {
	return p, p.apply(p.ws.Resume(p.workshopFrame(), v))
}

// presented is what this player shows, as the room's followers apply it: the stage a presenter
// back took up until the player shows it (no step waiting for its batch, the what-if shown or
// failed).
func (p *Player) presented() room.Stage {
	if st, ok := p.ws.Room().Resuming(func(st room.Stage) bool {
		s := p.s
		return p.ahead <= p.Pos && (st.Whatif == "" || shownSets(s) == st.Whatif || s.WhatIfSince.IsZero() && s.WhatIfErr != nil)
	}); ok {
		return st
	}
	sh := p.Shown
	sh.Selected = p.selected()
	st := room.Stage{Scenario: p.opt.Scenario, Seed: p.s.Seed, Shown: sh, Whatif: shownSets(p.s)}
	if st.Whatif != "" {
		st.WhatifName = p.wi.Describe(p.host(), p.wi.Current(), false)
	}
	st.Stop, st.Quiz = p.ws.Stage()
	return st
}

// shownSets are the what-if the panes show of run s, as --set overrides, one a line ("" for the
// scenario).
func shownSets(s *run.Session) string {
	if w := s.WhatIf; w != nil {
		return strings.Join(w.Sets, "\n")
	}
	return ""
}
