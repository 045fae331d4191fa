package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cara-sim/cara/internal/bitset"
)

// testStream is a drifting 2-D stream: points N(c_t, 0.2) with c_t moving along x1, labelled
// x2 > 0.5 before the drift batch and x2 < 0.5 after it; queries are the first nq points. With
// static set, every batch is batch 0's.
type testStream struct {
	T, n, nq, drift int
	static          bool
}

func (s testStream) Len() int        { return s.T }
func (s testStream) Features() int   { return 2 }
func (s testStream) Drifts() []Drift { return []Drift{{From: s.drift, To: s.drift, Kind: "abrupt"}} }
func (s testStream) Batch(t int) (*Batch, error) {
	bt := t
	if s.static {
		bt = 0
	}
	rng := NewRand(9, uint64(bt))
	b := &Batch{T: t, X: Points{D: 2, V: make([]float64, 2*s.n)}, Y: make([]uint8, s.n)}
	c := 0.3 + 0.05*float64(bt%5)
	for i := range s.n {
		x1, x2 := c+0.2*rng.NormFloat64(), 0.5+0.2*rng.NormFloat64()
		b.X.V[2*i], b.X.V[2*i+1] = x1, x2
		up := x2 > 0.5
		if bt >= s.drift {
			up = !up
		}
		if up {
			b.Y[i] = 1
		}
	}
	b.Q = Points{D: 2, V: b.X.V[:2*s.nq]}
	b.QY = b.Y[:s.nq]
	return b, nil
}

func TestQDMByHand(t *testing.T) {
	// One query at the origin; data at distance 1 (misclassified) and 2 (correct); gamma 1:
	// QDM = (1/2) * exp(-1 * 1^2) = 0.18393972...
	Q := Points{D: 2, V: []float64{0, 0}}
	X := Points{D: 2, V: []float64{1, 0, 0, 2}}
	errs := bitset.New(2)
	errs.Set(0)
	if got, want := QDM(Q, X, errs, 1), 0.5*math.Exp(-1); got != want {
		t.Errorf("QDM = %v, want %v", got, want)
	}
	// Through the query sums: K = (e^-1, e^-4), and only point 0 counts.
	k := QuerySums(X, Q, 1)
	if got, want := maskedMean(k, errs), 0.5*math.Exp(-1); got != want {
		t.Errorf("masked mean = %v, want %v", got, want)
	}
	// Two queries, 3-D (the general path): q1 = (0,0,0), q2 = (1,1,1); x = (1,0,0) wrong:
	// K(x) = exp(-0.5*1) + exp(-0.5*2); QDM = K(x)/1.
	Q3 := Points{D: 3, V: []float64{0, 0, 0, 1, 1, 1}}
	X3 := Points{D: 3, V: []float64{1, 0, 0}}
	e1 := bitset.New(1)
	e1.Set(0)
	if got, want := QDM(Q3, X3, e1, 0.5), math.Exp(-0.5)+math.Exp(-1); math.Abs(got-want) > 1e-15 {
		t.Errorf("3-D QDM = %v, want %v", got, want)
	}
}

func TestKernelMatchesNaiveSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, d := range []int{1, 2, 5} {
		X := Points{D: d, V: make([]float64, 1000*d)}
		Q := Points{D: d, V: make([]float64, 100*d)}
		for i := range X.V {
			X.V[i] = rng.Float64()
		}
		for i := range Q.V {
			Q.V[i] = rng.Float64()
		}
		errs := bitset.New(1000)
		for i := range 1000 {
			if rng.Float64() < 0.3 {
				errs.Set(i)
			}
		}
		gamma := 3.0
		naive := 0.0 // the definition's order: over queries, then over data
		for qi := range Q.Len() {
			for xi := range X.Len() {
				if errs.Get(xi) {
					dist := 0.0
					for k := range d {
						diff := Q.Row(qi)[k] - X.Row(xi)[k]
						dist += diff * diff
					}
					naive += math.Exp(-gamma*dist) / 1000
				}
			}
		}
		got := maskedMean(QuerySums(X, Q, gamma), errs)
		if rel := math.Abs(got-naive) / naive; rel > 1e-9 {
			t.Errorf("d=%d: kernel %v, naive %v, relative error %v", d, got, naive, rel)
		}
	}
}

