package scenarios

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/cara-sim/cara/sim"
)

// Issue 26, item 7: the work budget (batches x points x queries) let 20000 batches of 5 points
// through to a 14 GB matrix; CheckBudget now bounds memory too, before anything is computed.
func TestCheckBudgetBoundsMemory(t *testing.T) {
	defer func(f func() float64) { memoryLimit = f }(memoryLimit)
	memoryLimit = func() float64 { return 8 << 30 }
	parse := func(batches, size, queries string) *Scenario {
		src := with("batches: 10", "batches: "+batches)
		src = strings.Replace(src, "  size: 50", "  size: "+size, 1)
		src = strings.Replace(src, "size: 5}", "size: "+queries+"}", 1)
		s, err := Parse("m.yaml", []byte(src), "", Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// 20000 batches of 5 points: 200010000 cells of sizeof(Cell) + one word of error bits.
	s := parse("20000", "5", "1")
	cell := float64(unsafe.Sizeof(sim.Cell{}) + 8)
	if got, matrix := s.Bytes(5, 1), 200010000*cell; got < matrix || got > 1.01*matrix {
		t.Errorf("Bytes = %.4g, want the matrix's %.4g and a little", got, matrix)
	}
	err := s.CheckBudget(1e9, "--max-work")
	if want := "t needs about 14.9 GiB of memory (20000 batches: a matrix of 200010000 cells with 5 error bits each, and 20000 models of nearest_centroid), over the 8 GiB a run may take"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("20000 batches:\n got  %v\n want %s...", err, want)
	}
	if err := s.CheckBudget(0, "--max-work"); err != nil {
		t.Errorf("--max-work 0 skips the checks: %v", err)
	}
	if err := parse("2000", "5", "1").CheckBudget(1e9, "--max-work"); err != nil {
		t.Errorf("2000 batches (150 MiB) refused: %v", err)
	}
}
