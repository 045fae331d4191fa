package scenarios

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

// scalar is a YAML scalar that remembers where it was written, so a semantic error found after
// decoding can still name file:line:column.
type scalar struct {
	set    bool
	text   string // the value as written (quotes removed)
	quoted bool
	line   int
	col    int
}

// UnmarshalYAML implements yaml.NodeUnmarshaler.
func (s *scalar) UnmarshalYAML(n ast.Node) error {
	tk := n.GetToken()
	if lit, ok := n.(*ast.LiteralNode); ok { // a block scalar (| or >): its text is its value node's
		*s = scalar{set: true, text: lit.Value.Value, quoted: true, line: tk.Position.Line, col: tk.Position.Column}
		return nil
	}
	switch n.Type() {
	case ast.IntegerType, ast.FloatType, ast.StringType, ast.BoolType, ast.InfinityType, ast.NanType:
	case ast.NullType:
		return nil
	default:
		return &posError{line: tk.Position.Line, col: tk.Position.Column, msg: fmt.Sprintf("expected a single value, got %s", nodeKind(n))}
	}
	*s = scalar{set: true, text: tk.Value, quoted: tk.Type == token.DoubleQuoteType || tk.Type == token.SingleQuoteType,
		line: tk.Position.Line, col: tk.Position.Column}
	return nil
}

func nodeKind(n ast.Node) string {
	switch n.Type() {
	case ast.MappingType, ast.MappingValueType:
		return "a mapping"
	case ast.SequenceType:
		return "a list"
	}
	return strings.ToLower(n.Type().String())
}

// scalars is a single scalar or a list of them (a per-feature parameter).
type scalars struct {
	set   bool
	items []scalar
	line  int
	col   int
}

// UnmarshalYAML implements yaml.NodeUnmarshaler.
func (v *scalars) UnmarshalYAML(n ast.Node) error {
	tk := n.GetToken()
	v.set, v.line, v.col = true, tk.Position.Line, tk.Position.Column
	if seq, ok := n.(*ast.SequenceNode); ok {
		for _, item := range seq.Values {
			var s scalar
			if err := s.UnmarshalYAML(item); err != nil {
				return err
			}
			v.items = append(v.items, s)
		}
		return nil
	}
	if n.Type() == ast.MappingType || n.Type() == ast.MappingValueType {
		return &posError{line: tk.Position.Line, col: tk.Position.Column, msg: "expected a value or a list of values, got a mapping"}
	}
	var s scalar
	if err := s.UnmarshalYAML(n); err != nil {
		return err
	}
	v.items = []scalar{s}
	return nil
}

// int reads a whole number within [lo, hi].
func (s scalar) int(field string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(s.text)
	if err != nil || s.quoted {
		return 0, s.errorf(field, "must be a whole number, got %q", s.text)
	}
	if n < lo || n > hi {
		if hi == maxInt {
			return 0, s.errorf(field, "must be >= %d, got %d", lo, n)
		}
		return 0, s.errorf(field, "must be in %d..%d, got %d", lo, hi, n)
	}
	return n, nil
}

const maxInt = int(^uint(0) >> 1)

// float reads a number within [lo, hi].
func (s scalar) float(field string, lo, hi float64) (float64, error) {
	f, err := strconv.ParseFloat(s.text, 64)
	if err != nil || s.quoted {
		return 0, s.errorf(field, "must be a number, got %q", s.text)
	}
	if !(f >= lo && f <= hi) {
		return 0, s.errorf(field, "must be in [%g, %g], got %g", lo, hi, f)
	}
	return f, nil
}

// The file format. Every leaf is a scalar (or a list of them) that remembers its place.
type rawScenario struct {
	Name        scalar      `yaml:"name"`
	Title       scalar      `yaml:"title"`
	About       scalar      `yaml:"about"`
	Seed        scalar      `yaml:"seed"`
	Batches     scalar      `yaml:"batches"`
	Offline     scalar      `yaml:"offline"`
	Data        *rawData    `yaml:"data"`
	Queries     *rawQueries `yaml:"queries"`
	Model       *rawModel   `yaml:"model"`
	Kernel      *rawKernel  `yaml:"kernel"`
	RetrainCost scalar      `yaml:"retrain_cost"`
	Algorithms  scalars     `yaml:"algorithms"`
}

