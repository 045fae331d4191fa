package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// Minimum terminal size: below it the player asks for a larger terminal.
const (
	MinWidth  = 60
	MinHeight = 18
)

// speeds are the playing speeds, in batches per second.
var speeds = []float64{1, 2, 5, 10, 20, 50}

// visibleSets are what v cycles through, with the names the status line gives them.
var visibleSets = []struct {
	name  string
	algos []algos.Name
}{
	{"all", algos.Names},
	{"Oracle + CARA", []algos.Name{"oracle", "cara-t", "cara-ct", "cara-p"}},
	{"Oracle + baselines", []algos.Name{"oracle", "never", "markov", "adwin", "ddm", "page-hinkley"}},
}

// Options configure a player.
type Options struct {
	Scenario *scenarios.Scenario
	Seed     uint64
	Workers  int
	Styles   *Styles // from the session's renderer; built from Renderer when nil
	// Renderer is the session's renderer (an SSH session's, or lipgloss.DefaultRenderer() when nil),
	// used only when Styles is nil.
	Renderer *lipgloss.Renderer
	// Back, when set, is where q returns to instead of quitting (the picker).
	Back func() (tea.Model, tea.Cmd)
	// Width and Height are the terminal's size when the player opens from another model.
	Width, Height int
	// Runs, when set, is the registry the player's runs go through (the SSH server's, shared by
	// every session); by default the player gets one of its own.
	Runs *live.Runs
	// Context is the player's lifetime (an SSH session's): when it ends, the player's run is left.
	Context context.Context
	// Tour starts the scenario's tour when the player opens (cara play --tour).
	Tour bool
	// Member is the player's place in a workshop room (cara serve --presenter-keys); nil for none.
	Member *room.Member
	// Check, when set, refuses a scenario before a run of it starts (a server's work budget): the
	// command line's and the editor's changes go through it.
	Check func(*scenarios.Scenario) error
	// Untrusted marks a served player: the scenarios its command line and editor make may read no
	// file but the embedded data and the CSV files in FilesDir (the server's offered folder).
	Untrusted bool
	FilesDir  string
}

// Player steps through one scenario. It is a tea.Model.
type Player struct {
	opt  Options
	st   *Styles
	keys keyMap
	s    *Session
	// Shown is what the player shows (the batch, speed, R's scale, selection, focus, cursor): the
	// value a presenter's stage carries to the room.
	room.Shown
	ahead   int // a step asked for before its batch was computed: shown when it arrives
	w, h    int
	overlay overlay // drawn over the panes, taking the keys (nil when none)
	rp      replay
	err     error
	tick    int // invalidates stale ticks
	heat    heatScale
	bounds  *bounds

	panes paneSet

	// The workshop (workshop.go): a tour, the guess round, the room, the callout over the panes.
	workshop
	notice string // a one-line notice that the next key clears

	wi    whatIfBar
	cmd   commandState // the command line (:) and the what-if it has built
	edit  *editor      // the scenario editor (e); nil when closed
	split splitView    // the split view (W)
}

type tickMsg struct{ id int }

// NewPlayer returns the player for a scenario; its Init starts the engine.
func NewPlayer(opt Options) (*Player, error) {
	opt = opt.withDefaults()
	s, err := opt.newSession(opt.Seed)
	if err != nil {
		return nil, err
	}
	st := opt.Styles
	if st == nil {
		r := opt.Renderer
		if r == nil {
			r = lipgloss.DefaultRenderer()
		}
		st = NewStyles(r)
	}
	p := &Player{opt: opt, st: st, keys: newKeys(), s: s, Shown: room.Shown{Pos: -1, Speed: 2, Scale: 1}, w: 100, h: 32}
	if opt.Width > 0 && opt.Height > 0 {
		p.w, p.h = opt.Width, opt.Height
	}
	k := &p.keys
	p.panes = newPaneSet(k, &p.Cursor)
	p.split = newSplitView(k)
	p.wi = newWhatIfBar(k, &p.panes.batch.pair)
	p.Selected = pick(p.visible(), algos.NameCaraT, 0)
	p.heat = heatOf(opt.Scenario)
	p.guess.reset()
	p.tour.left = -1
	p.cmd.line = newCommandLine()
	p.room = roomSide{m: opt.Member, tally: map[int][2]int{}}
	if opt.Member != nil {
		p.room.view = opt.Member.View()
	}
	return p, nil
}

