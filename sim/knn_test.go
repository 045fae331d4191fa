package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestKNNByHand(t *testing.T) {
	clusters := Points{D: 2, V: []float64{0, 0, 1, 0, 0, 1, 4, 0, 5, 0, 4, 1}}
	clusterY := []uint8{0, 0, 0, 1, 1, 1}
	queries := Points{D: 2, V: []float64{2.3, 0, 2.4, 0, -10, 5}}
	tests := []struct {
		name string
		k    int
		x    Points
		y    []uint8
		q    Points
		want []uint8
	}{
		// (2.3,0) is 1.3 from (1,0) and 1.7 from (4,0); (2.4,0) is 1.4 and 1.6: both class 0.
		{"1-nn", 1, clusters, clusterY, queries, []uint8{0, 0, 0}},
		// At (2.4, 0) the squared distances to the six points are 5.76, 1.96, 6.76, 2.56, 6.76,
		// 3.56: the nearest three, (1,0), (4,0), (4,1), vote 1 by 2 to 1. At (2.3,0): 5.29, 1.69,
		// 6.29, 2.89, 7.29, 3.89: the same three. (-10,5) sees class 0 nearest.
		{"3-nn", 3, clusters, clusterY, queries, []uint8{1, 1, 0}},
		// At (2.3,0) the nearest two are (1,0) of class 0 and (4,0) of class 1: a tied vote goes
		// to the nearest, class 0; the same at (2.4,0).
		{"2-nn tie to the nearest", 2, clusters, clusterY, queries, []uint8{0, 0, 0}},
		// K beyond the batch: all six vote, 3 to 3, and the nearest decides: (1,0) for (2.3,0),
		// (4,0) for (3,0).
		{"k > n", 10, clusters, clusterY, Points{D: 2, V: []float64{2.3, 0, 3, 0}}, []uint8{0, 1}},
		// From 0, the points 1 and -1 are equally far: the smaller index counts as nearer.
		{"equal distance, index 0 first", 1, Points{D: 1, V: []float64{1, -1, 2}}, []uint8{1, 0, 0},
			Points{D: 1, V: []float64{0}}, []uint8{1}},
		{"equal distance, index 0 first (swapped)", 1, Points{D: 1, V: []float64{-1, 1, 2}}, []uint8{0, 1, 0},
			Points{D: 1, V: []float64{0}}, []uint8{0}},
		// From 0 with k=3 over 1, -1, 2, -2: the third place is a tie between 2 (index 2) and -2
		// (index 3); index 2 takes it. Labels 1,0,1,0 give votes 1+0+1 -> 1; labels 1,0,0,1 give
		// 1+0+0 -> 0.
		{"equal distance for the last place", 3, Points{D: 1, V: []float64{1, -1, 2, -2}}, []uint8{1, 0, 1, 0},
			Points{D: 1, V: []float64{0}}, []uint8{1}},
		{"equal distance for the last place (swapped)", 3, Points{D: 1, V: []float64{1, -1, 2, -2}}, []uint8{1, 0, 0, 1},
			Points{D: 1, V: []float64{0}}, []uint8{0}},
	}
	for _, tc := range tests {
		m, err := KNN{K: tc.k}.Fit(tc.x, tc.y, 1)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]uint8, tc.q.Len())
		m.Predict(tc.q, out)
		if !slices.Equal(out, tc.want) {
			t.Errorf("%s: predicted %v, want %v", tc.name, out, tc.want)
		}
	}
}

// The model keeps its own copy: reusing the caller's buffers after Fit must not change it.
func TestKNNCopiesTrainingData(t *testing.T) {
	x, y := Points{D: 1, V: []float64{0, 10}}, []uint8{0, 1}
	m, err := KNN{K: 1}.Fit(x, y, 1)
	if err != nil {
		t.Fatal(err)
	}
	x.V[0], y[0] = 10, 1
	out := make([]uint8, 1)
	m.Predict(Points{D: 1, V: []float64{1}}, out)
	if out[0] != 0 {
		t.Errorf("predicted %d after the caller reused its buffers, want 0", out[0])
	}
}

func TestKNNAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := circleData(rng, 1000)
	tx, ty := circleData(rng, 2000)
	if acc := accuracyOf(t, KNN{}, x, y, tx, ty); acc < 0.95 {
		t.Errorf("5-nn accuracy %.4f on the disc, want >= 0.95", acc)
	}
}

func BenchmarkKNNPredict(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, y := circleData(rng, 1000)
	tx, _ := circleData(rng, 1100)
	m, err := KNN{}.Fit(x, y, 1)
	if err != nil {
		b.Fatal(err)
	}
	out := make([]uint8, tx.Len())
	for b.Loop() {
		m.Predict(tx, out)
	}
}
