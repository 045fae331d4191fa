package tui

import (
	"context"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/pane/matrix"
	"github.com/cara-sim/cara/tui/internal/run"
	"github.com/cara-sim/cara/tui/internal/screen"
	"github.com/cara-sim/cara/tui/internal/whatif"
	"github.com/cara-sim/cara/tui/internal/workshop"
)

// Minimum terminal size: below it the player asks for a larger terminal.
const (
	MinWidth  = 60
	MinHeight = 18
)

// speeds are the playing speeds, in batches per second.
var speeds = []float64{1, 2, 5, 10, 20, 50}

// visibleSets are what v cycles through, with the names the status line gives them: each takes,
// of the algorithms a scenario runs, those it keeps (the Oracle always). "all" is every row the
// scenario has, the detectors it chose (detectors.run) and its fixed schedules included.
var visibleSets = []struct {
	name string
	keep func(algos.Name) bool
}{
	{"all", func(algos.Name) bool { return true }},
	{"Oracle + CARA", func(a algos.Name) bool { return slices.Contains([]algos.Name{"cara-t", "cara-ct", "cara-p"}, a) }},
	{"Oracle + baselines", func(a algos.Name) bool {
		return !slices.Contains([]algos.Name{"cara-t", "cara-ct", "cara-p"}, a)
	}},
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
	// Reparse, when set, checks the editor's text (by default from.Reparse): a server admits the
	// check against its memory first.
	Reparse func(from *scenarios.Scenario, text []byte) (*scenarios.Scenario, error)
	// Untrusted marks a served player: the scenarios its command line and editor make may read no
	// file but the embedded data and the CSV files in FilesDir (the server's offered folder).
	Untrusted bool
	FilesDir  string
}

// Player steps through one scenario. It is a tea.Model.
type Player struct {
	opt  Options
	st   *Styles
	keys playerKeys // the player's own; the panes, the what-if bar and the workshop have theirs
	s    *run.Session
	// Shown is what the player shows (the batch, speed, R's scale, selection, focus, cursor): the
	// value a presenter's stage carries to the room.
	room.Shown
	ahead   int // a step asked for before its batch was computed: shown when it arrives
	w, h    int
	overlay overlay // drawn over the panes, taking the keys (nil when none)
	rp      run.Replay
	err     error
	tick    int            // invalidates stale ticks
	colours matrix.Colours // the heat map's colour scale
	bounds  *run.Bounds

	panes screen.Set

	// The workshop (package workshop): a tour, the guess round, the room, the callout over the panes.
	// It changes the player only by the effects it returns (effects.go).
	ws       workshop.Workshop
	stopUndo whatif.State // the what-if in force before a tour stop's own (StopWhatIf)
	notice   string       // a one-line notice that the next key clears
	quitting bool         // effect.Quit was made: the key that made it closes the player

	wi    whatif.Bar
	cmd   whatif.Commands // the command line (:) and the what-if it has built
	edit  *whatif.Editor  // the scenario editor (e); nil when closed
	split whatif.Split    // the split view (W)
	// before is the run of the scenario as opened while the command line's change of its data or
	// model runs in its place (effect.Rerun's KeepBefore): still watched, for the split view.
	before *run.Session
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
		st = draw.NewStyles(r)
	}
	p := &Player{opt: opt, st: st, keys: newPlayerKeys(), s: s, Shown: room.Shown{Pos: -1, Speed: 2, Scale: 1}, w: 100, h: 32}
	if opt.Width > 0 && opt.Height > 0 {
		p.w, p.h = opt.Width, opt.Height
	}
	p.panes = screen.New()
	p.split = whatif.NewSplit()
	p.wi = whatif.NewBar()
	p.Selected = pick(p.visible(), algos.NameCaraT, 0)
	p.cmd = whatif.NewCommands()
	p.ws = workshop.New(opt.Member)
	return p, nil
}

// Init implements tea.Model: the engine starts, the scatter's axes are scanned, the mouse is on.
func (p *Player) Init() tea.Cmd {
	var tour tea.Cmd
	if p.opt.Tour {
		tour = p.apply(p.ws.ToggleTour(p.workshopFrame()))
	}
	return tea.Batch(p.s.Start(), run.ScanBounds(p.s), tea.EnableMouseCellMotion, tour)
}

func (p *Player) visible() []algos.Name { return visibleIn(p.opt.Scenario, p.Visible) }

