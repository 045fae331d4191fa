package streams

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A 100 MB CSV is read streaming: what the reader allocates stays within a small multiple of the
// numbers it returns (it never holds the text).
func TestReadTable100MB(t *testing.T) {
	if testing.Short() || os.Getenv("CARA_SLOW") == "" {
		t.Skip("writes and reads 100 MB: CARA_SLOW=1 runs it, as CI does")
	}
	p := filepath.Join(t.TempDir(), "big.csv")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "a,b,c,d,e,f,label")
	rows := 0
	for size := 0; size < 100<<20; rows++ {
		n, _ := fmt.Fprintf(w, "%d.%06d,%d.25,%d.5,0.%06d,1.%06d,%d,%d\n", rows%97, rows%999983, rows%13, rows%7, rows%77777, rows%55555, rows%1000, rows%2)
		size += n
	}
	w.Flush()
	f.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tab, err := ReadTable(p, TableOptions{Label: "label"})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	result := float64(len(tab.X.V)*8 + len(tab.Y))
	alloc := float64(after.TotalAlloc - before.TotalAlloc)
	t.Logf("%d rows: %.0f MB of numbers, %.0f MB allocated while reading", rows, result/1e6, alloc/1e6)
	if tab.X.Len() != rows || tab.X.D != 6 {
		t.Fatalf("read %d rows of %d features, wrote %d of 6", tab.X.Len(), tab.X.D, rows)
	}
	// Growing the result slices doubles them at most a few times: about 3x the result, far from
	// the 100 MB of text plus its parsed copy.
	if alloc > 4*result {
		t.Errorf("allocated %.0f MB for %.0f MB of numbers: the reader is holding more than it returns", alloc/1e6, result/1e6)
	}
}
