package algos

import (
	"math"
	"math/rand/v2"
)

// fakeMatrix is an in-memory Matrix for tests: staleness s[tp][t], errors and query accuracy per cell.
type fakeMatrix struct {
	t, off int
	s      [][]float64
	errs   [][]Bits
	acc    [][]float64
}

func (f *fakeMatrix) Batches() int                    { return f.t }
func (f *fakeMatrix) Offline() int                    { return f.off }
func (f *fakeMatrix) Staleness(tp, t int) float64     { return f.s[tp][t] }
func (f *fakeMatrix) Errors(tp, t int) Bits           { return f.errs[tp][t] }
func (f *fakeMatrix) QueryAccuracy(tp, t int) float64 { return f.acc[tp][t] }

// randomMatrix fills a T x T matrix with staleness in [-1, 3) (negative values occur, as QDMdiff
// does), 100-point error bitsets with an error rate that grows with the model's age, and accuracy
// 1 - age/T.
func randomMatrix(rng *rand.Rand, T, off int) *fakeMatrix {
	f := &fakeMatrix{t: T, off: off}
	f.s = make([][]float64, T)
	f.errs = make([][]Bits, T)
	f.acc = make([][]float64, T)
	for tp := range T {
		f.s[tp] = make([]float64, T)
		f.errs[tp] = make([]Bits, T)
		f.acc[tp] = make([]float64, T)
		for t := tp; t < T; t++ {
			if t > tp {
				f.s[tp][t] = rng.Float64()*4 - 1
			}
			b := NewBits(100)
			for i := range 100 {
				if rng.Float64() < 0.05+0.5*float64(t-tp)/float64(T) {
					b.Set(i)
				}
			}
			f.errs[tp][t] = b
			f.acc[tp][t] = 1 - float64(t-tp)/float64(T)
		}
	}
	return f
}

// bruteForce returns the least strategy cost over start..end by trying every set of retrain batches.
func bruteForce(c Costs, start, end int) float64 {
	n := end - start
	best := math.Inf(1)
	for mask := 0; mask < 1<<n; mask++ {
		tp, cost := start, c.At(start, start)
		for t := start + 1; t <= end; t++ {
			if mask&(1<<(t-start-1)) != 0 {
				tp = t
			}
			cost += c.At(tp, t)
		}
		best = min(best, cost)
	}
	return best
}
