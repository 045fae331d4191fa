package sim

import "errors"

// TEMPORARY SKELETON: the models are being written; these declarations fix their configuration.

var errNotYet = errors.New("model: not implemented yet")

// RandomForest is a random forest of CART trees with scikit-learn's defaults: bootstrap samples,
// Gini impurity, fully grown trees, sqrt(d) features tried per split.
type RandomForest struct {
	Trees       int    // number of trees (100)
	MaxDepth    int    // 0: unlimited
	MinLeaf     int    // minimum samples per leaf (1)
	MaxFeatures string // "sqrt" (default), "log2", "all", or a whole number
}

func (f RandomForest) Name() string                                        { return "random_forest" }
func (f RandomForest) Fit(x Points, y []uint8, seed uint64) (Model, error) { return nil, errNotYet }

// Logistic is logistic regression fitted by SGD on log loss with L2, after scikit-learn's
// SGDClassifier defaults.
type Logistic struct {
	Alpha   float64 // L2 strength (0.0001)
	MaxIter int     // epochs at most (1000)
	Tol     float64 // stopping tolerance (0.001)
}

func (l Logistic) Name() string                                        { return "logistic" }
func (l Logistic) Fit(x Points, y []uint8, seed uint64) (Model, error) { return nil, errNotYet }

// KNN is k-nearest-neighbours classification by majority vote.
type KNN struct{ K int }

func (k KNN) Name() string                                        { return "knn" }
func (k KNN) Fit(x Points, y []uint8, seed uint64) (Model, error) { return nil, errNotYet }

// NearestCentroid predicts the class whose training mean is closest.
type NearestCentroid struct{}

func (NearestCentroid) Name() string                                        { return "nearest_centroid" }
func (NearestCentroid) Fit(x Points, y []uint8, seed uint64) (Model, error) { return nil, errNotYet }