type rawGaussian struct {
	Mean scalars `yaml:"mean"`
	Std  scalars `yaml:"std"`
}

type rawUniform struct {
	Low  scalars `yaml:"low"`
	High scalars `yaml:"high"`
}

type rawComponent struct {
	Weight   scalar       `yaml:"weight"`
	Gaussian *rawGaussian `yaml:"gaussian"`
	Uniform  *rawUniform  `yaml:"uniform"`
}

type rawData struct {
	Size        scalar         `yaml:"size"`
	Features    scalar         `yaml:"features"`
	Gaussian    *rawGaussian   `yaml:"gaussian"`
	Uniform     *rawUniform    `yaml:"uniform"`
	Mixture     []rawComponent `yaml:"mixture"`
	Label       scalar         `yaml:"label"`
	Concepts    []rawConcept   `yaml:"concepts"`
	Noise       scalar         `yaml:"noise"`
	Resample    scalar         `yaml:"resample"`
	CSV         scalar         `yaml:"csv"`
	BatchColumn scalar         `yaml:"batch_column"`
}

type rawConcept struct {
	At         scalar         `yaml:"at"`
	Label      scalar         `yaml:"label"`
	Transition *rawTransition `yaml:"transition"`
}

type rawTransition struct {
	Width scalar `yaml:"width"`
	Shape scalar `yaml:"shape"`
}

type rawQueries struct {
	Size        scalar         `yaml:"size"`
	Fraction    scalar         `yaml:"fraction"`
	From        scalar         `yaml:"from"`
	Gaussian    *rawGaussian   `yaml:"gaussian"`
	Uniform     *rawUniform    `yaml:"uniform"`
	Mixture     []rawComponent `yaml:"mixture"`
	CSV         scalar         `yaml:"csv"`
	Label       scalar         `yaml:"label"`
	BatchColumn scalar         `yaml:"batch_column"`
}

type rawModel struct {
	RandomForest *struct {
		Trees       scalar `yaml:"trees"`
		MaxDepth    scalar `yaml:"max_depth"`
		MinLeaf     scalar `yaml:"min_leaf"`
		MaxFeatures scalar `yaml:"max_features"`
	} `yaml:"random_forest"`
	Logistic *struct {
		Alpha   scalar `yaml:"alpha"`
		MaxIter scalar `yaml:"max_iter"`
		Tol     scalar `yaml:"tol"`
	} `yaml:"logistic"`
	KNN *struct {
		K scalar `yaml:"k"`
	} `yaml:"knn"`
	NearestCentroid *struct{} `yaml:"nearest_centroid"`
}

type rawKernel struct {
	Gamma scalar `yaml:"gamma"`
}

// loader turns one file's bytes into a Scenario, keeping its syntax tree to place errors.
type loader struct {
	file string     // as shown in errors
	sets []override // --set overrides merged into tree
	dir  string     // folder for relative CSV paths; "" for an embedded scenario
	tree *ast.File
	opt  Options
}

// Parse reads a scenario from src. name is the file's name for errors; dir is the folder that
// relative CSV paths start from ("" for an embedded scenario).
func Parse(name string, src []byte, dir string, opt Options) (*Scenario, error) {
	l := &loader{file: name, dir: dir, opt: opt}
	for _, s := range opt.Set {
		o, err := parseOverride(s)
		if err != nil {
			return nil, err
		}
		l.sets = append(l.sets, o)
	}
	tree, err := parser.ParseBytes(src, 0)
	if err != nil {
		return nil, l.wrap(err)
	}
	l.tree = tree
	var raw rawScenario
	if len(l.sets) == 0 {
		dec := yaml.NewDecoder(bytes.NewReader(src), yaml.Strict(), yaml.DisallowUnknownField())
		err = dec.Decode(&raw)
	} else if err = applySets(tree, l.sets); err == nil {
		err = yaml.NodeToValue(tree.Docs[0].Body, &raw, yaml.Strict(), yaml.DisallowUnknownField())
	}
	if err != nil {
		return nil, l.wrap(err)
	}
	s, err := l.build(&raw)
	if err != nil {
		return nil, l.wrap(err)
	}
	return s, nil
}

