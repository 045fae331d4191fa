// Package synth is made-up runs for the screen's tests: a run made by hand (its matrix, stream,
// scenario and a tour), whose numbers follow from a story, not from the engine, so that a change to
// the engine's numbers leaves the screen's tests alone; the frame the panes draw of it, and each
// pane's box as the screen draws it at three sizes (the panes' goldens); and frames over random
// costs.
package synth

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/scenarios/tour"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/run"
)

// The golden panes are drawn from a small matrix and stream made by hand, not by the engine, so a
// change to the engine's numbers (a model, a kernel, a generator) leaves the screen tests alone.
//
// The story: 60 batches (enough for the heat map to sample at 80x24), the first 15 offline, R = 4.
// Two concepts alternate, "x1 > x2" (a) and its opposite (b): a from batch 0, b from 8 (an abrupt
// drift inside the offline block), then a, b, a again from 24, 36 and 48 (recurring drifts).
// Meanwhile the data slide right by 0.01 a batch (covariate drift). Each batch has 8 points and 4
// queries.
//
// The matrix follows from that story:
//   - staleness C[t', t] = A - B is 0.25 a batch of age (t - t') while M_t' was trained on t's
//     concept, and 6 more when it was trained on the other one; B, the model's cost on its own
//     batch, is 0.5, so A = 0.5 + C (on the diagonal C = 0);
//   - M_t' errs on every point of D_t under the other concept, and under the same concept on the
//     first (t - t')/2 points (the slide takes one more point across the boundary every 2
//     batches); its error rate and query accuracy are those counts over 8.
const (
	Batches  = 60
	Offline  = 15
	Points   = 8
	Queries  = 4
	Stale    = 0.25 // staleness per batch of age
	Concept  = 6.0  // staleness added under the other concept
	OwnCost  = 0.5  // B
	GoldenAt = 52   // the batch the golden panes show: four after the last drift
)

// Drifts are the batches where the concept changes.
var Drifts = []sim.Drift{{From: 8, To: 8, Kind: sim.DriftAbrupt}, {From: 24, To: 24, Kind: sim.DriftRecurring},
	{From: 36, To: 36, Kind: sim.DriftRecurring}, {From: 48, To: 48, Kind: sim.DriftRecurring}}

// YAML is the scenario around the hand-made numbers: its name, sizes, R and concepts (its
// own generated stream is replaced by Stream, which has the same drifts).
const YAML = `name: synthetic
title: "Synthetic: a hand-made matrix for the golden panes"
about: >
  Two concepts that alternate at batches 8, 24, 36 and 48, and data that slide right a little
  every batch; the matrix is written by hand in tui/synthetic_test.go.
seed: 0
batches: 60
offline: 15
data:
  size: 8
  features: 2
  gaussian: {mean: "0.01*t", std: 0.1}
  concepts:
    - {at: 0, label: "x1 > x2"}
    - {at: 8, label: "x1 <= x2"}
    - {at: 24, label: "x1 > x2"}
    - {at: 36, label: "x1 <= x2"}
    - {at: 48, label: "x1 > x2"}
queries: {from: data, size: 4}
model: {nearest_centroid: {}}
retrain_cost: 4
`

// ConceptOf is the concept (0: a, 1: b) of batch t.
func ConceptOf(t int) int {
	c := 0
	for _, d := range Drifts {
		if t >= d.From {
			c = 1 - c
		}
	}
	return c
}

// Cell is cell (tp, t) of the hand-made matrix.
func Cell(tp, t int) sim.Cell {
	age := t - tp
	stale, wrong := Stale*float64(age), min(age/2, Points)
	if ConceptOf(tp) != ConceptOf(t) {
		stale, wrong = stale+Concept, Points
	}
	errs := algos.NewBits(Points)
	for i := range wrong {
		errs.Set(i)
	}
	rate := float64(wrong) / Points
	return sim.Cell{A: OwnCost + stale, B: OwnCost, ErrorRate: rate, QueryAccuracy: 1 - rate, Errors: errs, Done: true}
}

// Stream is the hand-made stream: point i of batch t at x1 = 0.2 (i mod 4) + 0.01 t,
// x2 = 0.6 floor(i/4) + 0.1 (i mod 2); query j at x1 = 0.1 + 0.2 j + 0.01 t, x2 = 0.35; each
// labelled by its batch's concept.
type Stream struct{}

func (Stream) Len() int { return Batches }

func (Stream) Features() int { return 2 }

func (Stream) Drifts() []sim.Drift { return Drifts }

func (Stream) Batch(t int) (*sim.Batch, error) {
	label := func(x1, x2 float64) uint8 {
		if (x1 > x2) == (ConceptOf(t) == 0) {
			return 1
		}
		return 0
	}
	b := &sim.Batch{T: t, X: sim.Points{D: 2}, Q: sim.Points{D: 2}}
	slide := 0.01 * float64(t)
	for i := range Points {
		x1, x2 := 0.2*float64(i%4)+slide, 0.6*float64(i/4)+0.1*float64(i%2)
		b.X.V = append(b.X.V, x1, x2)
		b.Y = append(b.Y, label(x1, x2))
	}
	for j := range Queries {
		x1, x2 := 0.1+0.2*float64(j)+slide, 0.35
		b.Q.V = append(b.Q.V, x1, x2)
		b.QY = append(b.QY, label(x1, x2))
	}
	return b, nil
}

