package tui

import (
	"context"
	"fmt"
	"math"
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

	panes []pane
	boxes [numPanes]boxCache

	// The workshop (tour.go, guess.go, follow.go): a tour being played, the guess round, the room,
	// the callout over the panes, a one-line notice that the next key clears.
	tour     *tourRun
	tourLeft int // the stop where the tour was left (t takes it up there); -1 for none
	guess    guessRound
	room     roomSide
	callout  *callout
	notice   string

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
	p.panes = []pane{&matrixPane{keys: k, cur: &p.Cursor}, &chartPane{keys: k}, &decisionsPane{}, &batchPane{keys: k, pair: [2]int{0, 1}},
		&resultsPane{}, &aboutPane{keys: k}}
	p.split = newSplitView(k)
	p.wi = newWhatIfBar(k, &p.panes[paneBatch].(*batchPane).pair)
	p.Selected = p.pick(algos.NameCaraT, 0)
	p.resetScale()
	p.guess.reset()
	p.tourLeft = -1
	p.cmd.line = newCommandLine()
	p.room = roomSide{m: opt.Member, tally: map[int][2]int{}}
	if opt.Member != nil {
		p.room.view = opt.Member.View()
	}
	return p, nil
}

// resetScale starts the colour scale of a new session from the scenario's R (a what-if's is added
// when it arrives: whatIfShown).
func (p *Player) resetScale() {
	p.startHeat()
	p.bounds = nil
}

// startHeat starts the colour scale from the scenario's R.
func (p *Player) startHeat() {
	p.heat = newHeatScale()
	base := p.opt.Scenario.RetrainCost
	for t := range p.opt.Scenario.Batches {
		p.heat.addValue(base(t))
	}
}

