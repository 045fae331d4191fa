package sim

import (
	"context"
	"math"
	"strings"
	"testing"
)

// The queries that are data points of a batch (every third point), marked as such.
func dataRowQueries(batches []*Batch) []*Batch {
	out := make([]*Batch, len(batches))
	for t, b := range batches {
		nb := &Batch{T: b.T, X: b.X, Y: b.Y, Q: Points{D: b.X.D}}
		for i := 0; i < b.X.Len(); i += 3 {
			nb.Q.V = append(nb.Q.V, b.X.Row(i)...)
			nb.QY = append(nb.QY, b.Y[i])
			nb.QRows = append(nb.QRows, int32(i))
		}
		out[t] = nb
	}
	return out
}

// A model's class at a data point is its label where the model was right: the query accuracy read
// off a cell's errors is what the models, fitted again and asked, give (Reanswer), bit for bit.
func TestReanswerFromErrors(t *testing.T) {
	s := testStream{T: 6, n: 120, nq: 10, drift: 3}
	cfg := Config{Stream: s, Trainer: RandomForest{Trees: 9}, Seed: 4, Offline: 2, Workers: 2}
	m, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	batches := dataRowQueries(streamBatches(t, s))
	copyOf := func() *Matrix {
		c := NewMatrix(m.Batches(), m.Offline())
		for bt := range m.Batches() {
			for tp := 0; tp <= bt; tp++ {
				c.Set(tp, bt, *m.Cell(tp, bt))
			}
		}
		return c
	}
	fitted, read := copyOf(), copyOf()
	own := streamBatches(t, s)
	if err := Reanswer(context.Background(), fitted, func(tp int) (Model, error) { return FitBatch(cfg, own, tp) }, batches, 2); err != nil {
		t.Fatal(err)
	}
	all, err := ReanswerFromErrors(read, batches)
	if err != nil || !all {
		t.Fatalf("%v, every batch answered %v", err, all)
	}
	for bt := range m.Batches() {
		for tp := 0; tp <= bt; tp++ {
			a, b := read.Cell(tp, bt).QueryAccuracy, fitted.Cell(tp, bt).QueryAccuracy
			if math.Float64bits(a) != math.Float64bits(b) || math.IsNaN(a) {
				t.Fatalf("cell (%d, %d): %v from the errors, %v from the models", tp, bt, a, b)
			}
		}
	}
	// Queries that are not data points have no answers there.
	if all, _ := ReanswerFromErrors(copyOf(), streamBatches(t, s)); all {
		t.Error("queries that are not marked data points were answered")
	}
}

// Predictions record a run's answers (Config.Answered), and, opened as the run's model, give its
// matrix back bit for bit; they refuse a run they were not written for.
func TestPredictionsRecordAndOpen(t *testing.T) {
	s := testStream{T: 5, n: 80, nq: 8, drift: 2}
	own := streamBatches(t, s)
	rows, queries := make([]int, 5), make([]int, 5)
	for bt, b := range own {
		rows[bt], queries[bt] = b.X.Len(), b.Q.Len()
	}
	p := NewPredictions("recorded", rows, queries)
	cfg := Config{Stream: s, Trainer: KNN{K: 3}, Seed: 1, Offline: 2, Answered: p.Record}
	want, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, _, missing := p.Missing(); missing {
		t.Fatal("the run left answers out")
	}
	p.Filled()
	cfg.Trainer, cfg.Answered, cfg.Outside = nil, nil, p
	got, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for bt := range 5 {
		for tp := 0; tp <= bt; tp++ {
			g, w := got.Cell(tp, bt), want.Cell(tp, bt)
			if math.Float64bits(g.A) != math.Float64bits(w.A) || math.Float64bits(g.B) != math.Float64bits(w.B) || g.QueryAccuracy != w.QueryAccuracy {
				t.Fatalf("cell (%d, %d): %+v, want %+v", tp, bt, g, w)
			}
		}
	}
	one := *p
	one.ForSeed(7)
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Stream: s, Outside: &one, Seed: 8, Offline: 2}, "the predictions are for the data of seed 7, and the data are generated, so seed 8's differ"},
		{Config{Stream: s, Outside: p, Offline: 2, Window: 2}, "model.window is how cara fits its own models"},
		{Config{Stream: testStream{T: 5, n: 81, nq: 8, drift: 2}, Outside: p, Offline: 2}, "the predictions are for 80 rows in batch 0, the run's batch has 81"},
		{Config{Stream: testStream{T: 6, n: 80, nq: 8, drift: 2}, Outside: p, Offline: 2}, "the predictions are for 5 batches, the run has 6"},
	} {
		if _, err := Run(context.Background(), c.cfg, nil); err == nil || !strings.Contains(err.Error(), "model recorded: "+c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	// Without answers at the queries (not data points), query accuracy is not available, and the
	// matrix says so.
	noq := p.DropQueries()
	m, err := Run(context.Background(), Config{Stream: s, Outside: noq, Offline: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if acc := m.Cell(1, 3).QueryAccuracy; !math.IsNaN(acc) || !strings.HasPrefix(strings.Join(m.Warnings(), "\n"), "query accuracy is not available") {
		t.Errorf("accuracy %v, warnings %q", acc, m.Warnings())
	}
}
