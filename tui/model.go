package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
)

// Minimum terminal size: below it the player asks for a larger terminal.
const (
	MinWidth  = 60
	MinHeight = 18
)

type keyMap struct {
	Play, Step, Back, Home, End, Faster, Slower, RDown, RUp, Next, Visible, Focus,
	Up, Down, Left, Right, Restart, Features, Pane, Help, Quit key.Binding
}

func newKeys() keyMap {
	return keyMap{
		Play:    key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "play/pause")),
		Step:    key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "step")),
		Back:    key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "back")),
		Home:    key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home", "first batch")),
		End:     key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end", "last computed")),
		Faster:  key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+/-", "speed")),
		Slower:  key.NewBinding(key.WithKeys("-"), key.WithHelp("-", "slower")),
		RDown:   key.NewBinding(key.WithKeys("["), key.WithHelp("[/]", "lower/raise R")),
		RUp:     key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "raise R")),
		Next:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next algorithm")),
		Visible: key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "which algorithms show")),
		Focus:   key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "matrix cursor on/off")),
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑↓←→", "move cursor (matrix focus; h/l still step)")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓", "cursor down")),
		// Only the arrows move the cursor sideways, so h and l still step while the matrix has focus.
		Left:     key.NewBinding(key.WithKeys("left")),
		Right:    key.NewBinding(key.WithKeys("right")),
		Restart:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "restart, new seed")),
		Features: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "next feature pair")),
		Pane:     key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6"), key.WithHelp("1-6", "pane (small terminals)")),
		Help:     key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "all keys")),
		Quit:     key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

// ShortHelp implements help.KeyMap.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Play, k.Step, k.Back, k.RDown, k.Next, k.Help, k.Quit}
}

// FullHelp implements help.KeyMap.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Play, k.Step, k.Back, k.Home, k.End, k.Faster},
		{k.RDown, k.Next, k.Visible, k.Restart, k.Features},
		{k.Focus, k.Up, k.Pane, k.Help, k.Quit},
	}
}

var speeds = []float64{1, 2, 5, 10, 20, 50}

// visibleSets are what v cycles through.
var visibleSets = [][]algos.Name{
	algos.Names,
	{"oracle", "cara-t", "cara-ct", "cara-p"},
	{"oracle", "never", "markov", "adwin", "ddm", "page-hinkley"},
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
	Runs *Runs
	// Context is the player's lifetime (an SSH session's): when it ends, the player's run is left.
	Context context.Context
}

// Player steps through one scenario. It is a tea.Model.
type Player struct {
	opt     Options
	st      *Styles
	keys    keyMap
	help    help.Model
	s       *Session
	pos     int
	ahead   int // a step asked for before its batch was computed: shown when it arrives
	playing bool
	speed   int
	scale   float64
	sel     int
	vis     int
	focus   bool
	cursor  [2]int
	pair    [2]int
	w, h    int
	compact int // the pane shown in a small terminal
	rp      replay
	err     error
	full    bool
	tick    int // invalidates stale ticks

	panes []pane
	boxes [6]boxCache
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
	p := &Player{opt: opt, st: st, keys: newKeys(), help: help.New(), s: s, pos: -1, speed: 2, scale: 1,
		pair: [2]int{0, 1}, w: 100, h: 32}
	if opt.Width > 0 && opt.Height > 0 {
		p.w, p.h = opt.Width, opt.Height
		p.help.Width = opt.Width
	}
	p.help.Styles.ShortKey = st.Bold
	p.help.Styles.ShortDesc = st.Help
	p.help.Styles.FullKey = st.Bold
	p.help.Styles.FullDesc = st.Help
	p.panes = []pane{&matrixPane{hm: newHeatmap(st), keys: p.keys}, &chartPane{}, &timelinePane{},
		&batchPane{keys: p.keys}, &tablePane{}, &aboutPane{}}
	if i := slices.Index(algos.Names, "cara-t"); i >= 0 {
		p.sel = i
	}
	return p, nil
}

// New returns the player for opt as a tea.Model; when the scenario cannot be streamed it returns a
// model that shows the error and quits on any key, so a caller (the SSH server) never gets nil.
func New(opt Options) tea.Model {
	p, err := NewPlayer(opt)
	if err != nil {
		return errorModel{err: err}
	}
	return p
}

