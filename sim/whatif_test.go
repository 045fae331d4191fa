package sim

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
)

// movedQueries is testStream with other queries: the last nq points of each batch instead of the
// first, so its data, and with them the models and their errors, are testStream's.
type movedQueries struct{ testStream }

func (s movedQueries) Batch(t int) (*Batch, error) {
	b, err := s.testStream.Batch(t)
	if err != nil {
		return nil, err
	}
	n := b.X.Len()
	b.Q = Points{D: 2, V: b.X.V[2*(n-s.nq):]}
	b.QY = b.Y[n-s.nq:]
	return b, nil
}

// keptRun runs cfg and returns its matrix, and its models as a what-if makes them: fitted again.
func keptRun(t testing.TB, cfg Config) (*Matrix, func(int) (Model, error)) {
	t.Helper()
	m, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	own := streamBatches(t, cfg.Stream)
	return m, func(tp int) (Model, error) { return FitBatch(cfg, own, tp) }
}

func streamBatches(t testing.TB, s Stream) []*Batch {
	t.Helper()
	out := make([]*Batch, s.Len())
	for i := range out {
		b, err := s.Batch(i)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = b
	}
	return out
}

// sameCells fails unless every cell of got has want's bits.
func sameCells(t *testing.T, got, want *Matrix) {
	t.Helper()
	for tt := range want.Batches() {
		for tp := 0; tp <= tt; tp++ {
			a, b := got.Cell(tp, tt), want.Cell(tp, tt)
			same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
			if !same(a.A, b.A) || !same(a.B, b.B) || !same(a.ErrorRate, b.ErrorRate) ||
				!same(a.QueryAccuracy, b.QueryAccuracy) || a.Done != b.Done || a.Errors.Count() != b.Errors.Count() {
				t.Fatalf("cell (%d,%d): %+v, want %+v", tp, tt, *a, *b)
			}
		}
	}
}

// A what-if on the queries (Requery, then Reanswer with the models fitted again) gives the matrix
// of a fresh run on the moved queries, bit for bit, for every model; with the run's own queries,
// the run's own matrix.
func TestReanswerEqualsFreshRun(t *testing.T) {
	for _, tr := range []Trainer{RandomForest{Trees: 12}, Logistic{}, KNN{K: 3}, NearestCentroid{}} {
		t.Run(tr.Name(), func(t *testing.T) {
			base := testStream{T: 9, n: 240, nq: 30, drift: 4}
			cfg := Config{Scenario: "wi", Stream: base, Trainer: tr, Seed: 5, Offline: 3, Workers: 2}
			m, models := keptRun(t, cfg)

			own := streamBatches(t, base)
			again, err := Requery(m, points(own, false), points(own, true), m.Gamma, 2)
			if err != nil {
				t.Fatal(err)
			}
			if err := Reanswer(context.Background(), again, models, own, 2); err != nil {
				t.Fatal(err)
			}
			sameCells(t, again, m)

			moved := movedQueries{base}
			cfg.Stream = moved
			fresh, err := Run(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			bs := streamBatches(t, moved)
			got, err := Requery(m, points(bs, false), points(bs, true), m.Gamma, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := Reanswer(context.Background(), got, models, bs, 3); err != nil {
				t.Fatal(err)
			}
			sameCells(t, got, fresh)
			differs := false
			for tt := range m.Batches() {
				for tp := 0; tp <= tt; tp++ {
					differs = differs || got.Cell(tp, tt).QueryAccuracy != m.Cell(tp, tt).QueryAccuracy
				}
			}
			if !differs {
				t.Error("moved queries, same accuracies everywhere: the test would not see Reanswer ignore them")
			}
		})
	}
}

func points(bs []*Batch, queries bool) []Points {
	out := make([]Points, len(bs))
	for i, b := range bs {
		out[i] = b.X
		if queries {
			out[i] = b.Q
		}
	}
	return out
}

// Queries without labels have no accuracy; a cancelled context stops Reanswer with its error, and
// so does a model that cannot be made; a wrong number of batches is refused.
func TestReanswerEdges(t *testing.T) {
	s := testStream{T: 5, n: 100, nq: 10, drift: 2}
	m, models := keptRun(t, Config{Stream: s, Trainer: NearestCentroid{}, Seed: 1, Offline: 2})
	bs := streamBatches(t, s)
	bs[3].QY = nil
	if err := Reanswer(context.Background(), m, models, bs, 1); err != nil {
		t.Fatal(err)
	}
	if a := m.Cell(1, 3).QueryAccuracy; !math.IsNaN(a) {
		t.Errorf("batch 3 without query labels: accuracy %v, want NaN", a)
	}
	if a := m.Cell(1, 4).QueryAccuracy; math.IsNaN(a) {
		t.Error("batch 4 with labels: accuracy NaN")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Reanswer(ctx, m, models, bs, 1); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
	if err := Reanswer(context.Background(), m, models, bs[:4], 1); err == nil {
		t.Error("4 batches of queries for 5 batches accepted")
	}
	failing := errors.New("no model")
	if err := Reanswer(context.Background(), m, func(int) (Model, error) { return nil, failing }, bs, 1); !errors.Is(err, failing) {
		t.Errorf("a model that cannot be made: %v", err)
	}
}

// FitBatch fits the run's own model of a batch, bit for bit: the same trees for any workers, and
// for a window of batches too.
func TestFitBatchIsTheRunsModel(t *testing.T) {
	s := testStream{T: 4, n: 300, nq: 10, drift: 2}
	own := streamBatches(t, s)
	for _, window := range []int{1, 3} {
		cfg := Config{Stream: s, Trainer: RandomForest{Trees: 15}, Seed: 7, Offline: 2, Workers: 1, Window: window}
		r, err := newRunner(context.Background(), cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		var kept []*forestModel
		for tp := range 4 {
			m, err := r.fit(tp)
			if err != nil {
				t.Fatal(err)
			}
			kept = append(kept, m.model.(*forestModel))
		}
		cfg.Trainer = RandomForest{Trees: 15, Workers: 3}
		for tp := range 4 {
			m, err := FitBatch(cfg, own, tp)
			if err != nil {
				t.Fatal(err)
			}
			f := m.(*forestModel)
			if !slices.Equal(f.nodes, kept[tp].nodes) || !slices.Equal(f.start, kept[tp].start) {
				t.Errorf("window %d, batch %d: the refitted forest differs from the run's", window, tp)
			}
		}
	}
}