// visibleIn is visible set v's algorithms that scenario s runs, the Oracle always.
func visibleIn(s *scenarios.Scenario, v int) []algos.Name {
	out := []algos.Name{algos.NameOracle}
	for _, a := range s.Algorithms {
		if a != algos.NameOracle && visibleSets[v].keep(a) {
			out = append(out, a)
		}
	}
	// Display order (the schedules last, as the scenario lists them), whatever the scenario's.
	slices.SortStableFunc(out[1:], func(a, b algos.Name) int { return a.Rank() - b.Rank() })
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
	rp, err := p.s.Evaluate(p.Pos, p.Scale, p.opt.Scenario.Algorithms)
	p.rp = rp
	p.err = p.split.Refresh(p.s, p.before, rp, err, p.Pos, p.Scale, p.opt.Scenario.Algorithms)
}

func (p *Player) ticker() tea.Cmd {
	p.tick++
	id := p.tick
	rate := speeds[p.Speed]
	rate = max(rate, p.ws.Tour().MinRate())
	return tea.Tick(time.Duration(float64(time.Second)/rate), func(time.Time) tea.Msg { return tickMsg{id} })
}

// Update implements tea.Model. A presenter's player gives the room its stage after each message.
func (p *Player) Update(msg tea.Msg) (m tea.Model, cmd tea.Cmd) {
	defer func() {
		if m == tea.Model(p) {
			p.ws.Room().Publish(p.presented)
		}
	}()
	switch msg := msg.(type) {
	case roomMsg:
		return p.onRoom(msg.v)
	case tea.WindowSizeMsg:
		p.w, p.h = msg.Width, msg.Height
		p.edit.Resize(p.w, p.h)
	case whatif.EditMsg:
		cmd = p.editor(msg)
	case run.ColumnMsg:
		cmd = p.column(msg)
	case run.QueuedMsg, run.DoneMsg, run.BoundsMsg:
		cmd = p.run(msg)
	case run.WhatIfMsg:
		cmd = p.apply(p.wi.Arrived(p.host(), msg))
	case whatif.CheckedMsg:
		cmd = p.apply(p.cmd.Checked(p.host(), msg))
	case tickMsg:
		cmd = p.play(msg)
	case tea.MouseMsg:
		cmd = p.mouse(msg)
	case tea.KeyMsg:
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
			return p.runes(msg.Runes)
		}
		return p.key(msg)
	default:
		if p.cmd.Typing() { // the line's input has messages of its own
			cmd = p.apply(p.cmd.Update(p.host(), msg))
		}
	}
	return p, cmd
}

// editor hands the open editor a message (a key, its timers, a check's outcome) and makes the
// effects it returns; the editor closes itself (nil) on esc and on running its text.
func (p *Player) editor(msg tea.Msg) tea.Cmd {
	if p.edit == nil {
		return nil
	}
	var e effect.Effects
	p.edit, e = p.edit.Update(p.host(), msg)
	return p.apply(e)
}

// run takes the engine's word on the run shown (or on the split view's run before it): its place
// in the queue, its end, the scatter's axes.
func (p *Player) run(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case run.QueuedMsg:
		return p.s.Queued(msg)
	case run.DoneMsg:
		if o := p.before; msg.Session == o && o != p.s {
			o.Finish(msg.Err)
		}
		if msg.Session != p.s {
			return nil
		}
		p.s.Finish(msg.Err)
		var warm tea.Cmd
		if p.wi.Showing() {
			warm = p.s.WarmWhatIf()
		}
		return tea.Batch(warm, p.apply(p.wi.StartPending(p.host())))
	case run.BoundsMsg:
		if msg.Session != p.s {
			return nil
		}
		p.bounds = msg.Bounds
		p.panes.Batch.Scanned(msg.Bounds)
		if p.wi.Showing() {
			p.wi.Place(p.host())
		}
	}
	return nil
}

// column stores a computed column and shows a step that waited for it.
func (p *Player) column(msg run.ColumnMsg) tea.Cmd {
	if msg.Session == p.before && msg.Session != p.s {
		return msg.Session.Apply(msg) // the split view's "before" run, still computing
	}
	if msg.Session != p.s {
		return nil // a restarted session's leftovers
	}
	cmd := p.s.Apply(msg)
	if p.Pos < 0 {
		p.Pos = 0
		p.refresh()
	}
	if p.ahead > p.Pos {
		p.Pos = min(p.ahead, p.s.Computed-1)
		p.refresh()
		cmd = tea.Batch(cmd, p.apply(p.ws.RevealDue(p.workshopFrame())))
	}
	if p.rp.Provisional && p.s.Computed == p.s.Matrix.Batches() {
		p.refresh() // the last column: the Oracle shown is the paper's now, not the best so far
	}
	return cmd
}

