package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/experiment"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

func newRunCmd() *cobra.Command {
	var f scenarioFlags
	var format, figures, figFormat, out string
	var seeds int
	var po predictionsOut
	cmd := &cobra.Command{
		Use:   "run SCENARIO|FILE",
		Short: "Run every algorithm on a scenario and print a table like the paper's",
		Example: `  cara run covcon-d
  cara run covcon-d -R 40 --seeds 5 --format json
  cara run electricity --data ~/data/elec.csv
  cara run covcon-d --figures out/
  cara run covcon-d --seeds 5 --format parquet -o covcon-d.parquet`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "table" && format != "csv" && format != "json" && format != "parquet" {
				return usagef("--format must be table, csv, json or parquet, got %q", format)
			}
			if err := checkBinaryOut(cmd, format, out); err != nil {
				return err
			}
			if seeds < 1 {
				return usagef("--seeds must be >= 1, got %d", seeds)
			}
			if err := checkFigureDir("--figures", figures); err != nil {
				return err
			}
			if err := po.check(); err != nil {
				return err
			}
			s, err := f.load(args[0])
			if err != nil {
				return err
			}
			// Figures draw the whole matrix, cross-block cells included, and the predictions are
			// every model's on every later batch.
			matrix := func(ctx context.Context, s *scenarios.Scenario, seed uint64) (*sim.Matrix, error) {
				record, err := po.record(s, seed)
				if err != nil {
					return nil, err
				}
				return computeMatrix(ctx, s, seed, workers(cmd), figures == "" && !po.on(), sim.ColumnOrder, cmd.ErrOrStderr(), record)
			}
			var hook experiment.SeedHook
			if figures != "" {
				hook = func(seed uint64, m *sim.Matrix, res []algos.Result) error {
					if seed != s.Seed {
						return nil
					}
					files, err := runFigures(s, seed, m, res, figures, figFormat)
					for _, p := range files {
						fmt.Fprintln(cmd.ErrOrStderr(), "wrote", p)
					}
					return err
				}
			}
			run, err := experiment.RunSeeds(cmd.Context(), s, seeds, matrix, hook)
			if err != nil {
				return err
			}
			if err := po.write(cmd, s); err != nil {
				return err
			}
			return writeOut(cmd, out, func(w io.Writer) error {
				switch format {
				case "json":
					return run.WriteJSON(w)
				case "csv":
					return run.WriteCSV(w)
				case "parquet":
					return run.WriteParquet(w)
				}
				return run.WriteTable(w)
			})
		},
	}
	f.register(cmd, true)
	f.registerDetectorReset(cmd)
	cmd.Flags().StringVar(&format, "format", "table", "table, csv, json or parquet (one row per seed and algorithm)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to FILE instead of standard output")
	cmd.Flags().IntVar(&seeds, "seeds", 1, "run this many seeds (seed, seed+1, ...) and report means and spread")
	cmd.Flags().StringVar(&figures, "figures", "", "also draw this run's figures into DIR")
	cmd.Flags().StringVar(&figFormat, "figure-format", "png", "png or svg, with --figures")
	po.register(cmd)
	return cmd
}
