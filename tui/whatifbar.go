package tui

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
)

// The what-if bar (w): the queries elsewhere, gamma halved or doubled, R as [ and ] set it. Every
// change becomes a list of --set overrides (the session's what-if, computed off the UI goroutine
// from the finished run's errors and models), and the panes show the what-if when it arrives; a
// newer change supersedes one still computing. x returns to the scenario, W shows the scenario
// and the what-if side by side.

// Where the what-if's queries come from.
const (
	queriesOwn    = iota // the scenario's
	queriesData          // a fraction of each batch's data
	queriesStatic        // a gaussian at a point the arrows move
	queriesAlt           // one the scenario file lists under whatif.queries
)

// fractions are "follow the data"'s shares of each batch, < and > stepping through them.
var fractions = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1}

// spreads are the static queries' standard deviations, in units of the data's decade (1 for data
// in [0, 1]); < and > step through them.
var spreads = []float64{0.005, 0.01, 0.015, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5}

const (
	spreadStart = 4    // 0.05 of the decade
	centreStep  = 0.05 // of the decade, per arrow key
	gammaSteps  = 4    // gamma from /16 to x16
)

// whatIfState is what the bar has chosen. The zero value is the scenario itself.
type whatIfState struct {
	queries  int
	alt      int   // which of the file's alternatives
	fraction int   // index into fractions (set when the bar first opens)
	centre   []int // the static centre per feature, in centre steps
	spread   int   // index into spreads
	gamma    int   // gamma x 2^gamma
	// external is a what-if given whole (a tour's stop, a presenter): the bar's choices stand
	// aside until the bar changes one. name, when set, is how it is described (a presenter's
	// words for it).
	external []string
	name     string
}

// scenario reports whether the state is the scenario itself.
func (s whatIfState) scenario() bool {
	return s.external == nil && s.queries == queriesOwn && s.gamma == 0
}

// widen steps the share of the data the queries follow, or the static queries' spread, d places;
// false when the queries have neither.
func (s *whatIfState) widen(d int) bool {
	switch s.queries {
	case queriesData:
		s.fraction = min(max(s.fraction+d, 0), len(fractions)-1)
	case queriesStatic:
		s.spread = min(max(s.spread+d, 0), len(spreads)-1)
	default:
		return false
	}
	return true
}

// staticGeom is what the static queries are placed with: a decade and a step from the data's
// range, each feature's range, and the number of queries a batch.
type staticGeom struct {
	unit   float64 // the decade of the data's range (1 for data within a few units of [0, 1])
	lo, hi []float64
	size   int
}

// newStaticGeom reads the static queries' geometry off the scatter's axes: the range of every
// batch's data and queries.
func newStaticGeom(b *bounds, size int) *staticGeom {
	r := 0.0
	for j := range b.lo {
		r = max(r, b.hi[j]-b.lo[j])
	}
	unit := 1.0
	if r > 0 && !math.IsInf(r, 0) {
		unit = math.Pow(10, math.Floor(math.Log10(r)))
	}
	return &staticGeom{unit: unit, lo: b.lo, hi: b.hi, size: max(size, 1)}
}

func (g *staticGeom) step() float64 { return centreStep * g.unit }

// start is the static centre a bar starts at: the middle of each feature's range, in steps.
func (g *staticGeom) start() []int {
	out := make([]int, len(g.lo))
	for j := range out {
		out[j] = int(math.Round((g.lo[j] + g.hi[j]) / 2 / g.step()))
	}
	return out
}

// clamp keeps a centre coordinate within its feature's range.
func (g *staticGeom) clamp(j, k int) int {
	lo, hi := int(math.Ceil(g.lo[j]/g.step()-1e-9)), int(math.Floor(g.hi[j]/g.step()+1e-9))
	return min(max(k, lo), max(hi, lo))
}

