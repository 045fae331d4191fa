package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/cara-sim/cara/internal/bitset"
)

// GammaMode says how the RBF kernel's gamma is chosen.
type GammaMode int

const (
	GammaScale GammaMode = iota // 1 / (d * variance of the offline data, all features pooled)
	GammaAuto                   // 1 / d (scikit-learn's "auto")
	GammaValue                  // a given number
)

// GammaSpec is a scenario's kernel setting: a mode, and the value for GammaValue.
type GammaSpec struct {
	Mode  GammaMode
	Value float64
}

// Order is the order in which the engine computes cells.
type Order int

const (
	// ColumnOrder computes batch t's column as soon as D_t and M_t exist (live runs).
	ColumnOrder Order = iota
	// RowOrder computes row t' with only M_t' in memory (big headless runs).
	RowOrder
)

// Config is everything the engine needs to compute a matrix.
type Config struct {
	Scenario string
	Stream   Stream
	// The model: one cara fits (Trainer), or one whose answers come from outside (Outside,
	// outside.go); exactly one of them.
	Trainer   Trainer
	Outside   Outside
	Seed      uint64 // models draw from NewRand(Seed, model index ...)
	Offline   int
	Gamma     GammaSpec
	Order     Order
	Workers   int  // cells (and a forest's trees) computed at once; 0 means GOMAXPROCS
	SkipCross bool // skip cells (t', t) with t' < Offline < t: column Offline stays, for R_max over batches 0..Offline and the first query accuracy
	// DropErrors keeps no per-point errors in the cells off the diagonal (B reads the diagonal's),
	// for a caller that reads only the numbers (cara matrix): a cell is 72 bytes, and at 1000
	// points its errors take another 128. The detectors and what-ifs need them.
	DropErrors bool
	// Staged runs the stages one after another over all batches (generate, fit, predict, kernel)
	// and records each stage's wall time in Matrix.Stats, for benchmarks. Results are the same.
	Staged bool
	// Beyond the paper (kernelview.go), each off at its zero value:
	Weights     []float64 // an error's weight by its point's true class (Weights[y]) in A and B; nil: every error counts 1
	Standardize bool      // the kernel and gamma see the features standardised by the offline block's data
	Window      int       // M_t is fitted to batches t-Window+1..t; 0 or 1: batch t alone
	// Answered, when not nil, sees every answer the model gave: M_tp's classes at batch b's data
	// points (in its point order) and at its queries (nil when they were not asked: they have no
	// labels). It is called from the engine's workers, several at once, and must not keep the
	// slices. --predictions-out writes them (Predictions.Record).
	Answered func(tp int, b *Batch, data, queries []uint8)
}

// Stats are the wall times of a run's stages (exact per stage for a staged run).
type Stats struct {
	Generate, Fit, Predict, Kernel time.Duration
	// PredictFloor is, for a staged run, the predict stage again over the same models: their
	// votes compiled and every region a point falls in decided, what is left is the floor of the
	// box lookup (the points' boxes, and the votes of the points in undecided boxes).
	PredictFloor time.Duration
}

// EventKind tells what an Event reports.
type EventKind int

const (
	ColumnDone EventKind = iota // column Index (batch t) is complete
	RowDone                     // row Index (model t') is complete
)

// Event reports progress: one per column (ColumnOrder) or per row (RowOrder). Cells is a copy of
// the finished column or row, in order of t' (column) or t (row), so a consumer can build its own
// Matrix without sharing memory with the engine.
type Event struct {
	Kind      EventKind
	Index     int
	Cells     []Cell
	CellsDone int // cells computed so far
	CellsAll  int // cells the run will compute
	Elapsed   time.Duration
}

