package whatif

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/run"
)

// The what-if bar (w): the queries elsewhere, gamma halved or doubled, R as [ and ] set it. Every
// change becomes a list of --set overrides (the session's what-if, computed off the UI goroutine
// from the finished run's errors and models), and the panes show the what-if when it arrives; a
// newer change supersedes one still computing. x returns to the scenario, W shows the scenario
// and the what-if side by side.

// Where the what-if's queries come from.
const (
	QueriesOwn    = iota // the scenario's
	QueriesData          // a fraction of each batch's data
	QueriesStatic        // a gaussian at a point the arrows move
	QueriesAlt           // one the scenario file lists under whatif.queries
)

// fractions are "follow the data"'s shares of each batch, < and > stepping through them.
var fractions = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1}

// spreads are the static queries' standard deviations, in units of the data's decade (1 for data
// in [0, 1]); < and > step through them.
var spreads = []float64{0.005, 0.01, 0.015, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5}

const (
	SpreadStart = 4    // 0.05 of the decade
	centreStep  = 0.05 // of the decade, per arrow key
	gammaSteps  = 4    // gamma from /16 to x16
)

// State is what the bar has chosen. The zero value is the scenario itself.
type State struct {
	Queries  int
	Alt      int   // which of the file's alternatives
	Fraction int   // index into fractions (set when the bar first opens)
	Centre   []int // the static centre per feature, in centre steps
	Spread   int   // index into spreads
	Gamma    int   // gamma x 2^gamma
	// External is a what-if given whole (a tour's stop, a presenter): the bar's choices stand
	// aside until the bar changes one. name, when set, is how it is described (a presenter's
	// words for it).
	External []string
	Name     string
}

// IsScenario reports whether the state is the scenario itself.
func (s State) IsScenario() bool {
	return s.External == nil && s.Queries == QueriesOwn && s.Gamma == 0
}

// widen steps the share of the data the queries follow, or the static queries' spread, d places;
// false when the queries have neither.
func (s *State) widen(d int) bool {
	switch s.Queries {
	case QueriesData:
		s.Fraction = min(max(s.Fraction+d, 0), len(fractions)-1)
	case QueriesStatic:
		s.Spread = min(max(s.Spread+d, 0), len(spreads)-1)
	default:
		return false
	}
	return true
}

// StaticGeom is what the static queries are placed with: a decade and a step from the data's
// range, each feature's range, and the number of queries a batch.
type StaticGeom struct {
	unit   float64 // the decade of the data's range (1 for data within a few units of [0, 1])
	Lo, Hi []float64
	size   int
}

// NewStaticGeom reads the static queries' geometry off the scatter's axes: the range of every
// batch's data and queries.
func NewStaticGeom(b *run.Bounds, size int) *StaticGeom {
	r := 0.0
	for j := range b.Lo {
		r = max(r, b.Hi[j]-b.Lo[j])
	}
	unit := 1.0
	if r > 0 && !math.IsInf(r, 0) {
		unit = math.Pow(10, math.Floor(math.Log10(r)))
	}
	return &StaticGeom{unit: unit, Lo: b.Lo, Hi: b.Hi, size: max(size, 1)}
}

func (g *StaticGeom) Step() float64 { return centreStep * g.unit }

// Start is the static centre a bar starts at: the middle of each feature's range, in steps.
func (g *StaticGeom) Start() []int {
	out := make([]int, len(g.Lo))
	for j := range out {
		out[j] = int(math.Round((g.Lo[j] + g.Hi[j]) / 2 / g.Step()))
	}
	return out
}

// clamp keeps a centre coordinate within its feature's range.
func (g *StaticGeom) clamp(j, k int) int {
	lo, hi := int(math.Ceil(g.Lo[j]/g.Step()-1e-9)), int(math.Floor(g.Hi[j]/g.Step()+1e-9))
	return min(max(k, lo), max(hi, lo))
}

// Decimal writes a placed value as YAML and the status line read it: six significant digits at
// most, so 7 steps of 0.05 are 0.35.
func Decimal(v float64) string {
	s := strconv.FormatFloat(v, 'g', 6, 64)
	if s == "-0" {
		return "0"
	}
	return s
}

// fixed writes a centre coordinate with the step's decimals ("0.50").
func (g *StaticGeom) fixed(k int) string {
	d := max(0, int(math.Ceil(-math.Log10(g.Step())-1e-9)))
	return strconv.FormatFloat(float64(k)*g.Step(), 'f', d, 64)
}

