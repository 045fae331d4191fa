package sim

import (
	"fmt"
	"math"
	"runtime"

	"golang.org/x/sync/errgroup"
)

// KernelView is how A and B see a run's batches beyond the paper: Config's Weights (an error
// counts its point's class weight) and Standardize (the kernel and gamma on features scaled by
// the offline block). Its zero value is the paper's kernel. Features names the features in its
// messages (nil: feature 1, 2, ...).
type KernelView struct {
	Weights     []float64
	Standardize bool
	Features    []string
}

// Gamma is the kernel width g gives batches, offline of them the offline block, seen through v: what
// Run resolves.
func (v KernelView) Gamma(g GammaSpec, batches []*Batch, offline int) (float64, error) {
	_, gamma, _, err := v.kernel(g, batches, offline)
	return gamma, err
}

// Requery recomputes A and B of every computed cell of m for other queries, from the errors m
// keeps: what a what-if on the queries costs, with no model fitted or asked again. data[t] is
// D_t's points and queries[t] the new Q_t. A cell gets the bits Run would give it with those
// queries (the same kernel, the same order); its errors and error rate are kept, and its query
// accuracy, which needs the models, becomes NaN. workers 0 means GOMAXPROCS.
func Requery(m *Matrix, data, queries []Points, gamma float64, workers int) (*Matrix, error) {
	if len(data) != len(queries) {
		return nil, fmt.Errorf("requery: %d data sets but %d query sets", len(data), len(queries))
	}
	bs := make([]*Batch, len(data))
	for t := range bs {
		bs[t] = &Batch{T: t, X: data[t], Q: queries[t]}
	}
	return RequeryView(m, bs, GammaSpec{Mode: GammaValue, Value: gamma}, KernelView{}, workers)
}

// RequeryView is Requery for a run of any KernelView, and of a gamma setting rather than a
// number: batches[t] holds D_t's points, their labels (which the weights need) and the new Q_t,
// and g is resolved as Run resolves it (on the standardised offline block when view.Standardize).
// A fresh run of the same batches, g and view gives the same A and B, bit for bit.
func RequeryView(m *Matrix, batches []*Batch, g GammaSpec, view KernelView, workers int) (*Matrix, error) {
	T := m.Batches()
	if len(batches) != T {
		return nil, fmt.Errorf("requery: %d batches, but %d given", T, len(batches))
	}
	if err := checkWeights(view.Weights, batches); err != nil {
		return nil, err
	}
	for t, b := range batches {
		if b.Q.Len() > 0 && b.Q.D != b.X.D {
			return nil, fmt.Errorf("requery: batch %d has %d features but its queries %d", t, b.X.D, b.Q.D)
		}
		if view.Weights != nil && len(b.Y) != b.X.Len() {
			return nil, fmt.Errorf("requery: batch %d has %d points but %d labels, and class weights need them", t, b.X.Len(), len(b.Y))
		}
	}
	kb, gamma, notes, err := view.kernel(g, batches, m.Offline())
	if err != nil {
		return nil, fmt.Errorf("requery: %w", err)
	}
	out := NewMatrix(T, m.Offline())
	out.Scenario, out.Seed, out.Gamma, out.Drifts = m.Scenario, m.Seed, gamma, m.Drifts
	// Other queries or another gamma may leave the kernel flat (or blind) where the run's was not.
	out.notes = notes
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var eg errgroup.Group
	eg.SetLimit(workers)
	for t := range T {
		eg.Go(func() error {
			ksum := QuerySums(kb[t].X, kb[t].Q, gamma)
			weigh(ksum, kb[t].Y, view.Weights)
			for tp := 0; tp <= t; tp++ {
				c := *m.Cell(tp, t)
				if !c.Done {
					continue
				}
				c.QueryAccuracy = math.NaN()
				c.A = maskedMean(ksum, c.Errors)
				c.B = c.A
				if tp < t {
					c.B = weightedQDM(kb[t].Q, kb[tp].X, kb[tp].Y, m.Cell(tp, tp).Errors, gamma, view.Weights)
				}
				out.Set(tp, t, c)
			}
			return nil
		})
	}
	return out, eg.Wait()
}
