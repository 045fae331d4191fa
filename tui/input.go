package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/whatif"
	"github.com/cara-sim/cara/tui/internal/workshop"
)

// runes handles keys typed faster than the terminal is read (bubbletea then delivers "lll" as one
// message), one at a time, so no step is lost.
func (p *Player) runes(runes []rune) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	for i, r := range runes {
		if p.cmd.Typing() || p.edit != nil { // `:` or `e` came first: the rest is typed there
			m, cmd := p.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: runes[i:]})
			return m, tea.Batch(append(cmds, cmd)...)
		}
		m, cmd := p.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		cmds = append(cmds, cmd)
		if m != tea.Model(p) {
			return m, tea.Batch(cmds...)
		}
	}
	return p, tea.Batch(cmds...)
}

// key handles a key by mode: ctrl+c quits; the editor or the command line, when open, takes every
// other key; q quits; the guess round's question, when up, takes every other key, then an overlay,
// then the what-if bar when open; otherwise the focused pane has the first say, then the player's
// keys, then the workshop's (t, space in a tour, g, p), then the other panes' keys that work
// unfocused (f, o).
func (p *Player) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	p.enableKeys(p.mode())
	var cmd tea.Cmd
	switch {
	case key.Matches(msg, p.keys.ForceQuit):
		p.s.Stop()
		return p, tea.Quit
	case p.edit != nil:
		p.edit, cmd = p.edit.Update(p.host(), &p.cmd, &p.wi, msg)
		return p, cmd
	case p.cmd.Typing():
		return p, p.cmd.Update(msg)
	case key.Matches(msg, p.keys.Quit) && p.overlay == nil:
		// q goes back to the picker when there is one.
		p.s.Stop()
		p.cmd.DropBefore()
		p.ws.Room().Leave()
		if p.opt.Back != nil {
			return p.opt.Back()
		}
		return p, tea.Quit
	}
	p.notice = ""
	if _, asked := p.ws.Asking(); asked {
		return p, p.apply(p.ws.QuestionKey(p.workshopFrame(), msg))
	}
	if o := p.overlay; o != nil {
		done, cmd := o.Key(msg)
		if done && p.overlay == o {
			p.overlay = nil
		}
		return p, cmd
	}
	if p.wi.Showing() {
		if ok, cmd := p.wi.Key(p.host(), msg); ok {
			return p, cmd
		}
	}
	f := p.frame()
	if r := p.panes.At(p.Focus).Key(msg, f, true); r.Handled {
		return p, p.reply(r)
	}
	for _, a := range p.actions() {
		if key.Matches(msg, *a.b) {
			return p, a.do(msg)
		}
	}
	if e, ok := p.ws.Key(p.workshopFrame(), msg); ok {
		return p, p.apply(e)
	}
	if p.ws.Room().Following() && keys.Pressed(msg, append(p.keys.driven(), p.ws.Keys.Driven()...)...) {
		p.notice = "you follow the presenter: p to go free and explore on your own"
		return p, nil
	}
	for i, pn := range p.panes.List() {
		if i == p.Focus {
			continue
		}
		if r := pn.Key(msg, f, false); r.Handled {
			return p, p.reply(r)
		}
	}
	return p, nil
}

// reply makes the change a pane's key or click asks of the player's view, and returns its command.
func (p *Player) reply(r pane.Reply) tea.Cmd {
	if r.Cursor != nil {
		p.Cursor = *r.Cursor
	}
	return r.Cmd
}

// action is one of the player's own keys.
type action struct {
	b  *key.Binding
	do func(tea.KeyMsg) tea.Cmd
}