// Host is what the what-if parts (the bar, the command line, the editor, the split view) read of
// the player that shows them: its runs and scenario, what its panes draw, and the checks a served
// player makes of a scenario. It answers and changes nothing: a part asks for every change by the
// Effects it returns, which the player makes. The player gives them a host (host.go); their tests
// drive them with a fake.
type Host interface {
	Session() *run.Session // the run on screen, and the what-if it shows (the bar asks it for one)
	// Before is the run of the scenario as opened while the command line's change of its data or
	// model runs in its place: the split view's "before" (nil when there is none).
	Before() *run.Session
	Scenario() *scenarios.Scenario // the scenario the player runs
	// Trusted is s as the player may change it: confined to the embedded data and the offered
	// folder when the player is served; check refuses a scenario the server's budget cannot run
	// (nil for any).
	Trusted(s *scenarios.Scenario) *scenarios.Scenario
	Check(s *scenarios.Scenario) error
	// Reparse checks the editor's text as from's (a served player's server admits the check
	// against its memory first).
	Reparse(from *scenarios.Scenario, text []byte) (*scenarios.Scenario, error)
	Frame() *pane.Frame // what the panes draw now: the styles, the batch shown, the data's range
	// FrameOfRun is what the panes would draw of run s under the what-if w (nil: the run itself)
	// with the replay rp: the split view's other side.
	FrameOfRun(s *run.Session, w *live.WhatIf, rp run.Replay) *pane.Frame
	Pair() [2]int // the features the batch pane shows: the arrows move the static centre along them
}

// Bar is the bar's state in the player.
type Bar struct {
	keys   BarKeys
	open   bool
	state  State
	geom   *StaticGeom // nil until the scatter's axes are known
	opened bool        // the bar has opened once: "follow the data" has its start
	stream *batchesStream
}

func NewBar() Bar { return Bar{keys: NewBarKeys()} }

// BarKeys are the open bar's own keys. While it is open the player asks it first (Player.key), so
// its g, s, d, c, a, b, < and > take the place of the player's and the panes' keys of the same
// letters; the arrows move the static point only while the queries are static.
type BarKeys struct {
	Own, Data, Static, Alt                  key.Binding
	Move                                    key.Binding // the help's name for the four below
	MoveLeft, MoveRight, MoveUp, MoveDown   key.Binding
	Narrow, Widen, GammaDown, GammaUp, Back key.Binding
	Close                                   key.Binding // esc, enter or w
}

func NewBarKeys() BarKeys {
	return BarKeys{
		Own:       keys.Bind([]string{"s"}, "s", "the scenario's queries"),
		Data:      keys.Bind([]string{"d"}, "d", "queries follow the data"),
		Static:    keys.Bind([]string{"c"}, "c", "static queries at a point"),
		Alt:       keys.Bind([]string{"a"}, "a", "the file's other queries"),
		Move:      keys.Bind([]string{"up", "down", "left", "right"}, "←↑↓→", "move the static point"),
		MoveLeft:  keys.Bind([]string{"left"}, "←", "static point left"),
		MoveRight: keys.Bind([]string{"right"}, "→", "static point right"),
		MoveUp:    keys.Bind([]string{"up"}, "↑", "static point up"),
		MoveDown:  keys.Bind([]string{"down"}, "↓", "static point down"),
		Narrow:    keys.Bind([]string{"<"}, "<", "narrower (static) / fewer (data)"),
		Widen:     keys.Bind([]string{">"}, ">", "wider / more"),
		GammaDown: keys.Bind([]string{"g"}, "g", "gamma ÷2"),
		GammaUp:   keys.Bind([]string{"G"}, "G", "gamma ×2"),
		Back:      keys.Bind([]string{"b"}, "b", "gamma back"),
		Close:     keys.Bind([]string{"esc", "enter", "w"}, "esc", "close the bar"),
	}
}

// Enable turns the bar's keys on while it is open and no question takes the keys.
func (k *BarKeys) Enable(m keys.Mode) {
	keys.Enable(m.Free() && m.Bar, &k.Own, &k.Data, &k.Static, &k.Alt, &k.Move, &k.MoveLeft, &k.MoveRight, &k.MoveUp,
		&k.MoveDown, &k.Narrow, &k.Widen, &k.GammaDown, &k.GammaUp, &k.Back, &k.Close)
}