// heatOf is the colour scale of a new run of s, started from its R (the cells are added as their
// columns come, a what-if's when it arrives: whatIfShown).
func heatOf(s *scenarios.Scenario) heatScale {
	h := newHeatScale()
	for t := range s.Batches {
		h.addValue(s.RetrainCost(t))
	}
	return h
}

// Init implements tea.Model: the engine starts, the scatter's axes are scanned, the mouse is on.
func (p *Player) Init() tea.Cmd {
	var tour tea.Cmd
	if p.opt.Tour {
		tour = p.tour.toggle(p)
	}
	return tea.Batch(p.s.Start(), scanBounds(p.s), tea.EnableMouseCellMotion, tour)
}

func (p *Player) visible() []algos.Name {
	var out []algos.Name
	for _, a := range visibleSets[p.Visible].algos {
		if slices.Contains(p.opt.Scenario.Algorithms, a) || a == "oracle" {
			out = append(out, a)
		}
	}
	return out
}

func (p *Player) selected() algos.Name { return pick(p.visible(), p.Selected, 0) }

// next is the algorithm d places on from a in v, round the end.
func next(v []algos.Name, a algos.Name, d int) algos.Name {
	return v[(slices.Index(v, a)+d+len(v))%len(v)]
}

// pick is a when v has it, else v[index] or, past the end, the last.
func pick(v []algos.Name, a algos.Name, index int) algos.Name {
	if slices.Contains(v, a) {
		return a
	}
	return v[min(index, len(v)-1)]
}

// refresh replays the algorithms at the current position and scale: on the what-if when one is
// shown, and on the run itself too for the split view.
func (p *Player) refresh() {
	rp, err := p.s.evaluate(p.Pos, p.Scale, p.opt.Scenario.Algorithms)
	p.rp, p.err = rp, err
	p.split.own = rp
	if p.s.WhatIf != nil && p.split.on && err == nil {
		p.split.own, p.err = p.s.evaluateOf(nil, p.Pos, p.Scale, p.opt.Scenario.Algorithms)
	}
	if o := p.cmd.orig; o != nil && p.split.on && p.err == nil {
		p.cmd.origRp, p.err = o.evaluateOf(nil, p.Pos, p.Scale, o.Scenario.Algorithms)
	}
}

func (p *Player) ticker() tea.Cmd {
	p.tick++
	id := p.tick
	rate := speeds[p.Speed]
	if p.tour.running() {
		rate = max(rate, tourRate)
	}
	return tea.Tick(time.Duration(float64(time.Second)/rate), func(time.Time) tea.Msg { return tickMsg{id} })
}

// Update implements tea.Model. A presenter's player gives the room its stage after each message.
func (p *Player) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := p.update(msg)
	if m == tea.Model(p) {
		p.room.publish(p.presented)
	}
	return m, cmd
}

func (p *Player) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case roomMsg:
		return p.onRoom(msg.v)
	case tea.WindowSizeMsg:
		p.w, p.h = msg.Width, msg.Height
		p.edit.resize(p.w, p.h)
	case editPauseMsg, editCheckedMsg:
		if p.edit != nil {
			var cmd tea.Cmd
			p.edit, cmd = p.edit.update(p, &p.cmd, &p.wi, msg)
			return p, cmd
		}
	case columnMsg:
		return p, p.column(msg)
	case queuedMsg:
		return p, p.s.queued(msg)
	case engineDoneMsg:
		if o := p.cmd.orig; msg.s == o && o != p.s {
			o.Done, o.Err = true, msg.err
		}
		if msg.s == p.s {
			p.s.Done, p.s.Err = true, msg.err
			p.heat.final = msg.err == nil
			var warm tea.Cmd
			if p.wi.open {
				warm = p.s.WarmWhatIf()
			}
			return p, tea.Batch(warm, p.wi.startPending(p))
		}
	case boundsMsg:
		if msg.s == p.s {
			p.bounds = msg.b
			if bp := p.panes.batch; !bp.pairChosen {
				bp.pair = msg.b.pair()
			}
			if p.wi.open {
				p.wi.place(p)
			}
		}
	case whatIfMsg:
		p.wi.arrived(p, msg)
	case commandMsg:
		return p, p.cmd.run(p, &p.wi, msg.cmd)
	case tickMsg:
		return p, p.play(msg)
	case jumpMsg:
		if !p.room.following {
			p.goTo(msg.t)
		}
	case tea.MouseMsg:
		return p, p.mouse(msg)
	case tea.KeyMsg:
		if p.edit != nil && !key.Matches(msg, p.keys.ForceQuit) {
			var cmd tea.Cmd
			p.edit, cmd = p.edit.update(p, &p.cmd, &p.wi, msg)
			return p, cmd
		}
		if p.cmd.line.open && !key.Matches(msg, p.keys.ForceQuit) {
			return p, p.cmd.line.Update(msg)
		}
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
			return p.runes(msg.Runes)
		}
		return p.key(msg)
	default:
		if p.cmd.line.open { // the line's cursor blinks
			return p, p.cmd.line.Update(msg)
		}
	}
	return p, nil
}

