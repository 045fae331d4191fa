package scenarios

// The sections of a scenario file that are not data, queries, tour or what-if alternatives, each
// read by one function that build calls in turn.

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios/internal/expr"
	"github.com/cara-sim/cara/scenarios/internal/format"
	"github.com/cara-sim/cara/sim"
)

// header reads name, title, about and seed.
func (l *loader) header(s *Scenario, raw *format.File) error {
	if !raw.Name.Set || raw.Name.Text == "" {
		return l.doc.Required("$.name", "name")
	}
	if why := NameProblem(raw.Name.Text); why != "" {
		return raw.Name.Errorf("name", "%q is not a usable scenario name: %s (it names files and shows in pickers)", shortText(raw.Name.Text, 40), why)
	}
	s.Name = raw.Name.Text
	s.Title, s.About = l.notes.Clean("title", raw.Title.Text, false), l.notes.Clean("about", strings.TrimSpace(raw.About.Text), true)
	if s.Title == "" {
		s.Title = s.Name
	}
	if raw.Seed.Set {
		n, err := raw.Seed.Int("seed", 0, format.MaxInt)
		if err != nil {
			return err
		}
		s.Seed = uint64(n)
	}
	return nil
}

// requireSections refuses a file without data, queries, model or retrain_cost.
func (l *loader) requireSections(_ *Scenario, raw *format.File) error {
	switch {
	case raw.Data == nil:
		return l.doc.Required("$.data", "data")
	case raw.Queries == nil:
		return l.doc.Required("$.queries", "queries")
	case raw.Model == nil:
		return l.doc.Required("$.model", "model")
	case !raw.RetrainCost.Set:
		return l.doc.Required("$.retrain_cost", "retrain_cost")
	}
	return nil
}

// modelAndKernel reads model and kernel.
func (l *loader) modelAndKernel(s *Scenario, raw *format.File) error {
	var err error
	if s.Model, err = l.model(raw.Model); err != nil {
		return err
	}
	if s.Window, err = raw.Model.Window.OptInt("model.window", 1); err != nil {
		return err
	}
	if raw.Kernel != nil {
		if s.Standardize, err = raw.Kernel.Standardize.OptBool("kernel.standardize"); err != nil {
			return err
		}
	}
	s.Gamma, err = kernel(raw.Kernel)
	return err
}

// checkWindow refuses a training window longer than the stream, once the batches are known.
func (l *loader) checkWindow(s *Scenario, raw *format.File) error {
	if s.Window > s.Batches {
		return raw.Model.Window.Errorf("model.window", "is %d but the scenario has %d batches; a model trains on at most all of them (model.window: %d)", s.Window, s.Batches, s.Batches)
	}
	return nil
}

// errorWeights reads errors.weights (beyond the paper), once the data's classes are known: each key a
// class as the data write it (a number equal to one of two numeric labels will do), each value a
// number >= 0. All weights 1 is the paper's matrix, and leaves Weights nil.
func (l *loader) errorWeights(s *Scenario, raw *format.File) error {
	if raw.Errors == nil || raw.Errors.Weights == nil {
		return nil
	}
	w := []float64{1, 1}
	keys := slices.Sorted(maps.Keys(raw.Errors.Weights)) // errors in a fixed order
	seen := [2]string{}
	for _, k := range keys {
		v := raw.Errors.Weights[k]
		c := classOf(k, s.Classes)
		if c < 0 {
			return v.Errorf("errors.weights", "%q is not a class of the data: its classes are %q (class 0) and %q (class 1)", k, s.Classes[0], s.Classes[1])
		}
		if seen[c] != "" {
			return v.Errorf("errors.weights", "%q and %q both name class %d (%q)", seen[c], k, c, s.Classes[c])
		}
		seen[c] = k
		f, err := strconv.ParseFloat(v.Text, 64)
		if err != nil || v.Quoted || !(f >= 0) || math.IsInf(f, 0) {
			return v.Errorf("errors.weights", "the weight of class %q must be a number >= 0, got %s", k, v.Text)
		}
		w[c] = f
	}
	if w[0] == 0 && w[1] == 0 {
		return l.doc.At("$.errors.weights").Errorf("errors.weights", "are all 0: no error would count, and every cell of C would be 0")
	}
	if w[0] != 1 || w[1] != 1 {
		s.Weights = w
	}
	return nil
}

