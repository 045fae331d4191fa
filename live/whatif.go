package live

// What-ifs over a finished run: the same data and models, other queries, another gamma or another
// retraining cost. A and B come from the error bits the matrix keeps (sim.Requery), query accuracy
// from the run's models fitted again from its seed (sim.Reanswer: the same models, bit for bit), and
// the result is bit for bit the matrix of a fresh run of the changed scenario.

import (
	"context"
	"errors"
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

// Base is a finished run kept for what-ifs: its scenario and seed, and its matrix. Apply is the one
// way in: the player's what-if bar, a tour's stop and a presenter all call it. Safe for concurrent
// use; the matrix is only read.
//
// Memory: besides the matrix, a Base holds the run's batches (generated at its first what-if that
// needs them), the batches and query accuracies of its last few query streams (about 2 MB each
// for covcon-d), and the run's models, fitted again from the seed at the first what-if on other
// queries and kept as trees (6 MB for covcon-d's 100 forests of 100 trees, fitted in 1.4 s of one
// core): each what-if compiles them for asking, a few at a time, and lets the compiled votes go
// (45 MB if they were all kept). Drop the Base to free what it holds; the kept run stays as it was.
type Base struct {
	scenario *scenarios.Scenario
	seed     uint64
	matrix   *sim.Matrix
	workers  int

	ownMu sync.Mutex
	own   []*sim.Batch // the run's own batches, once a what-if needed them

	modelsMu sync.Mutex
	models   []sim.Model // the run's models fitted again (sim.Keep's form: trees), once a what-if needed them

	streams *memo.Memo[string, *queryStream] // by the what-if's query overrides; "" is the scenario's own
}

// streamsKept bounds the query streams a Base remembers: moving a static query centre back and
// forth, or switching between two alternatives, finds them again.
const streamsKept = 4

// queryStream is one query stream's batches and the accuracies of the run's models on it.
type queryStream struct {
	batches []*sim.Batch
	acc     []float64 // QueryAccuracy of every cell, in the matrix's own order (nil: the run's own)
	partial bool      // some labelled queries have no answers (a model from outside, queries not rows of the data)
}

// NewBase keeps a finished run of s with seed, its matrix m, for what-ifs; workers bounds the work
// of a what-if (0: GOMAXPROCS), and the models it holds at once.
func NewBase(s *scenarios.Scenario, seed uint64, m *sim.Matrix, workers int) (*Base, error) {
	if m.Batches() != s.Batches || m.Offline() != s.Offline {
		return nil, fmt.Errorf("what-if: the matrix has %d batches (%d offline), the scenario %d (%d)", m.Batches(), m.Offline(), s.Batches, s.Offline)
	}
	return &Base{scenario: s, seed: seed, matrix: m, workers: workers,
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
	view := sim.KernelView{Weights: b.scenario.Weights, Standardize: b.scenario.Standardize}
	return view.Gamma(b.scenario.Gamma, own, b.scenario.Offline)
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
	// Accuracy is false when the queries changed and the models could not be asked about them: a
	// model from outside, which is not asked again, at queries that are not rows of the data (the
	// player says so).
	Accuracy bool
	Took     time.Duration
}

// Apply computes the what-if of sets: --set PATH=VALUE overrides of queries, kernel, errors or
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
	if key == "" && s.Gamma == b.scenario.Gamma && s.Standardize == b.scenario.Standardize && slices.Equal(s.Weights, b.scenario.Weights) {
		out.Took = time.Since(start)
		return out, nil // only R: the run's own matrix
	}
	qs, err := b.streamOf(ctx, key, s)
	if err != nil {
		return nil, err
	}
	view := sim.KernelView{Weights: s.Weights, Standardize: s.Standardize}
	m, err := sim.RequeryView(b.matrix, qs.batches, s.Gamma, view, b.workers)
	if err != nil {
		return nil, fmt.Errorf("what-if: %w", err)
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
	out.Matrix, out.Batches, out.Accuracy = m, qs.batches, key == "" || qs.acc != nil && !qs.partial
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
		batches, acc, partial, err := b.compute(ctx, key, s)
		if err != nil {
			return nil, err
		}
		return &queryStream{batches: batches, acc: acc, partial: partial}, nil
	})
}

