package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestNearestCentroidByHand(t *testing.T) {
	tests := []struct {
		name string
		x    Points
		y    []uint8
		q    Points
		want []uint8
	}{
		// Class 0 at (0,0), (1,0), (0,1); class 1 at (4,0), (5,0), (4,1). Centroids (1/3, 1/3) and
		// (13/3, 1/3): the boundary is the line x1 = 7/3 = 2.333...
		{"two clusters",
			Points{D: 2, V: []float64{0, 0, 1, 0, 0, 1, 4, 0, 5, 0, 4, 1}}, []uint8{0, 0, 0, 1, 1, 1},
			Points{D: 2, V: []float64{2.3, 0, 2.4, 0, -10, 5, 100, -100}}, []uint8{0, 1, 0, 1}},
		// Centroids 0 and 2 (class 0 holds 0 and 0, class 1 holds 1 and 3): the point 1 is as
		// near to both and goes to class 0; 1.25 is nearer to 2.
		{"tie to class 0",
			Points{D: 1, V: []float64{0, 1, 0, 3}}, []uint8{0, 1, 0, 1},
			Points{D: 1, V: []float64{1, 1.25, 0.75}}, []uint8{0, 1, 0}},
	}
	for _, tc := range tests {
		m, err := NearestCentroid{}.Fit(tc.x, tc.y, 1)
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

func BenchmarkNearestCentroid(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, y := circleData(rng, 1000)
	tx, _ := circleData(rng, 1100)
	out := make([]uint8, tx.Len())
	for b.Loop() {
		m, err := NearestCentroid{}.Fit(x, y, 1)
		if err != nil {
			b.Fatal(err)
		}
		m.Predict(tx, out)
	}
}
