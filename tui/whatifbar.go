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

// whatIfBar is the bar's state in the player.
type whatIfBar struct {
	open   bool
	state  whatIfState
	geom   *staticGeom // nil until the scatter's axes are known
	opened bool        // the bar has opened once: "follow the data" has its start
	split  bool        // W: the scenario and the what-if side by side
	stream *batchesStream
}

// barLines is the bar's height: a title rule, the queries, gamma and R with the what-if's state.
const barLines = 3

// sets turns the bar's state into --set overrides, given the run's own gamma.
func (p *Player) whatIfSets(st whatIfState, gamma float64) []string {
	if st.external != nil {
		return st.external
	}
	var sets []string
	switch st.queries {
	case queriesData:
		sets = append(sets, fmt.Sprintf("queries={from: data, fraction: %s}", decimal(fractions[st.fraction])))
	case queriesStatic:
		if g := p.wi.geom; g != nil {
			mean := make([]string, len(st.centre))
			for j, k := range st.centre {
				mean[j] = decimal(float64(k) * g.step())
			}
			sets = append(sets, fmt.Sprintf("queries={size: %d, gaussian: {mean: [%s], std: %s}}", g.size,
				strings.Join(mean, ", "), decimal(spreads[st.spread]*g.unit)))
		}
	case queriesAlt:
		if alts := p.opt.Scenario.WhatIfQueries; st.alt < len(alts) {
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
func (p *Player) describe(st whatIfState, short bool) string {
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
		if g := p.wi.geom; g != nil {
			at := p.staticAt(st, g)
			if short {
				parts = append(parts, fmt.Sprintf("static %s sd %s", at, decimal(spreads[st.spread]*g.unit)))
			} else {
				parts = append(parts, fmt.Sprintf("queries static at %s sd %s", at, decimal(spreads[st.spread]*g.unit)))
			}
		}
	case queriesAlt:
		if alts := p.opt.Scenario.WhatIfQueries; st.alt < len(alts) {
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
func (p *Player) staticAt(st whatIfState, g *staticGeom) string {
	if len(st.centre) == 2 {
		return fmt.Sprintf("(%s, %s)", g.fixed(st.centre[0]), g.fixed(st.centre[1]))
	}
	if len(st.centre) == 1 {
		return g.fixed(st.centre[0])
	}
	pair := p.pair()
	names := featureNames(p.s.Stream)
	return fmt.Sprintf("%s %s, %s %s", names[pair[0]], g.fixed(st.centre[pair[0]]), names[pair[1]], g.fixed(st.centre[pair[1]]))
}

func gammaFactor(k int) string {
	if k >= 0 {
		return fmt.Sprintf("x%d", 1<<k)
	}
	return fmt.Sprintf("x1/%d", 1<<-k)
}

// pair is the two features the batch pane shows, which the arrows move the static centre along.
func (p *Player) pair() [2]int {
	d := p.s.Stream.Features()
	bp := p.panes.batch
	return [2]int{bp.pair[0] % d, bp.pair[1] % d}
}

// openBar opens the what-if bar, placing the static queries from the scatter's axes once known,
// and prepares the run for what-ifs in the background.
func (p *Player) openBar() tea.Cmd {
	p.wi.open = true
	p.placeStatic()
	if !p.wi.opened {
		p.wi.opened = true
		// "Follow the data" starts at the share of each batch the scenario's queries are.
		_, points, queries, err := p.opt.Scenario.Work()
		p.wi.state.fraction = slices.Index(fractions, 0.1)
		if err == nil && points > 0 {
			share := float64(queries) / float64(points)
			best := 0
			for i, f := range fractions {
				if math.Abs(math.Log(f/share)) < math.Abs(math.Log(fractions[best]/share)) {
					best = i
				}
			}
			p.wi.state.fraction = best
		}
	}
	return p.s.WarmWhatIf()
}

// placeStatic sets the static queries' geometry once the scatter's axes are known.
func (p *Player) placeStatic() {
	if p.wi.geom != nil || p.bounds == nil {
		return
	}
	_, _, queries, err := p.opt.Scenario.Work()
	if err != nil {
		queries = 100
	}
	p.wi.geom = newStaticGeom(p.bounds, queries)
	if p.wi.state.centre == nil {
		p.wi.state.centre = p.wi.geom.start()
		p.wi.state.spread = spreadStart
	}
}

// barKey handles a key of the open bar; keys it does not own go on to the player (space plays,
// h and l step, [ and ] change R). Arrows move the static centre only while the queries are
// static.
func (p *Player) barKey(msg tea.KeyMsg) (bool, tea.Cmd) {
	k := &p.keys
	st := p.wi.state
	st.external = nil
	switch {
	case key.Matches(msg, k.Escape), key.Matches(msg, k.WhatIf), msg.String() == "enter":
		p.wi.open = false
		return true, nil
	case key.Matches(msg, k.WIOwn):
		st.queries = queriesOwn
	case key.Matches(msg, k.WIData):
		st.queries = queriesData
	case key.Matches(msg, k.WIStatic):
		p.placeStatic()
		if p.wi.geom == nil {
			p.err = fmt.Errorf("what-if: static queries need the data's range, still being read")
			return true, nil
		}
		st.queries = queriesStatic
	case key.Matches(msg, k.WIAlt):
		n := len(p.opt.Scenario.WhatIfQueries)
		if n == 0 {
			p.err = fmt.Errorf("what-if: %s lists no other queries (whatif.queries in its file)", p.opt.Scenario.Name)
			return true, nil
		}
		if st.queries == queriesAlt {
			st.alt = (st.alt + 1) % n
		}
		st.queries = queriesAlt
	case key.Matches(msg, k.WINarrow), key.Matches(msg, k.WIWiden):
		d := 1
		if key.Matches(msg, k.WINarrow) {
			d = -1
		}
		switch st.queries {
		case queriesData:
			st.fraction = min(max(st.fraction+d, 0), len(fractions)-1)
		case queriesStatic:
			st.spread = min(max(st.spread+d, 0), len(spreads)-1)
		default:
			return true, nil
		}
	case key.Matches(msg, k.WIGammaDown):
		st.gamma = max(st.gamma-1, -gammaSteps)
	case key.Matches(msg, k.WIGammaUp):
		st.gamma = min(st.gamma+1, gammaSteps)
	case key.Matches(msg, k.WIGammaBack):
		st.gamma = 0
	case st.queries == queriesStatic && p.wi.geom != nil && p.arrow(msg, &st):
	default:
		return false, nil
	}
	if equalState(st, p.wi.state) {
		return true, nil
	}
	return true, p.setWhatIf(st)
}

// arrow moves the static centre by a key: the batch pane's x feature left and right, its y
// feature up and down.
func (p *Player) arrow(msg tea.KeyMsg, st *whatIfState) bool {
	pair := p.pair()
	j, d := -1, 0
	switch msg.String() {
	case "left":
		j, d = pair[0], -1
	case "right":
		j, d = pair[0], 1
	case "up":
		j, d = pair[1], 1
	case "down":
		j, d = pair[1], -1
	default:
		return false
	}
	if len(st.centre) == 1 {
		j = 0
	}
	c := slices.Clone(st.centre)
	c[j] = p.wi.geom.clamp(j, c[j]+d)
	st.centre = c
	return true
}

func equalState(a, b whatIfState) bool {
	return a.queries == b.queries && a.alt == b.alt && a.fraction == b.fraction && slices.Equal(a.centre, b.centre) &&
		a.spread == b.spread && a.gamma == b.gamma && slices.Equal(a.external, b.external) && a.name == b.name
}

// setWhatIf makes st the what-if: the scenario itself at once, anything else computed off the UI
// goroutine (when the run is finished; until then it waits, and starts when the run ends).
func (p *Player) setWhatIf(st whatIfState) tea.Cmd {
	p.wi.state = st
	p.err = nil
	if st.scenario() {
		p.s.ClearWhatIf()
		p.whatIfShown()
		return nil
	}
	if !p.s.Done || p.s.Err != nil {
		return nil // startPending runs it when the run is done
	}
	return p.s.startWhatIf(func(gamma float64) []string { return p.whatIfSets(st, gamma) })
}

// ApplyWhatIf shows the what-if of sets (--set overrides of queries, kernel or retrain_cost), as a
// tour's stop or a presenter gives it; nil returns to the scenario. The bar then names the sets.
func (p *Player) ApplyWhatIf(sets []string) tea.Cmd { return p.applyNamedWhatIf(sets, "") }

// applyNamedWhatIf is ApplyWhatIf with the words that describe the what-if (a presenter's).
func (p *Player) applyNamedWhatIf(sets []string, name string) tea.Cmd {
	if len(sets) == 0 {
		return p.setWhatIf(whatIfState{fraction: p.wi.state.fraction, centre: p.wi.state.centre, spread: p.wi.state.spread})
	}
	st := p.wi.state
	st.external, st.name = slices.Clone(sets), name
	return p.setWhatIf(st)
}

// backToScenario is x: queries, gamma and R as the scenario has them.
func (p *Player) backToScenario() tea.Cmd {
	p.Scale = 1
	st := p.wi.state
	st.queries, st.gamma, st.external = queriesOwn, 0, nil
	cmd := p.setWhatIf(st)
	p.refresh()
	return cmd
}

// startPending starts the what-if chosen while the run was computing, once it is done.
func (p *Player) startPending() tea.Cmd {
	if p.wi.state.scenario() || p.s.WhatIf != nil || !p.s.WhatIfSince.IsZero() {
		return nil
	}
	return p.setWhatIf(p.wi.state)
}

// whatIfArrived takes a what-if's message and redraws with it.
func (p *Player) whatIfArrived(msg whatIfMsg) {
	if !p.s.TakeWhatIf(msg) {
		return
	}
	p.whatIfShown()
}

// whatIfShown redraws with the what-if shown (or the scenario): the colour scale covers both the
// run's cells and the what-if's, so that the two compare; the algorithms are replayed.
func (p *Player) whatIfShown() {
	p.heat = heatOf(p.opt.Scenario)
	for t := range p.s.Computed {
		p.heat.addColumn(p.s.Matrix, t)
		if p.s.WhatIf != nil {
			p.heat.addColumn(p.s.WhatIf.Matrix, t)
		}
	}
	p.heat.final = p.s.Done && p.s.Err == nil
	if p.s.WhatIf != nil {
		_, sc := p.s.Shown()
		for t := range sc.Batches {
			p.heat.addValue(sc.RetrainCost(t))
		}
	}
	p.refresh()
}

// whatIfStatus is the status line's what-if: what differs from the scenario, whether it is still
// computing. Empty when the panes show the scenario and nothing computes.
func (p *Player) whatIfStatus(short bool) string {
	desc := p.describe(p.wi.state, short)
	switch {
	case !p.s.WhatIfSince.IsZero():
		return "what-if: computing " + desc + "…"
	case p.s.WhatIf != nil:
		return "what-if: " + desc
	case !p.wi.state.scenario() && !p.s.Done:
		return "what-if: " + desc + " (when the run is done)"
	}
	return ""
}

// barView draws the bar's three lines, w wide.
func (p *Player) barView(w int) string {
	st := p.st
	title := "─ What-if "
	hint := "s d c a queries · ←↑↓→ < > static · g G b gamma · [ ] R · x scenario · W split · esc close"
	if width(title)+width(hint)+2 > w {
		hint = "s d c a · ←↑↓→ < > · g G b gamma · x scenario · W split · esc"
	}
	rule := st.Bold.Render(title) + st.Dim.Render(hint+" "+strings.Repeat("─", max(w-width(title)-width(hint)-1, 0)))

	// The queries: each choice with its key, the current one bracketed and highlighted; when
	// they do not fit, the others lose their details.
	cur := p.wi.state
	type option struct{ long, short string }
	opts := []option{{"s scenario's", "s scenario's"}, {"d data " + decimal(100*fractions[cur.fraction]) + " %", "d data"}}
	static := option{"c static", "c static"}
	if g := p.wi.geom; g != nil {
		static.long = fmt.Sprintf("c static %s sd %s", p.staticAt(cur, g), decimal(spreads[cur.spread]*g.unit))
	}
	opts = append(opts, static)
	alts := p.opt.Scenario.WhatIfQueries
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
	case p.s.WhatIfErr != nil:
		state = st.Error.Render("✗ " + p.s.WhatIfErr.Error())
	case !p.s.WhatIfSince.IsZero():
		state = fmt.Sprintf("computing… %s", time.Since(p.s.WhatIfSince).Round(10*time.Millisecond))
	case !p.s.Done:
		state = st.Dim.Render(fmt.Sprintf("a what-if needs the whole run: computed %d/%d", p.s.Computed, p.s.Matrix.Batches()))
	case p.s.WhatIf != nil:
		state = fmt.Sprintf("✓ recomputed in %s from the run's errors and models, nothing retrained", p.s.WhatIf.Took.Round(time.Millisecond))
		if !p.s.WhatIf.Accuracy {
			state += st.Dim.Render(" (no query accuracy: the run kept no models)")
		}
	default:
		state = st.Dim.Render("showing the scenario")
	}
	line2 := fmt.Sprintf(" %s · %s · %s", gamma, p.frame().rText(true), state)
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