// ShortHelp are the bar's keys first on the help line while it is open.
func (k *BarKeys) shortHelp() []key.Binding {
	return []key.Binding{k.Own, k.Data, k.Static, k.Alt, k.Narrow, k.Widen, k.GammaDown, k.GammaUp}
}

// group is the full help's group of the bar's keys.
func (k *BarKeys) group() keys.Group {
	return keys.Group{Title: "What-if bar (open)", Keys: []key.Binding{k.Own, k.Data, k.Static, k.Alt, k.Move, k.Narrow, k.Widen,
		k.GammaDown, k.GammaUp, k.Back}}
}

// Geom is where the static queries are placed (nil until the data's range is known).
func (b *Bar) Geom() *StaticGeom { return b.geom }

// Showing reports whether the bar is open.
func (b *Bar) Showing() bool { return b.open }

// Hide closes the bar (a follower joining: the presenter decides the what-if).
func (b *Bar) Hide() { b.open = false }

// Current is what the bar has chosen.
func (b *Bar) Current() State { return b.state }

// Enable turns the bar's keys on or off for mode m; ShortHelp and Help are its keys for the help.
func (b *Bar) Enable(m keys.Mode)       { b.keys.Enable(m) }
func (b *Bar) ShortHelp() []key.Binding { return b.keys.shortHelp() }
func (b *Bar) Help() keys.Group         { return b.keys.group() }

// BarLines is the bar's height: a title rule, the queries, gamma and R with the what-if's state.
const BarLines = 3

// sets turns the bar's state into --set overrides, given the run's own gamma.
func (b *Bar) sets(h Host, st State, gamma float64) []string {
	if st.External != nil {
		return st.External
	}
	var sets []string
	switch st.Queries {
	case QueriesData:
		sets = append(sets, fmt.Sprintf("queries={from: data, fraction: %s}", Decimal(fractions[st.Fraction])))
	case QueriesStatic:
		if g := b.geom; g != nil {
			mean := make([]string, len(st.Centre))
			for j, k := range st.Centre {
				mean[j] = Decimal(float64(k) * g.Step())
			}
			sets = append(sets, fmt.Sprintf("queries={size: %d, gaussian: {mean: [%s], std: %s}}", g.size,
				strings.Join(mean, ", "), Decimal(spreads[st.Spread]*g.unit)))
		}
	case QueriesAlt:
		if alts := h.Scenario().WhatIfQueries; st.Alt < len(alts) {
			sets = append(sets, alts[st.Alt].Set)
		}
	}
	if st.Gamma != 0 {
		sets = append(sets, live.GammaSet(gamma*math.Ldexp(1, st.Gamma)))
	}
	return sets
}

// Describe says what the state changes from the scenario, as the status line shows it: "queries
// static at (0.50, 0.50) sd 0.05, gamma x2". short is for a narrow status line.
func (b *Bar) Describe(h Host, st State, short bool) string {
	if st.External != nil {
		if st.Name != "" {
			return st.Name
		}
		return strings.Join(st.External, ", ")
	}
	var parts []string
	switch st.Queries {
	case QueriesData:
		f := fmt.Sprintf("%s %% of each batch", Decimal(100*fractions[st.Fraction]))
		if short {
			parts = append(parts, "data "+f)
		} else {
			parts = append(parts, "queries follow the data ("+f+")")
		}
	case QueriesStatic:
		if g := b.geom; g != nil {
			at := b.staticAt(h, st, g)
			if short {
				parts = append(parts, fmt.Sprintf("static %s sd %s", at, Decimal(spreads[st.Spread]*g.unit)))
			} else {
				parts = append(parts, fmt.Sprintf("queries static at %s sd %s", at, Decimal(spreads[st.Spread]*g.unit)))
			}
		}
	case QueriesAlt:
		if alts := h.Scenario().WhatIfQueries; st.Alt < len(alts) {
			parts = append(parts, "queries "+alts[st.Alt].Name)
		}
	}
	if st.Gamma != 0 {
		parts = append(parts, "gamma "+gammaFactor(st.Gamma))
	}
	return strings.Join(parts, ", ")
}

