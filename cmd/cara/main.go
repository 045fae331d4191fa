// Command cara simulates cost-aware retraining of ML models over drifting data: a live terminal UI
// that steps through a scenario batch by batch, headless runs, sweeps over the retraining cost, a
// reproduction of the paper's tables, figures, benchmarks, and the same UI served over SSH.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

// defaultMaxWork is the work budget of a local run: 100 times the paper's scenarios
// (100 batches x 1000 points x 100 queries); cara serve is stricter.
const defaultMaxWork = 1e9

// exitStatusHelp ends every command's help: the exit codes scripts can rely on.
const exitStatusHelp = `
Exit status: 0 ok, 1 bad input or a failed run, 2 usage, 130 interrupted.
`

// usageError marks a mistake in the command line (exit code 2).
type usageError struct{ error }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRootCmd()
	if code := exitStatus(root.ExecuteContext(ctx), os.Stderr); code != 0 {
		os.Exit(code)
	}
}

// exitStatus is the exit status of a command that returned err, after saying on stderr what went
// wrong (unless the command has said it already).
func exitStatus(err error, stderr io.Writer) int {
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "cara: interrupted; files written so far are complete (a sweep resumes when run again)")
		return 130
	case errors.Is(err, errFailed):
		return 1 // the command has said what failed
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "cara: %v\n", err)
		return 2
	}
	fmt.Fprintf(stderr, "cara: %v\n", err)
	return 1
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "cara",
		Short: "Watch, step through and measure cost-aware retraining of ML models over drifting data",
		Long: `cara simulates the CARA paper (Mahadevan & Mathioudakis, "Cost-Effective Retraining of
Machine Learning Models"): every batch gets a model, a staleness cost that looks at where the
queries are fills a cost matrix, and retraining algorithms (the Oracle, CARA-T, CARA-CT, CARA-P,
Never-retrain, Markov, ADWIN, DDM, Page-Hinkley) are paths through it.

With no arguments in a terminal, cara opens a scenario picker.

Exit status: 0 ok, 1 bad input or a failed run, 2 a usage mistake (an unknown command or flag, a
bad flag value), 130 interrupted (Ctrl-C or SIGTERM; files written so far are complete).`,
		Version:       versionString(),
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return openDefault(cmd, args)
		},
	}
	root.PersistentFlags().Int("workers", 0, "worker goroutines for the engine (0: all cores)")
	root.PersistentFlags().Float64("max-work", defaultMaxWork, "refuse scenarios whose batches x points x queries is over this (0: no limit)")
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if w, _ := cmd.Flags().GetInt("workers"); w < 0 {
			return usagef("--workers must be >= 0 (0: all cores), got %d", w)
		}
		if m, _ := cmd.Flags().GetFloat64("max-work"); !(m >= 0) {
			return usagef("--max-work must be >= 0 (0: no limit), got %v", m)
		}
		return nil
	}
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return usageError{err} })
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetUsageTemplate(root.UsageTemplate() + exitStatusHelp)
	root.AddCommand(newMatrixCmd(), newRunCmd(), newSweepCmd(), newMergeCmd(), newReproduceCmd(),
		newPlotCmd(), newBenchCmd(), newListCmd(), newPlayCmd(), newServeCmd(),
		newValidateCmd(), newNewCmd(), newVersionCmd(), newGenManCmd())
	registerCompletions(root)
	return root
}