func (l *loader) build(raw *rawScenario) (*Scenario, error) {
	s := &Scenario{Algorithms: algos.Names}
	if !raw.Name.set || raw.Name.text == "" {
		return nil, l.required("$.name", "name")
	}
	s.Name = raw.Name.text
	s.Title, s.About = raw.Title.text, strings.TrimSpace(raw.About.text)
	if s.Title == "" {
		s.Title = s.Name
	}
	if raw.Seed.set {
		n, err := raw.Seed.int("seed", 0, maxInt)
		if err != nil {
			return nil, err
		}
		s.Seed = uint64(n)
	}
	if raw.Data == nil {
		return nil, l.required("$.data", "data")
	}
	if raw.Queries == nil {
		return nil, l.required("$.queries", "queries")
	}
	if raw.Model == nil {
		return nil, l.required("$.model", "model")
	}
	if !raw.RetrainCost.set {
		return nil, l.required("$.retrain_cost", "retrain_cost")
	}
	var err error
	if s.Model, err = l.model(raw.Model); err != nil {
		return nil, err
	}
	if s.Gamma, err = l.kernel(raw.Kernel); err != nil {
		return nil, err
	}
	if raw.Algorithms.set {
		s.Algorithms = nil
		for _, a := range raw.Algorithms.items {
			if err := algos.Validate([]string{a.text}); err != nil {
				return nil, a.errorf("algorithms", "%v", err)
			}
			s.Algorithms = append(s.Algorithms, a.text)
		}
	}
	// The data decide the number of batches for a CSV with a batch column, so build them first.
	if raw.Data.CSV.set {
		err = l.csvData(s, raw)
	} else {
		err = l.generatedData(s, raw)
	}
	if err != nil {
		return nil, err
	}
	if !raw.Offline.set {
		return nil, l.required("$.offline", "offline")
	}
	if s.Offline, err = raw.Offline.int("offline", 1, s.Batches-1); err != nil {
		return nil, raw.Offline.errorf("offline", "must be in 1..%d (fewer than the %d batches, leaving an online block), got %s", s.Batches-1, s.Batches, raw.Offline.text)
	}
	if err := l.retrainCost(s, raw.RetrainCost); err != nil {
		return nil, err
	}
	return s, nil
}

func (l *loader) batches(raw *rawScenario) (int, error) {
	if !raw.Batches.set {
		return 0, l.required("$.batches", "batches")
	}
	return raw.Batches.int("batches", 2, 1_000_000)
}

func (l *loader) retrainCost(s *Scenario, r scalar) error {
	s.RetrainCostText = r.text
	if f, err := strconv.ParseFloat(r.text, 64); err == nil && !r.quoted {
		if !(f >= 0) || math.IsInf(f, 0) {
			return r.errorf("retrain_cost", "must be a number >= 0 or an expression of t, got %s", r.text)
		}
		s.RetrainCost = algos.Constant(f)
		return nil
	}
	p, err := compileExpr(r, "retrain_cost", 0, false, false)
	if err != nil {
		return err
	}
	// Evaluated once for every batch at load: a cost that is negative or undefined at some t is
	// an error now, not in the middle of a run.
	ev := newEvaluator(0)
	costs := make([]float64, s.Batches)
	for t := range costs {
		v, err := ev.num(p, "retrain_cost", t, nil)
		if err != nil {
			return err
		}
		if v < 0 {
			return r.errorf("retrain_cost", "expression %q is %g at t=%d; a retraining cost must be >= 0", r.text, v, t)
		}
		costs[t] = v
	}
	s.RetrainCost = func(t int) float64 { return costs[min(max(t, 0), len(costs)-1)] }
	return nil
}

