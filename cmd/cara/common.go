package main

import (
	"context"
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
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// scenarioFlags are the flags every command that loads a scenario shares.
type scenarioFlags struct {
	maxWork       float64 // from the persistent --max-work, set by register's PreRun
	data, queries string
	set           []string // --set PATH=VALUE overrides of the scenario file
	trees         int
	seed          int64
	r             float64
	detectorReset string // --detector-reset; "" keeps the scenario's
	notes         io.Writer
}

func (f *scenarioFlags) register(cmd *cobra.Command, withR bool) {
	f.maxWork = defaultMaxWork
	cmd.PreRunE = func(cmd *cobra.Command, args []string) error {
		v, err := cmd.Flags().GetFloat64("max-work")
		f.maxWork = v
		if f.seed < 0 && cmd.Flags().Changed("seed") {
			return usagef("--seed must be a whole number >= 0, got %d", f.seed)
		}
		f.notes = cmd.ErrOrStderr()
		return err
	}
	cmd.Flags().StringVar(&f.data, "data", "", "the data CSV, replacing the scenario's data.csv")
	cmd.Flags().StringVar(&f.queries, "queries", "", "the queries CSV, replacing the scenario's queries.csv")
	cmd.Flags().StringArrayVar(&f.set, "set", nil, "PATH=VALUE: replace a field of the scenario file (a dotted path; VALUE is YAML), e.g. --set kernel.gamma=2 (repeatable)")
	cmd.Flags().IntVar(&f.trees, "trees", 0, "replace the random forest's number of trees (0: as the scenario says)")
	cmd.Flags().Int64Var(&f.seed, "seed", -1, "the seed (default: the scenario's)")
	if withR {
		f.r = math.NaN()
		cmd.Flags().VarP(optionalFloat{&f.r}, "retrain-cost", "R", "a constant retraining cost R, replacing the scenario's (default: the scenario's)")
	}
}

// optionalFloat is a float flag that may be left out: NaN until given, and the help says nothing
// of a default rather than "(default NaN)".
type optionalFloat struct{ v *float64 }

func (o optionalFloat) String() string {
	if o.v == nil || math.IsNaN(*o.v) {
		return ""
	}
	return strconv.FormatFloat(*o.v, 'g', -1, 64)
}

func (o optionalFloat) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return fmt.Errorf("%q is not a number", s)
	}
	*o.v = v
	return nil
}

func (o optionalFloat) Type() string { return "float" }

// registerDetectorReset adds --detector-reset to a command that replays the drift detectors.
func (f *scenarioFlags) registerDetectorReset(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.detectorReset, "detector-reset", "", "never (the default: scikit-multiflow's usage) or on_retrain (reset ADWIN, DDM and Page-Hinkley whenever the model changes), replacing the scenario's detectors.reset")
}

// load reads the scenario, applies the flags and checks the work budget (--max-work).
func (f *scenarioFlags) load(name string) (*scenarios.Scenario, error) {
	s, err := scenarios.Load(name, scenarios.Options{Data: f.data, Queries: f.queries, Set: f.set})
	if err != nil {
		return nil, err
	}
	if f.notes != nil {
		for _, n := range s.Notes {
			fmt.Fprintln(f.notes, "cara: note:", n)
		}
	}
	if f.detectorReset != "" {
		if s.Evaluation.DetectorReset, err = algos.ParseDetectorReset(f.detectorReset); err != nil {
			return nil, usagef("--detector-reset must be never or on_retrain, got %q", f.detectorReset)
		}
	}
	if err := s.CheckBudget(f.maxWork, "--max-work"); err != nil {
		return nil, err
	}
	if f.trees < 0 {
		return nil, usagef("--trees must be >= 1, got %d", f.trees)
	}
	if f.trees > 0 {
		rf, ok := s.Model.(sim.RandomForest)
		if !ok {
			return nil, usagef("--trees applies to a random forest; %s uses %s", s.Name, s.Model.Name())
		}
		rf.Trees = f.trees
		s.Model = rf
	}
	if f.seed >= 0 {
		s.Seed = uint64(f.seed)
	}
	if !math.IsNaN(f.r) {
		if !(f.r >= 0) || math.IsInf(f.r, 0) {
			return nil, usagef("-R must be a number >= 0, got %v", f.r)
		}
		s.RetrainCost = algos.Constant(f.r)
		s.RetrainCostText = fmt.Sprint(f.r)
	}
	return s, nil
}

func workers(cmd *cobra.Command) int {
	w, _ := cmd.Flags().GetInt("workers")
	return w
}

// computeMatrix runs the engine for a seed, showing a cell counter on stderr.
func computeMatrix(ctx context.Context, s *scenarios.Scenario, seed uint64, w int, skipCross bool, order sim.Order, progress io.Writer) (*sim.Matrix, error) {
	cfg, err := s.Config(seed)
	if err != nil {
		return nil, err
	}
	cfg.Workers, cfg.SkipCross, cfg.Order = w, skipCross, order
	p := newLine(progress)
	defer p.done()
	var last time.Time
	return sim.Run(ctx, cfg, func(ev sim.Event) error {
		if time.Since(last) > 200*time.Millisecond || ev.CellsDone == ev.CellsAll {
			p.printf("%s seed %d: %d/%d cells (%.0f%%), %s", s.Name, seed, ev.CellsDone, ev.CellsAll,
				100*float64(ev.CellsDone)/float64(max(ev.CellsAll, 1)), ev.Elapsed.Round(100*time.Millisecond))
			last = time.Now()
		}
		return nil
	})
}

// writeOut writes to -o FILE (atomically: a temporary file renamed into place) or to stdout.
func writeOut(stdout io.Writer, path string, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(stdout)
	}
	if err := checkOutputFile(path); err != nil {
		return err
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		// A device or a pipe (-o /dev/null, -o /dev/stdout, a FIFO): written to as it is. The
		// rename below would replace it with a regular file.
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
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
