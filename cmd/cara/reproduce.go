package main

import (
	"context"
	"fmt"
	"math"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/experiment"
	"github.com/cara-sim/cara/figures"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

func newReproduceCmd() *cobra.Command {
	var seeds, trees int
	var quick bool
	var format, data, figDir, detectorReset string
	cmd := &cobra.Command{
		Use:   "reproduce",
		Short: "Run the paper's experiments and set our tables beside the paper's",
		Long: `reproduce runs every algorithm on the paper's six synthetic scenarios and Electricity over 25
retraining costs in (0, R_max] (one grid per scenario, R_max the largest over the seeds) and several seeds, averages SCPE, query
accuracy and the number of retrains as the paper's tables 2-4 do, prints them beside the paper's
published numbers, and says for each of the paper's claims whether our run agrees.

--quick uses 1 seed, a 10-tree forest and 8 costs: under a minute, for a first look.`,
		Example: `  cara reproduce --quick
  cara reproduce --seeds 5 --format json > reproduction.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "table" && format != "json" {
				return usagef("--format must be table or json, got %q", format)
			}
			if err := checkFigureDir("--figures", figDir); err != nil {
				return err
			}
			steps := experiment.AutoSteps
			if quick {
				seeds, trees, steps = 1, 10, 8
			}
			if seeds < 1 {
				return usagef("--seeds must be >= 1, got %d", seeds)
			}
			var figFiles []string
			rp := experiment.Reproduce{Seeds: seeds, Trees: trees, Steps: steps, Quick: quick, KeepRows: figDir != "",
				Load: func(name string) (*scenarios.Scenario, error) {
					f := scenarioFlags{trees: trees, seed: -1, r: math.NaN(), detectorReset: detectorReset}
					if name == "electricity" {
						f.data = data
					}
					return f.load(name)
				},
				Matrix: func(ctx context.Context, s *scenarios.Scenario, seed uint64) (*sim.Matrix, error) {
					return computeMatrix(ctx, s, seed, workers(cmd), true, sim.ColumnOrder, nil)
				},
				Progress: &barProgress{w: cmd.ErrOrStderr()}}
			if figDir != "" {
				rp.FirstSeed = func(s *scenarios.Scenario, m *sim.Matrix, res []algos.Result) error {
					files, err := runFigures(s, s.Seed, m, res, figDir, "png")
					figFiles = append(figFiles, files...)
					return err
				}
			}
			rep, err := rp.Run(cmd.Context())
			if err != nil {
				return err
			}
			if figDir != "" {
				files, err := figures.SweepFigures(rep.Rows, figDir, figures.PNG)
				if err != nil {
					return err
				}
				for _, f := range append(figFiles, files...) {
					fmt.Fprintln(cmd.ErrOrStderr(), "wrote", f)
				}
			}
			if format == "json" {
				return rep.WriteJSON(cmd.OutOrStdout())
			}
			rep.WriteTable(cmd.OutOrStdout())
			return nil
		},
	}
	cmd.Flags().IntVar(&seeds, "seeds", 5, "seeds per scenario (the paper used 5)")
	cmd.Flags().IntVar(&trees, "trees", 0, "trees per forest (0: the scenarios' 100)")
	cmd.Flags().BoolVar(&quick, "quick", false, "1 seed, 10 trees, 8 costs: under a minute")
	cmd.Flags().StringVar(&format, "format", "table", "table or json")
	cmd.Flags().StringVar(&data, "data", "", "the Electricity CSV (default: $CARA_DATA/electricity.csv, else the embedded copy)")
	cmd.Flags().StringVar(&detectorReset, "detector-reset", "", "never (the default) or on_retrain: when ADWIN and DDM are reset")
	cmd.Flags().StringVar(&figDir, "figures", "", "also draw every figure of the paper's scenarios into DIR (PNG)")
	return cmd
}
