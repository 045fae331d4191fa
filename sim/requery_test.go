package sim

import (
	"context"
	"math"
	"testing"
)

func streamPoints(t testing.TB, s Stream) (data, queries []Points) {
	t.Helper()
	for i := range s.Len() {
		b, err := s.Batch(i)
		if err != nil {
			t.Fatal(err)
		}
		data, queries = append(data, b.X), append(queries, b.Q)
	}
	return data, queries
}

// Requery with the run's own queries gives back the run's A and B, bit for bit; with other
// queries, the A and B of a run on those queries.
func TestRequery(t *testing.T) {
	s := testStream{T: 8, n: 200, nq: 20, drift: 4}
	cfg := Config{Scenario: "rq", Stream: s, Trainer: RandomForest{Trees: 10}, Seed: 2, Offline: 3}
	m, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, queries := streamPoints(t, s)
	same, err := Requery(m, data, queries, m.Gamma, 2)
	if err != nil {
		t.Fatal(err)
	}
	for tt := range m.Batches() {
		for tp := 0; tp <= tt; tp++ {
			a, b := m.Cell(tp, tt), same.Cell(tp, tt)
			if math.Float64bits(a.A) != math.Float64bits(b.A) || math.Float64bits(a.B) != math.Float64bits(b.B) ||
				a.ErrorRate != b.ErrorRate || !math.IsNaN(b.QueryAccuracy) {
				t.Fatalf("cell (%d,%d): %+v, requeried %+v", tp, tt, *a, *b)
			}
		}
	}
	// Other queries: the last 30 points of each batch instead of the first 20.
	other := make([]Points, len(data))
	for i, x := range data {
		other[i] = Points{D: x.D, V: x.V[len(x.V)-30*x.D:]}
	}
	got, err := Requery(m, data, other, m.Gamma, 1)
	if err != nil {
		t.Fatal(err)
	}
	for tt := range m.Batches() {
		for tp := 0; tp <= tt; tp++ {
			c := got.Cell(tp, tt)
			wantA := qdmScalar(other[tt], data[tt], m.Cell(tp, tt).Errors, m.Gamma)
			wantB := qdmScalar(other[tt], data[tp], m.Cell(tp, tp).Errors, m.Gamma)
			if tp == tt {
				wantB = wantA
			}
			if c.A != wantA || c.B != wantB {
				t.Fatalf("cell (%d,%d): A %v B %v, want %v %v", tp, tt, c.A, c.B, wantA, wantB)
			}
		}
	}
	if got.Cell(0, 6).A == m.Cell(0, 6).A {
		t.Error("other queries, same A: the test would not see a requery that ignores them")
	}
	if _, err := Requery(m, data[:3], other, m.Gamma, 1); err == nil {
		t.Error("3 data sets for 8 batches accepted")
	}
}

// BenchmarkRequery is a what-if on the queries of a 100-batch run with 1000 points and 100
// queries a batch: every cell's A and B again, from the kept errors.
func BenchmarkRequery(b *testing.B) {
	s := testStream{T: 100, n: 1000, nq: 100, drift: 50}
	m, err := Run(context.Background(), Config{Stream: s, Trainer: NearestCentroid{}, Seed: 1, Offline: 25}, nil)
	if err != nil {
		b.Fatal(err)
	}
	data, _ := streamPoints(b, s)
	other := make([]Points, len(data))
	for i, x := range data {
		other[i] = Points{D: x.D, V: x.V[len(x.V)-100*x.D:]}
	}
	for b.Loop() {
		if _, err := Requery(m, data, other, m.Gamma, 0); err != nil {
			b.Fatal(err)
		}
	}
}