// decimal writes a placed value as YAML and the status line read it: six significant digits at
// most, so 7 steps of 0.05 are 0.35.
func decimal(v float64) string {
	s := strconv.FormatFloat(v, 'g', 6, 64)
	if s == "-0" {
		return "0"
	}
	return s
}

// fixed writes a centre coordinate with the step's decimals ("0.50").
func (g *staticGeom) fixed(k int) string {
	d := max(0, int(math.Ceil(-math.Log10(g.step())-1e-9)))
	return strconv.FormatFloat(float64(k)*g.step(), 'f', d, 64)
}

// whatIfHost is what the what-if parts (the bar, the command line, the editor, the split view) ask
// of the player that shows them: its run and scenario, what its panes draw, and a few general
// things to do. The player gives them a host (host.go); their tests drive them with a fake.
type whatIfHost interface {
	session() *Session             // the run on screen, and the what-if it shows
	scenario() *scenarios.Scenario // the scenario the player runs
	// trusted is s as the player may change it: confined to the embedded data and the offered
	// folder when the player is served; check refuses a scenario the server's budget cannot run
	// (nil for any).
	trusted(s *scenarios.Scenario) *scenarios.Scenario
	check(s *scenarios.Scenario) error
	rerun(s *scenarios.Scenario) tea.Cmd // runs s on the seed shown, in place of the run on screen
	frame() *frame                       // what the panes draw now: the styles, the batch shown, the data's range
	// frameOfRun is what the panes would draw of run s under the what-if w (nil: the run itself)
	// with the replay rp: the split view's other side.
	frameOfRun(s *Session, w *live.WhatIf, rp replay) *frame
	pair() [2]int      // the features the batch pane shows: the arrows move the static centre along them
	refresh()          // replays at the batch shown
	whatIfShown()      // redraws with the what-if shown, or the scenario
	say(notice string) // the one-line notice, until the next key
	fail(err error)    // the error line; nil clears it
}

// whatIfBar is the bar's state in the player.
type whatIfBar struct {
	keys   barKeys
	open   bool
	state  whatIfState
	geom   *staticGeom // nil until the scatter's axes are known
	opened bool        // the bar has opened once: "follow the data" has its start
	stream *batchesStream
}

func newWhatIfBar() whatIfBar { return whatIfBar{keys: newBarKeys()} }

// barKeys are the open bar's own keys. While it is open the player asks it first (Player.key), so
// its g, s, d, c, a, b, < and > take the place of the player's and the panes' keys of the same
// letters; the arrows move the static point only while the queries are static.
type barKeys struct {
	Own, Data, Static, Alt                  key.Binding
	Move                                    key.Binding // the help's name for the four below
	MoveLeft, MoveRight, MoveUp, MoveDown   key.Binding
	Narrow, Widen, GammaDown, GammaUp, Back key.Binding
	Close                                   key.Binding // esc, enter or w
}

func newBarKeys() barKeys {
	return barKeys{
		Own:       binding([]string{"s"}, "s", "the scenario's queries"),
		Data:      binding([]string{"d"}, "d", "queries follow the data"),
		Static:    binding([]string{"c"}, "c", "static queries at a point"),
		Alt:       binding([]string{"a"}, "a", "the file's other queries"),
		Move:      binding([]string{"up", "down", "left", "right"}, "←↑↓→", "move the static point"),
		MoveLeft:  binding([]string{"left"}, "←", "static point left"),
		MoveRight: binding([]string{"right"}, "→", "static point right"),
		MoveUp:    binding([]string{"up"}, "↑", "static point up"),
		MoveDown:  binding([]string{"down"}, "↓", "static point down"),
		Narrow:    binding([]string{"<"}, "<", "narrower (static) / fewer (data)"),
		Widen:     binding([]string{">"}, ">", "wider / more"),
		GammaDown: binding([]string{"g"}, "g", "gamma ÷2"),
		GammaUp:   binding([]string{"G"}, "G", "gamma ×2"),
		Back:      binding([]string{"b"}, "b", "gamma back"),
		Close:     binding([]string{"esc", "enter", "w"}, "esc", "close the bar"),
	}
}