// errorModel shows one error until a key is pressed.
type errorModel struct{ err error }

func (m errorModel) Init() tea.Cmd { return nil }

func (m errorModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.KeyMsg); ok {
		return m, tea.Quit
	}
	return m, nil
}

func (m errorModel) View() string { return "cara: " + m.err.Error() + "\n(press any key)" }

// Init implements tea.Model.
func (p *Player) Init() tea.Cmd { return p.s.Start() }

func (p *Player) visible() []algos.Name {
	var out []algos.Name
	for _, a := range visibleSets[p.vis] {
		if slices.Contains(p.opt.Scenario.Algorithms, a) || a == "oracle" {
			out = append(out, a)
		}
	}
	return out
}

func (p *Player) selected() algos.Name {
	v := p.visible()
	return v[p.sel%len(v)]
}

// refresh replays the algorithms at the current position and scale.
func (p *Player) refresh() {
	rp, err := p.s.evaluate(p.pos, p.scale, p.opt.Scenario.Algorithms)
	p.rp, p.err = rp, err
}

func (p *Player) ticker() tea.Cmd {
	p.tick++
	id := p.tick
	return tea.Tick(time.Duration(float64(time.Second)/speeds[p.speed]), func(time.Time) tea.Msg { return tickMsg{id} })
}

// Update implements tea.Model.
func (p *Player) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		p.w, p.h = msg.Width, msg.Height
		p.help.Width = msg.Width
		return p, nil
	case columnMsg:
		if msg.s != p.s {
			return p, nil // a restarted session's leftovers
		}
		cmd := p.s.apply(msg)
		if p.ahead > p.pos && p.pos >= 0 {
			p.pos = min(p.ahead, p.s.Computed-1)
			p.refresh()
		}
		if p.pos < 0 {
			p.pos = 0
			p.refresh()
		}
		return p, cmd
	case queuedMsg:
		return p, p.s.queued(msg)
	case engineDoneMsg:
		if msg.s == p.s {
			p.s.Done, p.s.Err = true, msg.err
		}
		return p, nil
	case tickMsg:
		if msg.id != p.tick || !p.playing {
			return p, nil
		}
		if p.pos+1 < p.s.Computed {
			p.pos++
			p.refresh()
		} else if p.s.Done && p.pos == p.s.Matrix.Batches()-1 {
			p.playing = false
			return p, nil
		}
		return p, p.ticker()
	case tea.KeyMsg:
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
			return p.keys1(msg.Runes)
		}
		return p.key(msg)
	}
	return p, nil
}

// keys1 handles keys typed faster than the terminal is read (bubbletea then delivers "lll" as one
// message), one at a time, so no step is lost.
func (p *Player) keys1(runes []rune) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	for _, r := range runes {
		m, cmd := p.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		cmds = append(cmds, cmd)
		if m != tea.Model(p) {
			return m, tea.Batch(cmds...)
		}
	}
	return p, tea.Batch(cmds...)
}