// column stores a computed column and shows a step that waited for it.
func (p *Player) column(msg columnMsg) tea.Cmd {
	if msg.s == p.cmd.orig && msg.s != p.s {
		return msg.s.apply(msg) // the split view's "before" run, still computing
	}
	if msg.s != p.s {
		return nil // a restarted session's leftovers
	}
	cmd := p.s.apply(msg)
	for _, ev := range msg.evs {
		p.heat.addColumn(p.s.Matrix, ev.Index)
	}
	if p.Pos < 0 {
		p.Pos = 0
		p.refresh()
	}
	if p.ahead > p.Pos {
		p.Pos = min(p.ahead, p.s.Computed-1)
		p.refresh()
		p.guess.revealDue(p)
	}
	if p.rp.provisional && p.s.Computed == p.s.Matrix.Batches() {
		p.refresh() // the last column: the Oracle shown is the paper's now, not the best so far
	}
	return cmd
}

func (p *Player) play(msg tickMsg) tea.Cmd {
	if msg.id != p.tick || !p.Playing || p.room.following {
		return nil
	}
	if cmd, stop := p.tour.step(p); stop {
		return cmd
	}
	if cmd, stop := p.guess.step(p); stop {
		return cmd
	}
	if p.Pos+1 < p.s.Computed {
		p.Pos++
		p.refresh()
		if cmd, stop := p.tour.step(p); stop {
			return cmd
		}
	} else if p.s.Done && p.Pos == p.s.Matrix.Batches()-1 {
		p.Playing = false
		return nil
	}
	return p.ticker()
}

// goTo shows batch t, or the last computed one when t is not computed yet.
func (p *Player) goTo(t int) {
	t = min(max(t, 0), p.s.Computed-1)
	if t >= 0 && t != p.Pos {
		p.Pos, p.ahead = t, 0
		p.refresh()
	}
}

