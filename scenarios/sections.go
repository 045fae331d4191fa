package scenarios

// The sections of a scenario file that are not data or queries, each read by one function that
// build calls in turn.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cara-sim/cara/algos"
)

// header reads name, title, about and seed.
func (l *loader) header(s *Scenario, raw *rawScenario) error {
	if !raw.Name.set || raw.Name.text == "" {
		return l.required("$.name", "name")
	}
	if !ValidName(raw.Name.text) {
		return raw.Name.errorf("name", "%q is not a usable scenario name: %s (it names files and shows in pickers)", raw.Name.text, NameRule)
	}
	s.Name = raw.Name.text
	s.Title, s.About = l.clean("title", raw.Title.text, false), l.clean("about", strings.TrimSpace(raw.About.text), true)
	if s.Title == "" {
		s.Title = s.Name
	}
	if raw.Seed.set {
		n, err := raw.Seed.int("seed", 0, maxInt)
		if err != nil {
			return err
		}
		s.Seed = uint64(n)
	}
	return nil
}

// requireSections refuses a file without data, queries, model or retrain_cost.
func (l *loader) requireSections(_ *Scenario, raw *rawScenario) error {
	switch {
	case raw.Data == nil:
		return l.required("$.data", "data")
	case raw.Queries == nil:
		return l.required("$.queries", "queries")
	case raw.Model == nil:
		return l.required("$.model", "model")
	case !raw.RetrainCost.set:
		return l.required("$.retrain_cost", "retrain_cost")
	}
	return nil
}

// modelAndKernel reads model and kernel.
func (l *loader) modelAndKernel(s *Scenario, raw *rawScenario) error {
	var err error
	if s.Model, err = l.model(raw.Model); err != nil {
		return err
	}
	s.Gamma, err = l.kernel(raw.Kernel)
	return err
}

// detectors reads detectors.feed and detectors.reset.
func (l *loader) detectors(s *Scenario, raw *rawScenario) error {
	if raw.Detectors == nil {
		return nil
	}
	var err error
	if f := raw.Detectors.Feed; f.set {
		if s.Evaluation.DetectorFeed, err = algos.ParseDetectorFeed(f.text); err != nil {
			return f.errorf("detectors.feed", "must be batch (the default: the whole batch, as the paper's Algorithm 1) or first-drift (stop at a batch's first drift), got %q", f.text)
		}
	}
	if r := raw.Detectors.Reset; r.set {
		if s.Evaluation.DetectorReset, err = algos.ParseDetectorReset(r.text); err != nil {
			return r.errorf("detectors.reset", "must be never (the default: scikit-multiflow's usage) or on_retrain, got %q", r.text)
		}
	}
	return nil
}

// algorithms reads the list of algorithms (default: all).
func (l *loader) algorithms(s *Scenario, raw *rawScenario) error {
	if !raw.Algorithms.set {
		return nil
	}
	s.Algorithms = nil
	for _, a := range raw.Algorithms.items {
		n, err := algos.ParseName(a.text)
		if err != nil {
			return a.errorf("algorithms", "%v", err)
		}
		if slices.Contains(s.Algorithms, n) { // each would be a row of its own, twice
			return a.errorf("algorithms", "lists %s twice", a.text)
		}
		s.Algorithms = append(s.Algorithms, n)
	}
	if len(s.Algorithms) == 0 {
		return (&scalar{line: raw.Algorithms.line, col: raw.Algorithms.col}).errorf("algorithms", "is empty; list at least one (leave the key out for all of them)")
	}
	return nil
}

// data reads the data section and, with it, the queries: generated or from a CSV file.
func (l *loader) data(s *Scenario, raw *rawScenario) error {
	if raw.Data.CSV.set {
		return l.csvData(s, raw)
	}
	if l.opt.Data != "" { // it would be ignored: there is no data.csv to replace
		return fmt.Errorf("--data %s: the scenario generates its data, so there is no data.csv to replace; --data goes with a scenario that reads a CSV", l.opt.Data)
	}
	return l.generatedData(s, raw)
}

// offline reads the offline block's length, once the number of batches is known.
func (l *loader) offline(s *Scenario, raw *rawScenario) error {
	if !raw.Offline.set {
		return l.required("$.offline", "offline")
	}
	var err error
	if s.Offline, err = raw.Offline.int("offline", 1, s.Batches-1); err != nil {
		return raw.Offline.errorf("offline", "must be in 1..%d (fewer than the %d batches, leaving an online block), got %s", s.Batches-1, s.Batches, raw.Offline.text)
	}
	return nil
}
