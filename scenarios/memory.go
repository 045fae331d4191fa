package scenarios

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/cara-sim/cara/sim"
)

// Bytes bounds what a run of the scenario holds at its peak, before anything is computed: the
// matrix (T(T+1)/2 cells, each with one error bit per point of its batch), every batch's points
// and queries, and the T models a run keeps (a forest's trees at their largest, 2n-1 nodes for n
// points). It is an estimate within a small factor, for refusing a scenario that cannot fit, not
// an accounting.
func (s *Scenario) Bytes(points, queries int) float64 {
	T := float64(s.Batches)
	cell := float64(unsafe.Sizeof(sim.Cell{})) + 8*math.Ceil(float64(points)/64)
	matrix := T * (T + 1) / 2 * cell
	d := float64(max(s.Features, 1))
	batches := T * (float64(points+queries)*d*8 + float64(points+queries))
	model := 64.0 // a centroid, a logistic model: a few numbers
	switch m := s.Model.(type) {
	case sim.RandomForest:
		// A fitted forest keeps its trees as packed 16-byte nodes.
		model = float64(m.Trees) * float64(2*points-1) * 16
	case sim.KNN:
		model = float64(points) * (d*8 + 1)
	}
	return matrix + batches + T*model
}

// memoryLimit is what a run may take: half the machine's memory (or 8 GiB when it cannot be
// read), so that the rest of the machine keeps working. A variable for tests.
var memoryLimit = func() float64 {
	if m := physicalMemory(); m > 0 {
		return m / 2
	}
	return 8 << 30
}

// checkMemory refuses a scenario whose run would not fit in memory.
func (s *Scenario) checkMemory(points, queries int, flag string) error {
	need, limit := s.Bytes(points, queries), memoryLimit()
	if need <= limit {
		return nil
	}
	T := s.Batches
	return fmt.Errorf("%s needs about %s of memory (%d batches: a matrix of %d cells with %d error bits each, and %d models of %s), over the %s a run may take on this machine (half its memory); use fewer batches (the matrix grows with their square) or fewer points, or pass %s 0 to skip the checks",
		s.Name, bytesText(need), T, T*(T+1)/2, points, T, s.Model.Name(), bytesText(limit), flag)
}

// bytesText writes a byte count in binary units.
func bytesText(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	i := 0
	for b >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	return fmt.Sprintf("%.3g %s", b, units[i])
}
