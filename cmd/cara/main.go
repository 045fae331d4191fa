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
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/scenarios"
)

// defaultMaxWork is the work budget of a local run: 100 times the paper's scenarios
// (100 batches x 1000 points x 100 queries); cara serve is stricter.
const defaultMaxWork = 1e9

// exitStatusHelp ends every command's help but the root's, whose description says it in full:
// the exit codes scripts can rely on.
const exitStatusHelp = `{{if .HasParent}}
Exit status: 0 ok, 1 bad input or a failed run, 2 usage, 130 interrupted.
{{end}}`

// interruptGrace is how long an interrupted command has to stop by itself before main exits.
const interruptGrace = 2 * time.Second

// usageError marks a mistake in the command line (exit code 2).
type usageError struct{ error }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// Reads and writes that cara opens end with ctx (internal/ctxio), but a write to a
		// descriptor it inherited (stdout into a pipe nobody reads) blocks in the kernel, out of
		// reach: the promise of 130 on Ctrl-C or SIGTERM is kept here.
		<-ctx.Done()
		time.Sleep(interruptGrace)
		fmt.Fprintln(os.Stderr, "cara: interrupted while blocked on output or input; files written so far are complete")
		os.Exit(130)
	}()
	code := execute(ctx, newRootCmd(), os.Stderr)
	stop()
	os.Exit(code)
}

// interrupted is a command's own account of what an interruption left (serve: the sessions it
// closed), for main to print in place of the one about files and sweeps.
type interrupted struct{ what string }

func (e interrupted) Error() string        { return e.what }
func (e interrupted) Is(target error) bool { return target == context.Canceled }

// execute runs root and returns the exit status: 0 ok, 1 bad input, a failed run or a bug (a
// panic, reported as one, never with Go's status 2, which scripts read as a usage mistake),
// 2 usage, 130 interrupted.
func execute(ctx context.Context, root *cobra.Command, stderr io.Writer) (code int) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "cara: internal error (a bug in cara, not in your input; please report it with the command line): %v\n%s", v, debug.Stack())
			code = 1
		}
	}()
	ctx, prof := withProfiles(ctx)
	defer prof.stop(stderr)
	return exitOf(root.ExecuteContext(ctx), stderr)
}

// exitOf says a command's error on stderr (escaped: it may quote a scenario's text) and returns
// the exit status it stands for.
func exitOf(err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return 0
	case errors.As(err, new(interrupted)):
		fmt.Fprintf(stderr, "cara: interrupted: %s\n", err)
		return 130
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "cara: interrupted; files written so far are complete (a sweep resumes when run again)")
		return 130
	case errors.Is(err, errFailed):
		return 1 // the command has said what failed
	}
	// An error may quote a scenario's text (a CSV value, a YAML line): untrusted, so escaped.
	msg, _ := scenarios.CleanText(err.Error(), true)
	fmt.Fprintf(stderr, "cara: %s\n", msg)
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
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
	registerProfileFlags(root)
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if w, _ := cmd.Flags().GetInt("workers"); w < 0 {
			return usagef("--workers must be >= 0 (0: all cores), got %d", w)
		}
		if m, _ := cmd.Flags().GetFloat64("max-work"); !(m >= 0) {
			return usagef("--max-work must be >= 0 (0: no limit), got %v", m)
		}
		return startProfiles(cmd)
	}
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		// An int flag (--seeds, --workers) given 1e30 or 20 digits: say so, not strconv's words.
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Func == "ParseInt" {
			err = errors.New(strings.TrimSuffix(err.Error(), ne.Error()) + wholeNumberProblem(ne.Num))
		}
		return usageError{err}
	})
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetUsageTemplate(root.UsageTemplate() + exitStatusHelp)
	root.AddCommand(newMatrixCmd(), newRunCmd(), newSweepCmd(), newMergeCmd(), newReproduceCmd(),
		newPlotCmd(), newBenchCmd(), newListCmd(), newPlayCmd(), newServeCmd(),
		newValidateCmd(), newNewCmd(), newVersionCmd(), newGenManCmd())
	registerCompletions(root)
	usageArgs(root)
	return root
}
