package sim

import (
	"math"
	"sync"
)

// Predictions shared between the consumers of one batch. Every model is asked about every later
// batch's data and queries; where the queries are drawn from the data (the paper's "-d" scenarios,
// a fraction of a CSV), a query is a data point already predicted, and a model's answer for a point
// depends on the point alone, so the query's answer is taken from the data's. Rows are matched on
// their exact bits, so nothing changes but the work.

// queryShare maps a batch's queries onto its data, computed once per batch on first use.
type queryShare struct {
	once sync.Once
	row  []int32 // row[j]: a data row with the bits of query j, or -1
	rest Points  // the queries with no such row, in order
}

func (s *queryShare) init(b *Batch) {
	s.once.Do(func() {
		n, nq, d := b.X.Len(), b.Q.Len(), b.X.D
		s.row = make([]int32, nq)
		s.rest = Points{D: b.Q.D}
		if b.Q.D != d {
			for j := range s.row {
				s.row[j] = -1
			}
			s.rest = b.Q
			return
		}
		byHash := make(map[uint64]int32, n)
		for i := range n {
			h := rowHash(b.X.Row(i))
			if _, ok := byHash[h]; !ok {
				byHash[h] = int32(i)
			}
		}
		for j := range nq {
			q := b.Q.Row(j)
			i, ok := byHash[rowHash(q)]
			if ok && sameBits(q, b.X.Row(int(i))) {
				s.row[j] = i
				continue
			}
			s.row[j] = -1
			s.rest.V = append(s.rest.V, q...)
		}
	})
}

// predict writes the model's answers for the batch's data into pred[:n] and for its queries into
// qpred[:nq], predicting only the queries that are not data rows.
func (s *queryShare) predict(model Model, b *Batch, pred, qpred []uint8) {
	model.Predict(b.X, pred)
	if b.Q.Len() == 0 {
		return
	}
	s.init(b)
	var rest []uint8
	if m := s.rest.Len(); m > 0 {
		rest = make([]uint8, m)
		model.Predict(s.rest, rest)
	}
	k := 0
	for j, i := range s.row {
		if i >= 0 {
			qpred[j] = pred[i]
		} else {
			qpred[j] = rest[k]
			k++
		}
	}
}

func rowHash(v []float64) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, x := range v {
		h = splitmix(h ^ math.Float64bits(x))
	}
	return h
}

func sameBits(a, b []float64) bool {
	for k := range a {
		if math.Float64bits(a[k]) != math.Float64bits(b[k]) {
			return false
		}
	}
	return true
}
