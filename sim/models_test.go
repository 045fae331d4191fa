package sim

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// circleData is n points uniform in [-1,1]^2 labelled x^2 + y^2 < 0.5 (the disc holds about 39 %).
func circleData(rng *rand.Rand, n int) (Points, []uint8) {
	x := Points{D: 2, V: make([]float64, 2*n)}
	y := make([]uint8, n)
	for i := range n {
		a, b := rng.Float64()*2-1, rng.Float64()*2-1
		x.V[2*i], x.V[2*i+1] = a, b
		if a*a+b*b < 0.5 {
			y[i] = 1
		}
	}
	return x, y
}

func accuracyOf(t *testing.T, tr Trainer, x Points, y []uint8, tx Points, ty []uint8) float64 {
	t.Helper()
	m, err := tr.Fit(x, y, 7)
	if err != nil {
		t.Fatal(err)
	}
	pred := make([]uint8, tx.Len())
	m.Predict(tx, pred)
	ok := 0
	for i := range pred {
		if pred[i] == ty[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(ty))
}

func TestForestAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := circleData(rng, 1000)
	tx, ty := circleData(rng, 10000)
	if acc := accuracyOf(t, RandomForest{}, x, y, tx, ty); acc < 0.97 {
		t.Errorf("forest accuracy %.4f on fresh points, want >= 0.97", acc)
	}
}

func TestForestSameForAnyWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x, y := circleData(rng, 500)
	tx, _ := circleData(rng, 2000)
	predict := func(workers int) []uint8 {
		m, err := RandomForest{Trees: 30, Workers: workers}.Fit(x, y, 42)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]uint8, tx.Len())
		m.Predict(tx, out)
		return out
	}
	one := predict(1)
	for _, w := range []int{2, 8} {
		if !slices.Equal(one, predict(w)) {
			t.Errorf("forest with %d workers predicts differently from 1 worker", w)
		}
	}
	// Same seed, same forest; another seed, another forest.
	m1, _ := RandomForest{Trees: 5}.Fit(x, y, 1)
	m2, _ := RandomForest{Trees: 5}.Fit(x, y, 1)
	m3, _ := RandomForest{Trees: 5}.Fit(x, y, 2)
	if !slices.Equal(m1.(*forestModel).nodes[0], m2.(*forestModel).nodes[0]) {
		t.Error("same seed, different trees")
	}
	if slices.Equal(m1.(*forestModel).nodes[0], m3.(*forestModel).nodes[0]) {
		t.Error("different seeds, identical first trees")
	}
}

// Prediction stops visiting trees once the vote is decided; it must agree with the full vote.
func TestForestEarlyStopIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	x, y := circleData(rng, 800)
	// Label noise makes many points close votes, where stopping early matters most.
	for i := range y {
		if rng.Float64() < 0.2 {
			y[i] ^= 1
		}
	}
	tx, _ := circleData(rng, 5000)
	for _, trees := range []int{1, 2, 7, 50} {
		m, err := RandomForest{Trees: trees}.Fit(x, y, 3)
		if err != nil {
			t.Fatal(err)
		}
		f := m.(*forestModel)
		got := make([]uint8, tx.Len())
		f.Predict(tx, got)
		for i := range tx.Len() {
			sum := 0.0
			for _, nodes := range f.nodes {
				j := int32(0)
				for nodes[j].feature >= 0 {
					if tx.Row(i)[nodes[j].feature] <= nodes[j].threshold {
						j = nodes[j].left
					} else {
						j = nodes[j].left + 1
					}
				}
				sum += nodes[j].threshold
			}
			want := uint8(0)
			if sum > float64(trees)/2 {
				want = 1
			}
			if got[i] != want {
				t.Fatalf("%d trees, point %d: early stop says %d, full vote %d (sum %v)", trees, i, got[i], want, sum)
			}
		}
	}
}

