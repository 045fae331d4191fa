package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// rankIndex.rank is the count of cuts below a value, for values on, between and beyond the cuts,
// infinities, NaN, signed zeros and cuts that crowd into one bucket.
func TestRankIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	sets := [][]float64{
		nil,
		{0},
		{-1, 0, 1},
		{1e-300, 1e-299, 1, 1e300},
		{0.5, 0.5000000000000001, 0.5000000000000002, 0.7},
	}
	random := make([]float64, 500)
	for i := range random {
		random[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(6)))
	}
	slices.Sort(random)
	sets = append(sets, slices.Compact(random))
	for _, cuts := range sets {
		ix := newRankIndex(cuts)
		probe := []float64{math.Inf(-1), math.Inf(1), math.NaN(), 0, math.Copysign(0, -1), -math.MaxFloat64, math.MaxFloat64}
		for _, c := range cuts {
			probe = append(probe, c, math.Nextafter(c, math.Inf(1)), math.Nextafter(c, math.Inf(-1)))
		}
		for range 200 {
			probe = append(probe, rng.NormFloat64()*100)
		}
		for _, v := range probe {
			want := 0
			for _, c := range cuts {
				if c < v {
					want++
				}
			}
			if v != v {
				want = len(cuts)
			}
			if got := ix.rank(v); got != want {
				t.Fatalf("cuts %v: rank(%v) = %d, want %d", cuts, v, got, want)
			}
		}
	}
}
