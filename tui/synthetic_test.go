package tui

import (
	"math"
	"slices"
	"testing"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
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
	synthBatches  = 60
	synthOffline  = 15
	synthPoints   = 8
	synthQueries  = 4
	synthStale    = 0.25 // staleness per batch of age
	synthConcept  = 6.0  // staleness added under the other concept
	synthOwnCost  = 0.5  // B
	synthGoldenAt = 52   // the batch the golden panes show: four after the last drift
)

// synthDrifts are the batches where the concept changes.
var synthDrifts = []sim.Drift{{From: 8, To: 8, Kind: sim.DriftAbrupt}, {From: 24, To: 24, Kind: sim.DriftRecurring},
	{From: 36, To: 36, Kind: sim.DriftRecurring}, {From: 48, To: 48, Kind: sim.DriftRecurring}}

// synthYAML is the scenario around the hand-made numbers: its name, sizes, R and concepts (its
// own generated stream is replaced by synthStream, which has the same drifts).
const synthYAML = `name: synthetic
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

// synthConceptOf is the concept (0: a, 1: b) of batch t.
func synthConceptOf(t int) int {
	c := 0
	for _, d := range synthDrifts {
		if t >= d.From {
			c = 1 - c
		}
	}
	return c
}

// synthCell is cell (tp, t) of the hand-made matrix.
func synthCell(tp, t int) sim.Cell {
	age := t - tp
	stale, wrong := synthStale*float64(age), min(age/2, synthPoints)
	if synthConceptOf(tp) != synthConceptOf(t) {
		stale, wrong = stale+synthConcept, synthPoints
	}
	errs := algos.NewBits(synthPoints)
	for i := range wrong {
		errs.Set(i)
	}
	rate := float64(wrong) / synthPoints
	return sim.Cell{A: synthOwnCost + stale, B: synthOwnCost, ErrorRate: rate, QueryAccuracy: 1 - rate, Errors: errs, Done: true}
}

// synthStream is the hand-made stream: point i of batch t at x1 = 0.2 (i mod 4) + 0.01 t,
// x2 = 0.6 floor(i/4) + 0.1 (i mod 2); query j at x1 = 0.1 + 0.2 j + 0.01 t, x2 = 0.35; each
// labelled by its batch's concept.
type synthStream struct{}

func (synthStream) Len() int            { return synthBatches }
func (synthStream) Features() int       { return 2 }
func (synthStream) Drifts() []sim.Drift { return synthDrifts }

func (synthStream) Batch(t int) (*sim.Batch, error) {
	label := func(x1, x2 float64) uint8 {
		if (x1 > x2) == (synthConceptOf(t) == 0) {
			return 1
		}
		return 0
	}
	b := &sim.Batch{T: t, X: sim.Points{D: 2}, Q: sim.Points{D: 2}}
	slide := 0.01 * float64(t)
	for i := range synthPoints {
		x1, x2 := 0.2*float64(i%4)+slide, 0.6*float64(i/4)+0.1*float64(i%2)
		b.X.V = append(b.X.V, x1, x2)
		b.Y = append(b.Y, label(x1, x2))
	}
	for j := range synthQueries {
		x1, x2 := 0.1+0.2*float64(j)+slide, 0.35
		b.Q.V = append(b.Q.V, x1, x2)
		b.QY = append(b.QY, label(x1, x2))
	}
	return b, nil
}

// syntheticPlayer is a player of the synthetic scenario with the hand-made matrix delivered as if
// its run had computed it (every column, then the end, then the features' ranges), no engine run.
func syntheticPlayer(t testing.TB, st *Styles, w, h int) *Player {
	t.Helper()
	return syntheticPlayerOf(t, syntheticScenario(t), Options{Styles: st, Width: w, Height: h})
}

// syntheticScenario is the synthetic scenario as loaded (its stream is replaced by the player).
func syntheticScenario(t testing.TB) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Parse("synthetic", []byte(synthYAML), "", scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// syntheticPlayerOf is syntheticPlayer of the scenario s (the synthetic one, perhaps with a tour)
// with the options opt (its styles, size, room).
func syntheticPlayerOf(t testing.TB, s *scenarios.Scenario, opt Options) *Player {
	t.Helper()
	opt.Scenario, opt.Seed = s, s.Seed
	p, err := NewPlayer(opt)
	if err != nil {
		t.Fatal(err)
	}
	p.s.Stream = synthStream{}
	var evs []sim.Event
	for tt := range synthBatches {
		ev := sim.Event{Kind: sim.ColumnDone, Index: tt}
		for tp := 0; tp <= tt; tp++ {
			ev.Cells = append(ev.Cells, synthCell(tp, tt))
		}
		evs = append(evs, ev)
	}
	// The commands these return would ask the run for more: there is none, so they are not run.
	p.Update(columnMsg{p.s, evs})
	p.Update(engineDoneMsg{p.s, nil})
	b := newBounds(2)
	for tt := range synthBatches {
		batch, _ := synthStream{}.Batch(tt)
		b.add(batch.X)
		b.add(batch.Q)
	}
	p.Update(boundsMsg{p.s, b})
	return p
}

// The synthetic player holds the hand-made numbers: a cell's staleness and errors as the story
// says, the stream's drifts, and the Oracle retraining at the online block's drifts.
func TestSyntheticPlayer(t *testing.T) {
	p := syntheticPlayer(t, asciiStyles(), 120, 36)
	m := p.s.Matrix
	for _, tc := range []struct {
		tp, t  int
		stale  float64
		errors int
	}{
		{3, 3, 0, 0},      // the diagonal
		{10, 17, 1.75, 3}, // same concept, 7 batches old: 0.25 x 7, three points across
		{20, 24, 7, 8},    // across the drift at 24: 0.25 x 4 + 6, every point
		{30, 34, 1, 2},    // concept a, 4 batches old
		{4, 30, 6.5, 8},   // concept a again after b, 26 batches old: the points all across
	} {
		if got := m.Staleness(tc.tp, tc.t); math.Abs(got-tc.stale) > 1e-12 {
			t.Errorf("C[%d, %d] = %v, want %v", tc.tp, tc.t, got, tc.stale)
		}
		if got := m.Errors(tc.tp, tc.t).Count(); got != tc.errors {
			t.Errorf("errors of M_%d on D_%d: %d, want %d", tc.tp, tc.t, got, tc.errors)
		}
	}
	if !p.s.Done || p.s.Computed != synthBatches || !p.frame().heat.final {
		t.Fatalf("run not complete: done %v, %d columns, scale final %v", p.s.Done, p.s.Computed, p.frame().heat.final)
	}
	goTo(p, synthBatches-1)
	or, ok := p.frame().result(algos.NameOracle)
	if !ok {
		t.Fatal("no Oracle")
	}
	for _, d := range []int{24, 36, 48} {
		if !slices.Contains(or.Strategy.Retrains, d) {
			t.Errorf("the Oracle does not retrain at the drift at %d: retrains %v", d, or.Strategy.Retrains)
		}
	}
}