// classOf is the class (0 or 1) that key names among classes, by its text or, for numeric labels,
// its value; -1 for none.
func classOf(key string, classes [2]string) int {
	for c, name := range classes {
		if key == name {
			return c
		}
	}
	kv, err := strconv.ParseFloat(key, 64)
	if err != nil {
		return -1
	}
	for c, name := range classes {
		if v, err := strconv.ParseFloat(name, 64); err == nil && v == kv {
			return c
		}
	}
	return -1
}

// detectors reads detectors.feed and detectors.reset.
func (l *loader) detectors(s *Scenario, raw *format.File) error {
	if raw.Detectors == nil {
		return nil
	}
	var err error
	if f := raw.Detectors.Feed; f.Set {
		if s.Evaluation.DetectorFeed, err = algos.ParseDetectorFeed(f.Text); err != nil {
			return f.Errorf("detectors.feed", "must be batch (the default: the whole batch, as the paper's Algorithm 1) or first-drift (stop at a batch's first drift), got %q", f.Text)
		}
	}
	if r := raw.Detectors.Reset; r.Set {
		if s.Evaluation.DetectorReset, err = algos.ParseDetectorReset(r.Text); err != nil {
			return r.Errorf("detectors.reset", "must be never (the default: scikit-multiflow's usage) or on_retrain, got %q", r.Text)
		}
	}
	return nil
}

// algorithms reads the list of algorithms (default: all) and tuning.tie.
func (l *loader) algorithms(s *Scenario, raw *format.File) error {
	if raw.Tuning != nil && raw.Tuning.Tie.Set {
		var err error
		if s.Evaluation.Tie, err = algos.ParseTie(raw.Tuning.Tie.Text); err != nil {
			return raw.Tuning.Tie.Errorf("tuning.tie", "must be mid (the default: the optimal interval's midpoint), low or high, got %q", raw.Tuning.Tie.Text)
		}
	}
	if !raw.Algorithms.Set {
		return nil
	}
	s.Algorithms = nil
	for _, a := range raw.Algorithms.Items {
		n, err := algos.ParseName(a.Text)
		if err != nil {
			return a.Errorf("algorithms", "%v", err)
		}
		if slices.Contains(s.Algorithms, n) { // each would be a row of its own, twice
			return a.Errorf("algorithms", "lists %s twice", a.Text)
		}
		s.Algorithms = append(s.Algorithms, n)
	}
	if len(s.Algorithms) == 0 {
		return raw.Algorithms.Place().Errorf("algorithms", "is empty; list at least one (leave the key out for all of them)")
	}
	return nil
}

// offline reads the offline block's length, once the number of batches is known.
func (l *loader) offline(s *Scenario, raw *format.File) error {
	if !raw.Offline.Set {
		return l.doc.Required("$.offline", "offline")
	}
	var err error
	if s.Offline, err = raw.Offline.Int("offline", 1, s.Batches-1); err != nil {
		return raw.Offline.Errorf("offline", "must be in 1..%d (fewer than the %d batches, leaving an online block), got %s", s.Batches-1, s.Batches, raw.Offline.Text)
	}
	return nil
}

// checkKNN refuses a k larger than the smallest batch: the model would vote with every point.
func (l *loader) checkKNN(s *Scenario) error {
	knn, ok := s.Model.(sim.KNN)
	if !ok || knn.K <= l.streams.Smallest {
		return nil
	}
	place := l.knnK
	if !place.Set {
		place = l.doc.At("$.model.knn")
	}
	return place.Errorf("model.knn.k", "is %d but batch %d has %d points; k must be at most the points of a batch", knn.K, l.streams.SmallestAt, l.streams.Smallest)
}

