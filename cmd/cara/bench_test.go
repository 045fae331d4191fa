package main

import (
	"context"
	"testing"

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