// Run is the engine's one entry point: it computes the matrix described by cfg and returns it.
//
// each, when not nil, is called with one Event per finished column (ColumnOrder) or row (RowOrder),
// in index order, from one goroutine, and the engine waits for it to return; an error from each
// stops the run and Run returns that error. Run stops early with ctx.Err() when ctx is done.
//
// A callback rather than a channel or an iterator: the engine waits for its consumer, so a slow
// consumer slows the run instead of filling a buffer, and there is no channel to size, close or
// drain, and no goroutine left blocked when the consumer goes away (it cancels ctx or returns an
// error). The matrix and the error stay plain return values, which an iter.Seq2 of events would
// have to smuggle out beside the loop.
//
// A panic inside the engine (a model, the kernel, a stream or each) ends this run with a
// *PanicError that carries the stack, not the process: a server keeps its other runs.
func Run(ctx context.Context, cfg Config, each func(Event) error) (m *Matrix, err error) {
	defer func() {
		if v := recover(); v != nil {
			m, err = nil, &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	r, err := newRunner(ctx, cfg, each)
	if err != nil {
		return nil, err
	}
	if r.outside != nil {
		defer func() {
			if cerr := r.outside.Close(); err == nil && cerr != nil {
				m, err = nil, r.outsideErr(cerr)
			}
		}()
	}
	switch {
	case cfg.Staged:
		err = r.staged()
	case cfg.Order == RowOrder:
		err = r.rows()
	default:
		err = r.columns()
	}
	if err != nil {
		return nil, err
	}
	if r.noQueryAnswers.Load() {
		r.m.notes = append(r.m.notes, queryAnswersNote(cfg.Outside.Name()))
	}
	return r.m, nil
}

// PanicError is a panic recovered inside the engine. Stack is where it happened, for a log; the
// message is for the user.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("internal error: %v", e.Value) }

// recovered runs f, turning a panic into a *PanicError: the engine's own goroutines need it, as a
// panic there would end the process whatever the caller recovers.
func recovered(f func() error) func() error {
	return func() (err error) {
		defer func() {
			if v := recover(); v != nil {
				err = &PanicError{Value: v, Stack: debug.Stack()}
			}
		}()
		return f()
	}
}

// runner holds one run's state. Batches and query sums are computed up front (cheap); models are
// fitted as the order requires.
type runner struct {
	ctx     context.Context
	cfg     Config
	each    func(Event) error
	T, off  int
	workers int
	batches []*Batch
	kb      []*Batch     // the batches as the kernel sees them: batches itself unless standardised
	ksum    [][]float64  // ksum[t][i] = sum over q in Q_t of sim(q, x_i), x_i in D_t (times x_i's weight)
	queries []queryShare // per batch: its queries that are data rows (predict.go)
	m       *Matrix
	done    atomic.Int64
	all     int
	start   time.Time
	outside Answers // the model from outside, opened; nil for a model cara fits
	// noQueryAnswers: the model from outside had no answers at some labelled queries
	noQueryAnswers atomic.Bool
}

func newRunner(ctx context.Context, cfg Config, each func(Event) error) (*runner, error) {
	if cfg.Stream == nil || (cfg.Trainer == nil) == (cfg.Outside == nil) {
		return nil, errors.New("engine: a stream and one model (a Trainer or an Outside) are required")
	}
	T := cfg.Stream.Len()
	if cfg.Offline < 1 || cfg.Offline >= T {
		return nil, fmt.Errorf("engine: offline batches must be in 1..%d for %d batches, got %d", T-1, T, cfg.Offline)
	}
	r := &runner{ctx: ctx, cfg: cfg, each: each, T: T, off: cfg.Offline, workers: cfg.Workers, start: time.Now()}
	if r.workers <= 0 {
		r.workers = runtime.GOMAXPROCS(0)
	}
	if rf, ok := cfg.Trainer.(RandomForest); ok && rf.Workers <= 0 {
		// The forest fits its trees in parallel too: a run given fewer workers (a server sharing
		// its cores between runs) keeps to them. The forest is the same for any number.
		rf.Workers = r.workers
		r.cfg.Trainer = rf
	}
	r.m = NewMatrix(T, cfg.Offline)
	r.m.Scenario, r.m.Seed = cfg.Scenario, cfg.Seed
	r.m.Drifts = cfg.Stream.Drifts()
	for t := 0; t < T; t++ {
		for tp := 0; tp <= t; tp++ {
			if !r.skip(tp, t) {
				r.all++
			}
		}
	}
	t0 := time.Now()
	r.batches = make([]*Batch, T)
	r.queries = make([]queryShare, T)
	if err := r.parallel(ctx, T, func(t int) error {
		b, err := cfg.Stream.Batch(t)
		if err != nil {
			return fmt.Errorf("batch %d: %w", t, err)
		}
		if b.X.Len() == 0 {
			return fmt.Errorf("batch %d is empty", t)
		}
		r.batches[t] = b
		return nil
	}); err != nil {
		return nil, err
	}
	if err := checkWeights(cfg.Weights, r.batches); err != nil {
		return nil, err
	}
	view := KernelView{Weights: cfg.Weights, Standardize: cfg.Standardize, Features: featureNames(cfg.Stream)}
	kb, gamma, notes, err := view.kernel(cfg.Gamma, r.batches, cfg.Offline)
	if err != nil {
		return nil, err
	}
	r.kb = kb
	r.m.Gamma = gamma
	r.m.notes = append(r.m.notes, notes...)
	r.m.Stats.Generate = time.Since(t0)
	t0 = time.Now()
	r.ksum = make([][]float64, T)
	if err := r.parallel(ctx, T, func(t int) error {
		r.ksum[t] = QuerySums(r.kb[t].X, r.kb[t].Q, gamma)
		weigh(r.ksum[t], r.kb[t].Y, cfg.Weights)
		return nil
	}); err != nil {
		return nil, err
	}
	r.m.Stats.Kernel += time.Since(t0)
	if cfg.Outside != nil {
		if err := r.openOutside(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// ResolveGamma turns a kernel setting into a number: scale is 1/(d * variance of every offline
// value, features pooled), auto is 1/d.
func ResolveGamma(g GammaSpec, offline []*Batch) (float64, error) {
	d := offline[0].X.D
	switch g.Mode {
	case GammaValue:
		if !(g.Value > 0) || math.IsInf(g.Value, 0) {
			return 0, fmt.Errorf("kernel gamma must be a positive number, got %v", g.Value)
		}
		return g.Value, nil
	case GammaAuto:
		return 1 / float64(d), nil
	}
	n, mean, m2 := 0.0, 0.0, 0.0
	for _, b := range offline {
		for _, v := range b.X.V {
			n++
			delta := v - mean
			mean += delta / n
			m2 += delta * (v - mean)
		}
	}
	gamma := 1 / (float64(d) * (m2 / n))
	if !(gamma > 0) || math.IsInf(gamma, 0) { // no variance, or one that leaves the float64 range
		return 0, scaleGammaError(offline)
	}
	return gamma, nil
}

// skip reports whether a headless run leaves cell (tp, t) out.
func (r *runner) skip(tp, t int) bool {
	return r.cfg.SkipCross && tp < r.off && t > r.off
}

// parallel runs f(0..n-1) on the engine's worker pool, at most r.workers at once, and returns the
// error of the smallest failing index: the same bad input gives the same one message at any number
// of workers (one bad expression over 30 batches is one error, not 29). After a failure, indices
// above it are not started; those below still run, since one of them may fail first by index.
func (r *runner) parallel(ctx context.Context, n int, f func(i int) error) error {
	errs := make([]error, n)
	var failed atomic.Int64 // the smallest failing index so far; n while none has failed
	failed.Store(int64(n))
	var g errgroup.Group
	g.SetLimit(r.workers)
	for i := range n {
		if ctx.Err() != nil || int64(i) > failed.Load() {
			break
		}
		g.Go(func() error {
			// Yield after each item: a server's sessions wait in the same run queues as the
			// engine, and a cell is far shorter than the scheduler's 10 ms slice. Measured with two
			// runs computing on two cores, a 5 ms request's latency fell from 45 ms to 20 ms
			// (median) and from 150-290 ms to 40-100 ms (99th percentile).
			defer runtime.Gosched()
			if ctx.Err() != nil || int64(i) > failed.Load() {
				return nil
			}
			if err := recovered(func() error { return f(i) })(); err != nil {
				errs[i] = err
				storeMin(&failed, int64(i))
			}
			return nil
		})
	}
	g.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// storeMin lowers a to v, unless it is lower already.
func storeMin(a *atomic.Int64, v int64) {
	for cur := a.Load(); v < cur && !a.CompareAndSwap(cur, v); cur = a.Load() {
	}
}

// fit makes M_t: fitted by cara, or made ready by the model from outside.
func (r *runner) fit(t int) (fitted, error) {
	if r.outside != nil {
		return fitted{}, r.outsideErr(r.outside.Fit(t))
	}
	m, err := FitBatch(r.cfg, r.batches, t)
	return fitted{model: m}, err
}

// FitBatch fits M_t, the model cfg's run fits for batch t of batches (the run's, in order; a
// window's earlier batches are read too): the same model bit for bit, since it draws from the
// run's seed and t alone. A finished run keeps no models; a what-if that asks them about other
// queries fits them again (Reanswer).
func FitBatch(cfg Config, batches []*Batch, t int) (Model, error) {
	if cfg.Trainer == nil {
		return nil, fmt.Errorf("batch %d: the model is not fitted by cara: its answers come from outside", t)
	}
	x, y := trainingSet(batches, t, cfg.Window)
	seed, _ := Mix(cfg.Seed, 1, uint64(t))
	m, err := cfg.Trainer.Fit(x, y, seed)
	if err != nil {
		return nil, fmt.Errorf("batch %d: fitting %s: %w", t, cfg.Trainer.Name(), err)
	}
	return m, nil
}

// predict fills the model-dependent parts of cell (tp, t): errors, error rate, query accuracy.
// Queries that are data rows take the data's predictions (predict.go, outside.go).
func (r *runner) predict(m fitted, tp, t int) (Cell, error) {
	b := r.batches[t]
	n, nq := b.X.Len(), b.Q.Len()
	pred := make([]uint8, n+nq)
	data, queries := pred[:n], pred[n:]
	labelled := b.QY != nil && nq > 0
	known := labelled
	switch {
	case m.model == nil:
		var err error
		if known, err = r.answer(tp, t, data, queries, labelled); err != nil {
			return Cell{}, err
		}
	case labelled:
		r.queries[t].predict(m.model, b, data, queries)
	default:
		m.model.Predict(b.X, data)
	}
	c := Cell{Errors: errorBits(data, b.Y)}
	c.ErrorRate = float64(c.Errors.Count()) / float64(n)
	c.QueryAccuracy = math.NaN()
	if !known {
		queries = nil
	} else {
		c.QueryAccuracy = accuracy(queries, b.QY)
	}
	if r.cfg.Answered != nil {
		r.cfg.Answered(tp, b, data, queries)
	}
	return c, nil
}

// kernel fills A and B of cell (tp, t) given its errors and the model's errors on its own data.
// B sums with the same function and order as A, so identical data give identical bits (QDMdiff
// exactly 0 when the data do not change).
func (r *runner) kernel(c *Cell, tp, t int, train bitset.Bits) {
	c.A = maskedMean(r.ksum[t], c.Errors)
	if tp == t {
		c.B = c.A
		return
	}
	c.B = weightedQDM(r.kb[t].Q, r.kb[tp].X, r.kb[tp].Y, train, r.m.Gamma, r.cfg.Weights)
	if r.cfg.DropErrors {
		c.Errors = bitset.Bits{}
	}
}

// emit hands a finished column or row to the run's consumer, on the calling goroutine.
func (r *runner) emit(ctx context.Context, kind EventKind, index int, cells []Cell) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if r.each == nil {
		return nil
	}
	return r.each(Event{Kind: kind, Index: index, Cells: cells, CellsDone: int(r.done.Load()), CellsAll: r.all, Elapsed: time.Since(r.start)})
}

// columns computes column t as soon as M_t exists: one goroutine fits the models in batch order, up
// to two batches ahead of another that computes each column on the worker pool and emits it.
func (r *runner) columns() error {
	models := make([]fitted, r.T)
	ready := make(chan int, 2)
	g, ctx := errgroup.WithContext(r.ctx)
	g.Go(recovered(func() error {
		defer close(ready)
		for t := 0; t < r.T; t++ {
			m, err := r.fit(t)
			if err != nil {
				return err
			}
			models[t] = m
			select {
			case ready <- t:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	}))
	g.Go(recovered(func() error {
		for t := range ready {
			if err := r.column(ctx, models, t); err != nil {
				return err
			}
		}
		return nil
	}))
	err := g.Wait()
	if cerr := r.ctx.Err(); cerr != nil {
		return cerr // a cancelled run says so, whichever of its goroutines noticed first
	}
	return err
}

// column computes column t from the models of batches 0..t and emits it.
func (r *runner) column(ctx context.Context, models []fitted, t int) error {
	col := make([]Cell, t+1)
	// The diagonal first: its errors are M_t's training errors, which B needs.
	var err error
	if col[t], err = r.predict(models[t], t, t); err != nil {
		return err
	}
	r.kernel(&col[t], t, t, col[t].Errors)
	r.m.Set(t, t, col[t])
	r.done.Add(1)
	if err := r.parallel(ctx, t, func(tp int) error {
		if r.skip(tp, t) {
			return nil
		}
		c, err := r.predict(models[tp], tp, t)
		if err != nil {
			return err
		}
		r.kernel(&c, tp, t, r.m.Cell(tp, tp).Errors)
		c.Done = true
		col[tp] = c
		r.done.Add(1)
		return nil
	}); err != nil {
		return err
	}
	for tp := 0; tp < t; tp++ {
		if col[tp].Done {
			r.m.Set(tp, t, col[tp])
		}
	}
	col[t].Done = true
	return r.emit(ctx, ColumnDone, t, col)
}

// rows computes row t' with only M_t' in memory.
func (r *runner) rows() error {
	for tp := 0; tp < r.T; tp++ {
		model, err := r.fit(tp)
		if err != nil {
			return err
		}
		row := make([]Cell, r.T-tp)
		if row[0], err = r.predict(model, tp, tp); err != nil {
			return err
		}
		r.kernel(&row[0], tp, tp, row[0].Errors)
		row[0].Done = true
		r.done.Add(1)
		train := row[0].Errors
		if err := r.parallel(r.ctx, r.T-tp-1, func(i int) error {
			t := tp + 1 + i
			if r.skip(tp, t) {
				return nil
			}
			c, err := r.predict(model, tp, t)
			if err != nil {
				return err
			}
			r.kernel(&c, tp, t, train)
			c.Done = true
			row[i+1] = c
			r.done.Add(1)
			return nil
		}); err != nil {
			return err
		}
		for i, c := range row {
			if c.Done {
				r.m.Set(tp, tp+i, c)
			}
		}
		if err := r.emit(r.ctx, RowDone, tp, row); err != nil {
			return err
		}
	}
	return nil
}

// staged fits every model, then predicts every cell, then computes every kernel term, timing each.
func (r *runner) staged() error {
	t0 := time.Now()
	models := make([]fitted, r.T)
	// Models are fitted one at a time: each fit is itself parallel where the model allows.
	for t := range models {
		m, err := r.fit(t)
		if err != nil {
			return err
		}
		models[t] = m
		if err := r.ctx.Err(); err != nil {
			return err
		}
	}
	r.m.Stats.Fit = time.Since(t0)
	t0 = time.Now()
	type pos struct{ tp, t int }
	var cells []pos
	for t := 0; t < r.T; t++ {
		for tp := 0; tp <= t; tp++ {
			if !r.skip(tp, t) {
				cells = append(cells, pos{tp, t})
			}
		}
	}
	out := make([]Cell, len(cells))
	if err := r.parallel(r.ctx, len(cells), func(i int) error {
		var err error
		out[i], err = r.predict(models[cells[i].tp], cells[i].tp, cells[i].t)
		return err
	}); err != nil {
		return err
	}
	r.m.Stats.Predict = time.Since(t0)
	t0 = time.Now()
	if err := r.parallel(r.ctx, len(cells), func(i int) error {
		r.predict(models[cells[i].tp], cells[i].tp, cells[i].t)
		return nil
	}); err != nil {
		return err
	}
	r.m.Stats.PredictFloor = time.Since(t0)
	t0 = time.Now()
	for i, p := range cells {
		if p.tp == p.t {
			r.kernel(&out[i], p.t, p.t, out[i].Errors)
			r.m.Set(p.t, p.t, out[i])
		}
	}
	if err := r.parallel(r.ctx, len(cells), func(i int) error {
		if p := cells[i]; p.tp != p.t {
			r.kernel(&out[i], p.tp, p.t, r.m.Cell(p.tp, p.tp).Errors)
		}
		return nil
	}); err != nil {
		return err
	}
	for i, p := range cells {
		r.m.Set(p.tp, p.t, out[i])
	}
	r.done.Store(int64(len(cells)))
	r.m.Stats.Kernel += time.Since(t0)
	return nil
}