func (l *loader) model(m *rawModel) (sim.Trainer, error) {
	n := 0
	for _, set := range []bool{m.RandomForest != nil, m.Logistic != nil, m.KNN != nil, m.NearestCentroid != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return nil, l.at("$.model").errorf("model", "give exactly one of random_forest, logistic, knn, nearest_centroid (found %d)", n)
	}
	optInt := func(s scalar, field string, lo int) (int, error) {
		if !s.set {
			return 0, nil
		}
		return s.int(field, lo, maxInt)
	}
	optFloat := func(s scalar, field string) (float64, error) {
		if !s.set {
			return 0, nil
		}
		return s.float(field, math.SmallestNonzeroFloat64, math.MaxFloat64)
	}
	var err error
	switch {
	case m.RandomForest != nil:
		rf, f := sim.RandomForest{}, m.RandomForest
		if rf.Trees, err = optInt(f.Trees, "model.random_forest.trees", 1); err != nil {
			return nil, err
		}
		if rf.MaxDepth, err = optInt(f.MaxDepth, "model.random_forest.max_depth", 0); err != nil {
			return nil, err
		}
		if rf.MinLeaf, err = optInt(f.MinLeaf, "model.random_forest.min_leaf", 1); err != nil {
			return nil, err
		}
		rf.MaxFeatures = f.MaxFeatures.text
		rf = rf.WithDefaults()
		if err := rf.Validate(); err != nil {
			return nil, f.MaxFeatures.errorf("model.random_forest.max_features", "%v", err)
		}
		return rf, nil
	case m.Logistic != nil:
		lr, f := sim.Logistic{}, m.Logistic
		if lr.Alpha, err = optFloat(f.Alpha, "model.logistic.alpha"); err != nil {
			return nil, err
		}
		if lr.MaxIter, err = optInt(f.MaxIter, "model.logistic.max_iter", 1); err != nil {
			return nil, err
		}
		if f.Tol.set {
			if lr.Tol, err = f.Tol.float("model.logistic.tol", 0, math.MaxFloat64); err != nil {
				return nil, err
			}
		}
		return lr.WithDefaults(), nil
	case m.KNN != nil:
		k, err := optInt(m.KNN.K, "model.knn.k", 1)
		if err != nil {
			return nil, err
		}
		return sim.KNN{K: k}.WithDefaults(), nil
	}
	return sim.NearestCentroid{}, nil
}

func (l *loader) kernel(k *rawKernel) (sim.GammaSpec, error) {
	if k == nil || !k.Gamma.set {
		return sim.GammaSpec{Mode: sim.GammaScale}, nil
	}
	switch k.Gamma.text {
	case "scale":
		return sim.GammaSpec{Mode: sim.GammaScale}, nil
	case "auto":
		return sim.GammaSpec{Mode: sim.GammaAuto}, nil
	}
	v, err := strconv.ParseFloat(k.Gamma.text, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return sim.GammaSpec{}, k.Gamma.errorf("kernel.gamma", "must be scale, auto or a number > 0, got %q", k.Gamma.text)
	}
	return sim.GammaSpec{Mode: sim.GammaValue, Value: v}, nil
}

