package run

import (
	"path/filepath"
	"testing"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// With more than two features the scatter opens on the two that spread most over their range:
// not a flat band, not a uniform cycle squeezing the rest.
func TestDefaultFeaturePair(t *testing.T) {
	b := NewBounds(4)
	pts := sim.Points{D: 4}
	for i := range 100 {
		x := float64(i) / 99
		// 0: a flat band with one outlier; 1: spread; 2: constant; 3: spread
		band := 0.01
		if i == 0 {
			band = 1
		}
		pts.V = append(pts.V, band, x, 0.5, 1-x*x)
	}
	b.Add(pts)
	if got := b.Pair(); got != [2]int{1, 3} {
		t.Errorf("pair %v, want [1 3]", got)
	}
	if got := NewBounds(2).Pair(); got != [2]int{0, 1} {
		t.Errorf("two features: %v", got)
	}
}

// The scan of a scenario's feature ranges stops with its session: a restart does not leave the
// old scan generating batches; a live session's scan finds the ranges.
func TestScanBoundsStopsWithSession(t *testing.T) {
	scen, err := scenarios.Load(filepath.Join("..", "..", "testdata", "bench100.yaml"), scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(scen, 77, nil, nil) // a seed no other test scans
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	s.Stop()
	if msg := ScanBounds(s)(); msg != nil {
		t.Errorf("a stopped session's scan returned %T", msg)
	}
	s2, _ := New(scen, 78, nil, nil)
	s2.Start()
	defer s2.Stop()
	msg, ok := ScanBounds(s2)().(BoundsMsg)
	if !ok || msg.Bounds == nil || msg.Bounds.Hi[0] <= msg.Bounds.Lo[0] {
		t.Errorf("a live session's scan: %+v", msg)
	}
}
