package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/experiment"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

func newSweepCmd() *cobra.Command {
	var f scenarioFlags
	var costsFlag, shardFlag, out string
	var seeds int
	var restart bool
	cmd := &cobra.Command{
		Use:   "sweep SCENARIO|FILE -o results.jsonl",
		Short: "Run every algorithm over a range of retraining costs and seeds, one JSON line per result",
		Long: `sweep writes the data of the paper's figures 5 and 6: every (seed, R, algorithm) as one JSON
line. The matrix is computed once per seed; every R replays it. An interrupted sweep leaves a valid
file; running the same command again resumes, skipping the rows already there. Every row records
the scenario's content hash: resuming into rows of other content (an edited file, another --set or
CSV data) or of another cost grid is an error, unless --restart starts the file over. --shard I/N runs
one of N disjoint parts, for a batch scheduler; cara merge joins the parts.`,
		Example: `  cara sweep covcon-d --seeds 5 -o covcon-d.jsonl
  cara sweep covcon-d --costs 1:100:50 -o r.jsonl
  cara sweep covcon-d --seeds 5 --shard 3/8 -o part3.jsonl && cara merge -o all.jsonl part*.jsonl`,
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
					return experiment.OfflineMatrix(ctx, s, seed, workers(cmd))
				},
				Progress: &barProgress{w: cmd.ErrOrStderr()}}
			warnings, err := sw.Run(cmd.Context())
			for _, w := range warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "cara: warning:", w)
			}
			return err
		},
	}
	f.register(cmd, false)
	f.registerDetectorReset(cmd)
	cmd.Flags().StringVar(&costsFlag, "costs", "auto", "auto (25 steps over (0, R_max], R_max the largest over the seeds) or FROM:TO:N")
	cmd.Flags().IntVar(&seeds, "seeds", 1, "seeds to run: the scenario's seed, seed+1, ...")
	cmd.Flags().StringVar(&shardFlag, "shard", "", "run part I of N (I/N), for batch schedulers")
	cmd.Flags().StringVarP(&out, "output", "o", "", "the results file (JSON lines); appended to and resumed (-: stdout)")
	cmd.Flags().BoolVar(&restart, "restart", false, "empty the results file first instead of resuming from it")
	return cmd
}

func newMergeCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:     "merge -o OUT FILE...",
		Short:   "Join sweep files (shards) into one, dropping duplicate rows",
		Example: `  cara merge -o covcon-d.jsonl part1.jsonl part2.jsonl part3.jsonl`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usagef("merge needs -o FILE")
			}
			if err := checkOutputFile(out); err != nil {
				return err
			}
			var files [][]experiment.SweepRow
			for _, path := range args {
				rows, err := readSweepFile(path)
				if err != nil {
					return err
				}
				files = append(files, rows)
			}
			all, err := experiment.Merge(files...)
			if err != nil {
				return err
			}
			return writeOut(cmd, out, func(w io.Writer) error { return experiment.WriteRows(w, all) })
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the merged file")
	return cmd
}

// readSweepFile reads a whole sweep file.
func readSweepFile(path string) ([]experiment.SweepRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, _, err := experiment.ReadRows(f, path, false)
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
