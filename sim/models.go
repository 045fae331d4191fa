package sim

// This file holds what the models share: the checks on a training batch and the model of a batch
// with a single class. Each model lives in its own file: forest.go (RandomForest), logistic.go
// (Logistic), knn.go (KNN) and centroid.go (NearestCentroid).

import (
	"fmt"
	"math"
)

// checkBatch reports a training batch the models cannot fit: no points, a label count that does
// not match, a label other than 0 and 1 (the models are binary and index by label), or a feature
// value that is not a finite number (it has no place in an ordering or a distance).
func checkBatch(name string, x Points, y []uint8) error {
	n := x.Len()
	switch {
	case n == 0:
		return fmt.Errorf("%s: cannot fit an empty batch", name)
	case len(y) != n:
		return fmt.Errorf("%s: %d points but %d labels", name, n, len(y))
	case len(x.V) != n*x.D:
		return fmt.Errorf("%s: %d values do not make whole points of %d features", name, len(x.V), x.D)
	}
	for i, v := range y {
		if v > 1 {
			return fmt.Errorf("%s: label of point %d is %d, want 0 or 1", name, i, v)
		}
	}
	for j, v := range x.V {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: feature %d of point %d is %v", name, j%x.D, j/x.D, v)
		}
	}
	return nil
}

// prepare is what every Fit does first: check the configuration (validate) and the batch, and fit
// a batch with a single class, which has no boundary to learn, as a constant model. When done is
// true, Fit returns m and err as they are.
func prepare(name string, validate func() error, x Points, y []uint8) (m Model, done bool, err error) {
	if err := validate(); err != nil {
		return nil, true, err
	}
	if err := checkBatch(name, x, y); err != nil {
		return nil, true, err
	}
	if c, ok := singleClass(y); ok {
		return constModel(c), true, nil
	}
	return nil, false, nil
}

// singleClass reports whether all labels are equal, and which.
func singleClass(y []uint8) (uint8, bool) {
	for _, v := range y {
		if v != y[0] {
			return 0, false
		}
	}
	return y[0], true
}

// constModel predicts one class everywhere: the model of a batch with a single class, which has
// no boundary to learn.
type constModel uint8

// Predict implements Model.
func (c constModel) Predict(x Points, out []uint8) {
	for i := range x.Len() {
		out[i] = uint8(c)
	}
}