func (p *Player) actions() []action {
	k := &p.keys
	var panes []action
	for i := range k.Pane {
		panes = append(panes, action{&k.Pane[i], func(tea.KeyMsg) tea.Cmd { p.setFocus(i); return nil }})
	}
	return append(panes, []action{
		{&k.Help, func(tea.KeyMsg) tea.Cmd { p.overlay = &helpOverlay{keys: p.contextKeys(p.frame())}; return nil }},
		{&k.Play, func(tea.KeyMsg) tea.Cmd { return p.togglePlay() }},
		{&k.Step, func(tea.KeyMsg) tea.Cmd { p.step(); return nil }},
		{&k.Back, func(tea.KeyMsg) tea.Cmd { p.ahead = 0; p.goTo(p.Pos - 1); return nil }},
		{&k.Home, func(tea.KeyMsg) tea.Cmd { p.goTo(0); return nil }},
		{&k.End, func(tea.KeyMsg) tea.Cmd { p.end(); return nil }},
		{&k.Faster, func(tea.KeyMsg) tea.Cmd { p.Speed = min(p.Speed+1, len(speeds)-1); return nil }},
		{&k.Slower, func(tea.KeyMsg) tea.Cmd { p.Speed = max(p.Speed-1, 0); return nil }},
		{&k.RUp, func(tea.KeyMsg) tea.Cmd { p.Scale *= 1.25; p.refresh(); return nil }},
		{&k.RDown, func(tea.KeyMsg) tea.Cmd { p.Scale /= 1.25; p.refresh(); return nil }},
		{&k.Next, func(tea.KeyMsg) tea.Cmd { p.Selected = next(p.visible(), p.selected(), 1); return nil }},
		{&k.Prev, func(tea.KeyMsg) tea.Cmd { p.Selected = next(p.visible(), p.selected(), -1); return nil }},
		{&k.Visible, func(tea.KeyMsg) tea.Cmd {
			cur := p.selected()
			p.Visible = (p.Visible + 1) % len(visibleSets)
			// The selection stays; when it is not shown any more, the first shown after the
			// Oracle takes it (the Oracle's path is drawn anyway).
			p.Selected = pick(p.visible(), cur, 1)
			return nil
		}},
		{&k.Restart, func(tea.KeyMsg) tea.Cmd { p.askRestart(); return nil }},
		{&k.WhatIf, func(tea.KeyMsg) tea.Cmd { return p.wi.Show(p.host()) }},
		{&k.Command, func(tea.KeyMsg) tea.Cmd { return p.cmd.Open(p.w) }},
		{&k.Edit, func(tea.KeyMsg) (cmd tea.Cmd) { p.edit, cmd = whatif.OpenEditor(p.host(), p.w, p.h); return cmd }},
		{&k.Split, func(tea.KeyMsg) tea.Cmd { return p.split.Toggle(p.host(), &p.wi, &p.cmd) }},
		{&k.Scenario, func(tea.KeyMsg) tea.Cmd { p.Scale = 1; return p.wi.Back(p.host()) }},
		{&k.Maximise, func(tea.KeyMsg) tea.Cmd { p.Zoomed = !p.Zoomed; return nil }},
		// esc backs out of one thing: a callout left on the screen, the zoomed pane, the cursor.
		{&k.Escape, func(tea.KeyMsg) tea.Cmd {
			switch {
			case p.ws.CloseCallout():
			case p.Zoomed:
				p.Zoomed = false
			default:
				p.Cursor.On = false
			}
			return nil
		}},
	}...)
}

// mode is the mode the player's keys are in now.
func (p *Player) mode() keys.Mode {
	_, question := p.ws.Asking()
	return keys.Mode{Tour: p.ws.Tour().On(), Following: p.ws.Room().Following(), Question: question, Bar: p.wi.Showing(), Split: p.split.On()}
}

// enableKeys turns on, in every component's key map, the bindings that work in mode m.
func (p *Player) enableKeys(m keys.Mode) {
	p.keys.enable(m)
	p.ws.Keys.Enable(m)
	p.wi.Enable(m)
	for _, pn := range p.panes.List() {
		pn.Enable(m)
	}
}

// contextKeys are the keys the help shows, in the mode the player is in: the mode's own (the
// question's answers, the tour's, a follower's), the what-if bar's while it is open, else the
// focused pane's; the player's; every component's by group.
func (p *Player) contextKeys(f *pane.Frame) contextKeys {
	k := &p.keys
	p.enableKeys(p.mode())
	pane := p.ws.Keys.ShortHelp()
	if p.wi.Showing() {
		pane = append(append(pane, p.wi.ShortHelp()...), k.Scenario, k.Split)
	} else {
		pane = append(pane, p.panes.At(p.Focus).Keys(f, true)...)
	}
	play, costs, panes, whatIf := k.groups()
	bar := p.wi.Help()
	bar.Keys = append(bar.Keys, k.Escape)
	groups := []keys.Group{play, costs, panes, p.ws.Keys.Group(), p.panes.Matrix.Help(), p.panes.Chart.Help(),
		p.panes.Batch.Help(), p.panes.About.Help(), whatIf, bar}
	return contextKeys{k: k, pane: pane, groups: groups}
}