// Init implements tea.Model: the engine starts, the scatter's axes are scanned, the mouse is on.
func (p *Player) Init() tea.Cmd {
	var tour tea.Cmd
	if p.opt.Tour {
		tour = p.toggleTour()
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

func (p *Player) selected() algos.Name { return p.pick(p.Selected, 0) }

// pick is a when it is shown, else the shown algorithm at index or, past the end, the last.
func (p *Player) pick(a algos.Name, index int) algos.Name {
	v := p.visible()
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
	if p.tourRunning() {
		rate = max(rate, tourRate)
	}
	return tea.Tick(time.Duration(float64(time.Second)/rate), func(time.Time) tea.Msg { return tickMsg{id} })
}

// Update implements tea.Model. A presenter's player gives the room its stage after each message.
func (p *Player) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := p.update(msg)
	if m == tea.Model(p) {
		p.publish()
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
			if bp := p.panes[paneBatch].(*batchPane); !bp.pairChosen {
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
		p.revealDue()
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
	if cmd, stop := p.tourStep(); stop {
		return cmd
	}
	if cmd, stop := p.guessStep(); stop {
		return cmd
	}
	if p.Pos+1 < p.s.Computed {
		p.Pos++
		p.refresh()
		if cmd, stop := p.tourStep(); stop {
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
	switch {
	case key.Matches(msg, p.keys.ForceQuit):
		p.s.Stop()
		return p, tea.Quit
	case key.Matches(msg, p.keys.Quit) && p.overlay == nil:
		// q goes back to the picker when there is one.
		p.s.Stop()
		p.cmd.dropOrig()
		p.leaveRoom()
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
	if ok, cmd := p.panes[p.Focus].Key(msg, f, true); ok {
		return p, cmd
	}
	if p.followBlocks(msg) {
		return p, nil
	}
	for _, a := range p.actions() {
		if key.Matches(msg, *a.b) {
			return p, a.do(msg)
		}
	}
	for i, pn := range p.panes {
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
		{&k.Next, func(tea.KeyMsg) tea.Cmd { p.nextAlgo(1); return nil }},
		{&k.Prev, func(tea.KeyMsg) tea.Cmd { p.nextAlgo(-1); return nil }},
		{&k.Visible, func(tea.KeyMsg) tea.Cmd {
			cur := p.selected()
			p.Visible = (p.Visible + 1) % len(visibleSets)
			// The selection stays; when it is not shown any more, the first shown after the
			// Oracle takes it (the Oracle's path is drawn anyway).
			p.Selected = p.pick(cur, 1)
			return nil
		}},
		{&k.Restart, func(tea.KeyMsg) tea.Cmd { p.askRestart(); return nil }},
		{&k.WhatIf, func(tea.KeyMsg) tea.Cmd { return p.wi.show(p) }},
		{&k.Command, func(tea.KeyMsg) tea.Cmd { return p.cmd.open(p.w) }},
		{&k.Edit, func(tea.KeyMsg) (cmd tea.Cmd) { p.edit, cmd = openEditor(p, p.w, p.h); return cmd }},
		{&k.Split, func(tea.KeyMsg) tea.Cmd { return p.split.toggle(p, &p.wi, &p.cmd) }},
		{&k.Scenario, func(tea.KeyMsg) tea.Cmd { p.Scale = 1; return p.wi.back(p) }},
		{&k.Maximise, func(tea.KeyMsg) tea.Cmd { p.Zoomed = !p.Zoomed; return nil }},
		{&k.Escape, func(tea.KeyMsg) tea.Cmd { p.escape(); return nil }},
		{&k.Tour, func(tea.KeyMsg) tea.Cmd { return p.toggleTour() }},
		{&k.Guess, func(tea.KeyMsg) tea.Cmd { return p.toggleGuess() }},
		{&k.Follow, func(tea.KeyMsg) tea.Cmd { return p.toggleFollow() }},
	}...)
}

// contextKeys are the keys the help shows: the what-if bar's while it is open, else the focused
// pane's; the player's; every pane's by group.
func (p *Player) contextKeys(f *frame) contextKeys {
	pane := append(p.workshopKeys(), p.panes[p.Focus].Keys(f, true)...)
	if p.wi.open {
		k := &p.keys
		pane = []key.Binding{k.WIOwn, k.WIData, k.WIStatic, k.WIAlt, k.WINarrow, k.WIWiden, k.WIGammaDown, k.WIGammaUp, k.Scenario, k.Split}
	}
	c := contextKeys{k: &p.keys, pane: pane, groups: p.keyGroups()}
	if p.room.following {
		c.hide = p.presenterKeys()
	}
	_, c.only = p.overlay.(*guessOverlay)
	return c
}

// keyGroups are the full help's groups: the player's keys, then each pane's.
func (p *Player) keyGroups() []keyGroup {
	k := p.keys
	return []keyGroup{
		{"Play", []key.Binding{k.Play, k.Step, k.Back, k.Home, k.End, k.Faster, k.Slower}},
		{"Retraining cost and algorithms", []key.Binding{k.RUp, k.RDown, k.Next, k.Prev, k.Visible, k.Restart}},
		{"Panes", []key.Binding{k.Focus, k.Maximise, k.Escape, k.Help, k.Quit, k.ForceQuit}},
		{"Teaching", []key.Binding{k.Tour, k.Guess, k.AnswerRetrain, k.AnswerKeep, k.Follow}},
		{"1 Cost matrix", []key.Binding{k.Cursor, k.Up, k.Show}},
		{"2 Cumulative cost", []key.Binding{k.Gap}},
		{"4 Batch", []key.Binding{k.Features}},
		{"6 About (when it has the focus)", []key.Binding{k.ScrollUp, k.PageUp}},
		{"What-if", []key.Binding{k.WhatIf, k.Split, k.Scenario, k.Command, k.Edit}},
		{"What-if bar (open)", []key.Binding{k.WIOwn, k.WIData, k.WIStatic, k.WIAlt, k.WIMove, k.WINarrow, k.WIWiden,
			k.WIGammaDown, k.WIGammaUp, k.WIGammaBack, k.Escape}},
	}
}

// nextAlgo selects the shown algorithm d places on from the selected one, round the end.
func (p *Player) nextAlgo(d int) {
	v := p.visible()
	p.Selected = v[(slices.Index(v, p.selected())+d+len(v))%len(v)]
}

func (p *Player) togglePlay() tea.Cmd {
	if p.tour != nil {
		return p.tourSpace()
	}
	p.Playing = !p.Playing
	if p.Playing {
		return p.ticker()
	}
	return nil
}

// step shows the next batch, or waits for the engine to compute it.
func (p *Player) step() {
	if _, asked := p.guessStep(); asked {
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
	if i >= 0 && i < len(p.panes) {
		if i != p.Focus {
			p.Zoomed = false
		}
		p.Focus = i
	}
}

// escape backs out of one thing: a callout left on the screen, the maximised pane, then the
// matrix cursor.
func (p *Player) escape() {
	if p.closeCallout() {
		return
	}
	if p.Zoomed {
		p.Zoomed = false
		return
	}
	if mp := p.panes[paneMatrix].(*matrixPane); mp.cur.On {
		mp.cur.On = false
	}
}

// restart runs the scenario again with the next seed.
func (p *Player) restart() tea.Cmd {
	p.cmd.dropOrig() // its seed is not the new run's
	return p.reopen(p.s.Seed + 1)
}

// askRestart asks before restarting on the next seed, which throws away the run, the tour's place
// and the guesses: during a tour, a guess round or a reveal it only says how to end those first.
func (p *Player) askRestart() {
	switch {
	case p.tour != nil:
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
		return true, o.p.restart()
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
	p.resetScale()
	// The what-if stays chosen: it applies to the new run when that is done (startPending). The
	// tour and the guesses were about the old run's matrix.
	p.resetWorkshop()
	return tea.Batch(s.Start(), scanBounds(s))
}

// mouse: a click focuses the pane under it and lets the pane answer (a cell, a batch); the wheel
// steps, or scrolls a pane that scrolls.
func (p *Player) mouse(msg tea.MouseMsg) tea.Cmd {
	if msg.Action != tea.MouseActionPress || p.overlay != nil || p.split.on {
		return nil
	}
	f := p.frame()
	l := p.layout(f, p.w, p.bodyHeight())
	under := -1
	for i, r := range l.boxes {
		if r.contains(msg.X, msg.Y) {
			under = i
		}
	}
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		p.wheel(under, -1)
	case tea.MouseButtonWheelDown:
		p.wheel(under, 1)
	case tea.MouseButtonLeft:
		return p.click(f, l, under, msg.X, msg.Y)
	}
	return nil
}

// wheel scrolls the focused pane under the mouse if it scrolls, and steps otherwise.
func (p *Player) wheel(under, delta int) {
	if under >= 0 && under == p.Focus {
		if s, ok := p.panes[under].(scroller); ok && s.Wheel(delta) {
			return
		}
	}
	if p.room.following {
		return
	}
	if delta > 0 {
		p.step()
		return
	}
	p.ahead = 0
	p.goTo(p.Pos - 1)
}

// click focuses the tab or pane under (x, y) and lets the pane answer at its content's (x, y).
func (p *Player) click(f *frame, l screenLayout, under, x, y int) tea.Cmd {
	if l.tabs && y == 0 {
		for i, r := range l.tabX {
			if x >= r[0] && x < r[1] {
				p.setFocus(i)
			}
		}
		return nil
	}
	if under < 0 {
		return nil
	}
	p.setFocus(under)
	if r := l.boxes[under]; !r.collapsed {
		return p.panes[under].Click(f, x-r.x-2, y-r.y-1, r.w-4, r.h-2)
	}
	return nil
}

func (p *Player) phase() string {
	off := p.opt.Scenario.Offline
	switch {
	case p.Pos < off-1:
		return "offline"
	case p.Pos == off-1:
		return "tuning"
	}
	return "online"
}

// R is the retraining cost in force at the current batch.
func (p *Player) R() float64 {
	return p.s.retrainCost(p.Scale)(max(p.Pos, 0))
}

// rText says R and how it relates to the scenario's: "R 31.25 (x1.56 of 20)", or shorter
// "R 31.25 x1.56".
func (p *Player) rText(short bool) string {
	_, s := p.s.Shown()
	same := math.Abs(p.Scale-1) < 1e-12
	switch {
	case same && short:
		return "R " + num(p.R())
	case same:
		return fmt.Sprintf("R %s (the scenario's)", num(p.R()))
	case short:
		return fmt.Sprintf("R %s x%.3g", num(p.R()), p.Scale)
	}
	return fmt.Sprintf("R %s (x%.3g of %s)", num(p.R()), p.Scale, s.RetrainCostText)
}

// statusPart is one part of the status line, in a long and a short form.
type statusPart struct {
	long, short string
	rank        int // dropped first when even the short line is too long: the highest
}

// status is the status line: every part in full when it fits, else shorter, else the least
// useful parts left out.
func (p *Player) status() string {
	state, short := "paused", "paused"
	if p.Playing {
		state, short = "▶ playing", "playing"
	}
	comp := p.s.progress() // the queue's place, the columns computed, or all
	compShort := comp
	vis := visibleSets[p.Visible]
	n := len(p.visible())
	parts := []statusPart{
		{p.opt.Scenario.Name, p.opt.Scenario.Name, 0},
		{fmt.Sprintf("seed %d", p.s.Seed), fmt.Sprintf("seed %d", p.s.Seed), 3},
		{fmt.Sprintf("batch %d/%d %s", max(p.Pos, 0), p.s.Matrix.Batches()-1, p.phase()), fmt.Sprintf("batch %d/%d", max(p.Pos, 0), p.s.Matrix.Batches()-1), 0},
		{p.rText(false), p.rText(true), 1},
		{fmt.Sprintf("%s, %g batches/s", state, speeds[p.Speed]), fmt.Sprintf("%s %g batches/s", short, speeds[p.Speed]), 3},
		{fmt.Sprintf("showing %s (%d)", vis.name, n), fmt.Sprintf("%s (%d)", vis.name, n), 4},
		{comp, compShort, 2},
	}
	if long, short := p.roomStatus(); long != "" {
		parts = slices.Insert(parts, 1, statusPart{long, short, 0})
	}
	if c := p.cmd.status(); c != "" {
		parts = append(parts, statusPart{c, c, 0})
	}
	if wi := p.wi.status(p, false); wi != "" {
		parts = append(parts, statusPart{wi, p.wi.status(p, true), 0})
	}
	line := func(parts []statusPart, short bool, drop int) string {
		var keep []string
		for _, s := range parts {
			switch {
			case s.rank > drop:
			case short:
				keep = append(keep, s.short)
			default:
				keep = append(keep, s.long)
			}
		}
		return " " + strings.Join(keep, " · ") + " "
	}
	// The form is chosen for the widest the parts get in this run (the last batch, "offline",
	// every column computed, playing at the top speed), so that it does not flip between two
	// wordings as the player steps, plays or pauses.
	widest := slices.Clone(parts)
	T := p.s.Matrix.Batches()
	for i, s := range widest {
		switch {
		case strings.HasPrefix(s.short, "batch "):
			widest[i] = statusPart{fmt.Sprintf("batch %d/%d offline", T-1, T-1), fmt.Sprintf("batch %d/%d", T-1, T-1), s.rank}
		case strings.HasSuffix(s.short, "batches/s"):
			widest[i] = statusPart{"▶ playing, 50 batches/s", "playing 50 batches/s", s.rank}
		case s.long == comp:
			n := max(width(comp), width(fmt.Sprintf("computed %d/%d", T, T)))
			widest[i] = statusPart{strings.Repeat("x", n), strings.Repeat("x", n), s.rank}
		}
	}
	terse, drop := false, 5
	for width(line(widest, terse, drop)) > p.w {
		if !terse {
			terse = true
			continue
		}
		if drop == 0 {
			break
		}
		drop--
	}
	out := line(parts, terse, drop)
	return p.st.Status.Width(p.w).Render(truncate(out, p.w))
}

// frame is what the panes draw: the what-if when one is shown, else the run itself.
func (p *Player) frame() *frame { return p.frameOf(p.s.WhatIf, p.rp) }

// frameOf is the frame of the what-if w (the run itself for nil) with its replay rp.
func (p *Player) frameOf(w *live.WhatIf, rp replay) *frame { return p.frameOfRun(p.s, w, rp) }

// frameOfRun is frameOf for the run of session s: the player's, or the one the command line
// changed away from (the split view's "before").
func (p *Player) frameOfRun(s *Session, w *live.WhatIf, rp replay) *frame {
	m, scen := s.view(w)
	var stream sim.Stream = s.Stream
	if w != nil && w.Batches != nil {
		stream = p.wi.streamOf(s.Stream, w)
	}
	f := &frame{st: p.st, scen: scen, m: m, stream: stream, drifts: s.Stream.Drifts(),
		pos: p.Pos, computed: s.Computed, done: s.Done, rp: rp, r: s.retrainCostOf(w, p.Scale), rScale: p.Scale,
		selected: p.selected(), visible: p.visible(), heat: p.heat, bounds: p.bounds,
		features: featureNames(s.Stream), zoomed: p.Zoomed, you: p.youResult(), ask: -1}
	if q, ok := p.overlay.(*guessOverlay); ok {
		f.ask, f.askModel = q.t, p.yourModel(q.t)
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
		body = p.body(f, l, bodyH)
	}
	if c := p.callout; c != nil {
		box, x, y := p.drawCallout(c, f, l, p.w, bodyH)
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

// body draws the panes where the layout put them, as bodyH lines.
func (p *Player) body(f *frame, l screenLayout, bodyH int) string {
	lines := make([]string, bodyH)
	if l.tabs {
		lines[0] = p.tabLine(f, l, p.w)
	}
	for i, r := range l.boxes {
		if !r.shown {
			continue
		}
		var box []string
		if r.collapsed {
			box = []string{p.bar(i, f, r.w)}
		} else {
			box = strings.Split(p.box(i, r, f), "\n")
		}
		for k, s := range box {
			if y := r.y + k; y >= 0 && y < bodyH {
				if r.x == 0 {
					lines[y] = s
				} else {
					lines[y] = overlayAt(lines[y], s, r.x)
				}
			}
		}
	}
	return strings.Join(lines, "\n")
}

// bar is a collapsed pane: its number and title on one line.
func (p *Player) bar(i int, f *frame, w int) string {
	s := fmt.Sprintf("▸ %d %s", i+1, p.panes[i].Title(f))
	return p.st.Collapsed.Render(padRight(truncate(s, w), w))
}

// boxCache is a pane's last drawn box.
type boxCache struct {
	title, body string
	r           rect
	focus       bool
	out         string
}

// box draws a pane in a border of the rect's size, its number and title in the top edge; the
// focused pane's border is heavy and bright. A box whose content, size and focus are unchanged is
// reused.
func (p *Player) box(i int, r rect, f *frame) string {
	pn := p.panes[i]
	w, h := r.w, r.h
	body := pn.View(f, w-4, h-2) // first: a title may say how the body is drawn
	title := fmt.Sprintf(" %d %s ", i+1, pn.Title(f))
	focus := i == p.Focus
	c := &p.boxes[i]
	if c.out != "" && c.r == r && c.focus == focus && c.body == body && c.title == title {
		return c.out
	}
	s := drawBox(p.st, title, body, w, h, focus)
	*c = boxCache{title: title, body: body, r: r, focus: focus, out: s}
	return s
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
