package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The loader, the expression compiler and the CSV reader take users' files: whatever the bytes,
// they return a scenario or an error that names the file, never panic, never hang.

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

func FuzzExpression(f *testing.F) {
	for _, s := range []string{"x2 > x1", "(t+1) % 7 / 10", "sin(pi*x1)^2 + cos(t)", "1/(t-4)", "log(-1) > 0", "max(1, min(2, floor(t/3)))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		at := scalar{set: true, text: src, line: 1, col: 1}
		for _, asBool := range []bool{false, true} {
			p, err := compileExpr(at, "f", 2, true, asBool)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "1:1: f: bad expression") {
					t.Errorf("compile error does not name its place: %v", err)
				}
				continue
			}
			ev := newEvaluator(2)
			for tt := range 3 {
				if asBool {
					ev.cond(p, "f", tt, []float64{0.5, -1})
				} else if _, err := ev.num(p, "f", tt, []float64{0.5, -1}); err != nil && !strings.Contains(err.Error(), "f: expression") {
					t.Errorf("run-time error does not name the expression: %v", err)
				}
			}
		}
	})
}

func FuzzReadTable(f *testing.F) {
	f.Add("a,b,y\n1,2,0\n3,4,1\n")
	f.Add("batch,x,colour,label\n1,0.5,red,UP\n1,1.5,blue,DOWN\n2,2.5,red,UP\n")
	f.Add("a,y\n\"1,2\",0\n")
	f.Add("a,y\nNaN,1\n")
	f.Fuzz(func(t *testing.T, body string) {
		p := filepath.Join(t.TempDir(), "f.csv")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, opt := range []TableOptions{{Label: "y"}, {Label: "label", BatchColumn: "batch"}, {}} {
			tab, err := ReadTable(p, opt)
			if err != nil {
				if !strings.Contains(err.Error(), p) {
					t.Errorf("error does not name the file: %v", err)
				}
				continue
			}
			if tab.X.Len()*tab.X.D != len(tab.X.V) || (tab.Y != nil && len(tab.Y) != tab.X.Len()) {
				t.Errorf("inconsistent table: %d values, d %d, %d labels", len(tab.X.V), tab.X.D, len(tab.Y))
			}
			tab.Split(3)
		}
	})
}