// generator compiles a point generator: exactly one of gaussian, uniform, mixture.
func (l *loader) generator(path, field string, g *rawGaussian, u *rawUniform, mix []rawComponent, d int) (pointGen, error) {
	n := 0
	for _, set := range []bool{g != nil, u != nil, mix != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return pointGen{}, l.at(path).errorf(field, "give exactly one point generator: gaussian {mean, std}, uniform {low, high} or mixture (found %d)", n)
	}
	if mix == nil {
		mix = []rawComponent{{Gaussian: g, Uniform: u}}
	}
	pg := pointGen{field: field}
	for i, c := range mix {
		cf := field
		if len(mix) > 1 || g == nil && u == nil {
			cf = fmt.Sprintf("%s.mixture[%d]", field, i)
		}
		comp := component{gaussian: c.Gaussian != nil}
		var a, b scalars
		var an, bn string
		switch {
		case c.Gaussian != nil && c.Uniform == nil:
			a, b, an, bn = c.Gaussian.Mean, c.Gaussian.Std, "gaussian.mean", "gaussian.std"
		case c.Uniform != nil && c.Gaussian == nil:
			a, b, an, bn = c.Uniform.Low, c.Uniform.High, "uniform.low", "uniform.high"
		default:
			return pointGen{}, l.at(fmt.Sprintf("%s.mixture[%d]", path, i)).errorf(cf, "each mixture component is exactly one of gaussian or uniform")
		}
		var err error
		if comp.a, err = l.params(a, cf+"."+an, d); err != nil {
			return pointGen{}, err
		}
		if comp.b, err = l.params(b, cf+"."+bn, d); err != nil {
			return pointGen{}, err
		}
		if len(mix) > 1 {
			if !c.Weight.set {
				c.Weight = scalar{set: true, text: "1", line: a.line, col: a.col}
			}
			if comp.weight, err = compileExpr(c.Weight, cf+".weight", d, false, false); err != nil {
				return pointGen{}, err
			}
		}
		pg.comps = append(pg.comps, comp)
	}
	return pg, nil
}

// params compiles a per-feature parameter: one value for every feature, or a list of d values.
func (l *loader) params(v scalars, field string, d int) ([]*program, error) {
	if !v.set || len(v.items) == 0 {
		return nil, (&scalar{line: v.line, col: v.col}).errorf(field, "is required")
	}
	if len(v.items) != 1 && len(v.items) != d {
		return nil, (&scalar{line: v.line, col: v.col}).errorf(field, "has %d values; give 1 (for every feature) or %d (one per feature)", len(v.items), d)
	}
	out := make([]*program, d)
	for k := range d {
		item := v.items[min(k, len(v.items)-1)]
		p, err := compileExpr(item, field, d, false, false)
		if err != nil {
			return nil, err
		}
		out[k] = p
	}
	return out, nil
}