func (p *Player) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := p.keys
	if p.focus {
		switch {
		case key.Matches(msg, k.Up):
			p.cursor[0] = max(p.cursor[0]-1, 0)
			return p, nil
		case key.Matches(msg, k.Down):
			p.cursor[0] = min(p.cursor[0]+1, p.cursor[1])
			return p, nil
		case key.Matches(msg, k.Left):
			p.cursor[1] = max(p.cursor[1]-1, p.cursor[0])
			return p, nil
		case key.Matches(msg, k.Right):
			p.cursor[1] = min(p.cursor[1]+1, max(p.pos, 0))
			return p, nil
		}
	}
	switch {
	case key.Matches(msg, k.Quit):
		p.s.Stop()
		if p.opt.Back != nil && msg.String() == "q" {
			return p.opt.Back()
		}
		return p, tea.Quit
	case key.Matches(msg, k.Help):
		p.full = !p.full
		p.help.ShowAll = p.full
	case key.Matches(msg, k.Play):
		p.playing = !p.playing
		if p.playing {
			return p, p.ticker()
		}
	case key.Matches(msg, k.Step):
		if p.pos+1 < p.s.Computed {
			p.pos++
			p.refresh()
		} else if p.pos+1 < p.s.Matrix.Batches() {
			// Not computed yet: the step waits for the engine instead of vanishing.
			p.ahead = min(max(p.ahead, p.pos)+1, p.s.Matrix.Batches()-1)
		}
	case key.Matches(msg, k.Back):
		p.ahead = 0
		if p.pos > 0 {
			p.pos--
			p.refresh()
		}
	case key.Matches(msg, k.Home):
		p.pos = min(0, p.s.Computed-1)
		p.refresh()
	case key.Matches(msg, k.End):
		p.pos = p.s.Computed - 1
		p.refresh()
	case key.Matches(msg, k.Faster):
		p.speed = min(p.speed+1, len(speeds)-1)
	case key.Matches(msg, k.Slower):
		p.speed = max(p.speed-1, 0)
	case key.Matches(msg, k.RUp):
		p.scale *= 1.25
		p.refresh()
	case key.Matches(msg, k.RDown):
		p.scale /= 1.25
		p.refresh()
	case key.Matches(msg, k.Next):
		p.sel = (p.sel + 1) % len(p.visible())
	case key.Matches(msg, k.Visible):
		cur := p.selected()
		p.vis = (p.vis + 1) % len(visibleSets)
		p.sel = max(slices.Index(p.visible(), cur), 0)
	case key.Matches(msg, k.Focus):
		p.focus = !p.focus
		if p.focus {
			p.cursor = [2]int{max(p.pos-1, 0), max(p.pos, 0)}
		}
	case key.Matches(msg, k.Features):
		d := p.opt.Scenario.Features
		if d > 2 {
			p.pair[1]++
			if p.pair[1] >= d {
				p.pair[0] = (p.pair[0] + 1) % (d - 1)
				p.pair[1] = p.pair[0] + 1
			}
		}
	case key.Matches(msg, k.Pane):
		p.compact = int(msg.String()[0]-'1') % len(p.panes)
	case key.Matches(msg, k.Restart):
		p.s.Stop()
		s, err := p.opt.newSession(p.s.Seed + 1)
		if err != nil {
			p.err = err
			return p, nil
		}
		p.s, p.pos, p.playing, p.rp, p.ahead = s, -1, false, replay{}, 0
		return p, s.Start()
	}
	return p, nil
}

func (p *Player) phase() string {
	off := p.opt.Scenario.Offline
	switch {
	case p.pos < off-1:
		return "offline"
	case p.pos == off-1:
		return "tuning"
	}
	return "online"
}

// R is the retraining cost in force at the current batch.
func (p *Player) R() float64 {
	return p.s.retrainCost(p.scale)(max(p.pos, 0))
}

func (p *Player) status() string {
	state := "paused"
	if p.playing {
		state = "playing"
	}
	comp := p.s.progress()
	left := fmt.Sprintf(" %s  seed %d  batch %d/%d  %s  R %.4g  %s %gx  %s ", p.opt.Scenario.Name, p.s.Seed,
		max(p.pos, 0), p.s.Matrix.Batches()-1, p.phase(), p.R(), state, speeds[p.speed], comp)
	return p.st.Status.Width(p.w).Render(truncate(left, p.w))
}

func truncate(s string, w int) string {
	r := []rune(s)
	if len(r) > w {
		return string(r[:max(w-1, 0)]) + "…"
	}
	return s
}

func (p *Player) frame() *frame {
	return &frame{st: p.st, s: p.s, pos: p.pos, rp: p.rp, selected: p.selected(), visible: p.visible(),
		cursor: p.cursor, focus: p.focus, pair: p.pair}
}

// box draws a pane with its title in a border of the given outer size. The border and padding are
// the costliest part of a frame (lipgloss measures every line), so a box whose content, size and
// focus are unchanged is reused.
func (p *Player) box(i int, w, h int, f *frame) string {
	pn := p.panes[i]
	pn.SetSize(w, h)
	pn.SetFrame(f)
	focus := i == 0 && p.focus
	body := p.st.Title.Render(fmt.Sprintf("%d %s", i+1, pn.Title())) + "\n" + pn.View()
	c := &p.boxes[i]
	if c.out != "" && c.w == w && c.h == h && c.focus == focus && c.body == body {
		return c.out
	}
	st := p.st.Pane
	if focus {
		st = p.st.PaneFocus
	}
	out := st.Width(w - 2).Height(h - 2).Render(clip(body, w-4, h-2))
	*c = boxCache{body: body, w: w, h: h, focus: focus, out: out}
	return out
}

