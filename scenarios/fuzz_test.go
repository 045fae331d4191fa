package scenarios

import (
	"strings"
	"testing"
	"time"
)

// The loader takes users' files: whatever the bytes, it returns a scenario or an error that names
// the file, never panics, never hangs. (The expression compiler's and the CSV reader's fuzz
// targets are in internal/expr and internal/streams.)

func FuzzParse(f *testing.F) {
	f.Add([]byte(base))
	for _, e := range Embedded() {
		src, _ := embedded.ReadFile("embedded/" + e.Name + ".yaml")
		if !strings.Contains(string(src), "csv") {
			f.Add(src)
		}
	}
	f.Add([]byte("name: [\n"))
	f.Add([]byte(with("batches: 10", "batches: 99999999999999999999")))
	f.Add([]byte(with(`  label: "x2 > x1"`, `  label: "x1 ^ x2 ^ x1 > 1e308"`)))
	f.Add([]byte(base + "tour:\n  - {at: 4, say: hi, focus: [3, 4], quiz: true, whatif: {retrain_cost: 2, kernel.gamma: 3}}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			s, err := Parse("fuzz.yaml", src, "", Options{})
			if err != nil {
				if !strings.HasPrefix(err.Error(), "fuzz.yaml") {
					t.Errorf("error does not name the file: %v", err)
				}
				return
			}
			// A scenario that loads must also build its stream and its first batch, or say why.
			if s.Batches*max(s.Features, 1) > 1e6 {
				return // the work of huge scenarios is not for a fuzzer
			}
			if st, err := s.Stream(s.Seed); err == nil {
				st.Batch(0)
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("Parse hangs on %q", src)
		}
	})
}