func (l *loader) generatedData(s *Scenario, raw *rawScenario) error {
	rd := raw.Data
	var err error
	if s.Batches, err = l.batches(raw); err != nil {
		return err
	}
	if !rd.Size.set {
		return l.required("$.data.size", "data.size")
	}
	size, err := rd.Size.int("data.size", 1, 100_000_000)
	if err != nil {
		return err
	}
	if !rd.Features.set {
		return l.required("$.data.features", "data.features")
	}
	d, err := rd.Features.int("data.features", 1, 10_000)
	if err != nil {
		return err
	}
	s.Features = d
	points, err := l.generator("$.data", "data", rd.Gaussian, rd.Uniform, rd.Mixture, d)
	if err != nil {
		return err
	}
	var concepts []concept
	switch {
	case rd.Label.set == (rd.Concepts != nil):
		return l.at("$.data").errorf("data", "give exactly one of label (an expression true for class 1) or concepts (a timeline)")
	case rd.Label.set:
		p, err := compileExpr(rd.Label, "data.label", d, true, true)
		if err != nil {
			return err
		}
		concepts = []concept{{label: p}}
	default:
		for i, c := range rd.Concepts {
			field := fmt.Sprintf("data.concepts[%d]", i)
			if !c.At.set || !c.Label.set {
				return l.at(fmt.Sprintf("$.data.concepts[%d]", i)).errorf(field, "each concept needs at (a batch) and label (an expression)")
			}
			at, err := c.At.int(field+".at", 0, s.Batches-1)
			if err != nil {
				return err
			}
			if i == 0 && at != 0 {
				return c.At.errorf(field+".at", "the first concept must start at 0, got %d", at)
			}
			if i > 0 && at <= concepts[i-1].at {
				return c.At.errorf(field+".at", "concepts must start at increasing batches: %d after %d", at, concepts[i-1].at)
			}
			p, err := compileExpr(c.Label, field+".label", d, true, true)
			if err != nil {
				return err
			}
			cc := concept{at: at, label: p}
			if tr := c.Transition; tr != nil {
				if tr.Width.set {
					if cc.width, err = tr.Width.float(field+".transition.width", 0, float64(s.Batches)); err != nil {
						return err
					}
				}
				switch tr.Shape.text {
				case "", "sigmoid":
					cc.sigmoid = true
				case "linear":
				default:
					return tr.Shape.errorf(field+".transition.shape", "must be sigmoid or linear, got %q", tr.Shape.text)
				}
			}
			concepts = append(concepts, cc)
		}
		if len(concepts) == 0 {
			return l.at("$.data.concepts").errorf("data.concepts", "needs at least one concept")
		}
	}
	noise := 0.0
	if rd.Noise.set {
		if noise, err = rd.Noise.float("data.noise", 0, 1); err != nil {
			return err
		}
	}
	resample := true
	if rd.Resample.set {
		if resample, err = strconv.ParseBool(rd.Resample.text); err != nil || rd.Resample.quoted {
			return rd.Resample.errorf("data.resample", "must be true or false, got %q", rd.Resample.text)
		}
	}
	if rd.CSV.set || rd.BatchColumn.set {
		return l.at("$.data.batch_column").errorf("data.batch_column", "goes with data.csv")
	}
	T := s.Batches
	newData := func(seed uint64) *genData {
		g := &genData{seed: seed, T: T, n: size, d: d, points: points, concepts: concepts, noise: noise, resample: resample}
		g.evaluator.New = func() any { return newEvaluator(d) }
		return g
	}
	newQueries, err := l.queries(raw.Queries, d, T, nil)
	if err != nil {
		return err
	}
	s.newStream = func(seed uint64) (sim.Stream, error) {
		data := newData(seed)
		q, err := newQueries(seed, data)
		if err != nil {
			return nil, err
		}
		return &stream{data: data, queries: q, src: l.source()}, nil
	}
	return nil
}

func (l *loader) csvData(s *Scenario, raw *rawScenario) error {
	rd := raw.Data
	if rd.Gaussian != nil || rd.Uniform != nil || rd.Mixture != nil || rd.Concepts != nil || rd.Size.set || rd.Features.set || rd.Noise.set || rd.Resample.set {
		return l.at("$.data").errorf("data", "a csv stream takes only csv, label and batch_column")
	}
	if !rd.Label.set {
		return l.required("$.data.label", "data.label")
	}
	path, dir := rd.CSV.text, l.dir
	if l.opt.Data != "" {
		path, dir = l.opt.Data, "."
	}
	tab, resolved, err := csvTable(dir, path, TableOptions{Label: rd.Label.text, BatchColumn: rd.BatchColumn.text})
	if err != nil {
		return rd.CSV.errorf("data.csv", "%v", err)
	}
	s.Features = tab.X.D
	T := 0
	if tab.Batch == nil {
		if T, err = l.batches(raw); err != nil {
			return err
		}
	}
	data, err := csvData(tab, T)
	if err != nil {
		return rd.CSV.errorf("data.csv", "%v", err)
	}
	if tab.Batch != nil {
		if raw.Batches.set {
			if n, err := raw.Batches.int("batches", 2, maxInt); err != nil || n != data.Len() {
				return raw.Batches.errorf("batches", "is %s but %s has %d batches in column %q", raw.Batches.text, resolved, data.Len(), rd.BatchColumn.text)
			}
		}
		if data.Len() < 2 {
			return rd.BatchColumn.errorf("data.batch_column", "%s has %d batch(es); at least 2 are needed", resolved, data.Len())
		}
	}
	s.Batches = data.Len()
	newQueries, err := l.queries(raw.Queries, tab.X.D, s.Batches, tab)
	if err != nil {
		return err
	}
	s.newStream = func(seed uint64) (sim.Stream, error) {
		q, err := newQueries(seed, data)
		if err != nil {
			return nil, err
		}
		return &stream{data: data, queries: q, src: l.source()}, nil
	}
	return nil
}

