package sim

// A model from outside cara. The engine needs of a model only its predicted classes: M_t' on every
// row of D_t for t >= t' (A reads them on D_t, B on D_t' itself) and, for query accuracy, at the
// queries. So a model is either one cara fits (a Trainer) or one whose answers come from outside
// (an Outside: a predictions file, Predictions, or a command), and both give the same cells for the
// same predictions, bit for bit: the kernel, the weights and every algorithm are the same code.

import (
	"context"
	"fmt"
	"math"
)

// Outside is a model whose answers come from outside cara, by batch and row, rather than from a
// model cara fits. Config.Outside holds one in place of a Trainer.
type Outside interface {
	// Name says what it is, for messages ("predictions file preds.csv", "command python3 model.py").
	Name() string
	// Open readies it for one run. The run calls Close on what it returns when it ends.
	Open(ctx context.Context, run OutsideRun) (Answers, error)
}

// OutsideRun is what a run tells a model from outside when it opens it.
type OutsideRun struct {
	Seed    uint64
	Batches []*Batch // the run's batches, in order, as the run generated them
	Offline int
	Window  int       // M_t is fitted to batches t-Window+1..t (0 or 1: batch t alone)
	Weights []float64 // errors.weights by class; nil: every error counts 1
}

// Answers is a model from outside, opened for one run. The run calls Fit(t) once for each t, in
// order of t, before it asks M_t anything; Predict may be called from several goroutines at once.
type Answers interface {
	// Fit makes M_t ready: a command fits it, a file holds its answers already.
	Fit(t int) error
	// Predict writes M_tp's class (0 or 1) at each data point of batch t into data, in the batch's
	// point order, and, when queries is not nil, at each of its queries into queries, reporting
	// whether it knows them (a predictions file may not). Queries that are data points
	// (Batch.QRows) are not asked: the run takes their answers from the data's.
	Predict(tp, t int, data, queries []uint8) (queriesKnown bool, err error)
	// Close ends the run's use of the model (a command is told so and waited for).
	Close() error
}

// fitted is M_t as the engine asks it: a model cara fitted, or (model nil) the run's model from
// outside, asked by index.
type fitted struct {
	model Model
}

// answer writes the answers of M_tp, a model from outside, on batch t's data and, when labelled,
// at its queries, taking those that are data points from the data's answers.
func (r *runner) answer(tp, t int, data, queries []uint8, labelled bool) (bool, error) {
	b := r.batches[t]
	if !labelled || b.QRows != nil {
		if _, err := r.outside.Predict(tp, t, data, nil); err != nil {
			return false, r.outsideErr(err)
		}
		for j, i := range b.QRows {
			queries[j] = data[i]
		}
		return labelled, nil
	}
	known, err := r.outside.Predict(tp, t, data, queries)
	if err == nil && !known {
		r.noQueryAnswers.Store(true)
	}
	return known, r.outsideErr(err)
}

// outsideErr names the model from outside in its error; nil stays nil.
func (r *runner) outsideErr(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("model %s: %w", r.cfg.Outside.Name(), err)
}

// openOutside opens cfg's model from outside for the run, once its batches are known.
func (r *runner) openOutside() error {
	a, err := r.cfg.Outside.Open(r.ctx, OutsideRun{Seed: r.cfg.Seed, Batches: r.batches, Offline: r.off,
		Window: r.cfg.Window, Weights: r.cfg.Weights})
	if err != nil {
		return r.outsideErr(err)
	}
	r.outside = a
	return nil
}

// queryAnswersNote says that the model from outside had no answers at the queries: the run's query
// accuracy is not available (NaN in every cell), and why.
func queryAnswersNote(name string) string {
	return fmt.Sprintf("query accuracy is not available: the queries are not rows of the data, and the model (%s) gives no answers at them (a predictions file gives them in rows with set=query: docs/byo-model.md)", name)
}

// ReanswerFromErrors sets the query accuracy of every computed cell (tp, t) of m for the queries of
// batches[t], from the cell's errors alone, where those queries are data points (Batch.QRows): a
// model's class at a data point is the point's label where it was right and the other class where
// it was wrong (there are two). Elsewhere, and where the queries have no labels, it is NaN. It
// reports whether every batch whose queries have labels was answered. This is what a what-if on
// the queries of a run with a model from outside has (the model is not asked again after its run);
// for a model cara fits it gives what Reanswer gives, bit for bit.
func ReanswerFromErrors(m *Matrix, batches []*Batch) (bool, error) {
	T := m.Batches()
	if len(batches) != T {
		return false, fmt.Errorf("reanswer: %d batches, but %d batches of queries", T, len(batches))
	}
	all := true
	for t, b := range batches {
		labelled := b.QY != nil && b.Q.Len() > 0
		if labelled && b.QRows == nil {
			all = false
		}
		if b.QRows != nil && len(b.QRows) != len(b.QY) {
			return false, fmt.Errorf("reanswer: batch %d has %d queries that are data points but %d labels", t, len(b.QRows), len(b.QY))
		}
		for tp := 0; tp <= t; tp++ {
			c := m.Cell(tp, t)
			if !c.Done {
				continue
			}
			c.QueryAccuracy = math.NaN()
			if !labelled || b.QRows == nil {
				continue
			}
			pred := make([]uint8, len(b.QRows))
			for j, i := range b.QRows {
				pred[j] = b.Y[i]
				if c.Errors.Get(int(i)) {
					pred[j] = 1 - b.Y[i]
				}
			}
			c.QueryAccuracy = accuracy(pred, b.QY)
		}
	}
	return all, nil
}
