package sim

// The query accuracy of other queries. A what-if on the queries or on gamma changes no model:
// Requery (requery.go) gives every cell's A and B from the errors the matrix keeps, and Reanswer
// gives its query accuracy from the run's models, fitted again (FitBatch: the same models bit for
// bit) and asked about the new queries. A finished run keeps no models: for covcon-d they are six
// times its matrix (6 MB of trees against 1 MB of cells and error bits).

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"unsafe"

	"golang.org/x/sync/errgroup"
)

// Keep returns m without what it compiled for asking: the same answers, holding only its trees
// (a forest compiles its vote again the first time the copy is asked, and the copy lets it go with
// itself). The copy shares m's trees. Models that compile nothing are returned as they are.
func Keep(m Model) Model {
	if f, ok := m.(*forestModel); ok {
		return &forestModel{nodes: f.nodes, start: f.start}
	}
	return m
}

// keptBytes is what a model holds without a compiled vote: a forest's trees, a kNN's training
// points, a linear model's or a centroid model's vectors.
func keptBytes(m Model) int64 {
	switch m := m.(type) {
	case *forestModel:
		return m.treeBytes()
	case *knnModel:
		return int64(len(m.x.V))*8 + int64(len(m.y))
	case *linearModel:
		return int64(unsafe.Sizeof(*m)) + int64(len(m.w))*8
	case *centroidModel:
		return int64(len(m.c[0])+len(m.c[1])) * 8
	}
	return 0
}

// Reanswer sets the query accuracy of every computed cell (tp, t) of m to M_tp's accuracy on
// batches[t]'s queries Q against their labels QY, NaN where a batch's queries have no labels: the
// value Run gives that cell when its stream has these queries, bit for bit (a model's answer for a
// point depends on the point alone, so asking about all of a model's queries at once changes
// nothing but the work). model(tp) gives M_tp (FitBatch fits it again); each model is made once,
// asked about the queries of every batch it serves, and let go: workers models at a time (0 means
// GOMAXPROCS), so a what-if holds no more models than that.
func Reanswer(ctx context.Context, m *Matrix, model func(tp int) (Model, error), batches []*Batch, workers int) error {
	T := m.Batches()
	if len(batches) != T {
		return fmt.Errorf("reanswer: %d batches, but %d batches of queries", T, len(batches))
	}
	for t, b := range batches {
		if b.QY != nil && len(b.QY) != b.Q.Len() {
			return fmt.Errorf("reanswer: batch %d has %d queries but %d labels", t, b.Q.Len(), len(b.QY))
		}
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	parent := ctx
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	// Model 0 serves the most batches: the largest pieces go first.
	for tp := range T {
		if ctx.Err() != nil {
			break
		}
		g.Go(recovered(func() error {
			defer runtime.Gosched() // as the engine's pool: sessions share the run queues
			if err := ctx.Err(); err != nil {
				return err
			}
			return reanswerRow(m, model, batches, tp)
		}))
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return parent.Err()
}

// reanswerRow sets the query accuracy of row tp: one Predict over the labelled queries of every
// computed cell (tp, t), by M_tp, made only when some cell has such queries.
func reanswerRow(m *Matrix, model func(int) (Model, error), batches []*Batch, tp int) error {
	T := m.Batches()
	var q Points
	var from []int // from[t-tp]: the first query of batch t in q, or -1
	for t := tp; t < T; t++ {
		b := batches[t]
		c := m.Cell(tp, t)
		if !c.Done || b.QY == nil || b.Q.Len() == 0 {
			from = append(from, -1)
			continue
		}
		q.D = b.Q.D
		from = append(from, q.Len())
		q.V = append(q.V, b.Q.V...)
	}
	var pred []uint8
	if q.Len() > 0 {
		mt, err := model(tp)
		if err != nil {
			return err
		}
		pred = make([]uint8, q.Len())
		mt.Predict(q, pred)
	}
	for t := tp; t < T; t++ {
		c := m.Cell(tp, t)
		if !c.Done {
			continue
		}
		c.QueryAccuracy = math.NaN()
		if i := from[t-tp]; i >= 0 {
			nq := batches[t].Q.Len()
			c.QueryAccuracy = accuracy(pred[i:i+nq], batches[t].QY)
		}
	}
	return nil
}
