package live

// What-ifs over a finished run: the same data and models, other queries, another gamma or another
// retraining cost. Nothing is trained again: A and B come from the error bits the matrix keeps
// (sim.Requery), query accuracy from the models the run kept (sim.Reanswer), and the result is bit
// for bit the matrix of a fresh run of the changed scenario.

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/cara-sim/cara/internal/memo"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// Base is a finished run kept for what-ifs: its scenario and seed, its matrix, and its models in
// the form sim.Keep gives them. Apply is the one way in: the player's what-if bar, a tour's stop
// and a presenter all call it. Safe for concurrent use; the matrix and models are only read.
//
// Memory: besides what it is given, a Base holds the models compiled for asking (made at its
// first what-if on the queries: for covcon-d's 100 forests of 100 trees, about 45 MB against the
// kept trees' 6 MB), and the batches and query accuracies of its last few query streams (about
// 2 MB each for covcon-d). Drop the Base to free them; the kept run stays as it was.
type Base struct {
	scenario *scenarios.Scenario
	seed     uint64
	matrix   *sim.Matrix
	models   []sim.Model // nil: the run kept no models, and other queries have no accuracy
	workers  int

	hotOnce sync.Once
	hot     []sim.Model // copies of models that compile for prediction on first use

	ownMu sync.Mutex
	own   []*sim.Batch // the run's own batches, once a what-if needed them

	streams *memo.Memo[string, *queryStream] // by the what-if's query overrides; "" is the scenario's own
}

// streamsKept bounds the query streams a Base remembers: moving a static query centre back and
// forth, or switching between two alternatives, finds them again.
const streamsKept = 4

// queryStream is one query stream's batches and the accuracies of the run's models on it.
type queryStream struct {
	batches []*sim.Batch
	acc     []float64 // QueryAccuracy of every cell, in the matrix's own order (nil: the run's own)
}

// NewBase keeps a finished run for what-ifs. models[t] is M_t (sim.Keep's form is enough), or
// models is nil when the run kept none; workers bounds the work of a what-if (0: GOMAXPROCS).
func NewBase(s *scenarios.Scenario, seed uint64, m *sim.Matrix, models []sim.Model, workers int) (*Base, error) {
	if m.Batches() != s.Batches || m.Offline() != s.Offline {
		return nil, fmt.Errorf("what-if: the matrix has %d batches (%d offline), the scenario %d (%d)", m.Batches(), m.Offline(), s.Batches, s.Offline)
	}
	if models != nil && len(models) != m.Batches() {
		return nil, fmt.Errorf("what-if: %d models for %d batches", len(models), m.Batches())
	}
	return &Base{scenario: s, seed: seed, matrix: m, models: models, workers: workers,
		streams: memo.New[string, *queryStream](streamsKept)}, nil
}

// Matrix is the run's own matrix.
func (b *Base) Matrix() *sim.Matrix { return b.matrix }

// Gamma is the run's own kernel width: the scenario's number, or what scale or auto make of the
// run's offline data (the same under any queries).
func (b *Base) Gamma(ctx context.Context) (float64, error) {
	if b.matrix.Gamma > 0 {
		return b.matrix.Gamma, nil
	}
	own, err := b.ownBatches(ctx)
	if err != nil {
		return 0, err
	}
	return sim.ResolveGamma(b.scenario.Gamma, own[:b.scenario.Offline])
}

// GammaSet is the what-if that sets the kernel width to g, exactly: kernel.gamma=g with every
// digit it needs to read back as g.
func GammaSet(g float64) string { return "kernel.gamma=" + strconv.FormatFloat(g, 'g', -1, 64) }

// WhatIf is the outcome of a what-if.
type WhatIf struct {
	Sets     []string            // the overrides, as given
	Scenario *scenarios.Scenario // the scenario with them applied: its R, gamma spec, queries
	Matrix   *sim.Matrix         // the run's matrix under them (the run's own when only R changed)
	Batches  []*sim.Batch        // each batch's data and (new) queries; nil when the queries are the run's own and gamma did not change
	// Accuracy is false when the run kept no models and the queries changed: query accuracy is
	// then NaN everywhere.
	Accuracy bool
	Took     time.Duration
}

// Apply computes the what-if of sets: --set PATH=VALUE overrides of queries, kernel or
// retrain_cost, applied after the scenario's own (scenarios.Scenario.WhatIf). Its matrix is the
// one a fresh run of the changed scenario computes, bit for bit, without a model trained again.
// A cancelled ctx stops it with ctx's error.
func (b *Base) Apply(ctx context.Context, sets []string) (*WhatIf, error) {
	start := time.Now()
	s, err := b.scenario.WhatIf(sets)
	if err != nil {
		return nil, err
	}
	out := &WhatIf{Sets: slices.Clone(sets), Scenario: s, Matrix: b.matrix, Accuracy: true}
	key := queryKey(sets)
	if key == "" && s.Gamma == b.scenario.Gamma {
		out.Took = time.Since(start)
		return out, nil // only R: the run's own matrix
	}
	qs, err := b.streamOf(ctx, key, s)
	if err != nil {
		return nil, err
	}
	gamma, err := sim.ResolveGamma(s.Gamma, qs.batches[:s.Offline])
	if err != nil {
		return nil, fmt.Errorf("what-if: %w", err)
	}
	data, queries := make([]sim.Points, len(qs.batches)), make([]sim.Points, len(qs.batches))
	for t, bt := range qs.batches {
		data[t], queries[t] = bt.X, bt.Q
	}
	m, err := sim.Requery(b.matrix, data, queries, gamma, b.workers)
	if err != nil {
		return nil, err
	}
	i := 0
	for t := range m.Batches() {
		for tp := 0; tp <= t; tp++ {
			c := m.Cell(tp, t)
			switch {
			case !c.Done:
			case key == "":
				c.QueryAccuracy = b.matrix.Cell(tp, t).QueryAccuracy
			case qs.acc != nil:
				c.QueryAccuracy = qs.acc[i]
			}
			i++
		}
	}
	out.Matrix, out.Batches, out.Accuracy = m, qs.batches, key == "" || qs.acc != nil
	out.Took = time.Since(start)
	return out, ctx.Err()
}