func (p *Player) play(msg tickMsg) tea.Cmd {
	if msg.id != p.tick || !p.Playing || p.ws.Room().Following() {
		return nil
	}
	if e, stop := p.ws.TourStep(p.workshopFrame()); stop {
		return p.apply(e)
	}
	if e, stop := p.ws.Step(p.workshopFrame()); stop {
		return p.apply(e)
	}
	if p.Pos+1 < p.s.Computed {
		p.Pos++
		p.refresh()
		if e, stop := p.ws.TourStep(p.workshopFrame()); stop {
			return p.apply(e)
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

// end shows the last batch: the last computed now, and, while the engine computes, each column as
// it comes until the last (the status line says how far there is to go).
func (p *Player) end() {
	p.goTo(p.s.Computed - 1)
	if last := p.s.Matrix.Batches() - 1; !p.s.Done && p.Pos < last {
		p.ahead = last
	}
}

// step shows the next batch, or waits for the engine to compute it; in a guess round the
// workshop asks about the batch first.
func (p *Player) step() tea.Cmd {
	if e, asked := p.ws.Step(p.workshopFrame()); asked {
		return p.apply(e)
	}
	switch {
	case p.Pos+1 < p.s.Computed:
		p.Pos++
		p.refresh()
	case p.Pos+1 < p.s.Matrix.Batches():
		p.ahead = min(max(p.ahead, p.Pos)+1, p.s.Matrix.Batches()-1)
	}
	return nil
}

func (p *Player) setFocus(i int) {
	if i >= 0 && i < pane.Count {
		if i != p.Focus {
			p.Zoomed = false
		}
		p.Focus = i
	}
}

// reopen runs the scenario again with seed: a new matrix, so the tour and the guesses start over.
// On another seed the command line's run before goes: it is of the seed left.
func (p *Player) reopen(seed uint64) tea.Cmd {
	if seed != p.s.Seed {
		p.dropBefore()
	}
	if p.s != p.before { // the command line's run before stays watched for the split view
		p.s.Stop()
	}
	s, err := p.opt.newSession(seed)
	if err != nil {
		p.err = err
		return nil
	}
	p.s, p.Pos, p.Playing, p.rp, p.ahead = s, -1, false, run.Replay{}, 0
	p.split.Clear()
	p.bounds = nil
	// The what-if stays chosen: it applies to the new run when that is done (whatif.Bar.StartPending). The
	// tour and the guesses were about the old run's matrix.
	return tea.Batch(s.Start(), run.ScanBounds(s), p.apply(p.ws.Reset()))
}

// rerun runs e.Scenario, the scenario the player opens from now on, on e's seed (the seed shown
// when it names none: a :set seed=, or the editor's seed: line, names one), and goes
// back to the batch shown once the new run has computed it (the status line counts the way
// there); the run shown stays watched as the run before when e keeps it, else the run before goes.
func (p *Player) rerun(e effect.Rerun) tea.Cmd {
	pos := p.Pos
	seed := p.s.Seed
	if e.Seed != nil {
		seed = *e.Seed
	}
	if e.KeepBefore && p.before == nil {
		p.before = p.s // reopen leaves it watched (on the same seed)
	}
	p.opt.Scenario = e.Scenario
	cmd := p.reopen(seed)
	if !e.KeepBefore {
		p.dropBefore()
	}
	p.ahead = min(max(pos, 0), e.Scenario.Batches-1)
	return cmd
}

// dropBefore lets the run before go (back to the scenario, a new seed, the player closed).
func (p *Player) dropBefore() {
	if p.before != nil {
		p.before.Stop()
		p.before = nil
	}
}

// withDefaults fills what a player needs and was not given: a registry of its own (one run
// computing at a time: a local player's r replaces its run rather than adding one) and a lifetime.
func (o Options) withDefaults() Options {
	if o.Runs == nil {
		o.Runs = live.NewRuns(live.RunsConfig{MaxComputing: 1, Cache: 2, Workers: o.Workers})
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	return o
}

// newSession prepares the player's run with seed, in its registry and lifetime.
func (o Options) newSession(seed uint64) (*run.Session, error) {
	return run.New(o.Scenario, seed, o.Runs, o.Context)
}