func config(s Stream, workers int, order Order) Config {
	return Config{Scenario: "test", Stream: s, Trainer: RandomForest{Trees: 10}, Seed: 5, Offline: 4,
		Gamma: GammaSpec{Mode: GammaScale}, Workers: workers, Order: order}
}

func sameMatrix(t *testing.T, name string, a, b *Matrix) {
	t.Helper()
	for tt := 0; tt < a.Batches(); tt++ {
		for tp := 0; tp <= tt; tp++ {
			ca, cb := a.Cell(tp, tt), b.Cell(tp, tt)
			if math.Float64bits(ca.A) != math.Float64bits(cb.A) || math.Float64bits(ca.B) != math.Float64bits(cb.B) ||
				ca.ErrorRate != cb.ErrorRate || ca.Errors.Count() != cb.Errors.Count() ||
				math.Float64bits(ca.QueryAccuracy) != math.Float64bits(cb.QueryAccuracy) {
				t.Fatalf("%s: cell (%d,%d) differs: %+v vs %+v", name, tp, tt, ca, cb)
			}
		}
	}
}

func TestEngineDeterministic(t *testing.T) {
	s := testStream{T: 12, n: 300, nq: 30, drift: 6}
	ctx := context.Background()
	ref, err := Run(ctx, config(s, 1, ColumnOrder), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{2, 8} {
		m, err := Run(ctx, config(s, w, ColumnOrder), nil)
		if err != nil {
			t.Fatal(err)
		}
		sameMatrix(t, "workers", ref, m)
	}
	row, err := Run(ctx, config(s, 2, RowOrder), nil)
	if err != nil {
		t.Fatal(err)
	}
	sameMatrix(t, "row order", ref, row)
	cfg := config(s, 2, ColumnOrder)
	cfg.Staged = true
	staged, err := Run(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	sameMatrix(t, "staged", ref, staged)
	old := runtime.GOMAXPROCS(1)
	one, err := Run(ctx, config(s, 0, ColumnOrder), nil)
	runtime.GOMAXPROCS(old)
	if err != nil {
		t.Fatal(err)
	}
	sameMatrix(t, "GOMAXPROCS 1", ref, one)

	// The drift shows: model 0 errs far more on post-drift data than on its own batch.
	if ref.Cell(0, 8).ErrorRate < 0.5 || ref.Cell(0, 0).ErrorRate > 0.1 {
		t.Errorf("error rates %v (own) and %v (after drift)", ref.Cell(0, 0).ErrorRate, ref.Cell(0, 8).ErrorRate)
	}
	if ref.Gamma <= 0 || ref.Scenario != "test" || len(ref.Drifts) != 1 {
		t.Errorf("matrix metadata: gamma %v scenario %q drifts %v", ref.Gamma, ref.Scenario, ref.Drifts)
	}
	for tt := range ref.Batches() {
		if c := ref.Cell(tt, tt); c.C() != 0 {
			t.Errorf("diagonal (%d,%d) has QDMdiff %v, want 0", tt, tt, c.C())
		}
	}
}

func TestStaticDataGivesExactZeros(t *testing.T) {
	s := testStream{T: 6, n: 200, nq: 20, drift: 100, static: true}
	m, err := Run(context.Background(), config(s, 2, ColumnOrder), nil)
	if err != nil {
		t.Fatal(err)
	}
	for tt := range m.Batches() {
		for tp := 0; tp < tt; tp++ {
			if c := m.Cell(tp, tt); c.C() != 0 {
				t.Errorf("static data: QDMdiff(%d,%d) = %v, want exactly 0", tp, tt, c.C())
			}
		}
	}
}

func TestEngineEventsAndSkipCross(t *testing.T) {
	s := testStream{T: 8, n: 100, nq: 10, drift: 4}
	var events []Event
	cfg := config(s, 2, ColumnOrder)
	cfg.SkipCross = true
	m, err := Run(context.Background(), cfg, func(ev Event) error {
		events = append(events, ev)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want, last := 0, 0
	for _, ev := range events {
		if ev.Kind != ColumnDone || ev.Index != want || len(ev.Cells) != want+1 || ev.CellsDone < last {
			t.Fatalf("event %d: %+v", want, ev)
		}
		last = ev.CellsDone
		want++
	}
	if want != 8 {
		t.Errorf("%d events, want 8", want)
	}
	// 36 cells, minus the crossing block t' < 4 < t (4 x 3): 24. Column 4 stays whole.
	if last != 24 {
		t.Errorf("cells done %d, want 24", last)
	}
	if m.Cell(0, 5).Done || !m.Cell(0, 4).Done || !m.Cell(3, 4).Done || !m.Cell(5, 7).Done {
		t.Error("skip-cross left the wrong cells")
	}
}

func TestEngineCancel(t *testing.T) {
	s := testStream{T: 60, n: 2000, nq: 100, drift: 30}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(30 * time.Millisecond); cancel() }()
	start := time.Now()
	_, err := Run(ctx, config(s, 2, ColumnOrder), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("cancel took %v", d)
	}
}

func TestGamma(t *testing.T) {
	b := []*Batch{{X: Points{D: 2, V: []float64{0, 2, 0, 2}}}}
	// Pooled values 0,2,0,2: variance 1, so scale = 1/(2*1).
	tests := []struct {
		g    GammaSpec
		want float64
	}{
		{GammaSpec{Mode: GammaScale}, 0.5},
		{GammaSpec{Mode: GammaAuto}, 0.5},
		{GammaSpec{Mode: GammaValue, Value: 3}, 3},
	}
	for _, tc := range tests {
		if got, err := ResolveGamma(tc.g, b); err != nil || got != tc.want {
			t.Errorf("%+v: %v %v, want %v", tc.g, got, err, tc.want)
		}
	}
	if _, err := ResolveGamma(GammaSpec{Mode: GammaValue, Value: -1}, b); err == nil {
		t.Error("negative gamma accepted")
	}
	flat := []*Batch{{X: Points{D: 1, V: []float64{3, 3}}}}
	if _, err := ResolveGamma(GammaSpec{Mode: GammaScale}, flat); err == nil {
		t.Error("zero variance accepted for scale")
	}
}

func BenchmarkKernelCell(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	X := Points{D: 2, V: make([]float64, 2000)}
	Q := Points{D: 2, V: make([]float64, 200)}
	for i := range X.V {
		X.V[i] = rng.Float64()
	}
	for i := range Q.V {
		Q.V[i] = rng.Float64()
	}
	for b.Loop() {
		QuerySums(X, Q, 2)
	}
}

func BenchmarkMatrix100(b *testing.B) {
	s := testStream{T: 100, n: 1000, nq: 100, drift: 50}
	cfg := Config{Stream: s, Trainer: NearestCentroid{}, Seed: 1, Offline: 25}
	for b.Loop() {
		if _, err := Run(context.Background(), cfg, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// badStream fails every batch from bad on, as one bad expression in a scenario does.
type badStream struct {
	testStream
	bad int
}

func (s badStream) Batch(t int) (*Batch, error) {
	if t >= s.bad {
		return nil, fmt.Errorf("label expression: division by zero at t=%d", t)
	}
	return s.testStream.Batch(t)
}

// One bad input over many batches is one error, the first by batch index, at any number of workers.
func TestEngineFirstErrorByIndex(t *testing.T) {
	s := badStream{testStream{T: 30, n: 50, nq: 5, drift: 10}, 3}
	for _, w := range []int{1, 2, 8} {
		_, err := Run(context.Background(), config(s, w, ColumnOrder), nil)
		if err == nil {
			t.Fatalf("workers %d: no error", w)
		}
		if got, want := err.Error(), "batch 3: label expression: division by zero at t=3"; got != want {
			t.Errorf("workers %d: error %q, want %q (one line, the first bad batch)", w, got, want)
		}
	}
}

// The callback sees each column once, in order; its error stops the run and is returned as is.
func TestEngineCallbackStops(t *testing.T) {
	s := testStream{T: 12, n: 100, nq: 10, drift: 6}
	stop := errors.New("the viewer left")
	var seen []int
	for _, order := range []Order{ColumnOrder, RowOrder} {
		seen = seen[:0]
		_, err := Run(context.Background(), config(s, 2, order), func(ev Event) error {
			seen = append(seen, ev.Index)
			if ev.Index == 4 {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) {
			t.Errorf("order %v: err %v, want the callback's", order, err)
		}
		if fmt.Sprint(seen) != "[0 1 2 3 4]" {
			t.Errorf("order %v: events %v, want 0..4 then none", order, seen)
		}
	}
}

// panicTrainer's models panic when they predict on batch panicAt, as a bug in a model would.
type panicTrainer struct{ panicAt int }

func (p panicTrainer) Name() string { return "panicking" }
func (p panicTrainer) Fit(x Points, y []uint8, seed uint64) (Model, error) {
	return panicModel{n: x.Len(), at: p.panicAt}, nil
}

type panicModel struct{ n, at int }

func (m panicModel) Predict(x Points, out []uint8) {
	if x.Len() == m.at {
		panic("index out of range in a model")
	}
}

// A panic on a worker, the fitting goroutine or the caller's becomes this run's *PanicError, with its
// stack, and the process goes on.
func TestEnginePanicIsAnError(t *testing.T) {
	s := testStream{T: 8, n: 100, nq: 10, drift: 4}
	for _, tc := range []struct {
		name  string
		order Order
		tr    Trainer
		each  func(Event) error
	}{
		{"worker", ColumnOrder, panicTrainer{panicAt: 100}, nil},
		{"row worker", RowOrder, panicTrainer{panicAt: 100}, nil},
		{"callback", ColumnOrder, NearestCentroid{}, func(ev Event) error {
			if ev.Index == 3 {
				panic("a consumer's bug")
			}
			return nil
		}},
	} {
		cfg := config(s, 2, tc.order)
		cfg.Trainer = tc.tr
		_, err := Run(context.Background(), cfg, tc.each)
		var pe *PanicError
		if !errors.As(err, &pe) || len(pe.Stack) == 0 || !strings.HasPrefix(err.Error(), "internal error: ") {
			t.Errorf("%s: err %v, want a *PanicError with a stack", tc.name, err)
		}
	}
}

// Cancelling while the consumer holds an event returns promptly with context.Canceled.
func TestEngineCancelDuringCallback(t *testing.T) {
	s := testStream{T: 30, n: 300, nq: 30, drift: 15}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := Run(ctx, config(s, 2, ColumnOrder), func(ev Event) error {
		n++
		if ev.Index == 2 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || n != 3 {
		t.Errorf("err %v after %d events, want context.Canceled after 3", err, n)
	}
}

// The offline block computed from a stream cut to batches 0..T_off is the full run's, cell for
// cell, bit for bit: what a sweep shard reads the R_max of the seeds it does not own from.
func TestFirstBatchesIsTheFullRunsOfflineBlock(t *testing.T) {
	t.Parallel()
	cfg := Config{Stream: testStream{T: 9, n: 60, nq: 10, drift: 2}, Trainer: NearestCentroid{}, Seed: 4, Offline: 3}
	full, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Stream = FirstBatches(cfg.Stream, cfg.Offline+1)
	part, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if part.Batches() != 4 || part.Gamma != full.Gamma || len(part.Drifts) != 1 {
		t.Fatalf("%d batches, gamma %v, drifts %v; want 4, %v and the drift at 2", part.Batches(), part.Gamma, part.Drifts, full.Gamma)
	}
	for tt := range 4 {
		for tp := 0; tp <= tt; tp++ {
			a, b := full.Cell(tp, tt), part.Cell(tp, tt)
			if a.A != b.A || a.B != b.B || a.QueryAccuracy != b.QueryAccuracy {
				t.Errorf("cell (%d, %d): %+v, want %+v", tp, tt, b, a)
			}
		}
	}
}
