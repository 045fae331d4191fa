package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// linearData is n points uniform in [0,1]^2 labelled x + y > 1.
func linearData(rng *rand.Rand, n int) (Points, []uint8) {
	x := Points{D: 2, V: make([]float64, 2*n)}
	y := make([]uint8, n)
	for i := range n {
		a, b := rng.Float64(), rng.Float64()
		x.V[2*i], x.V[2*i+1] = a, b
		if a+b > 1 {
			y[i] = 1
		}
	}
	return x, y
}

func TestLogisticSeparable(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x, y := linearData(rng, 1000)
	tx, ty := linearData(rng, 5000)
	if acc := accuracyOf(t, Logistic{}, x, y, tx, ty); acc < 0.95 {
		t.Errorf("logistic accuracy %.4f on a linear boundary, want >= 0.95", acc)
	}
}

// One epoch over two mirrored points checks the "optimal" schedule by hand. alpha = 1e-4 gives
// typw = sqrt(1/sqrt(1e-4)) = 10, eta0 = 10 and t0 = 1/(eta0 alpha) = 1000, so eta_t = 1/(alpha
// (1000 + t - 1)): eta_1 = 10, eta_2 = 10000/1001. The points are x = 1 (class 1) and x = -1
// (class 0), so y x = 1 for both; whichever comes first:
//   - step 1: p = 0, dloss = -y/2, update = eta_1 y / 2 = 5 y: w = 5 (y x = 1), b = 5 y1;
//   - step 2: p = w x2 + b = 5 x2 + 5 y1, and y1 = -y2, x2 = y2, so y2 p = 5 - 5 = 0 again,
//     update = eta_2 y2 / 2; w shrinks by (1 - eta_2 alpha) = 1000/1001 and gains eta_2/2:
//     w = 5000/1001 + 5000/1001 = 10000/1001; b = 5 y1 - (5000/1001) y1, |b| = 5/1001.
func TestLogisticScheduleByHand(t *testing.T) {
	x, y := Points{D: 1, V: []float64{1, -1}}, []uint8{1, 0}
	for seed := range uint64(4) { // either order gives the same w and |b|
		m, err := Logistic{MaxIter: 1}.Fit(x, y, seed)
		if err != nil {
			t.Fatal(err)
		}
		lm := m.(*linearModel)
		if w, want := lm.w[0], 10000.0/1001; math.Abs(w-want) > 1e-12 {
			t.Errorf("seed %d: w = %.15g, want 10000/1001 = %.15g", seed, w, want)
		}
		if b, want := math.Abs(lm.b), 5.0/1001; math.Abs(b-want) > 1e-12 {
			t.Errorf("seed %d: |b| = %.15g, want 5/1001 = %.15g", seed, b, want)
		}
	}
}

// With a huge tolerance no epoch after the first counts as an improvement, so the fit stops after
// 1 + n_iter_no_change = 6 epochs, as SGDClassifier's n_iter_ reports (or MaxIter, if fewer);
// with a negligible tolerance on separable data the loss keeps falling for a while, so more run.
func TestLogisticStopping(t *testing.T) {
	x, y := linearData(rand.New(rand.NewPCG(9, 9)), 200)
	tests := []struct {
		cfg      Logistic
		min, max int
	}{
		{Logistic{Tol: 1e9}, 6, 6},
		{Logistic{Tol: 1e9, MaxIter: 3}, 3, 3},
		{Logistic{MaxIter: 40, Tol: 1e-300}, 7, 40},
	}
	for _, tc := range tests {
		m, err := tc.cfg.Fit(x, y, 1)
		if err != nil {
			t.Fatal(err)
		}
		if e := m.(*linearModel).epochs; e < tc.min || e > tc.max {
			t.Errorf("%+v ran %d epochs, want %d..%d", tc.cfg, e, tc.min, tc.max)
		}
	}
}

func TestLogisticSameSeedSameWeights(t *testing.T) {
	x, y := linearData(rand.New(rand.NewPCG(3, 3)), 300)
	fit := func(seed uint64) *linearModel {
		m, err := Logistic{}.Fit(x, y, seed)
		if err != nil {
			t.Fatal(err)
		}
		return m.(*linearModel)
	}
	a, b, c := fit(1), fit(1), fit(2)
	if a.w[0] != b.w[0] || a.w[1] != b.w[1] || a.b != b.b {
		t.Errorf("same seed, different weights: %v %v vs %v %v", a.w, a.b, b.w, b.b)
	}
	if a.w[0] == c.w[0] && a.b == c.b {
		t.Error("another seed (another shuffle) gave identical weights")
	}
}

func BenchmarkLogisticFit(b *testing.B) {
	x, y := linearData(rand.New(rand.NewPCG(1, 1)), 1000)
	for b.Loop() {
		if _, err := (Logistic{}).Fit(x, y, 1); err != nil {
			b.Fatal(err)
		}
	}
}