// enable turns the bar's keys on while it is open and no question takes the keys.
func (k *barKeys) enable(m mode) {
	enable(m.free() && m.bar, &k.Own, &k.Data, &k.Static, &k.Alt, &k.Move, &k.MoveLeft, &k.MoveRight, &k.MoveUp,
		&k.MoveDown, &k.Narrow, &k.Widen, &k.GammaDown, &k.GammaUp, &k.Back, &k.Close)
}

// shortHelp are the bar's keys first on the help line while it is open.
func (k *barKeys) shortHelp() []key.Binding {
	return []key.Binding{k.Own, k.Data, k.Static, k.Alt, k.Narrow, k.Widen, k.GammaDown, k.GammaUp}
}

// group is the full help's group of the bar's keys.
func (k *barKeys) group() keyGroup {
	return keyGroup{"What-if bar (open)", []key.Binding{k.Own, k.Data, k.Static, k.Alt, k.Move, k.Narrow, k.Widen,
		k.GammaDown, k.GammaUp, k.Back}}
}

// showing reports whether the bar is open.
func (b *whatIfBar) showing() bool { return b.open }

// hide closes the bar (a follower joining: the presenter decides the what-if).
func (b *whatIfBar) hide() { b.open = false }

// current is what the bar has chosen.
func (b *whatIfBar) current() whatIfState { return b.state }

// enable turns the bar's keys on or off for mode m; shortHelp and help are its keys for the help.
func (b *whatIfBar) enable(m mode)            { b.keys.enable(m) }
func (b *whatIfBar) shortHelp() []key.Binding { return b.keys.shortHelp() }
func (b *whatIfBar) help() keyGroup           { return b.keys.group() }

// barLines is the bar's height: a title rule, the queries, gamma and R with the what-if's state.
const barLines = 3

// sets turns the bar's state into --set overrides, given the run's own gamma.
func (b *whatIfBar) sets(h whatIfHost, st whatIfState, gamma float64) []string {
	if st.external != nil {
		return st.external
	}
	var sets []string
	switch st.queries {
	case queriesData:
		sets = append(sets, fmt.Sprintf("queries={from: data, fraction: %s}", decimal(fractions[st.fraction])))
	case queriesStatic:
		if g := b.geom; g != nil {
			mean := make([]string, len(st.centre))
			for j, k := range st.centre {
				mean[j] = decimal(float64(k) * g.step())
			}
			sets = append(sets, fmt.Sprintf("queries={size: %d, gaussian: {mean: [%s], std: %s}}", g.size,
				strings.Join(mean, ", "), decimal(spreads[st.spread]*g.unit)))
		}
	case queriesAlt:
		if alts := h.scenario().WhatIfQueries; st.alt < len(alts) {
			sets = append(sets, alts[st.alt].Set)
		}
	}
	if st.gamma != 0 {
		sets = append(sets, live.GammaSet(gamma*math.Ldexp(1, st.gamma)))
	}
	return sets
}

// describe says what the state changes from the scenario, as the status line shows it: "queries
// static at (0.50, 0.50) sd 0.05, gamma x2". short is for a narrow status line.
func (b *whatIfBar) describe(h whatIfHost, st whatIfState, short bool) string {
	if st.external != nil {
		if st.name != "" {
			return st.name
		}
		return strings.Join(st.external, ", ")
	}
	var parts []string
	switch st.queries {
	case queriesData:
		f := fmt.Sprintf("%s %% of each batch", decimal(100*fractions[st.fraction]))
		if short {
			parts = append(parts, "data "+f)
		} else {
			parts = append(parts, "queries follow the data ("+f+")")
		}
	case queriesStatic:
		if g := b.geom; g != nil {
			at := b.staticAt(h, st, g)
			if short {
				parts = append(parts, fmt.Sprintf("static %s sd %s", at, decimal(spreads[st.spread]*g.unit)))
			} else {
				parts = append(parts, fmt.Sprintf("queries static at %s sd %s", at, decimal(spreads[st.spread]*g.unit)))
			}
		}
	case queriesAlt:
		if alts := h.scenario().WhatIfQueries; st.alt < len(alts) {
			parts = append(parts, "queries "+alts[st.alt].Name)
		}
	}
	if st.gamma != 0 {
		parts = append(parts, "gamma "+gammaFactor(st.gamma))
	}
	return strings.Join(parts, ", ")
}

