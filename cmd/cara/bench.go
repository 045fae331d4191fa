package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// benchSizes match the work of the paper's Python reference pipeline for each --size
// (scripts/bench-vs-python.sh runs both).
var benchSizes = map[string]struct{ batches, size, queries, trees, offline int }{
	"paper": {100, 1000, 100, 100, 25},
	"small": {30, 500, 50, 20, 8},
}

// covconYAML is CovCon-D at a given size, as the reference pipeline generates it.
func covconYAML(batches, size, queries, trees, offline int) string {
	model := fmt.Sprintf("{random_forest: {trees: %d}}", trees)
	if trees == 0 {
		model = "{nearest_centroid: {}}"
	}
	var concepts strings.Builder
	for at := 0; at < batches; at += 10 {
		op := ">"
		if (at/10)%2 == 1 {
			op = "<="
		}
		fmt.Fprintf(&concepts, "    - {at: %d, label: \"0.8*sin(pi*x1) %s x2\"}\n", at, op)
	}
	return fmt.Sprintf(`name: covcon-d-bench
seed: 0
batches: %d
offline: %d
data:
  size: %d
  features: 2
  gaussian: {mean: "((t+1) %% 7)/10", std: 0.1}
  concepts:
%squeries: {from: data, size: %d}
model: %s
kernel: {gamma: scale}
retrain_cost: 20
`, batches, offline, size, concepts.String(), queries, model)
}

// largeYAML is a user's large synthetic run (300 batches of 2000 points in 4 features, nearest
// centroid, queries 10 % of the data): `cara run cmd/cara/bench_large.yaml` from a checkout.
//
//go:embed bench_large.yaml
var largeYAML []byte

// predicted is how many points the predict stage answers: each cell's data (its queries are rows
// of its data in CovCon-D, answered from the data's predictions).
func predicted(m *sim.Matrix) int {
	n := 0
	for t := range m.Batches() {
		for tp := 0; tp <= t; tp++ {
			if c := m.Cell(tp, t); c.Done {
				n += c.Errors.N
			}
		}
	}
	return n
}

