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

// seaData is SEA-like: 3 features uniform in [0, 10], class 1 where x1 + x2 <= 8.
func seaData(rng *rand.Rand, n int) (Points, []uint8) {
	x := Points{D: 3, V: make([]float64, 3*n)}
	y := make([]uint8, n)
	for i := range n {
		for k := range 3 {
			x.V[3*i+k] = 10 * rng.Float64()
		}
		if x.V[3*i]+x.V[3*i+1] <= 8 {
			y[i] = 1
		}
	}
	return x, y
}

// Standardize is StandardScaler then SGD: the folded model equals the model fitted on the scaled
// copy (same seed, same shuffles), w_raw = w_scaled / scale and b_raw = b - sum w_raw mean.
func TestLogisticStandardizeFolds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	x, y := seaData(rng, 500)
	folded, err := Logistic{Standardize: true}.Fit(x, y, 3)
	if err != nil {
		t.Fatal(err)
	}
	sx, mean, scale := standardize(x)
	// The scaled copy has mean 0 and standard deviation 1 per feature.
	for k := range 3 {
		var m, v float64
		for i := range sx.Len() {
			m += sx.Row(i)[k] / 500
		}
		for i := range sx.Len() {
			v += (sx.Row(i)[k] - m) * (sx.Row(i)[k] - m) / 500
		}
		if math.Abs(m) > 1e-12 || math.Abs(v-1) > 1e-12 {
			t.Errorf("feature %d scaled to mean %g variance %g", k, m, v)
		}
	}
	plain, err := Logistic{}.Fit(sx, y, 3)
	if err != nil {
		t.Fatal(err)
	}
	fw, pw := folded.(*linearModel), plain.(*linearModel)
	b := pw.b
	for k := range 3 {
		if want := pw.w[k] / scale[k]; math.Abs(fw.w[k]-want) > 1e-12*math.Abs(want) {
			t.Errorf("w[%d] = %g, want %g", k, fw.w[k], want)
		}
		b -= pw.w[k] / scale[k] * mean[k]
	}
	if math.Abs(fw.b-b) > 1e-9*math.Abs(b) {
		t.Errorf("b = %g, want %g", fw.b, b)
	}
	// A constant feature keeps scale 1 (no division by zero).
	_, _, sc := standardize(Points{D: 1, V: []float64{2, 2, 2}})
	if sc[0] != 1 {
		t.Errorf("constant feature scale %g, want 1", sc[0])
	}
}

// On SEA-like features in [0, 10] the scaled model learns the boundary, well above the majority
// class.
func TestLogisticStandardizeOnSEA(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	x, y := seaData(rng, 1000)
	tx, ty := seaData(rng, 5000)
	majority := 0.0
	for _, v := range ty {
		majority += float64(v) / float64(len(ty))
	}
	majority = max(majority, 1-majority)
	std := accuracyOf(t, Logistic{Standardize: true}, x, y, tx, ty)
	if std < 0.95 || std <= majority+0.2 {
		t.Errorf("standardized accuracy %.3f, majority %.3f: want >= 0.95", std, majority)
	}
}
