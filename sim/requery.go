package sim

import (
	"errors"
	"fmt"
	"math"
	"runtime"

	"golang.org/x/sync/errgroup"
)

// Requery recomputes A and B of every computed cell of m for other queries, from the errors m
// keeps: what a what-if on the queries costs, with no model fitted or asked again. data[t] is
// D_t's points and queries[t] the new Q_t. A cell gets the bits Run would give it with those
// queries (the same kernel, the same order); its errors and error rate are kept, and its query
// accuracy, which needs the models, becomes NaN. workers 0 means GOMAXPROCS.
func Requery(m *Matrix, data, queries []Points, gamma float64, workers int) (*Matrix, error) {
	T := m.Batches()
	if len(data) != T || len(queries) != T {
		return nil, fmt.Errorf("requery: %d batches, but %d data sets and %d query sets", T, len(data), len(queries))
	}
	if !(gamma > 0) || math.IsInf(gamma, 0) {
		return nil, errors.New("requery: gamma must be a positive number")
	}
	for t := range T {
		if queries[t].Len() > 0 && queries[t].D != data[t].D {
			return nil, fmt.Errorf("requery: batch %d has %d features but its queries %d", t, data[t].D, queries[t].D)
		}
	}
	out := NewMatrix(T, m.Offline())
	out.Scenario, out.Gamma, out.Drifts = m.Scenario, gamma, m.Drifts
	// Other queries or another gamma may leave the kernel flat (or blind) where the run's was not.
	bs := make([]*Batch, T)
	for t := range bs {
		bs[t] = &Batch{T: t, X: data[t], Q: queries[t]}
	}
	if w := kernelWarning(GammaSpec{Mode: GammaValue, Value: gamma}, gamma, bs, m.Offline(), false); w != "" {
		out.notes = append(out.notes, w)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var g errgroup.Group
	g.SetLimit(workers)
	for t := range T {
		g.Go(func() error {
			ksum := QuerySums(data[t], queries[t], gamma)
			for tp := 0; tp <= t; tp++ {
				c := *m.Cell(tp, t)
				if !c.Done {
					continue
				}
				c.QueryAccuracy = math.NaN()
				c.A = maskedMean(ksum, c.Errors)
				c.B = c.A
				if tp < t {
					c.B = QDM(queries[t], data[tp], m.Cell(tp, tp).Errors, gamma)
				}
				out.Set(tp, t, c)
			}
			return nil
		})
	}
	return out, g.Wait()
}
