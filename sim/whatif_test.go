package sim

import (
	"context"
	"math"
	"testing"
	"unsafe"
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

// keptRun runs cfg keeping its models, in the form a registry keeps them.
func keptRun(t testing.TB, cfg Config) (*Matrix, []Model) {
	t.Helper()
	cfg.KeepModels = true
	models := make([]Model, cfg.Stream.Len())
	m, err := Run(context.Background(), cfg, func(ev Event) error {
		if ev.Model == nil {
			t.Fatalf("event %d carries no model", ev.Index)
		}
		models[ev.Index] = Keep(ev.Model)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m, models
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

// A what-if on the queries (Requery, then Reanswer with the kept models) gives the matrix of a
// fresh run on the moved queries, bit for bit, for every model; with the run's own queries, the
// run's own matrix.
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

// Queries without labels have no accuracy; a cancelled context stops Reanswer with its error; a
// wrong number of models is refused.
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
	if err := Reanswer(context.Background(), m, models[:4], bs, 1); err == nil {
		t.Error("4 models for 5 batches accepted")
	}
	// Without KeepModels the events carry no model (the run's models go when it ends).
	if _, err := Run(context.Background(), Config{Stream: s, Trainer: NearestCentroid{}, Offline: 2}, func(ev Event) error {
		if ev.Model != nil {
			t.Errorf("event %d carries a model the run was not asked to keep", ev.Index)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// A kept forest answers as the forest did, holds only its trees (KeptBytes counts them), and
// shares them rather than copying.
func TestKeepForest(t *testing.T) {
	s := testStream{T: 2, n: 300, nq: 10, drift: 1}
	b, _ := s.Batch(0)
	m, err := RandomForest{Trees: 15}.Fit(b.X, b.Y, 3)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := s.Batch(1)
	want := make([]uint8, other.X.Len())
	m.Predict(other.X, want)
	k := Keep(m)
	if k == m {
		t.Fatal("Keep returned the forest itself: its compiled vote would stay")
	}
	got := make([]uint8, other.X.Len())
	k.Predict(other.X, got)
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("point %d: kept forest says %d, forest %d", i, got[i], want[i])
		}
	}
	f := m.(*forestModel)
	nodes := len(f.nodes)
	if got, want := KeptBytes(k), int64(nodes)*int64(unsafe.Sizeof(node{}))+int64(len(f.start))*4+int64(unsafe.Sizeof(*f)); got != want || nodes == 0 {
		t.Errorf("KeptBytes %d, want %d (%d nodes)", got, want, nodes)
	}
	if &k.(*forestModel).nodes[0] != &f.nodes[0] {
		t.Error("the kept forest copied its trees")
	}
	lin := &linearModel{w: []float64{1, 2, 3}}
	if Keep(lin) != Model(lin) || KeptBytes(lin) < 24 {
		t.Errorf("a linear model: kept %v, %d bytes", Keep(lin), KeptBytes(lin))
	}
}