func newBenchCmd() *cobra.Command {
	var size, model string
	var batches, trees int
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Time the paper's pipeline on CovCon-D, stage by stage, as JSON",
		Long: `bench runs the paper's pipeline (generate CovCon-D, fit a forest per batch, predict every model
on every later batch, the full staleness matrix, the Oracle and exact CARA-T/CT tuning) one stage
after another, and prints seconds per stage and peak memory as JSON, with the keys of the paper's
NumPy / scikit-learn reference so the two compare line by line (scripts/bench-vs-python.sh runs
both, given the reference script).

--size scale computes the full matrix of CovCon-D over --batches batches in row order (one model in
memory at a time), with --model centroid or forest (--trees trees), for how time and memory grow.
--size large computes the full matrix of a large synthetic run (300 batches of 2000 points in 4
features, nearest centroid, queries 10 % of the data; cmd/cara/bench_large.yaml) and replays every
algorithm over it. Every size reports wall seconds and the process's CPU seconds (on a shared
machine the second is the steadier figure).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch size {
			case "scale":
				return benchScale(cmd, batches, model, trees)
			case "large":
				return benchLarge(cmd)
			}
			z, ok := benchSizes[size]
			if !ok {
				return usagef("--size must be paper, small, scale or large, got %q", size)
			}
			s, err := scenarios.Parse("covcon-d-bench.yaml", []byte(covconYAML(z.batches, z.size, z.queries, z.trees, z.offline)), "", scenarios.Options{})
			if err != nil {
				return err
			}
			cfg, err := s.Config(s.Seed)
			if err != nil {
				return err
			}
			cfg.Staged, cfg.Workers = true, workers(cmd)
			start := time.Now()
			m, err := sim.Run(cmd.Context(), cfg, nil)
			if err != nil {
				return err
			}
			t0 := time.Now()
			res, err := algos.Evaluate(m, algos.Constant(20), []algos.Name{algos.NameOracle, algos.NameCaraT, algos.NameCaraCT}, m.Batches()-1)
			if err != nil {
				return err
			}
			algS := time.Since(t0).Seconds()
			out := map[string]any{
				"machine":                    map[string]any{"cpus": runtime.NumCPU(), "gomaxprocs": runtime.GOMAXPROCS(0), "go": runtime.Version()},
				"work":                       map[string]int{"batches": z.batches, "size": z.size, "queries": z.queries, "trees": z.trees, "offline": z.offline},
				"gamma":                      m.Gamma,
				"generate_s":                 m.Stats.Generate.Seconds(),
				"fit_s":                      m.Stats.Fit.Seconds(),
				"predict_s":                  m.Stats.Predict.Seconds(),
				"predict_floor_s":            m.Stats.PredictFloor.Seconds(),
				"predict_ns_per_point":       float64(m.Stats.Predict.Nanoseconds()) / float64(predicted(m)),
				"predict_floor_ns_per_point": float64(m.Stats.PredictFloor.Nanoseconds()) / float64(predicted(m)),
				"kernel_s":                   m.Stats.Kernel.Seconds(),
				"algorithms_s":               algS,
				"total_s":                    (time.Since(start) - m.Stats.PredictFloor).Seconds(), // the floor pass is not the pipeline
				"cpu_s":                      cpuSeconds(),
				"oracle_cost":                res[0].Strategy.Cost(),
				"peak_rss_mb":                peakRSSMB(),
			}
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent("", " ")
			return enc.Encode(out)
		},
	}
	cmd.Flags().StringVar(&size, "size", "paper", "paper (100 batches x 1000 points, 100 trees), small, scale (row order, --batches, --model) or large (300 x 2000 points, 4 features, nearest centroid)")
	cmd.Flags().IntVar(&batches, "batches", 1000, "batches for --size scale")
	cmd.Flags().StringVar(&model, "model", "centroid", "the model for --size scale: centroid or forest")
	cmd.Flags().IntVar(&trees, "trees", 100, "trees of the forest for --size scale --model forest")
	return cmd
}

// benchScale computes the full matrix of CovCon-D over the given number of batches in row order
// (one model in memory at a time), for how time and memory grow with the number of batches.
func benchScale(cmd *cobra.Command, batches int, model string, trees int) error {
	if batches < 2 {
		return usagef("--batches must be >= 2, got %d", batches)
	}
	switch model {
	case "centroid":
		trees = 0
	case "forest":
		if trees < 1 {
			return usagef("--trees must be >= 1, got %d", trees)
		}
	default:
		return usagef("--model must be centroid or forest, got %q", model)
	}
	s, err := scenarios.Parse("covcon-d-scale.yaml", []byte(covconYAML(batches, 1000, 100, trees, max(1, batches/4))), "", scenarios.Options{})
	if err != nil {
		return err
	}
	cfg, err := s.Config(s.Seed)
	if err != nil {
		return err
	}
	cfg.Order, cfg.Workers = sim.RowOrder, workers(cmd)
	p := newLine(cmd.ErrOrStderr())
	start := time.Now()
	m, err := sim.Run(cmd.Context(), cfg, func(ev sim.Event) error {
		p.printf("row %d: %d/%d cells, %s", ev.Index, ev.CellsDone, ev.CellsAll, ev.Elapsed.Round(time.Second))
		return nil
	})
	p.done()
	if err != nil {
		return err
	}
	enc := json.NewEncoder(cmd.OutOrStdout())
	return enc.Encode(map[string]any{"batches": batches, "model": model, "trees": trees, "cells": batches * (batches + 1) / 2,
		"gamma": m.Gamma, "total_s": time.Since(start).Seconds(), "cpu_s": cpuSeconds(), "peak_rss_mb": peakRSSMB()})
}

// benchLarge computes the full matrix of bench_large.yaml in column order, as `cara matrix` does,
// and replays every algorithm over it, as `cara run` does.
func benchLarge(cmd *cobra.Command) error {
	s, err := scenarios.Parse("bench_large.yaml", largeYAML, "", scenarios.Options{})
	if err != nil {
		return err
	}
	start := time.Now()
	m, err := computeMatrix(cmd.Context(), s, s.Seed, workers(cmd), false, sim.ColumnOrder, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	matrixS := time.Since(start).Seconds()
	t0 := time.Now()
	if _, err := algos.Evaluate(m, s.RetrainCost, algos.Names, m.Batches()-1); err != nil {
		return err
	}
	enc := json.NewEncoder(cmd.OutOrStdout())
	enc.SetIndent("", " ")
	return enc.Encode(map[string]any{
		"machine":  map[string]any{"cpus": runtime.NumCPU(), "gomaxprocs": runtime.GOMAXPROCS(0), "go": runtime.Version()},
		"work":     map[string]int{"batches": m.Batches(), "cells": m.Batches() * (m.Batches() + 1) / 2},
		"matrix_s": matrixS, "algorithms_s": time.Since(t0).Seconds(), "total_s": time.Since(start).Seconds(),
		"cpu_s": cpuSeconds(), "peak_rss_mb": peakRSSMB(),
	})
}

// peakRSSMB reads the process's peak resident memory from /proc (Linux); NaN elsewhere is reported
// as 0.
func peakRSSMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			f := strings.Fields(l)
			if len(f) >= 2 {
				kb, _ := strconv.ParseFloat(f[1], 64)
				return kb / 1024
			}
		}
	}
	return 0
}