func TestModelsByHand(t *testing.T) {
	// Class 0 around (0,0), class 1 around (4,0).
	x := Points{D: 2, V: []float64{0, 0, 1, 0, 0, 1, 4, 0, 5, 0, 4, 1}}
	y := []uint8{0, 0, 0, 1, 1, 1}
	// Centroids (1/3, 1/3) and (13/3, 1/3): the midline is x1 = 7/3.
	q := Points{D: 2, V: []float64{2.3, 0, 2.4, 0, -10, 5}}
	tests := []struct {
		name string
		tr   Trainer
		want []uint8
	}{
		{"nearest centroid", NearestCentroid{}, []uint8{0, 1, 0}},
		// k=1: (2.3,0) is nearest to (1,0) (1.3) vs (4,0) (1.7); (2.4,0): 1.4 vs 1.6 -> class 0.
		{"1-nn", KNN{K: 1}, []uint8{0, 0, 0}},
		// k=3 at (2.4, 0): distances^2 to the six points are 5.76, 1.96, 6.76, 2.56, 6.76, 3.56:
		// nearest three are (1,0):0, (4,0):1, (4,1):1 -> class 1 by 2 votes to 1.
		{"3-nn", KNN{K: 3}, []uint8{1, 1, 0}},
		// k=2 at (2.3,0): nearest (1,0):0 (1.69) and (4,0):1 (2.89): a tied vote goes to the
		// nearest neighbour, class 0.
		{"2-nn tie", KNN{K: 2}, []uint8{0, 0, 0}},
	}
	for _, tc := range tests {
		m, err := tc.tr.Fit(x, y, 1)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]uint8, q.Len())
		m.Predict(q, out)
		if !slices.Equal(out, tc.want) {
			t.Errorf("%s: predicted %v, want %v", tc.name, out, tc.want)
		}
	}
}

func TestLogisticSeparable(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	gen := func(n int) (Points, []uint8) {
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
	x, y := gen(1000)
	tx, ty := gen(5000)
	if acc := accuracyOf(t, Logistic{}, x, y, tx, ty); acc < 0.95 {
		t.Errorf("logistic accuracy %.4f on a linear boundary, want >= 0.95", acc)
	}
}

func TestSingleClassAndBadConfig(t *testing.T) {
	x := Points{D: 1, V: []float64{1, 2, 3}}
	for _, tr := range []Trainer{RandomForest{}, Logistic{}, NearestCentroid{}, KNN{}} {
		m, err := tr.Fit(x, []uint8{1, 1, 1}, 1)
		if err != nil {
			t.Fatalf("%s on one class: %v", tr.Name(), err)
		}
		out := make([]uint8, 3)
		m.Predict(x, out)
		if !slices.Equal(out, []uint8{1, 1, 1}) {
			t.Errorf("%s on one class predicts %v", tr.Name(), out)
		}
		if _, err := tr.Fit(Points{D: 1}, nil, 1); err == nil {
			t.Errorf("%s on no data: no error", tr.Name())
		}
	}
	bad := []struct {
		err  error
		want string
	}{
		{RandomForest{Trees: -1}.Validate(), "random_forest.trees must be >= 1, got -1"},
		{RandomForest{Trees: 1, MinLeaf: 1, MaxFeatures: "half"}.Validate(), `random_forest.max_features must be "sqrt", "log2", "all" or a whole number >= 1, got "half"`},
		{KNN{K: -2}.Validate(), "knn.k must be >= 1, got -2"},
		{Logistic{Alpha: -1, MaxIter: 1}.Validate(), "logistic.alpha must be > 0, got -1"},
	}
	for _, b := range bad {
		if b.err == nil || b.err.Error() != b.want {
			t.Errorf("error %v, want %q", b.err, b.want)
		}
	}
}

func BenchmarkForestFit(b *testing.B) {
	x, y := circleData(rand.New(rand.NewPCG(1, 1)), 1000)
	b.Logf("GOMAXPROCS %d", runtime.GOMAXPROCS(0))
	for b.Loop() {
		if _, err := (RandomForest{Trees: 100}).Fit(x, y, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkForestPredict(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, y := circleData(rng, 1000)
	tx, _ := circleData(rng, 1100)
	m, _ := RandomForest{Trees: 100}.Fit(x, y, 1)
	out := make([]uint8, tx.Len())
	for b.Loop() {
		m.Predict(tx, out)
	}
}
