package sim

import (
	"context"
	"math"
	"slices"
	"testing"
)

// The engine's fast paths (the compiled forest vote, the vector kernel, queries answered from the
// data's predictions) must give the matrix of the plain definitions bit for bit, for any worker
// count and order. referenceMatrix computes it the slow way: every model fitted as the engine
// fits it, each point predicted alone (a forest by summing every tree, no early stop), every
// query predicted itself, and A and B summed point by point and query by query with math.Exp.
func referenceMatrix(t *testing.T, cfg Config) *Matrix {
	t.Helper()
	T := cfg.Stream.Len()
	batches := make([]*Batch, T)
	models := make([]Model, T)
	for i := range T {
		b, err := cfg.Stream.Batch(i)
		if err != nil {
			t.Fatal(err)
		}
		batches[i] = b
		seed, _ := Mix(cfg.Seed, 1, uint64(i))
		if models[i], err = cfg.Trainer.Fit(b.X, b.Y, seed); err != nil {
			t.Fatal(err)
		}
	}
	gamma, err := ResolveGamma(cfg.Gamma, batches[:cfg.Offline])
	if err != nil {
		t.Fatal(err)
	}
	one := func(m Model, x []float64) uint8 {
		if f, ok := m.(*forestModel); ok {
			return fullVote(f, x)
		}
		out := []uint8{9}
		m.Predict(Points{D: len(x), V: x}, out)
		return out[0]
	}
	m := NewMatrix(T, cfg.Offline)
	m.Gamma = gamma
	for tt := range T {
		b := batches[tt]
		for tp := 0; tp <= tt; tp++ {
			pred := make([]uint8, b.X.Len())
			for i := range pred {
				pred[i] = one(models[tp], b.X.Row(i))
			}
			c := Cell{Errors: errorBits(pred, b.Y)}
			c.ErrorRate = float64(c.Errors.Count()) / float64(b.X.Len())
			c.QueryAccuracy = math.NaN()
			if b.QY != nil && b.Q.Len() > 0 {
				qp := make([]uint8, b.Q.Len())
				for j := range qp {
					qp[j] = one(models[tp], b.Q.Row(j))
				}
				c.QueryAccuracy = accuracy(qp, b.QY)
			}
			c.A = qdmScalar(b.Q, b.X, c.Errors, gamma)
			c.B = c.A
			if tp < tt {
				c.B = qdmScalar(b.Q, batches[tp].X, m.Cell(tp, tp).Errors, gamma)
			}
			m.Set(tp, tt, c)
		}
	}
	return m
}

// offsetQueries is testStream with queries of its own (not data rows) and three features.
type offsetQueries struct{ testStream }

func (s offsetQueries) Features() int { return 3 }
func (s offsetQueries) Batch(t int) (*Batch, error) {
	b, _ := s.testStream.Batch(t)
	rng := NewRand(11, uint64(t))
	n := b.X.Len()
	x := Points{D: 3, V: make([]float64, 3*n)}
	for i := range n {
		x.V[3*i], x.V[3*i+1], x.V[3*i+2] = b.X.V[2*i], b.X.V[2*i+1], rng.NormFloat64()
	}
	q := Points{D: 3, V: make([]float64, 3*s.nq)}
	qy := make([]uint8, s.nq)
	for j := range s.nq {
		if j%3 == 0 { // a third of them are data rows, the rest fresh points
			copy(q.Row(j), x.Row(j))
			qy[j] = b.Y[j]
			continue
		}
		q.V[3*j], q.V[3*j+1], q.V[3*j+2] = 0.3+0.2*rng.NormFloat64(), 0.5+0.2*rng.NormFloat64(), rng.NormFloat64()
		if q.V[3*j+1] > 0.5 {
			qy[j] = 1
		}
	}
	return &Batch{T: t, X: x, Y: b.Y, Q: q, QY: qy}, nil
}

func TestMatrixMatchesPlainDefinitions(t *testing.T) {
	streams := []struct {
		name string
		s    Stream
	}{
		{"queries from data", testStream{T: 9, n: 300, nq: 40, drift: 5}},
		{"queries of their own, 3 features", offsetQueries{testStream{T: 8, n: 250, nq: 30, drift: 4}}},
	}
	trainers := []Trainer{RandomForest{Trees: 25}, RandomForest{Trees: 6, MaxDepth: 3}, Logistic{}, KNN{}, NearestCentroid{}}
	for _, st := range streams {
		for _, tr := range trainers {
			cfg := Config{Scenario: "ref", Stream: st.s, Trainer: tr, Seed: 3, Offline: 3, Gamma: GammaSpec{Mode: GammaScale}}
			want := referenceMatrix(t, cfg)
			for _, w := range []int{1, 2, 8} {
				for _, order := range []Order{ColumnOrder, RowOrder} {
					cfg.Workers, cfg.Order = w, order
					got, err := Run(context.Background(), cfg, nil)
					if err != nil {
						t.Fatal(err)
					}
					sameMatrix(t, st.name+" "+tr.Name(), want, got)
					for tt := range got.Batches() {
						for tp := 0; tp <= tt; tp++ {
							if a, b := got.Cell(tp, tt).Errors, want.Cell(tp, tt).Errors; a.N != b.N || !slices.Equal(a.Words, b.Words) {
								t.Fatalf("%s %s: errors of cell (%d,%d) differ", st.name, tr.Name(), tp, tt)
							}
						}
					}
				}
			}
		}
	}
}
