package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/experiment"
	"github.com/cara-sim/cara/figures"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

func newSweepCmd() *cobra.Command {
	var f scenarioFlags
	var costsFlag, shardFlag, shardIndex, out string
	var seeds int
	var restart bool
	cmd := &cobra.Command{
		Use:   "sweep SCENARIO|FILE -o results.jsonl",
		Short: "Run every algorithm over a range of retraining costs and seeds, one JSON line per result",
		Long: `sweep writes the data of the paper's figures 5 and 6: every (seed, R, algorithm) as one JSON
line. The matrix is computed once per seed; every R replays it. --costs auto gives every seed one
grid, N steps over (0, R_max] with R_max the largest of the seeds' offline blocks' (each the
smallest R at which the Oracle on batches 0..T_off equals Never-retrain; a shard reads the offline
blocks of the seeds it does not own, a tenth of a matrix each). When the scenario's R
is an expression of t, the costs are factors applied to it (R_t = c * R(t)), as the player's R
keys scale it, and each row says so.

An interrupted sweep leaves a valid file; running the same command again resumes, skipping the
rows already there. Every row records the scenario's content hash, the cost grid and the seeds:
resuming into rows of another sweep (an edited file, another --set or CSV data, other --costs or
--seeds) is an error, unless --restart starts the file over.

--shard I/N runs one of N disjoint parts, for a batch scheduler (--shard-index K/N counts from 0,
as a Kubernetes Indexed Job does). With at least N seeds a shard owns whole seeds, so every matrix
is computed once over all shards; with fewer, a seed's costs are split and each shard that shares
it computes its matrix (a note says which). cara merge joins the parts, and refuses parts of
different sweeps or a sweep that lacks rows.`,
		Example: `  cara sweep covcon-d --seeds 5 -o covcon-d.jsonl
  cara sweep covcon-d --costs 1:100:50 -o r.jsonl
  cara sweep covcon-d --seeds 8 --shard 3/4 -o part3.jsonl    # seeds 2 and 6
  cara merge -o all.jsonl part*.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usagef("sweep needs -o FILE (the results, one JSON line each)")
			}
			if seeds < 1 {
				return usagef("--seeds must be >= 1, got %d", seeds)
			}
			cs, err := experiment.ParseCosts(costsFlag)
			if err != nil {
				return usageError{err}
			}
			sh, err := experiment.ParseShard(shardFlag)
			if shardIndex != "" {
				if shardFlag != "" {
					return usagef("--shard and --shard-index name the same thing; give one")
				}
				sh, err = experiment.ParseShardIndex(shardIndex)
			}
			if err != nil {
				return usageError{err}
			}
			s, err := f.load(args[0])
			if err != nil {
				return err
			}
			if out != "-" {
				if err := checkOutputFile(out); err != nil {
					return err
				}
			}
			sw := experiment.Sweep{Stdout: cmd.OutOrStdout(), Scenario: s, Seeds: seeds, Costs: cs, Shard: sh, Out: out, Restart: restart,
				Matrix: func(ctx context.Context, s *scenarios.Scenario, seed uint64) (*sim.Matrix, error) {
					return computeMatrix(ctx, s, seed, workers(cmd), true, sim.ColumnOrder, nil)
				},
				Offline: func(ctx context.Context, s *scenarios.Scenario, seed uint64) (*sim.Matrix, error) {
					return computeMatrix(ctx, s, seed, workers(cmd), false, sim.ColumnOrder, nil, func(cfg *sim.Config) {
						cfg.Stream = sim.FirstBatches(cfg.Stream, cfg.Offline+1)
					})
				},
				Progress: &barProgress{w: cmd.ErrOrStderr()}}
			if note := sh.Note(s.Seed, seeds, cs.N); note != "" {
				fmt.Fprintln(cmd.ErrOrStderr(), "cara: note:", note)
			}
			warnings, err := sw.Run(cmd.Context())
			for _, w := range warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "cara: warning:", w)
			}
			return err
		},
	}
	f.register(cmd, false)
	f.registerDetectorReset(cmd)
	cmd.Flags().StringVar(&costsFlag, "costs", "auto", "auto (25 steps over (0, R_max], R_max the largest of the seeds'), auto:N, or FROM:TO:N")
	cmd.Flags().IntVar(&seeds, "seeds", 1, "seeds to run: the scenario's seed, seed+1, ...")
	cmd.Flags().StringVar(&shardFlag, "shard", "", "run part I of N (I/N, from 1), for batch schedulers")
	cmd.Flags().StringVar(&shardIndex, "shard-index", "", "run part K+1 of N (K/N, from 0, as a Kubernetes Indexed Job numbers its pods)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "the results file (JSON lines); appended to and resumed (-: stdout)")
	cmd.Flags().BoolVar(&restart, "restart", false, "empty the results file first instead of resuming from it")
	return cmd
}

func newMergeCmd() *cobra.Command {
	var out, plotDir string
	var partial, ifComplete bool
	cmd := &cobra.Command{
		Use:   "merge -o OUT FILE...",
		Short: "Join sweep files (shards) into one, dropping duplicate rows",
		Long: `merge joins the shards of one sweep into one file, sorted, a row present in several kept once:
JSON lines, or Parquet when OUT ends in .parquet (one row per line, for pandas, polars or DuckDB).
It refuses files of different sweeps of one scenario (other content, --costs or seeds), naming
both, and a merged sweep that lacks rows, naming the seeds and costs missing (run their shards
again: they resume), unless --partial.

A FILE with * ? or [ is a pattern that merge expands itself (for a container without a shell).
--if-complete is for the shards themselves: each runs merge when it ends, and only the one that
completes the sweep writes OUT (the others say what is still missing and exit 0), so no merge
job has to wait for them.`,
		Example: `  cara merge -o covcon-d.jsonl part1.jsonl part2.jsonl part3.jsonl
  cara merge -o covcon-d.parquet covcon-d.jsonl
  cara merge --if-complete --plot figures/ -o covcon-d.jsonl 'covcon-d-part-*.jsonl'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usagef("merge needs -o FILE")
			}
			if partial && ifComplete {
				return usagef("--partial and --if-complete contradict each other: merge what there is, or only a complete sweep")
			}
			if err := checkOutputFile(out); err != nil {
				return err
			}
			if plotDir != "" {
				if err := checkFigureDir("--plot", plotDir); err != nil {
					return err
				}
			}
			paths, err := sweepFileArgs(args, out, ifComplete)
			if err != nil {
				return err
			}
			var files []experiment.SweepFile
			for _, path := range paths {
				// A shard still writing may end on half a line: skip it, it makes the sweep incomplete.
				rows, err := readSweepFileTorn(path, ifComplete)
				if err != nil {
					return err
				}
				files = append(files, experiment.SweepFile{Name: path, Rows: rows})
			}
			all, err := experiment.Merge(files...)
			if err != nil {
				return err
			}
			missing := experiment.Missing(all)
			switch {
			case ifComplete && (len(all) == 0 || len(missing) > 0):
				what := "no rows yet"
				if len(all) > 0 {
					what = strings.Join(missing, "; ")
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "cara: not merged yet: %s; the shard that completes the sweep merges it\n", what)
				return nil
			case len(missing) > 0 && !partial:
				return fmt.Errorf("the merged sweep is incomplete: %s; run the shards that hold them again (they resume), or pass --partial to merge what there is",
					strings.Join(missing, "; "))
			}
			for _, m := range missing {
				fmt.Fprintln(cmd.ErrOrStderr(), "cara: warning: incomplete:", m)
			}
			write := func(w io.Writer) error { return experiment.WriteRows(w, all) }
			if strings.HasSuffix(strings.ToLower(out), ".parquet") {
				write = func(w io.Writer) error { return experiment.WriteRowsParquet(w, all) }
			}
			if err := writeOut(cmd, out, write); err != nil {
				return err
			}
			if ifComplete {
				fmt.Fprintf(cmd.ErrOrStderr(), "cara: merged %d file(s) into %s\n", len(paths), out)
			}
			if plotDir == "" {
				return nil
			}
			return drawSweepFigures(cmd, all, plotDir, figures.PNG)
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the merged file (Parquet when it ends in .parquet)")
	cmd.Flags().BoolVar(&partial, "partial", false, "merge a sweep that lacks rows (a shard still running or lost), with a warning")
	cmd.Flags().BoolVar(&ifComplete, "if-complete", false, "write OUT only if the files hold the whole sweep; otherwise say what lacks and exit 0")
	cmd.Flags().StringVar(&plotDir, "plot", "", "also draw the merged sweep's figures into this folder, as cara plot does")
	return cmd
}

// sweepFileArgs expands merge's arguments: a pattern (with * ? or [) is matched here, as no shell
// may have done it, and never matches the output itself. A pattern that matches nothing is an
// error, unless the sweep may simply not have begun (--if-complete).
func sweepFileArgs(args []string, out string, ifComplete bool) ([]string, error) {
	var paths []string
	for _, a := range args {
		if !strings.ContainsAny(a, "*?[") {
			paths = append(paths, a)
			continue
		}
		matches, err := filepath.Glob(a)
		if err != nil {
			return nil, usagef("%s: not a pattern: %v", a, err)
		}
		n := 0
		for _, m := range matches {
			if filepath.Clean(m) != filepath.Clean(out) {
				paths = append(paths, m)
				n++
			}
		}
		if n == 0 && !ifComplete {
			return nil, fmt.Errorf("%s: no file matches", a)
		}
	}
	return paths, nil
}

// readSweepFile reads a whole sweep file.
func readSweepFile(path string) ([]experiment.SweepRow, error) {
	return readSweepFileTorn(path, false)
}

// readSweepFileTorn reads a sweep file, dropping a last line without its newline when torn is set
// (a file another process is still writing).
func readSweepFileTorn(path string, torn bool) ([]experiment.SweepRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, _, err := experiment.ReadRows(f, path, torn)
	return rows, err
}

// barProgress shows an experiment's progress as a bar with an ETA on w.
type barProgress struct {
	w io.Writer
	p *progress
}

func (b *barProgress) Start(total int)            { b.p = newProgress(b.w, total) }
func (b *barProgress) Step(done int, what string) { b.p.set(done, "%s", what) }
func (b *barProgress) Finish()                    { b.p.finish() }
