package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
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

// accuracyOf fits tr on (x, y) with seed 7 and returns its accuracy on (tx, ty).
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

var allTrainers = []Trainer{RandomForest{}, Logistic{}, NearestCentroid{}, KNN{}}

func TestSingleClassPredictsIt(t *testing.T) {
	x := Points{D: 1, V: []float64{1, 2, 3}}
	for _, tr := range allTrainers {
		for _, c := range []uint8{0, 1} {
			m, err := tr.Fit(x, []uint8{c, c, c}, 1)
			if err != nil {
				t.Fatalf("%s on one class: %v", tr.Name(), err)
			}
			q := Points{D: 1, V: []float64{-5, 2, 40}}
			out := []uint8{9, 9, 9}
			m.Predict(q, out)
			if !slices.Equal(out, []uint8{c, c, c}) {
				t.Errorf("%s trained on class %d only predicts %v", tr.Name(), c, out)
			}
		}
	}
}

func TestBadBatch(t *testing.T) {
	tests := []struct {
		name string
		x    Points
		y    []uint8
		want string // the error after the model's name
	}{
		{"empty", Points{D: 2}, nil, "cannot fit an empty batch"},
		{"no features", Points{}, nil, "cannot fit an empty batch"},
		{"labels short", Points{D: 1, V: []float64{1, 2}}, []uint8{0}, "2 points but 1 labels"},
		{"ragged", Points{D: 2, V: []float64{1, 2, 3}}, []uint8{0}, "3 values do not make whole points of 2 features"},
		{"label 2", Points{D: 1, V: []float64{1, 2}}, []uint8{0, 2}, "label of point 1 is 2, want 0 or 1"},
		{"NaN", Points{D: 2, V: []float64{1, 2, 3, math.NaN()}}, []uint8{0, 1}, "feature 1 of point 1 is NaN"},
		{"Inf", Points{D: 2, V: []float64{math.Inf(-1), 2, 3, 4}}, []uint8{0, 1}, "feature 0 of point 0 is -Inf"},
	}
	for _, tr := range allTrainers {
		for _, tc := range tests {
			m, err := tr.Fit(tc.x, tc.y, 1)
			if err == nil || !strings.HasSuffix(err.Error(), ": "+tc.want) {
				t.Errorf("%s, %s: got model %v, error %v; want error ending %q", tr.Name(), tc.name, m, err, tc.want)
			}
		}
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		cfg  interface{ Validate() error }
		want string // "" for a valid configuration
	}{
		{RandomForest{}.WithDefaults(), ""},
		{RandomForest{Trees: 1, MinLeaf: 1, MaxFeatures: "3"}, ""},
		{RandomForest{Trees: 0, MinLeaf: 1}, "random_forest.trees must be >= 1, got 0"},
		{RandomForest{Trees: -1, MinLeaf: 1}, "random_forest.trees must be >= 1, got -1"},
		{RandomForest{Trees: 1, MaxDepth: -2, MinLeaf: 1}, "random_forest.max_depth must be >= 0 (0: unlimited), got -2"},
		{RandomForest{Trees: 1, MinLeaf: 0}, "random_forest.min_leaf must be >= 1, got 0"},
		{RandomForest{Trees: 1, MinLeaf: 1, MaxFeatures: "half"}, `random_forest.max_features must be "sqrt", "log2", "all" or a whole number >= 1, got "half"`},
		{RandomForest{Trees: 1, MinLeaf: 1, MaxFeatures: "0"}, `random_forest.max_features must be "sqrt", "log2", "all" or a whole number >= 1, got "0"`},
		{Logistic{}.WithDefaults(), ""},
		{Logistic{Alpha: -1, MaxIter: 1}, "logistic.alpha must be > 0, got -1"},
		{Logistic{Alpha: math.NaN(), MaxIter: 1}, "logistic.alpha must be > 0, got NaN"},
		{Logistic{Alpha: math.Inf(1), MaxIter: 1}, "logistic.alpha must be finite, got +Inf"},
		{Logistic{Alpha: 1, MaxIter: 0}, "logistic.max_iter must be >= 1, got 0"},
		{Logistic{Alpha: 1, MaxIter: 1, Tol: -0.5}, "logistic.tol must be >= 0, got -0.5"},
		{KNN{}.WithDefaults(), ""},
		{KNN{K: 0}, "knn.k must be >= 1, got 0"},
		{KNN{K: -2}, "knn.k must be >= 1, got -2"},
		{NearestCentroid{}, ""},
	}
	for _, tc := range tests {
		err := tc.cfg.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%#v: unexpected error %v", tc.cfg, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want):
			t.Errorf("%#v: error %v, want %q", tc.cfg, err, tc.want)
		}
	}
	// Fit validates too, after applying the defaults.
	x, y := Points{D: 1, V: []float64{0, 1}}, []uint8{0, 1}
	if _, err := (RandomForest{Trees: -3}).Fit(x, y, 1); err == nil || err.Error() != "random_forest.trees must be >= 1, got -3" {
		t.Errorf("forest with -3 trees: error %v", err)
	}
	if _, err := (KNN{K: -1}).Fit(x, y, 1); err == nil {
		t.Error("knn with k=-1: no error")
	}
}

func TestWithDefaults(t *testing.T) {
	if got, want := (RandomForest{}).WithDefaults(), (RandomForest{Trees: 100, MinLeaf: 1, MaxFeatures: "sqrt"}); got != want {
		t.Errorf("forest defaults %+v, want %+v", got, want)
	}
	// Set fields are kept.
	if got, want := (RandomForest{Trees: 7, MaxDepth: 3, MinLeaf: 2, MaxFeatures: "all"}).WithDefaults(), (RandomForest{Trees: 7, MaxDepth: 3, MinLeaf: 2, MaxFeatures: "all"}); got != want {
		t.Errorf("forest with settings %+v, want %+v", got, want)
	}
	if got, want := (Logistic{}).WithDefaults(), (Logistic{Alpha: 1e-4, MaxIter: 1000, Tol: 1e-3}); got != want {
		t.Errorf("logistic defaults %+v, want %+v", got, want)
	}
	if got, want := (Logistic{Alpha: 0.5, MaxIter: 3, Tol: 0.25}).WithDefaults(), (Logistic{Alpha: 0.5, MaxIter: 3, Tol: 0.25}); got != want {
		t.Errorf("logistic with settings %+v, want %+v", got, want)
	}
	if got := (KNN{}).WithDefaults(); got.K != 5 {
		t.Errorf("knn default k %d, want 5", got.K)
	}
	if got := (KNN{K: 2}).WithDefaults(); got.K != 2 {
		t.Errorf("knn k 2 became %d", got.K)
	}
	names := map[string]bool{}
	for _, tr := range allTrainers {
		names[tr.Name()] = true
	}
	for _, n := range []string{"random_forest", "logistic", "knn", "nearest_centroid"} {
		if !names[n] {
			t.Errorf("no trainer named %q", n)
		}
	}
}
