package sim

// What a finished run keeps for what-ifs, and the query accuracy of other queries. A what-if on
// the queries or on gamma changes no model: Requery (requery.go) gives every cell's A and B from
// the errors the matrix keeps, and Reanswer gives its query accuracy from the models the run kept
// (Config.KeepModels), asked about the new queries. Neither fits a model.

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"unsafe"

	"golang.org/x/sync/errgroup"
)

// Keep returns m in the form a finished run keeps it: the same answers, holding only what
// answering needs. A forest keeps its trees and drops its compiled vote (forest_vote.go), which
// is about seven times the trees' memory (for covcon-d's 100 forests of 100 trees, 6 MB of trees
// against 45 MB of compiled votes); the kept forest compiles its vote again the first time it is
// asked, so a what-if pays that once, and only a run somebody asks a what-if of holds it. The
// returned model shares m's trees: m itself is unchanged. Other models are kept as they are.
func Keep(m Model) Model {
	if f, ok := m.(*forestModel); ok {
		return &forestModel{nodes: f.nodes, start: f.start}
	}
	return m
}

// KeptBytes estimates the memory a kept model holds (Keep's form): a forest's tree nodes, a kNN's
// training points, a linear model's or a centroid model's vectors. An estimate for a registry's
// accounting, not a measure: slice headers and allocator rounding are left out.
func KeptBytes(m Model) int64 {
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

// Reanswer sets the query accuracy of every computed cell (tp, t) of m to models[tp]'s accuracy
// on batches[t]'s queries Q against their labels QY, NaN where a batch's queries have no labels:
// the value Run gives that cell when its stream has these queries, bit for bit (a model's answer
// for a point depends on the point alone, so asking about all of a model's queries at once
// changes nothing but the work). Each model is asked once, about the queries of every batch it
// serves; models are taken workers at a time (0 means GOMAXPROCS).
func Reanswer(ctx context.Context, m *Matrix, models []Model, batches []*Batch, workers int) error {
	T := m.Batches()
	if len(models) != T || len(batches) != T {
		return fmt.Errorf("reanswer: %d batches, but %d models and %d batches of queries", T, len(models), len(batches))
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
			reanswerRow(m, models[tp], batches, tp)
			return nil
		}))
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return parent.Err()
}

// reanswerRow sets the query accuracy of row tp: one Predict over the labelled queries of every
// computed cell (tp, t).
func reanswerRow(m *Matrix, model Model, batches []*Batch, tp int) {
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
		pred = make([]uint8, q.Len())
		model.Predict(q, pred)
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
}
