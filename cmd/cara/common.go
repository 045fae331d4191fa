package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
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
}

func (f *scenarioFlags) register(cmd *cobra.Command, withR bool) {
	f.maxWork = defaultMaxWork
	cmd.PreRunE = func(cmd *cobra.Command, args []string) error {
		v, err := cmd.Flags().GetFloat64("max-work")
		f.maxWork = v
		return err
	}
	cmd.Flags().StringVar(&f.data, "data", "", "the data CSV, replacing the scenario's data.csv")
	cmd.Flags().StringVar(&f.queries, "queries", "", "the queries CSV, replacing the scenario's queries.csv")
	cmd.Flags().StringArrayVar(&f.set, "set", nil, "PATH=VALUE: replace a field of the scenario file (a dotted path; VALUE is YAML), e.g. --set kernel.gamma=2 (repeatable)")
	cmd.Flags().IntVar(&f.trees, "trees", 0, "replace the random forest's number of trees (0: as the scenario says)")
	cmd.Flags().Int64Var(&f.seed, "seed", -1, "the seed (default: the scenario's)")
	if withR {
		cmd.Flags().Float64VarP(&f.r, "retrain-cost", "R", math.NaN(), "a constant retraining cost R, replacing the scenario's")
	}
}

// load reads the scenario, applies the flags and checks the work budget (--max-work).
func (f *scenarioFlags) load(name string) (*scenarios.Scenario, error) {
	s, err := scenarios.Load(name, scenarios.Options{Data: f.data, Queries: f.queries, Set: f.set})
	if err != nil {
		return nil, err
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
	events := make(chan sim.Event, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		var last time.Time
		p := newLine(progress)
		for ev := range events {
			if time.Since(last) > 200*time.Millisecond || ev.CellsDone == ev.CellsAll {
				p.printf("%s seed %d: %d/%d cells (%.0f%%), %s", s.Name, seed, ev.CellsDone, ev.CellsAll,
					100*float64(ev.CellsDone)/float64(max(ev.CellsAll, 1)), ev.Elapsed.Round(100*time.Millisecond))
				last = time.Now()
			}
		}
		p.done()
	}()
	m, err := sim.Run(ctx, cfg, events)
	close(events)
	<-done
	return m, err
}

// num is a float that is null in JSON when it is NaN or infinite (JSON has no such numbers).
type num float64

func (n num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

func (n *num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = num(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*n = num(f)
	return nil
}

func params(p map[string]float64) map[string]num {
	if p == nil {
		return nil
	}
	out := make(map[string]num, len(p))
	for k, v := range p {
		out[k] = num(v)
	}
	return out
}

// fmtNum prints a number for a table: "-" for undefined, "inf" for infinite.
func fmtNum(f float64, prec int) string {
	switch {
	case math.IsNaN(f):
		return "-"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return fmt.Sprintf("%.*f", prec, f)
}

func fmtParams(p map[string]float64) string {
	var parts []string
	for _, k := range []string{"theta", "theta_c", "period", "offset"} {
		if v, ok := p[k]; ok {
			prec := 3
			if k == "period" || k == "offset" {
				prec = 0
			}
			parts = append(parts, k+"="+fmtNum(v, prec))
		}
	}
	return strings.Join(parts, " ")
}

// writeOut writes to -o FILE (atomically: a temporary file renamed into place) or to stdout.
func writeOut(stdout io.Writer, path string, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(stdout)
	}
	tmp, err := os.CreateTemp(dirOf(path), ".cara-*")
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

func dirOf(path string) string {
	if i := strings.LastIndexByte(path, os.PathSeparator); i >= 0 {
		return path[:i+1]
	}
	return "."
}
