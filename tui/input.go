package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/whatif"
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
// unfocused (f, o). Whoever takes the key returns the effects it makes (apply).
func (p *Player) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	p.enableKeys(p.mode())
	switch {
	case key.Matches(msg, p.keys.ForceQuit):
		p.s.Stop()
		return p, tea.Quit
	case p.edit != nil:
		return p, p.editor(msg)
	case p.cmd.Typing():
		return p, p.apply(p.cmd.Update(p.host(), msg))
	case key.Matches(msg, p.keys.Quit) && p.overlay == nil:
		if e := p.askLeave(); e != nil {
			return p, p.apply(e)
		}
		return p.quit()
	}
	p.notice = ""
	if _, asked := p.ws.Asking(); asked {
		return p, p.apply(p.ws.QuestionKey(p.workshopFrame(), msg))
	}
	if o := p.overlay; o != nil {
		done, e := o.Key(msg)
		if done {
			p.overlay = nil // before its effects, which may put up another
		}
		cmd := p.apply(e)
		if p.quitting {
			return p.quit()
		}
		return p, cmd
	}
	if p.wi.Showing() {
		if e, ok := p.wi.Key(p.host(), msg); ok {
			return p, p.apply(e)
		}
	}
	f := p.frame()
	if e, ok := p.panes.At(p.Focus).Key(msg, f, true); ok {
		return p, p.apply(e)
	}
	for _, a := range p.actions() {
		if key.Matches(msg, *a.b) {
			return p, p.apply(a.do())
		}
	}
	if e, ok := p.ws.Key(p.workshopFrame(), msg); ok {
		return p, p.apply(e)
	}
	if p.ws.Room().Following() && keys.Pressed(msg, append(p.keys.driven(), p.ws.Keys().Driven()...)...) {
		p.notice = "you follow the presenter: p to go free and explore on your own"
		return p, nil
	}
	for i, pn := range p.panes.List() {
		if i == p.Focus {
			continue
		}
		if e, ok := pn.Key(msg, f, false); ok {
			return p, p.apply(e)
		}
	}
	return p, nil
}

// quit closes the player: back to the picker when there is one, the room told (a follower goes
// free, a presenter's room sees no scenario until the next opens).
func (p *Player) quit() (tea.Model, tea.Cmd) {
	p.quitting = false
	p.s.Stop()
	p.dropBefore()
	p.ws.Room().Leave()
	if p.opt.Back != nil {
		return p.opt.Back()
	}
	return p, tea.Quit
}

// askLeave is q in a workshop room, following or presenting: one key would take the student out
// of the presenter's lesson (or the room off the presenter's scenario), so it asks first and says
// the way back; nil when q closes the player at once.
func (p *Player) askLeave() effect.Effects {
	r := p.ws.Room()
	switch {
	case r.Following():
		return effect.Effects{effect.Confirm{
			Question: "Leave the room?",
			Text:     "You stop following the presenter and go back to the scenarios, free: p there follows the presenter again, at their batch.",
			No:       "still following the presenter (p goes free without leaving)",
			Yes:      effect.Effects{effect.Quit{}},
		}}
	case r.Presenting():
		return effect.Effects{effect.Confirm{
			Question: "Close this scenario?",
			Text:     "The room follows you back to the scenarios: it sees no scenario until you open the next one.",
			No:       "still presenting this scenario",
			Yes:      effect.Effects{effect.Quit{}},
		}}
	}
	return nil
}

// action is one of the player's own keys and the effects it makes.
type action struct {
	b  *key.Binding
	do func() effect.Effects
}

// do is an action's effects, made of the effects given.
func do(e ...effect.Effect) func() effect.Effects { return func() effect.Effects { return e } }

