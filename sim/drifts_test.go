package sim

import (
	"context"
	"slices"
	"testing"
)

// driftStream is a tiny stream whose drifts are whatever the test says.
type driftStream struct {
	drifts []Drift
}

func (driftStream) Len() int      { return 3 }
func (driftStream) Features() int { return 1 }
func (driftStream) Batch(t int) (*Batch, error) {
	b := &Batch{T: t, X: Points{D: 1, V: []float64{0, 1, 2, 3}}, Y: []uint8{0, 0, 1, 1}, Q: Points{D: 1, V: []float64{1.5}}}
	return b, nil
}
func (s driftStream) Drifts() []Drift { return s.drifts }

// TestMatrixTellsDriftsAndSeed: a run's matrix keeps its seed and its stream's drifts, known
// (a list, empty when there is none) or not (nil), as the algorithms read them.
func TestMatrixTellsDriftsAndSeed(t *testing.T) {
	for _, tc := range []struct {
		drifts []Drift
		want   [][2]int
		known  bool
	}{
		{nil, nil, false},
		{[]Drift{}, [][2]int{}, true},
		{[]Drift{{From: 1, To: 2, Kind: DriftGradual}}, [][2]int{{1, 2}}, true},
	} {
		m, err := Run(context.Background(), Config{Stream: driftStream{tc.drifts}, Trainer: NearestCentroid{}, Seed: 41, Offline: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, known := m.DriftBatches()
		if known != tc.known || !slices.Equal(got, tc.want) || m.RunSeed() != 41 {
			t.Errorf("drifts %v: %v known %v, seed %d", tc.drifts, got, known, m.RunSeed())
		}
	}
}