// Scenario is the synthetic scenario as loaded (its stream is replaced by Stream in a Session).
func Scenario(t testing.TB) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Parse("synthetic", []byte(YAML), "", scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Columns are the hand-made matrix's columns as the engine reports them, one event a column.
func Columns() []sim.Event {
	var evs []sim.Event
	for tt := range Batches {
		ev := sim.Event{Kind: sim.ColumnDone, Index: tt}
		for tp := 0; tp <= tt; tp++ {
			ev.Cells = append(ev.Cells, Cell(tp, tt))
		}
		evs = append(evs, ev)
	}
	return evs
}

// Session is the hand-made run as a player's session holds it once computed: on Stream, every
// column applied as the engine's messages bring them, then done; no engine runs.
func Session(t testing.TB) *run.Session {
	t.Helper()
	scen := Scenario(t)
	s, err := run.New(scen, scen.Seed, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Stream = Stream{}
	s.Matrix.Drifts = Drifts
	s.Apply(run.ColumnMsg{Session: s, Events: Columns()}) // its command would ask a run for more: none
	s.Finish(nil)
	return s
}

// EveryRow is what YAML adds for a run with every row a scenario can have: the four more
// detectors (detectors.run: all) and a fixed schedule of each kind.
const EveryRow = `detectors: {run: all}
schedules: [{every: 7}, {every: 5, offset: 2}, {at: [30, 45]}]
`

// EverySession is Session of the synthetic scenario with every row (EveryRow): sixteen
// algorithms, more than the 16 colours can tell apart.
func EverySession(t testing.TB) *run.Session {
	t.Helper()
	scen, err := scenarios.Parse("synthetic", []byte(YAML+EveryRow), "", scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := run.New(scen, scen.Seed, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Stream = Stream{}
	s.Matrix.Drifts = Drifts
	s.Apply(run.ColumnMsg{Session: s, Events: Columns()})
	s.Finish(nil)
	return s
}

// EveryGoldens are the drawings of pane i (made afresh for each profile by newPane) of the
// EverySession frame at batch GoldenAt, every row shown, in its box at 160x48 (BoxSizes, as tall as
// the pane asks when that is taller), without
// colours and at 16 colours: where the keys, not the colours, tell the rows apart.
func EveryGoldens(t testing.TB, i int, newPane func() pane.Pane) []Golden {
	s := EverySession(t)
	var out []Golden
	for _, prof := range []struct {
		name string
		p    termenv.Profile
	}{{"ascii", termenv.Ascii}, {"16", termenv.ANSI}} {
		st := draw.ForProfile(prof.p)
		p, f := newPane(), Frame(t, st, s, GoldenAt)
		w, h := BoxSizes[i][2][0], BoxSizes[i][2][1]
		if want, _ := p.Size(f, w); want > h {
			h = want // a row each: as tall as the pane asks
		}
		body := p.View(f, w-4, h-2)
		out = append(out, Golden{"every/" + prof.name, draw.Box(st, pane.BoxTitle(i, p, f), body, w, h, true)})
	}
	return out
}

// Bounds are the scatter's axes over Stream, as the player's scan finds them.
func Bounds() *run.Bounds {
	b := run.NewBounds(2)
	for tt := range Batches {
		batch, _ := Stream{}.Batch(tt)
		b.Add(batch.X)
		b.Add(batch.Q)
	}
	return b
}

// Frame is what the panes draw of the session s of the hand-made run at batch pos, in the styles
// st, as the player builds it: every algorithm replayed at pos with R as the scenario has it, all
// of them shown (the Oracle first, then the scenario's rows), CARA-T selected, the scatter's axes known, the cursor off, no question up. The
// heat map's scale (Heat) is the matrix pane's to add.
func Frame(t testing.TB, st *draw.Styles, s *run.Session, pos int) *pane.Frame {
	t.Helper()
	rp, err := s.Evaluate(pos, 1, s.Scenario.Algorithms)
	if err != nil {
		t.Fatal(err)
	}
	m, scen := s.ViewOf(nil)
	visible := []algos.Name{algos.NameOracle}
	for _, a := range scen.Algorithms {
		if a != algos.NameOracle {
			visible = append(visible, a)
		}
	}
	return &pane.Frame{St: st, Scen: scen, M: m, Stream: s.Stream, Drifts: s.Stream.Drifts(), Pos: pos, Computed: s.Computed,
		Done: s.Done, RP: rp, R: s.RetrainCostOf(nil, 1), RScale: 1, Selected: algos.NameCaraT, Visible: visible,
		Bounds: Bounds(), Features: run.FeatureNames(s.Stream), Ask: -1}
}

// Sizes are the terminals the panes are checked at: a laptop's small terminal, a workshop's usual
// one, a large one.
var Sizes = [][2]int{{80, 24}, {120, 36}, {160, 48}}

// BoxSizes are each pane's box, focused, as the screen lays out the synthetic frame at batch
// GoldenAt on each of Sizes (screen's TestLayoutSizes holds the layout to them).
var BoxSizes = [pane.Count][3][2]int{
	pane.Matrix:    {{80, 18}, {62, 33}, {68, 45}},
	pane.Chart:     {{80, 18}, {58, 17}, {46, 30}},
	pane.Decisions: {{80, 18}, {58, 13}, {92, 13}},
	pane.Batch:     {{80, 18}, {58, 18}, {46, 30}},
	pane.Results:   {{80, 20}, {58, 19}, {92, 17}},
	pane.About:     {{80, 18}, {58, 7}, {92, 6}},
}

// Golden is one drawing of a pane for a golden file: its name ("ascii/80x24") and its box.
type Golden struct{ Name, Box string }

// Goldens are the drawings a pane's golden files hold: pane i, made afresh for each colour profile
// by newPane, drawn from the Frame of the hand-made run at batch GoldenAt (with what the player
// adds for the pane: adjust, when not nil) in its box as the screen draws it focused (BoxSizes,
// its number and title in the border), without colours and in 256 colours, at each of Sizes in
// turn. Only a change to how the pane draws changes them; a pane's test compares each with its
// file (go test ./tui/internal/pane/NAME -run TestGolden -update rewrites them).
func Goldens(t testing.TB, i int, newPane func() pane.Pane, adjust func(*pane.Frame, *run.Session)) []Golden {
	s := Session(t)
	var out []Golden
	for _, prof := range []struct {
		name string
		p    termenv.Profile
	}{{"ascii", termenv.Ascii}, {"256", termenv.ANSI256}} {
		st := draw.ForProfile(prof.p)
		p, f := newPane(), Frame(t, st, s, GoldenAt)
		if adjust != nil {
			adjust(f, s)
		}
		for k, size := range Sizes {
			w, h := BoxSizes[i][k][0], BoxSizes[i][k][1]
			body := p.View(f, w-4, h-2) // first, as the screen draws it: a title may say how the body is drawn
			box := draw.Box(st, pane.BoxTitle(i, p, f), body, w, h, true)
			out = append(out, Golden{fmt.Sprintf("%s/%dx%d", prof.name, size[0], size[1]), box})
		}
	}
	return out
}

// Tour is a tour of the synthetic run with a stop of every kind: a cell to look at, a quiz
// at the drift at 24, a stop that plays on, a stop with a what-if (which the synthetic run, having
// no engine, never computes: its note shows).
func Tour() []tour.Stop {
	return []tour.Stop{
		{At: 19, Say: "The Oracle's first online retrain: keeping M_15 here costs C[15, 19] = {C 15 19}, retraining R = {R}.",
			Focus: tour.Focus{Pane: tour.PaneMatrix, Cell: &tour.Cell{Model: 15, Batch: 19}}, Pause: true},
		{At: 24, Say: "The concept flips at 24. Keep M_19, or retrain?", Quiz: true, Pause: true},
		{At: 30, Say: "Passing by: the Oracle has paid {cost Oracle} so far.", Focus: tour.Focus{Pane: tour.PaneCumulative}},
		{At: 36, Say: "With R doubled the Oracle would think twice.", Whatif: []tour.Override{{Path: "retrain_cost", Value: "8"}}, Pause: true},
	}
}

// RandomFrame is a frame in the styles st over a T-batch matrix of random costs >= 0 (so every
// cumulative cost grows), its first off batches offline, every algorithm replayed to the last
// batch. The same T and off give the same frame.
func RandomFrame(t testing.TB, st *draw.Styles, T, off int) *pane.Frame {
	m := sim.NewMatrix(T, off)
	rng := rand.New(rand.NewPCG(1, 2))
	for tt := range T {
		for tp := 0; tp <= tt; tp++ {
			errs := algos.NewBits(50)
			for i := range 50 {
				if rng.Float64() < 0.1*float64(tt-tp)/float64(T) {
					errs.Set(i)
				}
			}
			m.Set(tp, tt, sim.Cell{A: rng.Float64() * 10 * float64(tt-tp) / float64(T), Errors: errs})
		}
	}
	r := algos.Constant(3)
	res, err := algos.Evaluate(m, r, algos.Names, T-1)
	if err != nil {
		t.Fatal(err)
	}
	scen := &scenarios.Scenario{Name: "random", Batches: T, Offline: off}
	return &pane.Frame{St: st, Scen: scen, M: m, Pos: T - 1, RP: run.Replay{Scale: 1, Results: res}, R: r, RScale: 1,
		Selected: "cara-t", Visible: algos.Names, Heat: draw.Scale{Hi: 10}}
}
