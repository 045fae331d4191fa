package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/ctxio"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// scenarioFlags are the flags every command that loads a scenario shares.
type scenarioFlags struct {
	maxWork       float64 // from the persistent --max-work, set by register's PreRun
	data, queries string
	set           []string // --set PATH=VALUE overrides of the scenario file
	trees         optional[int64]
	seed          optional[int64]
	r             optional[float64]
	detectorReset string // --detector-reset; "" keeps the scenario's
	detectors     string // --detectors: all, none or a comma-separated list; "" keeps the scenario's
	notes         io.Writer
	ctx           context.Context // the command's: ends a load blocked on a FIFO
	src           scenarioSource
}

// optional is a number flag with no default: unset until given, and its help shows none (a NaN or
// -1 standing for "not given" would show, and would hide a NaN given on purpose).
type optional[T int64 | float64] struct {
	v   T
	set bool
}

func (o *optional[T]) Set(s string) error {
	switch p := any(&o.v).(type) {
	case *float64:
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return errors.New("not a number")
		}
		*p = v
	case *int64:
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return errors.New(wholeNumberProblem(s))
		}
		*p = v
	}
	o.set = true
	return nil
}

// wholeNumberProblem says why s is not a whole number a flag takes: too large for 64 bits (20
// digits, 1e30), written with an exponent, or not a whole number at all.
func wholeNumberProblem(s string) string {
	_, ierr := strconv.ParseInt(s, 10, 64)
	f, ferr := strconv.ParseFloat(s, 64)
	whole := ferr == nil && f == math.Trunc(f)
	switch {
	case errors.Is(ierr, strconv.ErrRange), whole && math.Abs(f) >= math.MaxInt64:
		return fmt.Sprintf("%s is too large: a whole number here is at most %d", s, int64(math.MaxInt64))
	case whole:
		return fmt.Sprintf("%s is a whole number written with an exponent or a fraction: write it in digits (%.0f)", s, f)
	}
	return "not a whole number"
}

func (o *optional[T]) String() string {
	if !o.set {
		return ""
	}
	return fmt.Sprint(o.v)
}

func (o *optional[T]) Type() string {
	if _, ok := any(o.v).(float64); ok {
		return "float"
	}
	return "int"
}

func (f *scenarioFlags) register(cmd *cobra.Command, withR bool) {
	f.maxWork = defaultMaxWork
	cmd.PreRunE = func(cmd *cobra.Command, args []string) error {
		v, err := cmd.Flags().GetFloat64("max-work")
		f.maxWork = v
		if f.seed.set && f.seed.v < 0 {
			return usagef("--seed must be a whole number >= 0, got %d", f.seed.v)
		}
		f.notes = cmd.ErrOrStderr()
		f.ctx = cmd.Context()
		f.src = sourceOf(cmd)
		return err
	}
	cmd.Flags().StringVar(&f.data, "data", "", "the data CSV, replacing the scenario's data.csv")
	cmd.Flags().StringVar(&f.queries, "queries", "", "the queries CSV, replacing the scenario's queries.csv")
	cmd.Flags().StringArrayVar(&f.set, "set", nil, "PATH=VALUE: replace a field of the scenario file (a dotted path; VALUE is YAML), e.g. --set kernel.gamma=2 (repeatable)")
	cmd.Flags().Var(&f.trees, "trees", "the random forest's number of trees, replacing the scenario's (--set model.random_forest.trees=N)")
	cmd.Flags().Var(&f.seed, "seed", "the seed, replacing the scenario's (--set seed=N)")
	if withR {
		cmd.Flags().VarP(&f.r, "retrain-cost", "R", "a constant retraining cost R, replacing the scenario's (--set retrain_cost=R)")
	}
}

// registerDetectorReset adds --detector-reset to a command that replays the drift detectors.
func (f *scenarioFlags) registerDetectorReset(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.detectorReset, "detector-reset", "", "never (the default: scikit-multiflow's usage) or on_retrain (reset ADWIN, DDM and Page-Hinkley whenever the model changes), replacing the scenario's detectors.reset")
	cmd.Flags().StringVar(&f.detectors, "detectors", "", "the detectors replayed: all, none or a list (eddm,kswin), replacing the scenario's detectors.run (default: adwin,ddm,page-hinkley)")
}

