package main

import (
	"context"
	"fmt"
	"slices"

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
	var format, data, figDir, detectorReset, detectorFeed, rRange, model, elecShuffle, tie string
	cmd := &cobra.Command{
		Use:   "reproduce",
		Short: "Run the paper's experiments and set our tables beside the paper's",
		Long: `reproduce runs every algorithm on the paper's six synthetic scenarios and Electricity over 25
retraining costs in (0, R_max] and several seeds, averages SCPE, query accuracy and the number of
retrains as the paper's tables 2-4 do, prints them beside the paper's published numbers with a
fidelity score (how many are within x1.5 of the paper's), and says for each of the paper's claims
whether our run agrees.

The defaults are the protocol that comes closest to the paper (docs/conventions.md): each seed its
own grid, R_max the smallest R at which the Oracle on the offline batches 0..T_off inclusive equals
Never-retrain (--r-range round-two: batches 0..T_off-1, one grid from the largest R_max); drift
detectors fed whole batches as the paper's Algorithm 1 (--detector-feed first-drift: round two's);
Electricity's rows shuffled within each batch (--electricity-shuffle none: file order).
--model logistic sets the appendix's LR tables beside a logistic regression's run.

--quick uses 3 seeds (or --seeds), a 10-tree forest and 8 costs: under a minute, for a first look.

Each mean is printed with the half-width of its 95 % t-interval over seeds (each seed's mean over
its own costs), and each claim on each dataset with a paired t-test over seeds: "holds", "does not
hold" or "not significant at N seeds".`,
		Example: `  cara reproduce --quick
  cara reproduce --seeds 5 --format json > reproduction.json
  cara reproduce --model logistic --seeds 5`,
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
				trees, steps = 10, 8
				if !cmd.Flags().Changed("seeds") {
					seeds = 3 // the fewest that give an interval and a test worth the name
				}
			}
			rr, err := experiment.ParseRRange(rRange)
			if err != nil {
				return usagef("--r-range must be paper or round-two, got %q", rRange)
			}
			if _, err := algos.ParseDetectorFeed(detectorFeed); err != nil {
				return usagef("--detector-feed must be batch or first-drift, got %q", detectorFeed)
			}
			if elecShuffle != "within_batch" && elecShuffle != "none" {
				return usagef("--electricity-shuffle must be within_batch or none, got %q", elecShuffle)
			}
			if _, err := algos.ParseTie(tie); err != nil {
				return usagef("--tie must be low, mid or high, got %q", tie)
			}
			set := []string{"detectors.feed=" + detectorFeed}
			if tie != algos.TieMid.String() {
				set = append(set, "tuning.tie="+tie)
			}
			switch model {
			case experiment.ModelForest:
			case experiment.ModelLogistic:
				// SGDClassifier's defaults, as the appendix used them; a forest's --trees does not apply.
				set, trees = append(set, "model={logistic: {}}"), 0
			default:
				return usagef("--model must be %s or %s, got %q", experiment.ModelForest, experiment.ModelLogistic, model)
			}
			if seeds < 1 {
				return usagef("--seeds must be >= 1, got %d", seeds)
			}
			var figFiles []string
			rp := experiment.Reproduce{Seeds: seeds, Trees: trees, Steps: steps, Quick: quick, KeepRows: figDir != "",
				Range: rr, Model: model, ElectricityShuffle: elecShuffle,
				Load: func(name string) (*scenarios.Scenario, error) {
					f := scenarioFlags{trees: optional[int64]{v: int64(trees), set: trees > 0}, detectorReset: detectorReset, set: set}
					if name == "electricity" {
						f.data = data
						f.set = append(slices.Clone(set), "data.shuffle="+elecShuffle)
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
	cmd.Flags().BoolVar(&quick, "quick", false, "3 seeds (unless --seeds), 10 trees, 8 costs: under a minute")
	cmd.Flags().StringVar(&format, "format", "table", "table or json")
	cmd.Flags().StringVar(&data, "data", "", "the Electricity CSV (default: $CARA_DATA/electricity.csv, else the embedded copy)")
	cmd.Flags().StringVar(&detectorReset, "detector-reset", "", "never (the default) or on_retrain: when ADWIN and DDM are reset")
	cmd.Flags().StringVar(&detectorFeed, "detector-feed", "batch", "batch (whole batches and a call at T_start, as Algorithm 1) or first-drift (round two: stop at a batch's first drift)")
	cmd.Flags().StringVar(&rRange, "r-range", "paper", "paper (per-seed grids, R_max from the Oracle on batches 0..T_off inclusive) or round-two (one grid, batches 0..T_off-1)")
	cmd.Flags().StringVar(&model, "model", experiment.ModelForest, "random_forest (tables 2-4) or logistic (the appendix's LR tables)")
	cmd.Flags().StringVar(&tie, "tie", "mid", "which threshold of CARA-T's and CARA-CT's optimal interval: mid (the default), low or high (docs/conventions.md)")
	cmd.Flags().StringVar(&elecShuffle, "electricity-shuffle", "within_batch", "within_batch or none (file order): how Electricity's rows are served")
	cmd.Flags().StringVar(&figDir, "figures", "", "also draw every figure of the paper's scenarios into DIR (PNG)")
	return cmd
}