func (l *loader) retrainCost(s *Scenario, r format.Scalar) error {
	s.RetrainCostText = r.Text
	if f, err := strconv.ParseFloat(r.Text, 64); err == nil && !r.Quoted {
		if !(f >= 0) || math.IsInf(f, 0) {
			return r.Errorf("retrain_cost", "must be a number >= 0 or an expression of t, got %s", r.Text)
		}
		s.RetrainCost = algos.Constant(f)
		return nil
	}
	p, err := expr.Compile(r, "retrain_cost", 0, false, false)
	if err != nil {
		return err
	}
	// Evaluated once for every batch at load: a cost that is negative or undefined at some t is
	// an error now, not in the middle of a run.
	ev := expr.NewEvaluator(0)
	costs := make([]float64, s.Batches)
	for t := range costs {
		v, err := ev.Num(p, "retrain_cost", t, nil)
		if err != nil {
			return err
		}
		if v < 0 {
			return r.Errorf("retrain_cost", "expression %q is %g at t=%d; a retraining cost must be >= 0", r.Text, v, t)
		}
		costs[t] = v
	}
	s.RetrainCost = func(t int) float64 { return costs[min(max(t, 0), len(costs)-1)] }
	return nil
}

// model reads the model section: exactly one model, its unset fields at their defaults; nil for a
// model from outside (outside.go).
func (l *loader) model(m *format.Model) (sim.Trainer, error) {
	n := 0
	for _, set := range []bool{m.RandomForest != nil, m.Logistic != nil, m.KNN != nil, m.NearestCentroid != nil, m.Predictions.Set, m.Command.Set} {
		if set {
			n++
		}
	}
	if n != 1 {
		return nil, l.doc.At("$.model").Errorf("model", "give exactly one of random_forest, logistic, knn, nearest_centroid, predictions (a file of the model's answers) or command (a program that is the model) (found %d)", n)
	}
	if outside, err := l.outsideSection(m); outside || err != nil {
		return nil, err
	}
	switch {
	case m.RandomForest != nil:
		return forest(m.RandomForest)
	case m.Logistic != nil:
		return logistic(m.Logistic)
	case m.KNN != nil:
		l.knnK = m.KNN.K
		k, err := m.KNN.K.OptInt("model.knn.k", 1)
		return sim.KNN{K: k}.WithDefaults(), err
	}
	return sim.NearestCentroid{}, nil
}

func forest(f *format.Forest) (sim.Trainer, error) {
	var rf sim.RandomForest
	var err error
	if rf.Trees, err = f.Trees.OptInt("model.random_forest.trees", 1); err != nil {
		return nil, err
	}
	if rf.MaxDepth, err = f.MaxDepth.OptInt("model.random_forest.max_depth", 0); err != nil {
		return nil, err
	}
	if rf.MinLeaf, err = f.MinLeaf.OptInt("model.random_forest.min_leaf", 1); err != nil {
		return nil, err
	}
	rf.MaxFeatures = f.MaxFeatures.Text
	rf = rf.WithDefaults()
	if err := rf.Validate(); err != nil {
		return nil, f.MaxFeatures.Errorf("model.random_forest.max_features", "%v", err)
	}
	return rf, nil
}

func logistic(f *format.Logistic) (sim.Trainer, error) {
	var lr sim.Logistic
	var err error
	if f.Alpha.Set {
		if lr.Alpha, err = f.Alpha.Float("model.logistic.alpha", math.SmallestNonzeroFloat64, math.MaxFloat64); err != nil {
			return nil, err
		}
	}
	if lr.MaxIter, err = f.MaxIter.OptInt("model.logistic.max_iter", 1); err != nil {
		return nil, err
	}
	if f.Tol.Set {
		if lr.Tol, err = f.Tol.Float("model.logistic.tol", 0, math.MaxFloat64); err != nil {
			return nil, err
		}
	}
	if lr.Standardize, err = f.Standardize.OptBool("model.logistic.standardize"); err != nil {
		return nil, err
	}
	return lr.WithDefaults(), nil
}

func kernel(k *format.Kernel) (sim.GammaSpec, error) {
	if k == nil || !k.Gamma.Set {
		return sim.GammaSpec{Mode: sim.GammaScale}, nil
	}
	switch k.Gamma.Text {
	case "scale":
		return sim.GammaSpec{Mode: sim.GammaScale}, nil
	case "auto":
		return sim.GammaSpec{Mode: sim.GammaAuto}, nil
	}
	v, err := strconv.ParseFloat(k.Gamma.Text, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return sim.GammaSpec{}, k.Gamma.Errorf("kernel.gamma", "must be scale, auto or a number > 0, got %q", k.Gamma.Text)
	}
	return sim.GammaSpec{Mode: sim.GammaValue, Value: v}, nil
}