// runes handles keys typed faster than the terminal is read (bubbletea then delivers "lll" as one
// message), one at a time, so no step is lost.
func (p *Player) runes(runes []rune) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	for i, r := range runes {
		if p.cmd.line.open || p.edit != nil { // `:` or `e` came first: the rest is typed there
			m, cmd := p.update(tea.KeyMsg{Type: tea.KeyRunes, Runes: runes[i:]})
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

// key handles a key by mode: an overlay takes every key; otherwise q quits, the focused pane has
// the first say, then the player's keys, then the other panes' keys that work unfocused (f, o).
func (p *Player) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	p.keys.enable(p.mode())
	switch {
	case key.Matches(msg, p.keys.ForceQuit):
		p.s.Stop()
		return p, tea.Quit
	case key.Matches(msg, p.keys.Quit) && p.overlay == nil:
		// q goes back to the picker when there is one.
		p.s.Stop()
		p.cmd.dropOrig()
		p.room.leave()
		if p.opt.Back != nil {
			return p.opt.Back()
		}
		return p, tea.Quit
	}
	p.notice = ""
	if o := p.overlay; o != nil {
		done, cmd := o.Key(msg)
		if done && p.overlay == o {
			p.overlay = nil
		}
		return p, cmd
	}
	if p.wi.open {
		if ok, cmd := p.wi.key(p, msg); ok {
			return p, cmd
		}
	}
	f := p.frame()
	if ok, cmd := p.panes.at(p.Focus).Key(msg, f, true); ok {
		return p, cmd
	}
	for _, a := range p.actions() {
		if key.Matches(msg, *a.b) {
			return p, a.do(msg)
		}
	}
	if p.room.following && pressed(msg, p.keys.driven()) {
		p.notice = "you follow the presenter: p to go free and explore on your own"
		return p, nil
	}
	for i, pn := range p.panes.list() {
		if i == p.Focus {
			continue
		}
		if ok, cmd := pn.Key(msg, f, false); ok {
			return p, cmd
		}
	}
	return p, nil
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
		{&k.End, func(tea.KeyMsg) tea.Cmd { p.goTo(p.s.Computed - 1); return nil }},
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
		{&k.WhatIf, func(tea.KeyMsg) tea.Cmd { return p.wi.show(p) }},
		{&k.Command, func(tea.KeyMsg) tea.Cmd { return p.cmd.open(p.w) }},
		{&k.Edit, func(tea.KeyMsg) (cmd tea.Cmd) { p.edit, cmd = openEditor(p, p.w, p.h); return cmd }},
		{&k.Split, func(tea.KeyMsg) tea.Cmd { return p.split.toggle(p, &p.wi, &p.cmd) }},
		{&k.Scenario, func(tea.KeyMsg) tea.Cmd { p.Scale = 1; return p.wi.back(p) }},
		{&k.Maximise, func(tea.KeyMsg) tea.Cmd { p.Zoomed = !p.Zoomed; return nil }},
		// esc backs out of one thing: a callout left on the screen, the zoomed pane, the cursor.
		{&k.Escape, func(tea.KeyMsg) tea.Cmd {
			switch {
			case p.workshop.closeCallout():
			case p.Zoomed:
				p.Zoomed = false
			default:
				p.Cursor.On = false
			}
			return nil
		}},
		{&k.Tour, func(tea.KeyMsg) tea.Cmd { return p.tour.toggle(p) }},
		{&k.LeaveTour, func(tea.KeyMsg) tea.Cmd { return p.tour.toggle(p) }},
		{&k.TourNext, func(tea.KeyMsg) tea.Cmd { return p.togglePlay() }},
		{&k.Guess, func(tea.KeyMsg) tea.Cmd { return p.guess.toggle(p) }},
		{&k.Follow, func(tea.KeyMsg) tea.Cmd { return p.room.toggleFollow(p) }},
		{&k.GoFree, func(tea.KeyMsg) tea.Cmd { return p.room.toggleFollow(p) }},
	}...)
}

// mode is the mode the player's keys are in now.
func (p *Player) mode() mode {
	_, question := p.overlay.(*guessOverlay)
	return mode{tour: p.tour.on(), following: p.room.following, question: question, bar: p.wi.open}
}

// contextKeys are the keys the help shows, in the mode the player is in: the mode's own (the
// question's answers, the tour's, a follower's), the what-if bar's while it is open, else the
// focused pane's; the player's; every pane's by group.
func (p *Player) contextKeys(f *frame) contextKeys {
	k := &p.keys
	k.enable(p.mode())
	pane := []key.Binding{k.AnswerRetrain, k.AnswerKeep, k.NotNow, k.GoFree, k.TourNext, k.LeaveTour}
	if p.wi.open {
		pane = append(pane, k.WIOwn, k.WIData, k.WIStatic, k.WIAlt, k.WINarrow, k.WIWiden, k.WIGammaDown, k.WIGammaUp, k.Scenario, k.Split)
	} else {
		pane = append(pane, p.panes.at(p.Focus).Keys(f, true)...)
	}
	return contextKeys{k: k, pane: pane, groups: k.groups()}
}

func (p *Player) togglePlay() tea.Cmd {
	if p.tour.on() {
		return p.tour.space(p)
	}
	p.Playing = !p.Playing
	if p.Playing {
		return p.ticker()
	}
	return nil
}

// step shows the next batch, or waits for the engine to compute it.
func (p *Player) step() {
	if _, asked := p.guess.step(p); asked {
		return
	}
	switch {
	case p.Pos+1 < p.s.Computed:
		p.Pos++
		p.refresh()
	case p.Pos+1 < p.s.Matrix.Batches():
		p.ahead = min(max(p.ahead, p.Pos)+1, p.s.Matrix.Batches()-1)
	}
}

func (p *Player) setFocus(i int) {
	if i >= 0 && i < numPanes {
		if i != p.Focus {
			p.Zoomed = false
		}
		p.Focus = i
	}
}