// askRestart asks before restarting on the next seed, which throws away the run, the tour's place
// and the guesses: during a tour, a guess round or a reveal it only says how to end those first.
func (p *Player) askRestart() {
	if why := p.ws.RestartRefused(); why != "" {
		p.notice = why
		return
	}
	p.overlay = &restartOverlay{p: p}
}

// restartOverlay asks to confirm a restart on the next seed: y or enter restarts, any other key
// leaves the run as it is.
type restartOverlay struct{ p *Player }

func (o *restartOverlay) View(st *draw.Styles, w, h int) (string, int, int) {
	p := o.p
	who := "The matrix is computed again; your guesses and the tour start over."
	if p.ws.Room().Presenting() {
		who = "The whole room follows you there: every follower's matrix, guesses and tour start over."
	}
	iw := max(min(w-4, 64), 20)
	body := st.Bold.Render(fmt.Sprintf("Start a new run on seed %d?", p.s.Seed+1)) + "\n" +
		st.NewStyle().Width(iw).Render(who) + "\n" + st.Dim.Render("y or enter: new run · any other key: keep this one")
	box := st.Overlay.Render(body)
	bw, bh := draw.Width(strings.SplitN(box, "\n", 2)[0]), strings.Count(box, "\n")+1
	return box, max((w-bw)/2, 0), max((h-bh)/2, 0)
}

func (o *restartOverlay) Key(msg tea.KeyMsg) (bool, tea.Cmd) {
	if key.Matches(msg, o.p.keys.Confirm) {
		o.p.cmd.DropBefore() // its seed is not the new run's
		return true, o.p.reopen(o.p.s.Seed + 1)
	}
	o.p.notice = fmt.Sprintf("kept seed %d", o.p.s.Seed)
	return true, nil
}

// confirmOverlay asks the workshop's question (workshop.Confirm): y or enter applies its Yes, any
// other key leaves everything as it is, with its No as the notice.
type confirmOverlay struct {
	p *Player
	c workshop.Confirm
}

func (o *confirmOverlay) View(st *draw.Styles, w, h int) (string, int, int) {
	iw := max(min(w-4, 64), 20)
	body := st.NewStyle().Width(iw).Render(st.Bold.Render(o.c.Question)) + "\n" +
		st.NewStyle().Width(iw).Render(o.c.Text) + "\n" + st.Dim.Render("y or enter: yes · any other key: no")
	box := st.Overlay.Render(body)
	bw, bh := draw.Width(strings.SplitN(box, "\n", 2)[0]), strings.Count(box, "\n")+1
	return box, max((w-bw)/2, 0), max((h-bh)/2, 0)
}

func (o *confirmOverlay) Key(msg tea.KeyMsg) (bool, tea.Cmd) {
	p := o.p
	if key.Matches(msg, p.keys.Confirm) {
		p.overlay = nil // the effects may put up another
		return true, p.apply(o.c.Yes(p.workshopFrame()))
	}
	p.notice = o.c.No
	return true, nil
}

// mouse: a click focuses the tab or pane under it and lets the pane answer at its content's (x,
// y) (a cell, a batch); the wheel scrolls the focused pane under it if that scrolls, and steps
// otherwise.
func (p *Player) mouse(msg tea.MouseMsg) tea.Cmd {
	if _, asked := p.ws.Asking(); msg.Action != tea.MouseActionPress || p.overlay != nil || asked || p.split.On() {
		return nil
	}
	f := p.frame()
	l := p.layout(f, p.w, p.bodyHeight())
	under, tab := l.Hit(msg.X, msg.Y)
	switch msg.Button {
	case tea.MouseButtonWheelUp, tea.MouseButtonWheelDown:
		delta := 1
		if msg.Button == tea.MouseButtonWheelUp {
			delta = -1
		}
		switch {
		case under >= 0 && under == p.Focus && under == pane.About && p.panes.About.Wheel(delta):
		case p.ws.Room().Following():
		case delta > 0:
			p.step()
		default:
			p.ahead = 0
			p.goTo(p.Pos - 1)
		}
	case tea.MouseButtonLeft:
		if under < 0 {
			return nil
		}
		p.setFocus(under)
		if r := l.Boxes[under]; !tab && !r.Collapsed && !r.Strip {
			return p.reply(p.panes.At(under).Click(f, msg.X-r.X-2, msg.Y-r.Y-1, r.W-4, r.H-2))
		}
	}
	return nil
}
