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

// covconBatches are n batches of CovCon-D's kind (the paper's bench): 1000 points from
// N(((t+1) % 7)/10, 0.1) in two features, labelled by 0.8 sin(pi x1) > x2, flipped every 10.
func covconBatches(n int) []Points {
	rng := rand.New(rand.NewPCG(7, 7))
	out := make([]Points, n)
	for t := range out {
		m := float64((t+1)%7) / 10
		x := Points{D: 2, V: make([]float64, 2000)}
		for i := range x.V {
			x.V[i] = m + 0.1*rng.NormFloat64()
		}
		out[t] = x
	}
	return out
}

func covconLabels(t int, x Points) []uint8 {
	y := make([]uint8, x.Len())
	for i := range y {
		r := x.Row(i)
		above := 0.8*math.Sin(math.Pi*r[0]) > r[1]
		if (t/10)%2 == 1 {
			above = !above
		}
		if above {
			y[i] = 1
		}
	}
	return y
}

// BenchmarkPredictCells predicts every model on every later batch, as the engine's predict stage
// does over 100 batches of CovCon-D (5050 cells of 1000 points): "cold" with the models' regions
// unknown at first, as in a run; "warm" again over the same models, every box a point falls in
// already decided: the floor of the box lookup. It reports ns per point.
func BenchmarkPredictCells(b *testing.B) {
	const T = 100
	batches := covconBatches(T)
	var models []*forestModel
	for t, x := range batches {
		m, err := RandomForest{Trees: 100, Workers: 1}.Fit(x, covconLabels(t, x), uint64(t))
		if err != nil {
			b.Fatal(err)
		}
		models = append(models, m.(*forestModel))
	}
	out := make([]uint8, 1000)
	pass := func() {
		for tp, m := range models {
			for t := tp; t < T; t++ {
				m.plan.predict(batches[t], out)
			}
		}
	}
	points := float64(T * (T + 1) / 2 * 1000)
	for _, warm := range []bool{false, true} {
		name := map[bool]string{false: "cold", true: "warm"}[warm]
		b.Run(name, func(b *testing.B) {
			for _, m := range models {
				m.plan = compileVote(m)
			}
			if warm {
				pass()
			}
			for b.Loop() {
				if !warm {
					b.StopTimer()
					for _, m := range models {
						m.plan = compileVote(m)
					}
					b.StartTimer()
				}
				pass()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/points, "ns/point")
		})
	}
}
