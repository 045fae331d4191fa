package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	cmd := &cobra.Command{
		Use:   "validate FILE|DIR|SCENARIO...",
		Short: "Check scenario files without computing: each loads strictly and every batch generates",
		Long: `validate loads each scenario exactly as every other command does (strictly: an unknown key,
a wrong type, an out-of-range value or a bad expression is an error at file:line:column), then
generates every batch of its default seed, so an expression undefined at some t is found too.
Nothing is computed. A folder stands for the *.yaml files in it.

It prints "FILE: ok (...)" for each good file and the located error for each bad one, and exits
with 1 if any failed: usable in a pre-commit hook or in CI for a course's scenario folder.`,
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
				summary, err := validate(sourceOf(cmd), f, sets)
				if f == "-" {
					f = "stdin" // as the loader names it in its messages
				}
				if err != nil {
					failed++
					fmt.Fprintln(cmd.ErrOrStderr(), located(f, err))
					continue
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: ok (%s)\n", f, summary)
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
// such as "100 batches, 2 features, 1000 points/batch, random forest (100 trees), R 20".
func validate(src scenarioSource, ref string, sets []string) (string, error) {
	s, err := src.open(ref, scenarios.Options{Set: sets})
	if err != nil {
		return "", err
	}
	st, err := s.Stream(s.Seed)
	if err != nil {
		return "", err
	}
	lo, hi := -1, -1
	for t := range s.Batches {
		b, err := st.Batch(t)
		if err != nil {
			if !strings.HasPrefix(err.Error(), ref+":") {
				err = fmt.Errorf("batch %d: %w", t, err) // a located error names its t already
			}
			return "", err
		}
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
	summary := fmt.Sprintf("%d batches, %d features, %s points/batch, %s, R %s",
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
	return summary, nil
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
		return "model from outside: " + s.Outside.Name()
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