// staticAt writes the static centre: "(0.50, 0.50)" for two features, the shown pair by name
// otherwise.
func (b *Bar) staticAt(h Host, st State, g *StaticGeom) string {
	if len(st.Centre) == 2 {
		return fmt.Sprintf("(%s, %s)", g.fixed(st.Centre[0]), g.fixed(st.Centre[1]))
	}
	if len(st.Centre) == 1 {
		return g.fixed(st.Centre[0])
	}
	pair := b.pair(h)
	names := run.FeatureNames(h.Session().Stream)
	return fmt.Sprintf("%s %s, %s %s", names[pair[0]], g.fixed(st.Centre[pair[0]]), names[pair[1]], g.fixed(st.Centre[pair[1]]))
}

func gammaFactor(k int) string {
	if k >= 0 {
		return fmt.Sprintf("x%d", 1<<k)
	}
	return fmt.Sprintf("x1/%d", 1<<-k)
}

// pair is the two features the batch pane shows, which the arrows move the static centre along.
func (b *Bar) pair(h Host) [2]int {
	d, pair := h.Session().Stream.Features(), h.Pair()
	return [2]int{pair[0] % d, pair[1] % d}
}

// Show opens the what-if bar, placing the static queries from the scatter's axes once known, and
// prepares the run for what-ifs in the background.
func (b *Bar) Show(h Host) effect.Effects {
	b.open = true
	b.Place(h)
	if !b.opened {
		b.opened = true
		// "Follow the data" starts at the share of each batch the scenario's queries are.
		_, points, queries, err := h.Scenario().Work()
		b.state.Fraction = slices.Index(fractions, 0.1)
		if err == nil && points > 0 {
			share := float64(queries) / float64(points)
			best := 0
			for i, f := range fractions {
				if math.Abs(math.Log(f/share)) < math.Abs(math.Log(fractions[best]/share)) {
					best = i
				}
			}
			b.state.Fraction = best
		}
	}
	return effect.Of(h.Session().WarmWhatIf())
}

// Place sets the static queries' geometry once the scatter's axes are known.
func (b *Bar) Place(h Host) {
	if b.geom != nil {
		return
	}
	bounds := h.Frame().Bounds
	if bounds == nil {
		return
	}
	_, _, queries, err := h.Scenario().Work()
	if err != nil {
		queries = 100
	}
	b.geom = NewStaticGeom(bounds, queries)
	if b.state.Centre == nil {
		b.state.Centre = b.geom.Start()
		b.state.Spread = SpreadStart
	}
}

// Key handles a key of the open bar, reporting whether it was one; keys it does not own go on to
// the player (space plays, h and l step, [ and ] change R). Arrows move the static centre only
// while the queries are static. A choice it cannot make yet is an error that changes nothing.
func (b *Bar) Key(h Host, msg tea.KeyMsg) (effect.Effects, bool) {
	k := b.keys
	st := b.state
	st.External = nil
	switch {
	case key.Matches(msg, k.Close):
		b.open = false
		return nil, true
	case key.Matches(msg, k.Own):
		st.Queries = QueriesOwn
	case key.Matches(msg, k.Data):
		st.Queries = QueriesData
	case key.Matches(msg, k.Static):
		if b.geom == nil {
			b.Place(h)
			if b.geom == nil {
				return effect.Effects{effect.Fail{Err: fmt.Errorf("what-if: static queries need the data's range, still being read")}}, true
			}
			st.Centre, st.Spread = b.state.Centre, b.state.Spread // placed just now
		}
		st.Queries = QueriesStatic
	case key.Matches(msg, k.Alt):
		n := len(h.Scenario().WhatIfQueries)
		if n == 0 {
			return effect.Effects{effect.Fail{Err: fmt.Errorf("what-if: %s lists no other queries (whatif.queries in its file)", h.Scenario().Name)}}, true
		}
		if st.Queries == QueriesAlt {
			st.Alt = (st.Alt + 1) % n
		}
		st.Queries = QueriesAlt
	case key.Matches(msg, k.Narrow), key.Matches(msg, k.Widen):
		d := 1
		if key.Matches(msg, k.Narrow) {
			d = -1
		}
		if !st.widen(d) {
			return nil, true
		}
	case key.Matches(msg, k.GammaDown):
		st.Gamma = max(st.Gamma-1, -gammaSteps)
	case key.Matches(msg, k.GammaUp):
		st.Gamma = min(st.Gamma+1, gammaSteps)
	case key.Matches(msg, k.Back):
		st.Gamma = 0
	case st.Queries == QueriesStatic && b.geom != nil && b.arrow(h, msg, &st):
	default:
		return nil, false
	}
	if equalState(st, b.state) {
		return nil, true
	}
	return b.Set(h, st), true
}

