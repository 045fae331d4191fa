package main

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// paperConfig is the engine configuration of `cara bench --size paper`.
func paperConfig(tb testing.TB) sim.Config {
	tb.Helper()
	z := benchSizes["paper"]
	s, err := scenarios.Parse("covcon-d-bench.yaml", []byte(covconYAML(z.batches, z.size, z.queries, z.trees, z.offline)), "", scenarios.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	cfg, err := s.Config(s.Seed)
	if err != nil {
		tb.Fatal(err)
	}
	return cfg
}

// BenchmarkPaperPipeline is `cara bench --size paper` without the algorithms: the whole matrix of
// CovCon-D with 100-tree forests, stage by stage (go test -bench PaperPipeline -cpuprofile ...).
func BenchmarkPaperPipeline(b *testing.B) {
	cfg := paperConfig(b)
	cfg.Staged = true
	for b.Loop() {
		m, err := sim.Run(context.Background(), cfg, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(m.Stats.Fit.Seconds(), "fit-s")
		b.ReportMetric(m.Stats.Predict.Seconds(), "predict-s")
		b.ReportMetric(m.Stats.Kernel.Seconds(), "kernel-s")
	}
}

// BenchmarkFirstColumn is what a player opening covcon-d waits for: from the engine's start (the
// scenario loaded, as the picker has it) to its first column event, with the run then cancelled.
func BenchmarkFirstColumn(b *testing.B) {
	s, err := scenarios.Load("covcon-d", scenarios.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		cfg, err := s.Config(s.Seed)
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		first := make(chan sim.Event, 1)
		done := make(chan error, 1)
		go func() {
			_, err := sim.Run(ctx, cfg, func(ev sim.Event) error {
				select {
				case first <- ev:
				default:
				}
				return nil
			})
			done <- err
		}()
		ev := <-first
		cancel()
		<-done
		if ev.Kind != sim.ColumnDone || ev.Index != 0 {
			b.Fatalf("first event %+v, want column 0", ev)
		}
	}
}

// paperMatrix is the matrix of `cara bench --size paper`, computed once for the replay benchmarks.
var paperMatrix = sync.OnceValues(func() (*sim.Matrix, error) {
	z := benchSizes["paper"]
	s, err := scenarios.Parse("covcon-d-bench.yaml", []byte(covconYAML(z.batches, z.size, z.queries, z.trees, z.offline)), "", scenarios.Options{})
	if err != nil {
		return nil, err
	}
	cfg, err := s.Config(s.Seed)
	if err != nil {
		return nil, err
	}
	return sim.Run(context.Background(), cfg, nil)
})

// BenchmarkReplay is the player's what-if: every algorithm replayed over covcon-d's matrix (100
// trees) for a new retraining cost, to the last batch (a key press on R) and to batch 60 (a step).
func BenchmarkReplay(b *testing.B) {
	m, err := paperMatrix()
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		end  int
	}{{"whatif-R", m.Batches() - 1}, {"step", 60}} {
		b.Run(bc.name, func(b *testing.B) {
			r := 20.0
			for b.Loop() {
				r *= 1.25 // each replay at another cost, as the player's [ and ] keys give
				if r > 200 {
					r = 1
				}
				if _, err := algos.Evaluate(m, algos.Constant(r), algos.Names, bc.end); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestBenchFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--size", "huge"}, `--size must be paper, small, scale or large, got "huge"`},
		{[]string{"bench", "--size", "scale", "--model", "knn"}, `--model must be centroid or forest, got "knn"`},
		{[]string{"bench", "--size", "scale", "--model", "forest", "--trees", "0"}, "--trees must be >= 1, got 0"},
		{[]string{"bench", "--size", "scale", "--batches", "1"}, "--batches must be >= 2, got 1"},
	} {
		if _, err := cara(t, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

// The scale bench with a forest computes every cell of the triangle in row order.
func TestBenchScaleForest(t *testing.T) {
	t.Parallel()
	out, err := cara(t, "bench", "--size", "scale", "--model", "forest", "--trees", "5", "--batches", "6")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Batches, Cells, Trees int
		Model                 string
		TotalS                float64 `json:"total_s"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if got.Batches != 6 || got.Cells != 21 || got.Model != "forest" || got.Trees != 5 || !(got.TotalS > 0) {
		t.Errorf("scale bench: %+v", got)
	}
}

// bench_large.yaml is the user's run: 300 batches of 2000 points in 4 features, nearest centroid,
// queries a tenth of the data.
func TestBenchLargeScenario(t *testing.T) {
	t.Parallel()
	s, err := scenarios.Parse("bench_large.yaml", largeYAML, "", scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Stream(s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	batch, err := b.Batch(0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Batches != 300 || batch.X.Len() != 2000 || batch.X.D != 4 || batch.Q.Len() != 200 || s.Model.Name() != "nearest_centroid" {
		t.Errorf("large scenario: %d batches, %d points of %d features, %d queries, %s",
			s.Batches, batch.X.Len(), batch.X.D, batch.Q.Len(), s.Model.Name())
	}
}