// staticAt writes the static centre: "(0.50, 0.50)" for two features, the shown pair by name
// otherwise.
func (b *whatIfBar) staticAt(h whatIfHost, st whatIfState, g *staticGeom) string {
	if len(st.centre) == 2 {
		return fmt.Sprintf("(%s, %s)", g.fixed(st.centre[0]), g.fixed(st.centre[1]))
	}
	if len(st.centre) == 1 {
		return g.fixed(st.centre[0])
	}
	pair := b.pair(h)
	names := featureNames(h.session().Stream)
	return fmt.Sprintf("%s %s, %s %s", names[pair[0]], g.fixed(st.centre[pair[0]]), names[pair[1]], g.fixed(st.centre[pair[1]]))
}

func gammaFactor(k int) string {
	if k >= 0 {
		return fmt.Sprintf("x%d", 1<<k)
	}
	return fmt.Sprintf("x1/%d", 1<<-k)
}

// pair is the two features the batch pane shows, which the arrows move the static centre along.
func (b *whatIfBar) pair(h whatIfHost) [2]int {
	d, pair := h.session().Stream.Features(), h.pair()
	return [2]int{pair[0] % d, pair[1] % d}
}

// show opens the what-if bar, placing the static queries from the scatter's axes once known, and
// prepares the run for what-ifs in the background.
func (b *whatIfBar) show(h whatIfHost) tea.Cmd {
	b.open = true
	b.place(h)
	if !b.opened {
		b.opened = true
		// "Follow the data" starts at the share of each batch the scenario's queries are.
		_, points, queries, err := h.scenario().Work()
		b.state.fraction = slices.Index(fractions, 0.1)
		if err == nil && points > 0 {
			share := float64(queries) / float64(points)
			best := 0
			for i, f := range fractions {
				if math.Abs(math.Log(f/share)) < math.Abs(math.Log(fractions[best]/share)) {
					best = i
				}
			}
			b.state.fraction = best
		}
	}
	return h.session().WarmWhatIf()
}

// place sets the static queries' geometry once the scatter's axes are known.
func (b *whatIfBar) place(h whatIfHost) {
	if b.geom != nil {
		return
	}
	bounds := h.frame().bounds
	if bounds == nil {
		return
	}
	_, _, queries, err := h.scenario().Work()
	if err != nil {
		queries = 100
	}
	b.geom = newStaticGeom(bounds, queries)
	if b.state.centre == nil {
		b.state.centre = b.geom.start()
		b.state.spread = spreadStart
	}
}