// queryKey is the part of a what-if that decides the query stream: its overrides of queries, in
// order.
func queryKey(sets []string) string {
	var q []string
	for _, s := range sets {
		path, _, _ := strings.Cut(s, "=")
		if root, _, _ := strings.Cut(strings.TrimSpace(path), "."); root == "queries" {
			q = append(q, s)
		}
	}
	return strings.Join(q, "\n")
}

// streamOf returns the query stream of key, computing it unless it is remembered (or under way
// for another what-if, which it then waits for). A stream that failed is forgotten, so the next
// what-if tries again; one cancelled by another caller is computed again for this one.
func (b *Base) streamOf(ctx context.Context, key string, s *scenarios.Scenario) (*queryStream, error) {
	return b.streams.Get(ctx, key, func(ctx context.Context) (*queryStream, error) {
		batches, acc, err := b.compute(ctx, key, s)
		if err != nil {
			return nil, err
		}
		return &queryStream{batches: batches, acc: acc}, nil
	})
}

// compute returns the batches of key's query stream: the run's own batches, generated once, with
// the queries of s drawn for their data; and, for queries other than the run's own, the accuracy
// of every cell (in the matrix's order) from the run's models asked about them.
func (b *Base) compute(ctx context.Context, key string, s *scenarios.Scenario) ([]*sim.Batch, []float64, error) {
	own, err := b.ownBatches(ctx)
	if err != nil || key == "" {
		return own, nil, err
	}
	draw, err := s.QueriesFor(b.seed)
	if err != nil {
		return nil, nil, err
	}
	batches := make([]*sim.Batch, len(own))
	if err := b.each(ctx, len(own), func(t int) error {
		o := own[t]
		q, qy, err := draw(o)
		if err != nil {
			return fmt.Errorf("batch %d: %w", t, err)
		}
		batches[t] = &sim.Batch{T: t, X: o.X, Y: o.Y, Q: q, QY: qy}
		return nil
	}); err != nil {
		return nil, nil, err
	}
	if b.models == nil {
		return batches, nil, nil
	}
	// Reanswer fills a matrix's cells: a copy of the run's, whose accuracies are then read off.
	m := sim.NewMatrix(b.matrix.Batches(), b.matrix.Offline())
	for t := range m.Batches() {
		for tp := 0; tp <= t; tp++ {
			if c := b.matrix.Cell(tp, t); c.Done {
				m.Set(tp, t, *c)
			}
		}
	}
	if err := sim.Reanswer(ctx, m, b.hotModels(), batches, b.workers); err != nil {
		return nil, nil, err
	}
	acc := make([]float64, 0, m.Batches()*(m.Batches()+1)/2)
	for t := range m.Batches() {
		for tp := 0; tp <= t; tp++ {
			acc = append(acc, m.Cell(tp, t).QueryAccuracy)
		}
	}
	return batches, acc, nil
}

// ownBatches returns the run's own batches (data and queries), generated at the first what-if
// that needs them and kept: every query stream shares their data.
func (b *Base) ownBatches(ctx context.Context) ([]*sim.Batch, error) {
	b.ownMu.Lock()
	defer b.ownMu.Unlock()
	if b.own != nil {
		return b.own, nil
	}
	st, err := b.scenario.Stream(b.seed)
	if err != nil {
		return nil, err
	}
	if st.Len() != b.matrix.Batches() {
		return nil, fmt.Errorf("what-if: %d batches, the run has %d", st.Len(), b.matrix.Batches())
	}
	own := make([]*sim.Batch, st.Len())
	if err := b.each(ctx, len(own), func(t int) error {
		bt, err := st.Batch(t)
		if err != nil {
			return fmt.Errorf("batch %d: %w", t, err)
		}
		own[t] = bt
		return nil
	}); err != nil {
		return nil, err
	}
	b.own = own
	return own, nil
}

// Warm does ahead what the first what-if would: the run's own batches generated, and the models
// compiled for asking. The player calls it when its what-if bar opens, so that the first choice
// is as quick as the next.
func (b *Base) Warm(ctx context.Context) error {
	if _, err := b.ownBatches(ctx); err != nil {
		return err
	}
	hot := b.hotModels()
	probe := sim.Points{D: b.scenario.Features, V: make([]float64, b.scenario.Features)}
	return b.each(ctx, len(hot), func(i int) error {
		if hot[i] != nil {
			hot[i].Predict(probe, make([]uint8, 1)) // compiles it
		}
		return nil
	})
}

// each runs f(0..n-1), b's workers at a time, stopping at the first error or when ctx is done.
func (b *Base) each(ctx context.Context, n int, f func(i int) error) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(b.limit())
	for i := range n {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			return f(i)
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}

// hotModels returns the models to ask: copies of the kept ones, which compile for prediction the
// first time they are asked and stay compiled as long as the Base lives.
func (b *Base) hotModels() []sim.Model {
	b.hotOnce.Do(func() {
		b.hot = make([]sim.Model, len(b.models))
		for i, m := range b.models {
			if m != nil {
				b.hot[i] = sim.Keep(m)
			}
		}
	})
	return b.hot
}

func (b *Base) limit() int {
	if b.workers > 0 {
		return b.workers
	}
	return runtime.GOMAXPROCS(0)
}