// askRestart asks before restarting on the next seed, which throws away the run, the tour's place
// and the guesses: during a tour, a guess round or a reveal it only says how to end those first.
func (p *Player) askRestart() {
	switch {
	case p.tour.on():
		p.notice = "N (a new run) waits for the tour: t leaves it"
	case p.guess.on:
		p.notice = "N (a new run) waits for the guess round: g ends it"
	case p.callout != nil && p.callout.kind != calloutTour:
		p.notice = "N (a new run) waits for the answer shown: esc closes it"
	default:
		p.overlay = &restartOverlay{p: p}
	}
}

// restartOverlay asks to confirm a restart on the next seed: y or enter restarts, any other key
// leaves the run as it is.
type restartOverlay struct{ p *Player }

func (o *restartOverlay) View(st *Styles, w, h int) (string, int, int) {
	p := o.p
	who := "The matrix is computed again; your guesses and the tour start over."
	if p.room.presenting() {
		who = "The whole room follows you there: every follower's matrix, guesses and tour start over."
	}
	iw := max(min(w-4, 64), 20)
	body := st.Bold.Render(fmt.Sprintf("Start a new run on seed %d?", p.s.Seed+1)) + "\n" +
		st.r.NewStyle().Width(iw).Render(who) + "\n" + st.Dim.Render("y or enter: new run · any other key: keep this one")
	box := st.Overlay.Render(body)
	bw, bh := width(strings.SplitN(box, "\n", 2)[0]), strings.Count(box, "\n")+1
	return box, max((w-bw)/2, 0), max((h-bh)/2, 0)
}

func (o *restartOverlay) Key(msg tea.KeyMsg) (bool, tea.Cmd) {
	if s := msg.String(); s == "y" || s == "enter" {
		o.p.cmd.dropOrig() // its seed is not the new run's
		return true, o.p.reopen(o.p.s.Seed + 1)
	}
	o.p.notice = fmt.Sprintf("kept seed %d", o.p.s.Seed)
	return true, nil
}

// reopen runs the scenario again with seed: a new matrix, so the tour and the guesses start over.
func (p *Player) reopen(seed uint64) tea.Cmd {
	if p.s != p.cmd.orig { // the command line's "before" run stays watched for the split view
		p.s.Stop()
	}
	s, err := p.opt.newSession(seed)
	if err != nil {
		p.err = err
		return nil
	}
	p.s, p.Pos, p.Playing, p.rp, p.split.own, p.ahead = s, -1, false, replay{}, replay{}, 0
	p.heat, p.bounds = heatOf(p.opt.Scenario), nil
	// The what-if stays chosen: it applies to the new run when that is done (startPending). The
	// tour and the guesses were about the old run's matrix.
	p.workshop.reset(p)
	return tea.Batch(s.Start(), scanBounds(s))
}

