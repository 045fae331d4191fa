package live

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cara-sim/cara/internal/budget"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// TestEstimateAgainstHeap is a measurement: what the room admits a run for (sim.Estimate's peak)
// against the live heap the run reaches, for the scenarios the estimate is least sure of. Run with
//
//	CARA_ESTIMATES=1 go test -run 'EstimateAgainstHeap$' -v -timeout 20m ./live
//
// The heap is measured after a collection every few columns (what the run holds, not garbage).
// An estimate under the heap is an error: the room would admit more than it holds.
func TestEstimateAgainstHeap(t *testing.T) {
	if os.Getenv("CARA_ESTIMATES") == "" {
		t.Skip("a measurement: set CARA_ESTIMATES=1 to run it")
	}
	dir := t.TempDir()
	// A CSV of 20 batches of 500 rows, a city among 900 (one-hot: about 902 features; cara refuses a
	// column of more than 1000 values) and two numbers.
	var csv strings.Builder
	csv.WriteString("batch,city,x,y,label\n")
	rng := rand.New(rand.NewPCG(1, 2))
	for b := range 20 {
		for range 500 {
			c, x, y := rng.IntN(900), rng.Float64(), rng.Float64()
			l := 0
			if (c%2 == 0) != (x > y) != (b >= 10) {
				l = 1
			}
			fmt.Fprintf(&csv, "%d,c%d,%.4f,%.4f,%d\n", b, c, x, y, l)
		}
	}
	os.WriteFile(filepath.Join(dir, "cities.csv"), []byte(csv.String()), 0o600)
	hyper := func(name string, features int, model string) string {
		return fmt.Sprintf(`name: %s
batches: 20
offline: 5
data:
  size: 500
  features: %d
  uniform: {low: 0, high: 1}
  hyperplane: {drift_features: 2, magnitude: 0.003, reversal: 0.1}
queries: {from: data, size: 50}
model: %s
retrain_cost: 3
`, name, features, model)
	}
	cases := []struct{ name, text string }{
		{"500 features, 20-tree forest", hyper("f500", 500, "{random_forest: {trees: 20}}")},
		{"2000-feature logistic", hyper("logit2000", 2000, "{logistic: {}}")},
		{"one-hot of 900 cities, 20-tree forest", `name: cities
batches: 20
offline: 5
data: {csv: cities.csv, label: label, batch_column: batch, categorical: [city]}
queries: {from: data, size: 50}
model: {random_forest: {trees: 20}}
retrain_cost: 3
`},
		{"covcon-d, a 600-tree forest", ""},
	}
	var rows []string
	for _, c := range cases {
		var s *scenarios.Scenario
		var err error
		if c.text == "" {
			s, err = scenarios.Load("covcon-d", scenarios.Options{Set: []string{"model.random_forest.trees=600"}})
		} else {
			s, err = scenarios.Parse(c.name, []byte(c.text), dir, scenarios.Options{})
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		cfg, err := s.Config(s.Seed)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Workers = 1
		t0 := time.Now()
		f, err := sim.Estimate(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		est := time.Since(t0)
		cfg, _ = s.Config(s.Seed)
		cfg.Workers = 1
		base := heapNow()
		var peak int64
		t1 := time.Now()
		m, err := sim.Run(context.Background(), cfg, func(ev sim.Event) error {
			if ev.Index%4 == 3 || ev.Index == s.Batches-1 {
				peak = max(peak, heapNow()-base)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		run := time.Since(t1)
		held := heapNow() - base
		runtime.KeepAlive(m)
		verdict := "ok"
		if f.Peak < peak {
			verdict = "UNDER"
			t.Errorf("%s: estimated %v, the run's heap reached %v", c.name, budget.Bytes(f.Peak), budget.Bytes(peak))
		}
		rows = append(rows, fmt.Sprintf("| %s | %d features | %v | %v | %.1fx | %v | %v | %v (estimate %v) | %s |", c.name, s.Features,
			budget.Bytes(f.Peak), budget.Bytes(peak), float64(f.Peak)/float64(max(peak, 1)), budget.Bytes(f.Held), budget.Bytes(held),
			run.Round(100*time.Millisecond), est.Round(10*time.Millisecond), verdict))
	}
	t.Logf("| scenario | width | estimated peak | heap peak | ratio | estimated held | held after | run (estimate) | |\n|---|---|---|---|---|---|---|---|---|\n%s", strings.Join(rows, "\n"))
}

func heapNow() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
