package sim_test

import (
	"fmt"

	"github.com/cara-sim/cara/sim"
)

// Each model is a Trainer: configure it, apply the defaults, validate, fit on one batch with a
// seed, and predict many points at once.
func Example_models() {
	// Ten points on a line: class 1 from 0.5 on.
	x := sim.Points{D: 1, V: []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}}
	y := []uint8{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}
	q := sim.Points{D: 1, V: []float64{-1, 0.05, 0.95, 2}}
	for _, tr := range []sim.Trainer{
		sim.RandomForest{Trees: 25}.WithDefaults(),
		sim.Logistic{Alpha: 0.01}.WithDefaults(),
		sim.KNN{K: 3},
		sim.NearestCentroid{},
	} {
		m, err := tr.Fit(x, y, 1)
		if err != nil {
			fmt.Println(err)
			continue
		}
		out := make([]uint8, q.Len())
		m.Predict(q, out)
		fmt.Println(tr.Name(), out)
	}
	fmt.Println(sim.RandomForest{Trees: 0, MinLeaf: 1}.Validate())
	// Output:
	// random_forest [0 0 1 1]
	// logistic [0 0 1 1]
	// knn [0 0 1 1]
	// nearest_centroid [0 0 1 1]
	// random_forest.trees must be >= 1, got 0
}