// compute returns the batches of key's query stream: the run's own batches, generated once, with
// the queries of s drawn for their data; and, for queries other than the run's own, the accuracy
// of every cell (in the matrix's order) from the run's models, fitted again, asked about them. A
// model from outside is not asked again: its answers at queries that are data rows are read off
// the cells' errors, and partial says that other labelled queries have none.
func (b *Base) compute(ctx context.Context, key string, s *scenarios.Scenario) (batches []*sim.Batch, acc []float64, partial bool, err error) {
	own, err := b.ownBatches(ctx)
	if err != nil || key == "" {
		return own, nil, false, err
	}
	draw, err := s.QueriesFor(b.seed)
	if err != nil {
		return nil, nil, false, err
	}
	batches = make([]*sim.Batch, len(own))
	if err := b.each(ctx, len(own), func(t int) error {
		bt, err := draw(own[t])
		if err != nil {
			return fmt.Errorf("batch %d: %w", t, err)
		}
		batches[t] = bt
		return nil
	}); err != nil {
		return nil, nil, false, err
	}
	cfg, err := b.scenario.Config(b.seed)
	if err != nil {
		return nil, nil, false, err
	}
	if rf, ok := cfg.Trainer.(sim.RandomForest); ok {
		rf.Workers = 1 // the models are fitted b's workers at a time (the forest is the same for any)
		cfg.Trainer = rf
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
	if cfg.Outside != nil {
		all, err := sim.ReanswerFromErrors(m, batches)
		if err != nil {
			return nil, nil, false, err
		}
		partial = !all
	} else if err := sim.Reanswer(ctx, m, b.model(cfg, own), batches, b.workers); err != nil {
		return nil, nil, false, err
	}
	acc = make([]float64, 0, m.Batches()*(m.Batches()+1)/2)
	for t := range m.Batches() {
		for tp := 0; tp <= t; tp++ {
			acc = append(acc, m.Cell(tp, t).QueryAccuracy)
		}
	}
	return batches, acc, partial, nil
}

// model returns M_tp to ask once: a copy of the kept model, or the model fitted again (and kept).
func (b *Base) model(cfg sim.Config, own []*sim.Batch) func(tp int) (sim.Model, error) {
	return func(tp int) (sim.Model, error) {
		b.modelsMu.Lock()
		if b.models == nil {
			b.models = make([]sim.Model, len(own))
		}
		m := b.models[tp]
		b.modelsMu.Unlock()
		if m != nil {
			return sim.Keep(m), nil // compiles, and lets its vote go with it
		}
		m, err := sim.FitBatch(cfg, own, tp)
		if err != nil {
			return nil, err
		}
		b.modelsMu.Lock()
		b.models[tp] = sim.Keep(m)
		b.modelsMu.Unlock()
		return m, nil
	}
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

// Warm does ahead what the first what-if would: the run's own batches generated. The player calls
// it when its what-if bar opens, so that the first choice is quicker. (The models are not fitted
// ahead: only a what-if on the queries needs them, and holding them is what a kept run no longer
// does.)
func (b *Base) Warm(ctx context.Context) error {
	_, err := b.ownBatches(ctx)
	return err
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

func (b *Base) limit() int {
	if b.workers > 0 {
		return b.workers
	}
	return runtime.GOMAXPROCS(0)
}

// ErrComputing refuses a what-if on a run that has not finished.
var ErrComputing = errors.New("a what-if needs the whole run: wait until every batch is computed")

// WhatIf computes a what-if on the watched run (finished), at most MaxComputing at once, once for
// all the run's watchers: a computation outlives a watcher who stops waiting for it (it is
// another's too, and takes tens of milliseconds). While it computes it holds, in the budget, a
// copy of the matrix and the models it fits again a few at a time.
func (w *Watch) WhatIf(ctx context.Context, sets []string) (*WhatIf, error) {
	base, err := w.Base()
	if err != nil {
		return nil, err
	}
	f := w.run.footprint
	workers := int64(max(w.runs.cfg.Workers, 1))
	return w.run.whatifs.Shared(ctx, strings.Join(sets, "\n"), func(ctx context.Context) (*WhatIf, error) {
		w.runs.whatifs <- struct{}{}
		defer func() { <-w.runs.whatifs }()
		t, err := w.runs.acquire(ctx, f.Held+workers*f.Model)
		if err != nil {
			return nil, err
		}
		defer t.Release()
		return base.Apply(ctx, sets)
	})
}

// Base returns the run's Base for what-ifs, made at the first: one per run, shared by its
// watchers, dropped when the last leaves. Making it waits (a while at most) for its memory.
func (w *Watch) Base() (*Base, error) {
	r, run := w.runs, w.run
	get := func() (*Base, bool, error) {
		switch {
		case run.state != runDone:
			return nil, true, ErrComputing
		case run.err != nil:
			return nil, true, run.err
		case run.base != nil:
			r.bases = append(slices.DeleteFunc(r.bases, func(o *sharedRun) bool { return o == run }), run)
			return run.base, true, nil
		}
		return nil, false, nil
	}
	r.mu.Lock()
	b, done, err := get()
	r.mu.Unlock()
	if done {
		return b, err
	}
	t, err := r.acquire(context.Background(), baseBytes(run))
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if b, done, err := get(); done { // made meanwhile
		t.Release()
		return b, err
	}
	b, err = NewBase(run.scenario, run.key.seed, run.matrix, r.cfg.Workers)
	if err != nil {
		t.Release()
		return nil, err
	}
	run.base, run.baseTicket = b, t
	r.bases = append(r.bases, run)
	for len(r.bases) > r.cfg.MaxBases {
		r.dropBaseLocked(r.bases[0])
	}
	return b, nil
}

// DropBase lets go of the watched run's what-if state (its Base and what-ifs), as when more than
// MaxBases runs hold one; the next what-if makes it again. For measuring a cold what-if.
func (w *Watch) DropBase() {
	w.runs.mu.Lock()
	defer w.runs.mu.Unlock()
	w.runs.dropBaseLocked(w.run)
}

// dropBaseLocked lets go of a run's Base.
func (r *Runs) dropBaseLocked(run *sharedRun) {
	if run.baseTicket != nil {
		run.baseTicket.Release()
		run.baseTicket = nil
	}
	run.base = nil
	run.whatifs.Clear()
	r.bases = slices.DeleteFunc(r.bases, func(o *sharedRun) bool { return o == run })
}