// mouse: a click focuses the tab or pane under it and lets the pane answer at its content's (x,
// y) (a cell, a batch); the wheel scrolls the focused pane under it if that scrolls, and steps
// otherwise.
func (p *Player) mouse(msg tea.MouseMsg) tea.Cmd {
	if msg.Action != tea.MouseActionPress || p.overlay != nil || p.split.on {
		return nil
	}
	f := p.frame()
	l := p.layout(f, p.w, p.bodyHeight())
	under, tab := l.hit(msg.X, msg.Y)
	switch msg.Button {
	case tea.MouseButtonWheelUp, tea.MouseButtonWheelDown:
		delta := 1
		if msg.Button == tea.MouseButtonWheelUp {
			delta = -1
		}
		switch {
		case under >= 0 && under == p.Focus && under == paneAbout && p.panes.about.Wheel(delta):
		case p.room.following:
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
		if r := l.boxes[under]; !tab && !r.collapsed {
			return p.panes.at(under).Click(f, msg.X-r.x-2, msg.Y-r.y-1, r.w-4, r.h-2)
		}
	}
	return nil
}

// frame is what the panes draw: the what-if when one is shown, else the run itself.
func (p *Player) frame() *frame { return p.frameOfRun(p.s, p.s.WhatIf, p.rp) }

// frameOfRun is the frame of session s (the player's, or the one the command line changed away
// from: the split view's "before") under the what-if w (the run itself for nil) with its replay rp.
func (p *Player) frameOfRun(s *Session, w *live.WhatIf, rp replay) *frame {
	m, scen := s.view(w)
	var stream sim.Stream = s.Stream
	if w != nil && w.Batches != nil {
		stream = p.wi.streamOf(s.Stream, w)
	}
	f := &frame{st: p.st, scen: scen, m: m, stream: stream, drifts: s.Stream.Drifts(),
		pos: p.Pos, computed: s.Computed, done: s.Done, rp: rp, r: s.retrainCostOf(w, p.Scale), rScale: p.Scale,
		selected: p.selected(), visible: p.visible(), heat: p.heat, bounds: p.bounds,
		features: featureNames(s.Stream), zoomed: p.Zoomed, you: p.guess.result(p), ask: -1}
	if q, ok := p.overlay.(*guessOverlay); ok {
		f.ask, f.askModel = q.t, p.guess.yourModel(q.t, p.opt.Scenario.Offline)
	}
	return f
}

// footerLines: the status, the explanation and the help.
const footerLines = 3

// bodyHeight is what the panes get: the screen but the footer and, when open, the what-if bar.
func (p *Player) bodyHeight() int {
	if p.wi.open {
		return p.h - footerLines - barLines
	}
	return p.h - footerLines
}

// View implements tea.Model.
func (p *Player) View() string {
	if p.w < MinWidth || p.h < MinHeight {
		msg := fmt.Sprintf("cara needs a terminal of at least %dx%d; this one is %dx%d.\nEnlarge the terminal, or press q to quit.", MinWidth, MinHeight, p.w, p.h)
		return lipgloss.Place(p.w, p.h, lipgloss.Center, lipgloss.Center, msg)
	}
	if p.edit != nil {
		return p.edit.view(p, p.st, p.w)
	}
	f := p.frame()
	bodyH := p.bodyHeight()
	var body string
	var l screenLayout // the split view's panes are not the layout's: a callout there avoids nothing
	if p.split.on {
		body = p.split.view(p, &p.wi, &p.cmd, f, p.w, bodyH)
	} else {
		l = p.layout(f, p.w, bodyH)
		body = p.panes.body(p.st, f, l, p.Focus, p.w, bodyH)
	}
	if c := p.callout; c != nil {
		box, x, y := c.draw(f, l, p.panes.matrix, p.w, bodyH)
		body = placeOverlay(body, box, x, y)
	}
	if p.wi.open {
		body += "\n" + p.wi.view(p, p.st, p.w)
	}
	if p.overlay != nil {
		box, x, y := p.overlay.View(p.st, p.w, bodyH)
		body = placeOverlay(body, box, x, y)
	}
	line := ""
	if e := explain(f); e != "" {
		line = " " + e
	}
	if p.s.WhatIfErr != nil && !p.wi.open {
		line = p.st.Error.Render(" what-if: " + p.s.WhatIfErr.Error())
	}
	if p.notice != "" {
		line = " " + p.st.Bold.Render(p.notice)
	}
	if p.err != nil {
		line = p.st.Error.Render(" " + p.err.Error())
	}
	if p.s.Err != nil {
		line = p.st.Error.Render(" engine: " + p.s.Err.Error())
	}
	if p.cmd.line.open {
		return body + "\n" + p.status() + "\n" + p.cmd.line.View(p.st, p.w)
	}
	help := helpLine(p.st, p.contextKeys(f), p.w)
	return body + "\n" + p.status() + "\n" + truncate(line, p.w) + "\n" + help
}

// drawBox draws body in a w x h border with title in its top edge; a focused box's border is
// heavy and bright.
func drawBox(st *Styles, title, body string, w, h int, focus bool) string {
	b := lipgloss.RoundedBorder()
	edge, ts := st.Dim, st.Title
	if focus {
		b, edge, ts = lipgloss.ThickBorder(), st.Bold, st.TitleFocus
	}
	title = truncate(title, max(w-4, 0))
	top := edge.Render(b.TopLeft+b.Top) + ts.Render(title) + edge.Render(strings.Repeat(b.Top, max(w-3-width(title), 0))+b.TopRight)
	left, right := edge.Render(b.Left)+" ", " "+edge.Render(b.Right)
	out := make([]string, 0, h)
	out = append(out, top)
	for _, l := range strings.Split(padTo(body, max(w-4, 0), max(h-2, 0)), "\n") {
		out = append(out, left+l+right)
	}
	out = append(out, edge.Render(b.BottomLeft+strings.Repeat(b.Bottom, max(w-2, 0))+b.BottomRight))
	return strings.Join(out, "\n")
}
