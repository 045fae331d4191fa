package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// errFailed is returned after a command printed its own account of a failure (exit status 1,
// without repeating the message).
var errFailed = errors.New("failed")

func newValidateCmd() *cobra.Command {
	var sets []string
	var rows bool
	cmd := &cobra.Command{
		Use:   "validate FILE|DIR|SCENARIO...",
		Short: "Check scenario files without computing: each loads strictly and every batch generates",
		Long: `validate loads each scenario exactly as every other command does (strictly: an unknown key,
a wrong type, an out-of-range value or a bad expression is an error at file:line:column), then
generates every batch of its default seed, so an expression undefined at some t is found too.
Nothing is computed. A folder stands for the *.yaml files in it.

It prints "FILE: ok (...)" for each good file and the located error for each bad one, and exits
with 1 if any failed: usable in a pre-commit hook or in CI for a course's scenario folder. With
--rows (and for a scenario whose model comes from outside), it also prints the rows of each batch
that a predictions file covers (docs/byo-model.md).`,
		Example: `  cara validate my-drift.yaml
  cara validate scenarios/`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeScenarios,
		RunE: func(cmd *cobra.Command, args []string) error {
			files, err := expandDirs(args)
			if err != nil {
				return err
			}
			failed := 0
			for _, f := range files {
				summary, more, err := validate(sourceOf(cmd), f, sets, rows)
				if f == "-" {
					f = "stdin" // as the loader names it in its messages
				}
				if err != nil {
					failed++
					fmt.Fprintln(cmd.ErrOrStderr(), located(f, err))
					continue
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: ok (%s)\n", f, summary)
				for _, line := range more {
					fmt.Fprintln(cmd.OutOrStdout(), "  "+line)
				}
			}
			if failed > 0 {
				if len(files) > 1 {
					fmt.Fprintf(cmd.ErrOrStderr(), "%d of %d scenarios failed\n", failed, len(files))
				}
				return errFailed
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&sets, "set", nil, "PATH=VALUE: check the files with this field replaced (as every command's --set)")
	cmd.Flags().BoolVar(&rows, "rows", false, "also print the rows of each batch that a predictions file covers (printed anyway for a model from outside)")
	return cmd
}

// expandDirs replaces each folder by the scenario files in it, sorted.
func expandDirs(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			out = append(out, a) // a file, an embedded name, or a typo that Load reports
			continue
		}
		m, err := filepath.Glob(filepath.Join(a, "*.yaml"))
		if err != nil {
			return nil, err
		}
		if len(m) == 0 {
			return nil, usagef("%s: a folder without *.yaml files", a)
		}
		slices.Sort(m)
		out = append(out, m...)
	}
	return out, nil
}

// validate loads a scenario and generates every batch of its default seed, returning a summary
// such as "100 batches, 2 features, 1000 points/batch, random forest (100 trees), R 20", and,
// more: the notes of its load, and, with rows or for a model from outside, the rows a predictions
// file covers.
func validate(src scenarioSource, ref string, sets []string, rows bool) (summary string, more []string, err error) {
	s, err := src.open(ref, scenarios.Options{Set: sets})
	if err != nil {
		return "", nil, err
	}
	st, err := s.Stream(s.Seed)
	if err != nil {
		return "", nil, err
	}
	lo, hi := -1, -1
	var covered batchRows
	for t := range s.Batches {
		b, err := st.Batch(t)
		if err != nil {
			if !strings.HasPrefix(err.Error(), ref+":") {
				err = fmt.Errorf("batch %d: %w", t, err) // a located error names its t already
			}
			return "", nil, err
		}
		covered.add(b)
		n := b.X.Len()
		if lo < 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	points := fmt.Sprint(lo)
	if hi != lo {
		points = fmt.Sprintf("%d-%d", lo, hi)
	}
	summary = fmt.Sprintf("%d batches, %d features, %s points/batch, %s, R %s",
		s.Batches, s.Features, points, describeModel(s), s.RetrainCostText)
	if n := len(s.Tour); n > 0 {
		summary += fmt.Sprintf(", a tour of %d stops", n)
	}
	switch n := len(s.WhatIfQueries); {
	case n == 1:
		summary += ", 1 what-if query stream"
	case n > 1:
		summary += fmt.Sprintf(", %d what-if query streams", n)
	}
	if ext := s.Extensions(); len(ext) > 0 {
		summary += "; beyond the paper: " + strings.Join(ext, "; ")
	}
	for _, n := range s.Notes {
		more = append(more, "note: "+n)
	}
	if rows || s.Outside != nil {
		more = append(more, covered.String())
	}
	return summary, more, nil
}

// batchRows is what a predictions file of a scenario covers: each batch's rows (and queries).
type batchRows struct {
	rows, queries []int
	dataQueries   bool // every batch's queries are rows of its data
	labelled      bool // some batch's queries have labels
}

func (c *batchRows) add(b *sim.Batch) {
	if len(c.rows) == 0 {
		c.dataQueries = true
	}
	c.rows, c.queries = append(c.rows, b.X.Len()), append(c.queries, b.Q.Len())
	c.dataQueries = c.dataQueries && b.QRows != nil
	c.labelled = c.labelled || b.QY != nil && b.Q.Len() > 0
}

// String says, for a predictions file, the rows it covers, batch by batch (batches of the same
// size together), and what it needs at the queries.
func (c *batchRows) String() string {
	total := 0
	for t, n := range c.rows {
		total += (t + 1) * n // models 0..t answer for batch t
	}
	queries := "the queries are rows of the data: their answers are the data rows' (no set=query rows)"
	switch {
	case !c.labelled:
		queries = "the queries have no labels: no set=query rows (query accuracy is not available)"
	case !c.dataQueries:
		queries = fmt.Sprintf("the queries are not rows of the data: rows with set=query give every model's class at every query of every later batch (%s), or query accuracy is not available",
			runs(c.queries, "queries"))
	}
	return fmt.Sprintf("a predictions file has, for each model t' and batch t >= t', a prediction at rows 0..n-1 of batch t (%d predictions): %s; %s",
		total, runs(c.rows, "rows"), queries)
}

// runs writes counts by batch, batches of one count together: "batches 0-4: 200 rows, 5: 150 rows".
func runs(counts []int, what string) string {
	var parts []string
	for i := 0; i < len(counts); {
		j := i
		for j+1 < len(counts) && counts[j+1] == counts[i] {
			j++
		}
		span := strconv.Itoa(i)
		if j > i {
			span += "-" + strconv.Itoa(j)
		}
		parts = append(parts, fmt.Sprintf("%s: %d %s", span, counts[i], what))
		i = j + 1
	}
	return "batches " + strings.Join(parts, ", ")
}

// located returns err's message starting with the file it is about: loader errors already read
// "file:line:col: ...", others get "file: " before them.
func located(ref string, err error) string {
	msg := err.Error()
	if !strings.HasPrefix(msg, ref+":") {
		msg = ref + ": " + msg
	}
	return msg
}

// describeModel names a model and its main setting in words.
func describeModel(s *scenarios.Scenario) string {
	if s.Outside != nil {
		return "a model from outside"
	}
	switch m := s.Model.(type) {
	case sim.RandomForest:
		return fmt.Sprintf("random forest (%d trees)", m.Trees)
	case sim.KNN:
		return fmt.Sprintf("kNN (k %d)", m.K)
	case sim.Logistic:
		return "logistic regression"
	case sim.NearestCentroid:
		return "nearest centroid"
	}
	return s.Model.Name()
}
