// Package algos owns the retraining decision functions of the paper and their evaluation: the
// Oracle (dynamic programming over the online block), the CARA variants (tuned exactly on the
// offline block), the Never-retrain and Markov baselines, the drift detectors ADWIN, DDM and
// Page-Hinkley and those River and MOA ship besides (EDDM, HDDM-A, HDDM-W, KSWIN), whose alarms it
// scores against a stream's known drifts, and fixed schedules (every K batches, at given batches).
// Every algorithm is a replay of Algorithm 1 over a computed cost matrix, so what-ifs on the
// retraining cost cost microseconds.
//
// The package depends on the standard library and the bitset of errors (internal/bitset) only: it
// defines the small read-only view of a matrix (Matrix) that it needs, and sim's matrix implements
// it.
package algos

import (
	"math"

	"github.com/cara-sim/cara/internal/bitset"
)

// Bits is a fixed-length bitset: bit i is set when the model got point i wrong.
type Bits = bitset.Bits

// NewBits returns a bitset of n zero bits.
func NewBits(n int) Bits { return bitset.New(n) }

// Matrix is the read-only view of a computed staleness matrix that the algorithms replay.
// Batches are 0..Batches()-1; the first Offline() of them form the offline block.
// Cells (tp, t) exist for tp <= t.
type Matrix interface {
	Batches() int
	Offline() int
	// Staleness is QDMdiff for the model of batch tp at batch t (tp < t):
	// QDM(Q_t, D_t, M_tp) - QDM(Q_t, D_tp, M_tp). Not clipped: it can be negative.
	Staleness(tp, t int) float64
	// Errors are the 0-1 errors of M_tp on D_t in data order.
	Errors(tp, t int) Bits
	// QueryAccuracy is the accuracy of M_tp on Q_t, NaN when the queries have no labels.
	QueryAccuracy(tp, t int) float64
}

// RetrainCost is R_t, the cost of retraining at batch t.
type RetrainCost func(t int) float64

// Constant is a retraining cost that is the same at every batch.
func Constant(r float64) RetrainCost { return func(int) float64 { return r } }

// Costs is the paper's cost matrix C: staleness above the diagonal, R_t on it, +Inf below.
type Costs struct {
	M Matrix
	R RetrainCost
}

// At returns C[tp, t].
func (c Costs) At(tp, t int) float64 {
	switch {
	case tp == t:
		return c.R(t)
	case tp > t:
		return math.Inf(1)
	}
	return c.M.Staleness(tp, t)
}