// key handles a key of the open bar; keys it does not own go on to the player (space plays, h and
// l step, [ and ] change R). Arrows move the static centre only while the queries are static.
func (b *whatIfBar) key(h whatIfHost, msg tea.KeyMsg) (bool, tea.Cmd) {
	k := b.keys
	st := b.state
	st.external = nil
	switch {
	case key.Matches(msg, k.Close):
		b.open = false
		return true, nil
	case key.Matches(msg, k.Own):
		st.queries = queriesOwn
	case key.Matches(msg, k.Data):
		st.queries = queriesData
	case key.Matches(msg, k.Static):
		if b.geom == nil {
			b.place(h)
			if b.geom == nil {
				h.fail(fmt.Errorf("what-if: static queries need the data's range, still being read"))
				return true, nil
			}
			st.centre, st.spread = b.state.centre, b.state.spread // placed just now
		}
		st.queries = queriesStatic
	case key.Matches(msg, k.Alt):
		n := len(h.scenario().WhatIfQueries)
		if n == 0 {
			h.fail(fmt.Errorf("what-if: %s lists no other queries (whatif.queries in its file)", h.scenario().Name))
			return true, nil
		}
		if st.queries == queriesAlt {
			st.alt = (st.alt + 1) % n
		}
		st.queries = queriesAlt
	case key.Matches(msg, k.Narrow), key.Matches(msg, k.Widen):
		d := 1
		if key.Matches(msg, k.Narrow) {
			d = -1
		}
		if !st.widen(d) {
			return true, nil
		}
	case key.Matches(msg, k.GammaDown):
		st.gamma = max(st.gamma-1, -gammaSteps)
	case key.Matches(msg, k.GammaUp):
		st.gamma = min(st.gamma+1, gammaSteps)
	case key.Matches(msg, k.Back):
		st.gamma = 0
	case st.queries == queriesStatic && b.geom != nil && b.arrow(h, msg, &st):
	default:
		return false, nil
	}
	if equalState(st, b.state) {
		return true, nil
	}
	return true, b.set(h, st)
}

// arrow moves the static centre by a key: the batch pane's x feature left and right, its y
// feature up and down.
func (b *whatIfBar) arrow(h whatIfHost, msg tea.KeyMsg, st *whatIfState) bool {
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
	if len(st.centre) == 1 {
		j = 0
	}
	c := slices.Clone(st.centre)
	c[j] = b.geom.clamp(j, c[j]+d)
	st.centre = c
	return true
}

func equalState(a, b whatIfState) bool {
	return a.queries == b.queries && a.alt == b.alt && a.fraction == b.fraction && slices.Equal(a.centre, b.centre) &&
		a.spread == b.spread && a.gamma == b.gamma && slices.Equal(a.external, b.external) && a.name == b.name
}

// set makes st the what-if: the scenario itself at once, anything else computed off the UI
// goroutine (when the run is finished; until then it waits, and starts when the run ends).
func (b *whatIfBar) set(h whatIfHost, st whatIfState) tea.Cmd {
	b.state = st
	h.fail(nil)
	s := h.session()
	if st.scenario() {
		s.ClearWhatIf()
		h.whatIfShown()
		return nil
	}
	if !s.Done || s.Err != nil {
		return nil // startPending runs it when the run is done
	}
	return s.startWhatIf(func(gamma float64) []string { return b.sets(h, st, gamma) })
}

// apply is the player's one what-if path from outside the bar: it shows the what-if of sets
// (--set overrides of queries, kernel or retrain_cost) as a tour's stop, a presenter or the
// command line gives it, named name when that is not empty (a presenter's words for it); nil
// returns to the scenario. The bar then names the sets.
func (b *whatIfBar) apply(h whatIfHost, sets []string, name string) tea.Cmd {
	if len(sets) == 0 {
		return b.set(h, whatIfState{fraction: b.state.fraction, centre: b.state.centre, spread: b.state.spread})
	}
	st := b.state
	st.external, st.name = slices.Clone(sets), name
	return b.set(h, st)
}

// back is x: queries and gamma as the scenario has them (the player puts R's scale back first).
func (b *whatIfBar) back(h whatIfHost) tea.Cmd {
	st := b.state
	st.queries, st.gamma, st.external = queriesOwn, 0, nil
	return b.set(h, st)
}

// startPending starts the what-if chosen while the run was computing, once it is done.
func (b *whatIfBar) startPending(h whatIfHost) tea.Cmd {
	s := h.session()
	if b.state.scenario() || s.WhatIf != nil || !s.WhatIfSince.IsZero() {
		return nil
	}
	return b.set(h, b.state)
}

// arrived takes a what-if's message and redraws with it.
func (b *whatIfBar) arrived(h whatIfHost, msg whatIfMsg) {
	if h.session().TakeWhatIf(msg) {
		h.whatIfShown()
	}
}