// arrow moves the static centre by a key: the batch pane's x feature left and right, its y
// feature up and down.
func (b *Bar) arrow(h Host, msg tea.KeyMsg, st *State) bool {
	pair, k := b.pair(h), &b.keys
	j, d := -1, 0
	switch {
	case key.Matches(msg, k.MoveLeft):
		j, d = pair[0], -1
	case key.Matches(msg, k.MoveRight):
		j, d = pair[0], 1
	case key.Matches(msg, k.MoveUp):
		j, d = pair[1], 1
	case key.Matches(msg, k.MoveDown):
		j, d = pair[1], -1
	default:
		return false
	}
	if len(st.Centre) == 1 {
		j = 0
	}
	c := slices.Clone(st.Centre)
	c[j] = b.geom.clamp(j, c[j]+d)
	st.Centre = c
	return true
}

func equalState(a, b State) bool {
	return a.Queries == b.Queries && a.Alt == b.Alt && a.Fraction == b.Fraction && slices.Equal(a.Centre, b.Centre) &&
		a.Spread == b.Spread && a.Gamma == b.Gamma && slices.Equal(a.External, b.External) && a.Name == b.Name
}

// Set makes st the what-if, the error line cleared: the scenario itself at once (the algorithms
// replayed on it), anything else computed off the UI goroutine (when the run is finished; until
// then it waits, and starts when the run ends).
func (b *Bar) Set(h Host, st State) effect.Effects {
	b.state = st
	e := effect.Effects{effect.Fail{}}
	s := h.Session()
	if st.IsScenario() {
		s.ClearWhatIf()
		return append(e, effect.Refresh{})
	}
	if !s.Done || s.Err != nil {
		return e // StartPending runs it when the run is done
	}
	return append(e, effect.Cmd(s.StartWhatIfOf(func(gamma float64) []string { return b.sets(h, st, gamma) })))
}

// Apply is the player's one what-if path from outside the bar (effect.WhatIf): it shows the
// what-if of sets (--set overrides of queries, kernel, errors or retrain_cost) as a tour's stop, a
// presenter or the command line gives it, named name when that is not empty (a presenter's words
// for it); nil returns to the scenario. The bar then names the sets.
func (b *Bar) Apply(h Host, sets []string, name string) effect.Effects {
	if len(sets) == 0 {
		return b.Set(h, State{Fraction: b.state.Fraction, Centre: b.state.Centre, Spread: b.state.Spread})
	}
	st := b.state
	st.External, st.Name = slices.Clone(sets), name
	return b.Set(h, st)
}

// Back is x: queries and gamma as the scenario has them (the player puts R's scale back first).
func (b *Bar) Back(h Host) effect.Effects {
	st := b.state
	st.Queries, st.Gamma, st.External = QueriesOwn, 0, nil
	return b.Set(h, st)
}

// StartPending starts the what-if chosen while the run was computing, once it is done.
func (b *Bar) StartPending(h Host) effect.Effects {
	s := h.Session()
	if b.state.IsScenario() || s.WhatIf != nil || !s.WhatIfSince.IsZero() {
		return nil
	}
	return b.Set(h, b.state)
}

// Arrived takes a what-if's message: the algorithms are replayed on the what-if, when it is the
// one asked for last.
func (b *Bar) Arrived(h Host, msg run.WhatIfMsg) effect.Effects {
	if h.Session().TakeWhatIf(msg) {
		return effect.Effects{effect.Refresh{}}
	}
	return nil
}

// Status is the status line's what-if: what differs from the scenario, whether it is still
// computing. Empty when the panes show the scenario and nothing computes.
func (b *Bar) Status(h Host, short bool) string {
	desc := b.Describe(h, b.state, short)
	s := h.Session()
	switch {
	case !s.WhatIfSince.IsZero():
		return "what-if: computing " + desc + "…"
	case s.WhatIf != nil:
		return "what-if: " + desc
	case !b.state.IsScenario() && !s.Done:
		return "what-if: " + desc + " (when the run is done)"
	}
	return ""
}

