// Package sim owns the simulation: the data and query streams' common types, the models trained on
// each batch (random forest, logistic regression, kNN, nearest centroid) or whose answers come
// from outside (Outside: Predictions, a command in sim/modelcmd), the staleness kernel that fills
// the cost matrix, the Matrix itself and the Engine that drives it all and reports one event per
// batch. It knows nothing about user interfaces or file formats.
package sim

import (
	"math/rand/v2"
)

// Points is a set of points in R^D stored row-major in V.
type Points struct {
	D int
	V []float64
}

// Len is the number of points.
func (p Points) Len() int {
	if p.D == 0 {
		return 0
	}
	return len(p.V) / p.D
}

// Row returns point i (a view, not a copy).
func (p Points) Row(i int) []float64 { return p.V[i*p.D : (i+1)*p.D : (i+1)*p.D] }

// Batch is what arrives at batch T: data D_t = (X, Y) and queries Q with, where known, their true
// labels QY (nil when the queries carry no labels; they are used for accuracy only).
//
// Rows and QRows say which rows these are, for a model whose answers are known by row (a
// predictions file, Outside): point i is row Rows[i] of the batch as read, before a shuffle (nil:
// row i), and query j is the data point QRows[j] of this batch (nil: the queries are not data
// points; set only where they are drawn from the data).
type Batch struct {
	T     int
	X     Points
	Y     []uint8
	Q     Points
	QY    []uint8
	Rows  []int32
	QRows []int32
}

// Row is the row of the batch, as read, that point i is.
func (b *Batch) Row(i int) int {
	if b.Rows == nil {
		return i
	}
	return int(b.Rows[i])
}

// Drift is an interval of batches [From, To] during which the stream's concept changes.
type Drift struct {
	From int       `json:"from"`
	To   int       `json:"to"`
	Kind DriftKind `json:"kind"`
}

// DriftKind names a drift as the literature does (Gama et al. 2014).
type DriftKind string

// The kinds of drift.
const (
	DriftAbrupt      DriftKind = "abrupt"      // a concept replaced at once
	DriftGradual     DriftKind = "gradual"     // old and new concept mixed, the new one's share rising
	DriftIncremental DriftKind = "incremental" // a concept that moves continuously
	DriftRecurring   DriftKind = "recurring"   // an earlier concept back
)

// driftDisplay is each kind as a person reads it: the one place they are spelt.
var driftDisplay = map[DriftKind]string{
	DriftAbrupt:      "abrupt drift (a concept replaced at once)",
	DriftGradual:     "gradual drift (old and new concept mixed, the new one's share rising)",
	DriftIncremental: "incremental drift (the concept moves continuously)",
	DriftRecurring:   "recurring drift (an earlier concept back)",
}

// Display describes the kind in a few words; an unknown kind as it is.
func (k DriftKind) Display() string {
	if d, ok := driftDisplay[k]; ok {
		return d
	}
	return string(k)
}

// Stream yields the batches of a scenario. Batch must be deterministic (the same t gives the same
// batch) and safe for concurrent use.
type Stream interface {
	Len() int
	Features() int
	Batch(t int) (*Batch, error)
	// Drifts are where the stream's concept changes: nil when the stream does not know (real
	// data), a list (empty when there is none) when it does. Detectors' alarms are scored
	// against them.
	Drifts() []Drift
}

// Model is a trained binary classifier.
type Model interface {
	// Predict writes the predicted class (0 or 1) of each point of x into out[:x.Len()].
	Predict(x Points, out []uint8)
}

// Trainer fits a Model to one batch. Fit draws all its randomness from seed, so the same data and
// seed give the same model on any machine. Fit must handle a batch with a single class.
type Trainer interface {
	Fit(x Points, y []uint8, seed uint64) (Model, error)
	Name() string
}

// NewRand returns a PCG random source seeded from seed and the indices that name its purpose
// (a batch, a model, a tree), so every consumer draws from its own reproducible stream.
func NewRand(seed uint64, index ...uint64) *rand.Rand {
	a, b := Mix(seed, index...)
	return rand.New(rand.NewPCG(a, b))
}

// Mix derives two well-mixed 64-bit words from seed and indices (SplitMix64 steps).
func Mix(seed uint64, index ...uint64) (uint64, uint64) {
	h := splitmix(seed ^ 0x6a09e667f3bcc909)
	for _, i := range index {
		h = splitmix(h ^ splitmix(i+0x9e3779b97f4a7c15))
	}
	return h, splitmix(h ^ 0xbb67ae8584caa73b)
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
