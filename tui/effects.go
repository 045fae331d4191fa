package tui

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/tui/internal/effect"
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

// apply makes the effects a part returned (a pane, the what-if bar, the command line, the
// editor, the split view, the workshop, an overlay, the player's own keys), in order, and returns
// the commands they come with: it is the one way a part's change reaches the player. A Then reads
// the player as the effects before it left it.
func (p *Player) apply(effects effect.Effects) tea.Cmd {
	var cmds []tea.Cmd
	for _, e := range effects {
		if !p.set(e) {
			cmds = append(cmds, p.do(e))
		}
	}
	return tea.Batch(cmds...)
}

// set makes an effect that comes with no command (the view state and the batch asked for ahead,
// the notice and the error line, a replay, an overlay), reporting whether e was one.
func (p *Player) set(e effect.Effect) bool {
	switch e := e.(type) {
	case effect.Play:
		p.Playing = bool(e)
	case effect.GoTo:
		p.goTo(int(e))
	case effect.End:
		p.end()
	case effect.Ahead:
		p.ahead = int(e)
	case effect.Focus:
		p.setFocus(int(e))
	case effect.Cursor:
		p.Cursor = room.Cursor(e)
	case effect.Zoom:
		p.Zoomed = bool(e)
	case effect.Speed:
		p.Speed = min(max(int(e), 0), len(speeds)-1)
	case effect.Visible:
		p.Visible = int(e) % len(visibleSets)
	case effect.Select:
		p.Selected = algos.Name(e)
	case effect.Scale:
		if s := float64(e); s != p.Scale {
			p.Scale = s
			p.refresh()
		}
	case effect.Notice:
		p.notice = string(e)
	case effect.Fail:
		p.err = e.Err
	case effect.Quit:
		p.quitting = true
	case effect.Refresh:
		p.refresh()
	case effect.TakeKeys:
		p.overlay = nil
	case effect.Confirm:
		p.overlay = &confirmOverlay{c: e, yes: p.keys.Confirm}
	default:
		return false
	}
	return true
}

// do makes an effect that comes with a command: a step, a tick, a command to run, a what-if, a
// run, the room's view, a Then.
func (p *Player) do(e effect.Effect) tea.Cmd {
	switch e := e.(type) {
	case effect.Step:
		return p.step()
	case effect.Tick:
		return p.ticker()
	case effect.Cmd:
		return tea.Cmd(e)
	case effect.WhatIf:
		return p.apply(p.wi.Apply(p.host(), e.Sets, e.Name))
	case effect.StopWhatIf:
		p.stopUndo = p.wi.Current()
		return p.apply(p.wi.Apply(p.host(), e, ""))
	case effect.UndoStopWhatIf:
		return p.apply(p.wi.Set(p.host(), p.stopUndo))
	case effect.FollowWhatIf:
		return p.apply(p.followWhatIf(e))
	case effect.WhatIfBar:
		return p.apply(p.wi.Show(p.host()))
	case effect.Reopen:
		return p.reopen(uint64(e))
	case effect.Rerun:
		return p.rerun(e)
	case effect.Edited:
		return p.apply(p.cmd.Edited(p.host(), e.Scenario))
	case effect.RoomView:
		v := room.View(e)
		return func() tea.Msg { return roomMsg{v} }
	case workshop.Then:
		return p.apply(e(p.workshopFrame()))
	}
	p.err = fmt.Errorf("internal error: the player cannot make %T (a bug in cara)", e)
	return nil
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
		np.ws.Room().Take(p.ws.Room())
		np.tick++
		cmd := np.apply(np.ws.Follow(np.workshopFrame(), st))
		return np, tea.Batch(np.Init(), cmd)
	}
	p.tick++ // a follower plays by the presenter's steps, never by its own ticks
	return p, p.apply(p.ws.Follow(p.workshopFrame(), st))
}

// followWhatIf shows the presenter's what-if, computed once for the run (the followers' are
// shared).
func (p *Player) followWhatIf(e effect.FollowWhatIf) effect.Effects {
	if e.Joining {
		p.wi.Hide() // the presenter decides the what-if, not the follower's own bar
	}
	if e.Sets == shownSets(p.s) {
		return nil
	}
	var list []string
	if e.Sets != "" {
		list = strings.Split(e.Sets, "\n")
	}
	return p.wi.Apply(p.host(), list, e.Name)
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
	st.Stop, st.Quiz, st.Asked = p.ws.Stage()
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