// boxCache is a pane's last drawn box.
type boxCache struct {
	body  string
	w, h  int
	focus bool
	out   string
}

// joinH puts boxes side by side. Every box is exactly as wide as the layout made it and all boxes
// of a row are equally tall, so joining line by line is enough (lipgloss.JoinHorizontal measures
// every line again).
func joinH(boxes ...string) string {
	split := make([][]string, len(boxes))
	n := 0
	for i, b := range boxes {
		split[i] = strings.Split(b, "\n")
		n = max(n, len(split[i]))
	}
	var out strings.Builder
	for l := range n {
		if l > 0 {
			out.WriteByte('\n')
		}
		for _, lines := range split {
			if l < len(lines) {
				out.WriteString(lines[l])
			}
		}
	}
	return out.String()
}

// clip cuts a block to at most w columns and h lines, so a pane never breaks the layout.
func clip(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:max(h, 0)]
	}
	for i, l := range lines {
		if lipgloss.Width(l) > w {
			lines[i] = truncateANSI(l, w)
		}
	}
	return strings.Join(lines, "\n")
}

// View implements tea.Model.
func (p *Player) View() string {
	if p.w < MinWidth || p.h < MinHeight {
		msg := fmt.Sprintf("cara needs a terminal of at least %dx%d; this one is %dx%d.\nEnlarge the terminal, or press q to quit.", MinWidth, MinHeight, p.w, p.h)
		return lipgloss.Place(p.w, p.h, lipgloss.Center, lipgloss.Center, msg)
	}
	f := p.frame()
	var body string
	footer := []string{p.status()}
	if e := explain(f); e != "" {
		footer = append(footer, truncate(" "+e, p.w))
	} else {
		footer = append(footer, "")
	}
	if p.err != nil {
		footer[1] = p.st.Error.Render(truncate(" "+p.err.Error(), p.w))
	}
	if p.s.Err != nil {
		footer[1] = p.st.Error.Render(truncate(" engine: "+p.s.Err.Error(), p.w))
	}
	helpView := clip(p.help.View(p.keys), p.w, p.h/2)
	footer = append(footer, helpView)
	fh := lipgloss.Height(strings.Join(footer, "\n"))
	avail := p.h - fh
	switch {
	case p.w >= 120 && avail >= 30:
		left := (p.w + 1) / 2
		right := p.w - left
		top := max(avail*45/100, 12)
		mid := max((avail-top)*55/100, 8)
		bottom := avail - top - mid
		row1 := joinH(p.box(0, left, top, f), p.box(1, right, top, f))
		row2 := joinH(p.box(2, left, mid, f), p.box(3, right, mid, f))
		row3 := joinH(p.box(4, left, bottom, f), p.box(5, right, bottom, f))
		body = row1 + "\n" + row2 + "\n" + row3
	default:
		// Small terminals: one pane at a time (keys 1-6), the results table always under it when
		// there is room.
		tabs := make([]string, len(p.panes))
		for i, pn := range p.panes {
			t := fmt.Sprintf("%d %s", i+1, strings.Fields(pn.Title())[0])
			if i == p.compact {
				t = p.st.StatusKey.Render(t)
			}
			tabs[i] = t
		}
		tabLine := truncateANSI(strings.Join(tabs, " "), p.w)
		mainH := avail - 1
		if p.compact != 4 && avail >= 24 {
			tableH := min(len(p.visible())+4, avail/3)
			mainH -= tableH
			body = tabLine + "\n" + p.box(p.compact, p.w, mainH, f) + "\n" + p.box(4, p.w, tableH, f)
		} else {
			body = tabLine + "\n" + p.box(p.compact, p.w, mainH, f)
		}
	}
	return body + "\n" + strings.Join(footer, "\n")
}

// truncateANSI cuts a styled line to w visible columns.
func truncateANSI(s string, w int) string {
	if lipgloss.Width(s) <= w {
		return s
	}
	return lipgloss.NewStyle().MaxWidth(w).Render(s)
}
