package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// predictionsOut is --predictions-out FILE: the answers a run's model gave (its class at every row
// of every batch t >= t', and at the queries that are not rows of the data where they have
// labels), written as a predictions file that model: {predictions: FILE} reads back.
type predictionsOut struct {
	path string
	mu   sync.Mutex
	p    *sim.Predictions // recorded by the run of the scenario's seed
}

func (po *predictionsOut) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&po.path, "predictions-out", "", "also write the model's predictions to FILE (.csv, .csv.gz or .parquet), for model: {predictions: FILE} (docs/byo-model.md)")
}

// check refuses, before any work, a name that says no form cara writes or a folder that is not there.
func (po *predictionsOut) check() error {
	if po.path == "" {
		return nil
	}
	if err := scenarios.PredictionsForm(po.path); err != nil {
		return usagef("--predictions-out %v", err)
	}
	if st, err := os.Stat(po.path); err == nil && st.IsDir() {
		return usagef("--predictions-out %s is a folder; give a file name (e.g. %s)", po.path, filepath.Join(po.path, "predictions.csv"))
	}
	if st, err := os.Stat(filepath.Dir(po.path)); err != nil || !st.IsDir() {
		return usagef("--predictions-out %s: the folder %s does not exist", po.path, filepath.Dir(po.path))
	}
	return nil
}

// on reports whether the predictions are written: every cell is then computed.
func (po *predictionsOut) on() bool { return po.path != "" }

// record is the engine option that records the answers of the run of s with seed, when it is the
// scenario's own (the first of --seeds): the batches' rows and queries are counted first.
func (po *predictionsOut) record(s *scenarios.Scenario, seed uint64) (func(*sim.Config), error) {
	if po.path == "" || seed != s.Seed {
		return func(*sim.Config) {}, nil
	}
	st, err := s.Stream(seed)
	if err != nil {
		return nil, err
	}
	rows, queries, asked := make([]int, st.Len()), make([]int, st.Len()), false
	for t := range rows {
		b, err := st.Batch(t)
		if err != nil {
			return nil, fmt.Errorf("batch %d: %w", t, err)
		}
		rows[t], queries[t] = b.X.Len(), b.Q.Len()
		// The engine asks about labelled queries only; those that are data rows are the data's.
		asked = asked || b.QY != nil && b.Q.Len() > 0 && b.QRows == nil
	}
	if !asked {
		queries = nil
	}
	p := sim.NewPredictions("--predictions-out "+po.path, rows, queries)
	po.mu.Lock()
	po.p = p
	po.mu.Unlock()
	return func(cfg *sim.Config) { cfg.Answered = p.Record }, nil
}

// write writes what the run recorded, once it has finished.
func (po *predictionsOut) write(cmd *cobra.Command, s *scenarios.Scenario) error {
	if po.path == "" {
		return nil
	}
	po.mu.Lock()
	p := po.p
	po.mu.Unlock()
	if p == nil {
		return fmt.Errorf("--predictions-out %s: the run of seed %d recorded nothing", po.path, s.Seed)
	}
	if query, tp, t, row, ok := p.Missing(); ok {
		what := "row"
		if query {
			what = "query"
		}
		return fmt.Errorf("--predictions-out %s: the run gave no prediction of model %d for batch %d %s %d", po.path, tp, t, what, row)
	}
	if err := writeOut(cmd, po.path, func(w io.Writer) error { return s.WritePredictions(w, po.path, p) }); err != nil {
		return fmt.Errorf("--predictions-out %s: %w", po.path, err)
	}
	fmt.Fprintln(cmd.ErrOrStderr(), "wrote", po.path)
	return nil
}