// queries compiles the queries section into a constructor of the query source for a seed.
func (l *loader) queries(rq *rawQueries, d, T int, like *Table) (func(uint64, dataSource) (querySource, error), error) {
	generated := rq.Gaussian != nil || rq.Uniform != nil || rq.Mixture != nil
	switch {
	case rq.CSV.set && (rq.From.set || rq.Size.set || rq.Fraction.set || generated):
		return nil, l.at("$.queries").errorf("queries", "a csv query stream takes only csv, label and batch_column")
	case !rq.CSV.set && (rq.Label.set || rq.BatchColumn.set):
		return nil, l.at("$.queries").errorf("queries", "label and batch_column go with queries.csv (queries from data take the data's labels, generated ones the concept's)")
	case rq.From.set && generated:
		return nil, l.at("$.queries").errorf("queries", "give either from: data or a point generator, not both")
	case !rq.From.set && rq.Fraction.set && !rq.CSV.set:
		return nil, rq.Fraction.errorf("queries.fraction", "goes with from: data")
	}
	switch {
	case rq.CSV.set || l.opt.Queries != "":
		path, dir := rq.CSV.text, l.dir
		if l.opt.Queries != "" {
			path, dir = l.opt.Queries, "."
		}
		place := rq.CSV
		if !place.set { // --queries replaces a generated or sampled query stream
			place = l.at("$.queries")
		}
		tab, resolved, err := csvTable(dir, path, TableOptions{Label: rq.Label.text, BatchColumn: rq.BatchColumn.text, Like: like})
		if err != nil {
			return nil, place.errorf("queries.csv", "%v", err)
		}
		if tab.X.D != d {
			return nil, place.errorf("queries.csv", "%s has %d features, the data %d", resolved, tab.X.D, d)
		}
		q, err := csvQueries(tab, T)
		if err != nil {
			return nil, place.errorf("queries.csv", "%v", err)
		}
		return func(uint64, dataSource) (querySource, error) { return q, nil }, nil
	case rq.From.set:
		if rq.From.text != "data" {
			return nil, rq.From.errorf("queries.from", "must be data (or give a point generator or csv), got %q", rq.From.text)
		}
		fd := fromData{}
		var err error
		switch {
		case rq.Size.set == rq.Fraction.set:
			return nil, l.at("$.queries").errorf("queries", "with from: data give exactly one of size or fraction")
		case rq.Size.set:
			if fd.size, err = rq.Size.int("queries.size", 1, maxInt); err != nil {
				return nil, err
			}
		default:
			if fd.fraction, err = rq.Fraction.float("queries.fraction", math.SmallestNonzeroFloat64, 1); err != nil {
				return nil, err
			}
		}
		return func(seed uint64, _ dataSource) (querySource, error) { fd.seed = seed; return fd, nil }, nil
	}
	if !rq.Size.set {
		return nil, l.required("$.queries.size", "queries.size")
	}
	n, err := rq.Size.int("queries.size", 1, maxInt)
	if err != nil {
		return nil, err
	}
	points, err := l.generator("$.queries", "queries", rq.Gaussian, rq.Uniform, rq.Mixture, d)
	if err != nil {
		return nil, err
	}
	pool := &sync.Pool{New: func() any { return newEvaluator(d) }}
	return func(seed uint64, data dataSource) (querySource, error) {
		return &genQueries{seed: seed, n: n, d: d, points: points, data: data, pool: pool}, nil
	}, nil
}

// readFile is os.ReadFile with a message that says what was expected.
func readFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading scenario %s: %w", path, err)
	}
	return b, nil
}