// load reads the scenario with the flags applied and checks the work budget (--max-work).
func (f *scenarioFlags) load(name string) (*scenarios.Scenario, error) {
	flags, err := f.overrides()
	if err != nil {
		return nil, err
	}
	s, err := f.src.open(name, scenarios.Options{Data: f.data, Queries: f.queries, Set: f.set, Flags: flags, Context: f.ctx})
	if err != nil {
		return nil, err
	}
	if f.notes != nil {
		for _, n := range s.Notes {
			fmt.Fprintln(f.notes, "cara: note:", n)
		}
	}
	if err := s.CheckBudget(f.maxWork, "--max-work"); err != nil {
		return nil, err
	}
	if r := f.src.remote; r != nil && r.check != nil {
		if err := r.check(s); err != nil { // a served command: the room's memory
			return nil, err
		}
	}
	return s, nil
}

// overrides are the flags given that change the scenario file, as the --set overrides they stand
// for: the one way a scenario is changed, so what-ifs (which read the file again) keep them. A value
// no scenario could take is a usage mistake, named by its flag.
func (f *scenarioFlags) overrides() ([]scenarios.Flag, error) {
	var out []scenarios.Flag
	if f.r.set {
		if !(f.r.v >= 0) || math.IsInf(f.r.v, 0) {
			return nil, usagef("-R must be a number >= 0, got %v", f.r.v)
		}
		v := strconv.FormatFloat(f.r.v, 'g', -1, 64)
		out = append(out, scenarios.Flag{Name: "-R " + v, Path: "retrain_cost", Value: v})
	}
	if f.trees.set {
		if f.trees.v < 1 {
			return nil, usagef("--trees must be >= 1, got %d", f.trees.v)
		}
		v := strconv.FormatInt(f.trees.v, 10)
		out = append(out, scenarios.Flag{Name: "--trees " + v, Path: "model.random_forest.trees", Value: v, Under: "model.random_forest"})
	}
	if f.seed.set { // >= 0: checked before the command runs
		v := strconv.FormatInt(f.seed.v, 10)
		out = append(out, scenarios.Flag{Name: "--seed " + v, Path: "seed", Value: v})
	}
	if f.detectorReset != "" {
		if _, err := algos.ParseDetectorReset(f.detectorReset); err != nil {
			return nil, usagef("--detector-reset must be never or on_retrain, got %q", f.detectorReset)
		}
		out = append(out, scenarios.Flag{Name: "--detector-reset " + f.detectorReset, Path: "detectors.reset", Value: f.detectorReset})
	}
	if f.detectors != "" { // the loader checks the names, as for detectors.run
		v := f.detectors
		if v != "all" && v != "none" {
			v = "[" + strings.Join(strings.Split(v, ","), ", ") + "]"
		}
		out = append(out, scenarios.Flag{Name: "--detectors " + f.detectors, Path: "detectors.run", Value: v})
	}
	return out, nil
}

// stdinLimit bounds a scenario read from standard input (`cara run -`): a scenario file is a few
// kilobytes.
const stdinLimit = 1 << 20

// scenarioSource is where a command's scenario comes from: a name or path, or `-` for its
// standard input; an SSH client's scenario is untrusted (it reads no file but the embedded streams
// and the server's offered folder).
type scenarioSource struct {
	stdin  io.Reader
	remote *remoteScenario
}

func sourceOf(cmd *cobra.Command) scenarioSource {
	src := scenarioSource{stdin: cmd.InOrStdin()}
	if r, ok := remoteFrom(cmd.Context()); ok {
		src.remote = &r
	}
	return src
}

