package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cara-sim/cara/internal/bitset"
)

// qdmScalar is QDM the plain way, one point and one query at a time: the reference every faster
// kernel path must match bit for bit.
func qdmScalar(Q, X Points, errs bitset.Bits, gamma float64) float64 {
	if errs.N == 0 {
		return 0
	}
	s := 0.0
	for i := range X.Len() {
		if errs.Get(i) {
			s += querySum(X.Row(i), Q, gamma)
		}
	}
	return s / float64(errs.N)
}

// The vector kernel gives querySum's bits: every feature count, points near and far (terms that
// leave the vector code's range go the scalar way), repeated points, NaN, tiny and huge gamma.
func TestKernelSumsBitIdentical(t *testing.T) {
	want := 0
	if vectorExp {
		want++
	}
	if vector512 {
		want++
	}
	if got := vectorWidths(); len(got) != want {
		t.Fatalf("vector loops %v pass their check against math.Exp; the CPU should run %d", got, want)
	}
	t.Logf("vector loops: %v", vectorWidths())
	for _, w := range []int{8, 16} {
		kernelWidth = w
		testKernelSums(t)
	}
	kernelWidth = 0
}

func testKernelSums(t *testing.T) {

	rng := rand.New(rand.NewPCG(3, 3))
	for _, d := range []int{1, 2, 3, 4, 5, 8, 9} {
		for _, gamma := range []float64{1e-12, 0.5, 10.8, 300, 1e6} {
			n, nq := 37, 23
			X := Points{D: d, V: make([]float64, n*d)}
			Q := Points{D: d, V: make([]float64, nq*d)}
			for i := range X.V {
				X.V[i] = rng.NormFloat64() * 3
			}
			for i := range Q.V {
				Q.V[i] = rng.NormFloat64()
			}
			copy(X.Row(5), Q.Row(2)) // distance 0
			copy(X.Row(6), X.Row(7)) // a repeated point
			if d == 3 {
				X.V[3*10+1] = math.NaN()
				Q.V[3*4] = math.Inf(1)
			}
			got := make([]float64, n)
			kernelSums(X, nil, Q, gamma, got)
			for i := range n {
				want := querySum(X.Row(i), Q, gamma)
				if math.Float64bits(got[i]) != math.Float64bits(want) && !(math.IsNaN(got[i]) && math.IsNaN(want)) {
					t.Fatalf("d=%d gamma=%g point %d: %v, scalar %v", d, gamma, i, got[i], want)
				}
			}
			// A subset through idx, as B takes the misclassified points.
			errs := bitset.New(n)
			for i := range n {
				if rng.IntN(3) == 0 {
					errs.Set(i)
				}
			}
			if a, b := QDM(Q, X, errs, gamma), qdmScalar(Q, X, errs, gamma); math.Float64bits(a) != math.Float64bits(b) && !(math.IsNaN(a) && math.IsNaN(b)) {
				t.Fatalf("d=%d gamma=%g: QDM %v, scalar %v", d, gamma, a, b)
			}
		}
	}
}

func BenchmarkKernelPair(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, d := range []int{2, 4} {
		X := Points{D: d, V: make([]float64, 400*d)}
		Q := Points{D: d, V: make([]float64, 200*d)}
		for i := range X.V {
			X.V[i] = rng.Float64()
		}
		for i := range Q.V {
			Q.V[i] = rng.Float64()
		}
		out := make([]float64, 400)
		for _, w := range []int{16, 8, -1} {
			name := map[int]string{16: "vector16", 8: "vector8", -1: "scalar"}[w]
			b.Run(name+"/d="+string(rune('0'+d)), func(b *testing.B) {
				kernelWidth = w
				defer func() { kernelWidth = 0 }()
				for b.Loop() {
					kernelSums(X, nil, Q, 3, out)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(400*200), "ns/pair")
			})
		}
	}
}
