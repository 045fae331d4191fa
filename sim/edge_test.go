package sim

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/cara-sim/cara/internal/bitset"
)

// Numerical edge cases of the kernel: a model that gets everything right costs nothing, one that
// gets everything wrong costs the mean query sum, and gamma at both extremes stays finite and
// within its bounds.
func TestKernelEdgeCases(t *testing.T) {
	X := Points{D: 2, V: []float64{0, 0, 1, 0, 0, 1, 5, 5}}
	Q := Points{D: 2, V: []float64{0.1, 0.1, 3, 3}}
	none, all := bitset.New(4), bitset.New(4)
	for i := range 4 {
		all.Set(i)
	}
	for _, gamma := range []float64{1e-12, 1, 1e6} {
		k := QuerySums(X, Q, gamma)
		if got := maskedMean(k, none); got != 0 {
			t.Errorf("gamma %g: all correct: QDM %v, want 0", gamma, got)
		}
		mean := (k[0] + k[1] + k[2] + k[3]) / 4
		if got := maskedMean(k, all); math.Abs(got-mean) > 1e-15*mean {
			t.Errorf("gamma %g: all wrong: QDM %v, want the mean query sum %v", gamma, got, mean)
		}
		// Each similarity is in [0, 1], so QDM is in [0, |Q|].
		if got := maskedMean(k, all); !(got >= 0 && got <= 2) || math.IsNaN(got) {
			t.Errorf("gamma %g: QDM %v outside [0, |Q|]", gamma, got)
		}
	}
	// gamma tiny: every similarity is about 1, so QDM of an all-wrong model is about |Q| = 2.
	if got := maskedMean(QuerySums(X, Q, 1e-12), all); math.Abs(got-2) > 1e-9 {
		t.Errorf("gamma 1e-12: %v, want about 2", got)
	}
	// gamma huge: only exact matches count; no query sits on a data point, so QDM is 0.
	if got := maskedMean(QuerySums(X, Q, 1e6), all); got != 0 {
		t.Errorf("gamma 1e6: %v, want 0", got)
	}
}

// emptyStream has an empty batch 2.
type emptyStream struct{ testStream }

func (s emptyStream) Batch(t int) (*Batch, error) {
	b, err := s.testStream.Batch(t)
	if t == 2 {
		b.X, b.Y = Points{D: 2}, nil
	}
	return b, err
}

func TestEngineRefusesAnEmptyBatch(t *testing.T) {
	s := emptyStream{testStream{T: 6, n: 50, nq: 5, drift: 3}}
	_, err := Run(context.Background(), config(s, 2, ColumnOrder), nil)
	if err == nil || !strings.Contains(err.Error(), "batch 2 is empty") {
		t.Errorf("error %v, want one naming batch 2", err)
	}
}