// open loads the scenario name ("-": standard input) with opt.
func (src scenarioSource) open(name string, opt scenarios.Options) (*scenarios.Scenario, error) {
	limit := int64(stdinLimit)
	if src.remote != nil {
		opt.Untrusted, opt.FilesDir = true, src.remote.filesDir
		limit = src.remote.maxInput
	}
	if name != "-" {
		return scenarios.Load(name, opt)
	}
	text, err := io.ReadAll(io.LimitReader(src.stdin, limit+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("stdin: %w", err)
	case int64(len(text)) > limit:
		return nil, fmt.Errorf("stdin: a scenario is at most %d bytes; this one is longer", limit)
	case len(text) == 0:
		return nil, fmt.Errorf("stdin: empty; send a scenario file (e.g. cara run - < my.yaml)")
	}
	// A scenario on stdin names its CSV files relative to the working folder, as a file there would.
	return scenarios.Parse("stdin", text, ".", opt)
}

func workers(cmd *cobra.Command) int {
	w, _ := cmd.Flags().GetInt("workers")
	return w
}

// computeMatrix runs the engine for a seed, showing a cell counter on stderr; configure changes the
// engine's configuration further (--predictions-out records the answers). A served command's
// matrix waits first for the room's memory and a compute slot, yields the slot between columns to
// a player waiting for one, and lets them go when it is done.
func computeMatrix(ctx context.Context, s *scenarios.Scenario, seed uint64, w int, skipCross bool, order sim.Order, progress io.Writer, configure ...func(*sim.Config)) (*sim.Matrix, error) {
	var yield func(context.Context) error
	if r, ok := remoteFrom(ctx); ok && r.admit != nil {
		release, err := r.admit(ctx, s, seed)
		if err != nil {
			return nil, err
		}
		defer release()
		yield = r.yield
	}
	cfg, err := s.Config(seed)
	if err != nil {
		return nil, err
	}
	cfg.Workers, cfg.SkipCross, cfg.Order = w, skipCross, order
	for _, c := range configure {
		c(&cfg)
	}
	p := newLine(progress)
	defer p.done()
	var last time.Time
	return sim.Run(ctx, cfg, func(ev sim.Event) error {
		if time.Since(last) > 200*time.Millisecond || ev.CellsDone == ev.CellsAll {
			p.printf("%s seed %d: %d/%d cells (%.0f%%), %s", s.Name, seed, ev.CellsDone, ev.CellsAll,
				100*float64(ev.CellsDone)/float64(max(ev.CellsAll, 1)), ev.Elapsed.Round(100*time.Millisecond))
			last = time.Now()
		}
		if yield != nil {
			return yield(ctx) // the engine waits here, between columns, while a player computes
		}
		return nil
	})
}

// writeOut writes to -o FILE (atomically: a temporary file renamed into place) or, for "" and
// "-", to the command's stdout.
func writeOut(cmd *cobra.Command, path string, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(cmd.OutOrStdout())
	}
	if err := checkOutputFile(path); err != nil {
		return err
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		// A device or a pipe (-o /dev/null, -o /dev/stdout, a FIFO): written to as it is. The
		// rename below would replace it with a regular file.
		// A FIFO waits for its reader, and a full pipe for room: both end with the command's context.
		f, err := ctxio.Open(cmd.Context(), path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		if err := write(f); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".cara-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	// CreateTemp makes the file 0600; an output is for others too (a shared volume's merge): keep
	// the mode of the file it replaces, or give it the 0644 a plain create gives under umask 022.
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// checkOutputFile refuses an output path that is a folder, or whose folder does not exist, before
// any work is done.
// checkBinaryOut refuses Parquet to a terminal: it is binary, for a file or a pipe.
func checkBinaryOut(cmd *cobra.Command, format, out string) error {
	if format == "parquet" && (out == "" || out == "-") && isTerminal(cmd.OutOrStdout()) {
		return usagef("--format parquet is binary: give -o FILE.parquet, or pipe it")
	}
	if out != "" && out != "-" {
		return checkOutputFile(out)
	}
	return nil
}

func checkOutputFile(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return usagef("-o %s is a folder; give a file name (e.g. %s)", path, filepath.Join(path, "out.json"))
	}
	if dir := filepath.Dir(path); dir != "." {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return usagef("-o %s: the folder %s does not exist", path, dir)
		}
	}
	return nil
}