func (p *Player) actions() []action {
	k := &p.keys
	var panes []action
	for i := range k.Pane {
		panes = append(panes, action{&k.Pane[i], do(effect.Focus(i))})
	}
	return append(panes, []action{
		{&k.Help, func() effect.Effects { p.overlay = &helpOverlay{keys: p.contextKeys(p.frame())}; return nil }},
		{&k.Play, func() effect.Effects {
			if p.Playing {
				return effect.Effects{effect.Play(false)}
			}
			return effect.Effects{effect.Play(true), effect.Tick{}}
		}},
		{&k.Step, do(effect.Step{})},
		{&k.Back, do(effect.Ahead(0), effect.GoTo(p.Pos-1))},
		{&k.Home, do(effect.GoTo(0))},
		{&k.End, do(effect.End{})},
		{&k.Faster, do(effect.Speed(p.Speed + 1))},
		{&k.Slower, do(effect.Speed(p.Speed - 1))},
		{&k.RUp, do(effect.Scale(p.Scale * 1.25))},
		{&k.RDown, do(effect.Scale(p.Scale / 1.25))},
		{&k.Next, do(effect.Select(next(p.visible(), p.selected(), 1)))},
		{&k.Prev, do(effect.Select(next(p.visible(), p.selected(), -1)))},
		// The selection stays; when it is not shown any more, the first shown after the Oracle
		// takes it (the Oracle's path is drawn anyway).
		{&k.Visible, func() effect.Effects {
			v := (p.Visible + 1) % len(visibleSets)
			return effect.Effects{effect.Visible(v), effect.Select(pick(visibleIn(p.opt.Scenario, v), p.selected(), 1))}
		}},
		{&k.Restart, p.askRestart},
		{&k.WhatIf, func() effect.Effects { return p.wi.Show(p.host()) }},
		{&k.Command, func() effect.Effects { return p.cmd.Open(p.w) }},
		{&k.Edit, func() (e effect.Effects) { p.edit, e = whatif.OpenEditor(p.host(), p.w, p.h); return e }},
		{&k.Split, func() effect.Effects { return p.split.Toggle(p.host(), p.wi.Showing()) }},
		{&k.Scenario, func() effect.Effects { return append(effect.Effects{effect.Scale(1)}, p.wi.Back(p.host())...) }},
		{&k.Maximise, do(effect.Zoom(!p.Zoomed))},
		// esc backs out of one thing: a callout left on the screen, the zoomed pane, the cursor.
		{&k.Escape, func() effect.Effects {
			switch {
			case p.ws.CloseCallout():
				return nil
			case p.Zoomed:
				return effect.Effects{effect.Zoom(false)}
			}
			c := p.Cursor
			c.On = false
			return effect.Effects{effect.Cursor(c)}
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
	p.ws.Keys().Enable(m)
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
	pane := p.ws.Keys().ShortHelp()
	if p.wi.Showing() {
		pane = append(append(pane, p.wi.ShortHelp()...), k.Scenario, k.Split)
	} else {
		pane = append(pane, p.panes.At(p.Focus).Keys(f, true)...)
	}
	play, costs, panes, whatIf := k.groups()
	bar := p.wi.Help()
	bar.Keys = append(bar.Keys, k.Escape)
	groups := []keys.Group{play, costs, panes, p.ws.Keys().Group(), p.panes.Matrix.Help(), p.panes.Chart.Help(),
		p.panes.Batch.Help(), p.panes.About.Help(), whatIf, bar}
	return contextKeys{k: k, pane: pane, groups: groups}
}

// askRestart asks before restarting on the next seed, which throws away the run, the tour's place
// and the guesses: during a tour, a guess round or a reveal it only says how to end those first.
func (p *Player) askRestart() effect.Effects {
	if why := p.ws.RestartRefused(); why != "" {
		return effect.Effects{effect.Notice(why)}
	}
	p.overlay = &restartOverlay{seed: p.s.Seed, presenting: p.ws.Room().Presenting(), yes: p.keys.Confirm}
	return nil
}

// restartOverlay asks to confirm a restart on the next seed: y or enter restarts, any other key
// leaves the run as it is.
type restartOverlay struct {
	seed       uint64 // the seed shown
	presenting bool   // the room follows the player there
	yes        key.Binding
}

func (o *restartOverlay) View(st *draw.Styles, w, h int) (string, int, int) {
	who := "The matrix is computed again; your guesses and the tour start over."
	if o.presenting {
		who = "The whole room follows you there: every follower's matrix, guesses and tour start over."
	}
	iw := max(min(w-4, 64), 20)
	body := st.Bold.Render(fmt.Sprintf("Start a new run on seed %d?", o.seed+1)) + "\n" +
		st.NewStyle().Width(iw).Render(who) + "\n" + st.Dim.Render("y or enter: new run · any other key: keep this one")
	return centred(st, body, w, h)
}

func (o *restartOverlay) Key(msg tea.KeyMsg) (bool, effect.Effects) {
	if key.Matches(msg, o.yes) {
		return true, effect.Effects{effect.Reopen(o.seed + 1)}
	}
	return true, effect.Effects{effect.Notice(fmt.Sprintf("kept seed %d", o.seed))}
}

// confirmOverlay asks a part's question (effect.Confirm): y or enter makes its Yes, any other key
// leaves everything as it is, with its No as the notice.
type confirmOverlay struct {
	c   effect.Confirm
	yes key.Binding
}

func (o *confirmOverlay) View(st *draw.Styles, w, h int) (string, int, int) {
	iw := max(min(w-4, 64), 20)
	body := st.NewStyle().Width(iw).Render(st.Bold.Render(o.c.Question)) + "\n" +
		st.NewStyle().Width(iw).Render(o.c.Text) + "\n" + st.Dim.Render("y or enter: yes · any other key: no")
	return centred(st, body, w, h)
}

func (o *confirmOverlay) Key(msg tea.KeyMsg) (bool, effect.Effects) {
	if key.Matches(msg, o.yes) {
		return true, o.c.Yes
	}
	return true, effect.Effects{effect.Notice(o.c.No)}
}

// centred is body in an overlay's box, and where the box goes to stand in the middle of w x h.
func centred(st *draw.Styles, body string, w, h int) (string, int, int) {
	box := st.Overlay.Render(body)
	bw, bh := draw.Width(strings.SplitN(box, "\n", 2)[0]), strings.Count(box, "\n")+1
	return box, max((w-bw)/2, 0), max((h-bh)/2, 0)
}

// mouse: a click focuses the tab or pane under it and lets the pane answer at its content's (x,
// y) (a cell, a batch); the wheel scrolls the focused pane under it if that scrolls, and steps
// otherwise. A follower's click changes what is its own (the focus, the cursor), never the batch:
// the presenter shows that.
func (p *Player) mouse(msg tea.MouseMsg) tea.Cmd {
	if _, asked := p.ws.Asking(); msg.Action != tea.MouseActionPress || p.overlay != nil || asked || p.split.On() {
		return nil
	}
	following := p.ws.Room().Following()
	f := p.frame()
	pl, _ := p.placed(f, p.ws.Callout(p.workshopFrame()), nil, p.bodyHeight()) // a docked callout leaves the panes less room
	l := pl.Layout
	under, tab := l.Hit(msg.X, msg.Y)
	switch msg.Button {
	case tea.MouseButtonWheelUp, tea.MouseButtonWheelDown:
		delta := 1
		if msg.Button == tea.MouseButtonWheelUp {
			delta = -1
		}
		switch {
		case under >= 0 && under == p.Focus && under == pane.About && p.panes.About.Wheel(delta):
		case following:
		case delta > 0:
			return p.apply(effect.Effects{effect.Step{}})
		default:
			return p.apply(effect.Effects{effect.Ahead(0), effect.GoTo(p.Pos - 1)})
		}
	case tea.MouseButtonLeft:
		if under < 0 {
			return nil
		}
		e := effect.Effects{effect.Focus(under)}
		if r := l.Boxes[under]; !tab && !r.Collapsed && !r.Strip {
			e = append(e, p.panes.At(under).Click(f, msg.X-r.X-2, msg.Y-r.Y-1, r.W-4, r.H-2)...)
		}
		if following {
			e = slices.DeleteFunc(e, func(e effect.Effect) bool { _, batch := e.(effect.GoTo); return batch })
		}
		return p.apply(e)
	}
	return nil
}