// View draws the bar's three lines, w wide, in the styles st.
func (b *Bar) View(h Host, st *draw.Styles, w int) string {
	s := h.Session()
	title := "─ What-if "
	hint := "s d c a queries · ←↑↓→ < > static · g G b gamma · [ ] R · x scenario · W split · esc close"
	if draw.Width(title)+draw.Width(hint)+2 > w {
		hint = "s d c a · ←↑↓→ < > · g G b gamma · x scenario · W split · esc"
	}
	rule := st.Bold.Render(title) + st.Dim.Render(hint+" "+strings.Repeat("─", max(w-draw.Width(title)-draw.Width(hint)-1, 0)))

	// The queries: each choice with its key, the current one bracketed and highlighted; when
	// they do not fit, the others lose their details.
	cur := b.state
	type option struct{ long, short string }
	opts := []option{{"s scenario's", "s scenario's"}, {"d data " + Decimal(100*fractions[cur.Fraction]) + " %", "d data"}}
	static := option{"c static", "c static"}
	if g := b.geom; g != nil {
		static.long = fmt.Sprintf("c static %s sd %s", b.staticAt(h, cur, g), Decimal(spreads[cur.Spread]*g.unit))
	}
	opts = append(opts, static)
	alts := h.Scenario().WhatIfQueries
	if len(alts) > 0 {
		i := cur.Alt % len(alts)
		label := "a " + alts[i].Name
		if len(alts) > 1 {
			label += fmt.Sprintf(" (%d/%d)", i+1, len(alts))
		}
		opts = append(opts, option{label, fmt.Sprintf("a other (%d)", len(alts))})
	}
	chosen := cur.Queries // the options are in the order of the queries' kinds
	if cur.External != nil {
		chosen = -1
	}
	queries := func(short bool) string {
		var q []string
		for i, o := range opts {
			label := o.long
			if short && i != chosen {
				label = o.short
			}
			if i == chosen {
				q = append(q, st.Chosen.Render("["+label+"]"))
			} else {
				q = append(q, " "+label+" ")
			}
		}
		return " queries " + strings.Join(q, st.Dim.Render("·"))
	}
	line1 := queries(false)
	if draw.Width(line1) > w {
		line1 = queries(true)
	}
	if cur.External != nil {
		line1 = " " + st.Chosen.Render("[given: "+strings.Join(cur.External, ", ")+"]")
	}

	gamma := "gamma " + gammaFactor(cur.Gamma)
	if cur.Gamma == 0 {
		gamma = "gamma x1 (the scenario's)"
	}
	state := ""
	switch {
	case s.WhatIfErr != nil:
		state = st.Error.Render("✗ " + s.WhatIfErr.Error())
	case !s.WhatIfSince.IsZero():
		state = fmt.Sprintf("computing… %s", time.Since(s.WhatIfSince).Round(10*time.Millisecond))
	case !s.Done:
		state = st.Dim.Render(fmt.Sprintf("a what-if needs the whole run: computed %d/%d", s.Computed, s.Matrix.Batches()))
	case s.WhatIf != nil:
		state = fmt.Sprintf("✓ recomputed in %s from the run's errors and models, nothing retrained", s.WhatIf.Took.Round(time.Millisecond))
		if !s.WhatIf.Accuracy {
			state += st.Dim.Render(" (query accuracy not available: the model from outside has no answers at these queries)")
		}
	default:
		state = st.Dim.Render("showing the scenario")
	}
	line2 := fmt.Sprintf(" %s · %s · %s", gamma, h.Frame().RText(true), state)
	return strings.Join([]string{draw.Truncate(rule, w), draw.Truncate(line1, w), draw.Truncate(line2, w)}, "\n")
}

// batchesStream serves a what-if's batches (the data, with the what-if's queries) to the panes as
// a stream, with the run's stream's features and drifts. One per what-if (StreamOf), so that the
// batch pane's caches, keyed by stream, hold while the what-if is shown.
type batchesStream struct {
	sim.Stream
	w *live.WhatIf
}

func (s *batchesStream) Batch(t int) (*sim.Batch, error) { return s.w.Batches[t], nil }

// FeatureNames passes on the run's stream's names.
func (s *batchesStream) FeatureNames() []string { return run.FeatureNames(s.Stream) }

// StreamOf is the what-if w's batches as a stream over the run's stream st.
func (b *Bar) StreamOf(st sim.Stream, w *live.WhatIf) sim.Stream {
	if b.stream == nil || b.stream.w != w || b.stream.Stream != st {
		b.stream = &batchesStream{Stream: st, w: w}
	}
	return b.stream
}
