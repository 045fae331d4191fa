package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/experiment"
	"github.com/cara-sim/cara/figures"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

func newPlotCmd() *cobra.Command {
	var dir, format string
	cmd := &cobra.Command{
		Use:   "plot results.jsonl",
		Short: "Draw a sweep's figures: cost, retrains and accuracy against R, and the tuned parameters",
		Example: `  cara sweep covcon-d --seeds 5 -o covcon-d.jsonl
  cara plot covcon-d.jsonl -o figures/ --format svg`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := figures.ParseFormat(format)
			if err != nil {
				return usageError{err}
			}
			if err := checkFigureDir("-o", dir); err != nil {
				return err
			}
			rows, err := readSweepFile(args[0])
			if err != nil {
				return err
			}
			if len(rows) == 0 {
				return fmt.Errorf("%s: no sweep lines", args[0])
			}
			// Files joined with cat: a row twice would count twice in every mean, and two sweeps
			// of one scenario's name would be averaged together.
			all, err := experiment.Merge(experiment.SweepFile{Name: args[0], Rows: rows})
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			if n := len(rows) - len(all); n > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "cara: note: %s: %d duplicate row(s) (same scenario, seed, R and algorithm) counted once\n", args[0], n)
			}
			for _, m := range experiment.Missing(all) {
				fmt.Fprintf(cmd.ErrOrStderr(), "cara: warning: %s: incomplete: %s; the figures show what there is\n", args[0], m)
			}
			return drawSweepFigures(cmd, all, dir, f)
		},
	}
	cmd.Flags().StringVarP(&dir, "output", "o", ".", "folder for the figures")
	cmd.Flags().StringVar(&format, "format", "png", "png or svg")
	return cmd
}

// drawSweepFigures draws a sweep's figures into dir, printing each file's path.
func drawSweepFigures(cmd *cobra.Command, rows []experiment.SweepRow, dir string, f figures.Format) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	paths, err := figures.SweepFigures(rows, dir, f)
	for _, p := range paths {
		fmt.Fprintln(cmd.OutOrStdout(), p)
	}
	return err
}

// checkFigureDir refuses "-" as a folder of figures before any work: -o - means stdout
// elsewhere, and here it would make a folder named "-".
func checkFigureDir(flag, dir string) error {
	if dir == "-" {
		return usagef("%s -: figures are files in a folder; give a folder (stdout holds no PNG files)", flag)
	}
	return nil
}

// runFigures draws a run's figures: the matrix with the Oracle's and CARA-T's strategies, the
// cumulative costs, and for 2-D data six batches with the prequential model's errors.
func runFigures(s *scenarios.Scenario, seed uint64, m *sim.Matrix, res []algos.Result, dir, format string) ([]string, error) {
	f, err := figures.ParseFormat(format)
	if err != nil {
		return nil, usageError{err}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []figures.Path
	var oracle algos.Strategy
	for _, r := range res {
		if r.Algorithm == algos.NameOracle {
			oracle = r.Strategy
		}
		if r.Algorithm == algos.NameOracle || r.Algorithm == algos.NameCaraT || r.Algorithm.IsSchedule() {
			paths = append(paths, figures.Path{Algorithm: r.Algorithm, Strategy: r.Strategy})
		}
	}
	var files []string
	p, err := figures.MatrixFigure(m, s.RetrainCost, paths, dir, s.Name+"-matrix", f)
	if err != nil {
		return files, err
	}
	files = append(files, p...)
	r0 := s.RetrainCost(m.Offline())
	if p, err = figures.CumulativeFigure(s.Name, r0, res, dir, s.Name+"-cumulative", f); err != nil {
		return files, err
	}
	files = append(files, p...)
	if s.Features < 2 || oracle.Model == nil {
		return files, nil
	}
	st, err := s.Stream(seed)
	if err != nil {
		return files, err
	}
	var frames []figures.BatchFrame
	for k := range 6 {
		t := m.Offline() + k*(m.Batches()-1-m.Offline())/5
		b, err := st.Batch(t)
		if err != nil {
			return files, err
		}
		// The model answering batch t's queries: the Oracle's model before its decision at t.
		model := t - 1
		if i := t - oracle.Start; i > 0 {
			model = oracle.Model[i-1]
		}
		frames = append(frames, figures.BatchFrame{Batch: b, Model: model, Errors: m.Errors(model, t)})
	}
	p, err = figures.BatchesFigure(s.Name, frames, dir, s.Name+"-batches", f)
	if err != nil {
		return files, err
	}
	return append(files, p...), nil
}