// status is the status line's what-if: what differs from the scenario, whether it is still
// computing. Empty when the panes show the scenario and nothing computes.
func (b *whatIfBar) status(h whatIfHost, short bool) string {
	desc := b.describe(h, b.state, short)
	s := h.session()
	switch {
	case !s.WhatIfSince.IsZero():
		return "what-if: computing " + desc + "…"
	case s.WhatIf != nil:
		return "what-if: " + desc
	case !b.state.scenario() && !s.Done:
		return "what-if: " + desc + " (when the run is done)"
	}
	return ""
}

// view draws the bar's three lines, w wide, in the styles st.
func (b *whatIfBar) view(h whatIfHost, st *Styles, w int) string {
	s := h.session()
	title := "─ What-if "
	hint := "s d c a queries · ←↑↓→ < > static · g G b gamma · [ ] R · x scenario · W split · esc close"
	if width(title)+width(hint)+2 > w {
		hint = "s d c a · ←↑↓→ < > · g G b gamma · x scenario · W split · esc"
	}
	rule := st.Bold.Render(title) + st.Dim.Render(hint+" "+strings.Repeat("─", max(w-width(title)-width(hint)-1, 0)))

	// The queries: each choice with its key, the current one bracketed and highlighted; when
	// they do not fit, the others lose their details.
	cur := b.state
	type option struct{ long, short string }
	opts := []option{{"s scenario's", "s scenario's"}, {"d data " + decimal(100*fractions[cur.fraction]) + " %", "d data"}}
	static := option{"c static", "c static"}
	if g := b.geom; g != nil {
		static.long = fmt.Sprintf("c static %s sd %s", b.staticAt(h, cur, g), decimal(spreads[cur.spread]*g.unit))
	}
	opts = append(opts, static)
	alts := h.scenario().WhatIfQueries
	if len(alts) > 0 {
		i := cur.alt % len(alts)
		label := "a " + alts[i].Name
		if len(alts) > 1 {
			label += fmt.Sprintf(" (%d/%d)", i+1, len(alts))
		}
		opts = append(opts, option{label, fmt.Sprintf("a other (%d)", len(alts))})
	}
	chosen := cur.queries // the options are in the order of the queries' kinds
	if cur.external != nil {
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
	if width(line1) > w {
		line1 = queries(true)
	}
	if cur.external != nil {
		line1 = " " + st.Chosen.Render("[given: "+strings.Join(cur.external, ", ")+"]")
	}

	gamma := "gamma " + gammaFactor(cur.gamma)
	if cur.gamma == 0 {
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
			state += st.Dim.Render(" (no query accuracy: the run kept no models)")
		}
	default:
		state = st.Dim.Render("showing the scenario")
	}
	line2 := fmt.Sprintf(" %s · %s · %s", gamma, h.frame().rText(true), state)
	return strings.Join([]string{truncate(rule, w), truncate(line1, w), truncate(line2, w)}, "\n")
}

// batchesStream serves a what-if's batches (the data, with the what-if's queries) to the panes as
// a stream, with the run's stream's features and drifts. One per what-if (streamOf), so that the
// batch pane's caches, keyed by stream, hold while the what-if is shown.
type batchesStream struct {
	sim.Stream
	w *live.WhatIf
}

func (s *batchesStream) Batch(t int) (*sim.Batch, error) { return s.w.Batches[t], nil }

// FeatureNames passes on the run's stream's names.
func (s *batchesStream) FeatureNames() []string { return featureNames(s.Stream) }

// streamOf is the what-if w's batches as a stream over the run's stream st.
func (b *whatIfBar) streamOf(st sim.Stream, w *live.WhatIf) sim.Stream {
	if b.stream == nil || b.stream.w != w || b.stream.Stream != st {
		b.stream = &batchesStream{Stream: st, w: w}
	}
	return b.stream
}
