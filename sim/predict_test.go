package sim

import (
	"math"
	"slices"
	"testing"
)

// Queries are matched to data rows on their exact bits: -0 is not 0, NaN matches its own bits.
func TestQueryShareMatchesExactRows(t *testing.T) {
	nan := math.NaN()
	b := &Batch{
		X:  Points{D: 2, V: []float64{0, 1, 2, 3, nan, 5, 2, 3}},
		Y:  []uint8{0, 1, 0, 1},
		Q:  Points{D: 2, V: []float64{2, 3, math.Copysign(0, -1), 1, nan, 5, 7, 7}},
		QY: []uint8{0, 0, 0, 0},
	}
	var s queryShare
	s.init(b)
	if want := []int32{1, -1, 2, -1}; !slices.Equal(s.row, want) {
		t.Errorf("rows %v, want %v (the first equal row; -0 and 7,7 unmatched)", s.row, want)
	}
	if s.rest.Len() != 2 || s.rest.V[2] != 7 || !math.Signbit(s.rest.V[0]) {
		t.Errorf("rest %v, want (-0, 1) and (7, 7)", s.rest.V)
	}
	// A model that answers by the sign bit of the first feature and whether it is above 1.5.
	pred, qpred := make([]uint8, 4), make([]uint8, 4)
	s.predict(signModel{}, b, pred, qpred)
	want := make([]uint8, 4)
	signModel{}.Predict(b.Q, want)
	if !slices.Equal(qpred, want) {
		t.Errorf("shared query predictions %v, direct %v", qpred, want)
	}
}

type signModel struct{}

func (signModel) Predict(x Points, out []uint8) {
	for i := range x.Len() {
		v := x.Row(i)[0]
		out[i] = 0
		if math.Signbit(v) || v > 1.5 {
			out[i] = 1
		}
	}
}
