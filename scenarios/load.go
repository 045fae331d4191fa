package scenarios

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

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

// optInt reads a whole number >= lo, 0 when it is not set (the model's default then applies).
func (s scalar) optInt(field string, lo int) (int, error) {
	if !s.set {
		return 0, nil
	}
	return s.int(field, lo, maxInt)
}

// optBool reads true or false, false when it is not set.
func (s scalar) optBool(field string) (bool, error) {
	if !s.set {
		return false, nil
	}
	b, err := strconv.ParseBool(s.text)
	if err != nil || s.quoted {
		return false, s.errorf(field, "must be true or false, got %q", s.text)
	}
	return b, nil
}

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
	Name        scalar            `yaml:"name"`
	Title       scalar            `yaml:"title"`
	About       scalar            `yaml:"about"`
	Seed        scalar            `yaml:"seed"`
	Batches     scalar            `yaml:"batches"`
	Offline     scalar            `yaml:"offline"`
	Data        *rawData          `yaml:"data"`
	Queries     *rawQueries       `yaml:"queries"`
	Model       *rawModel         `yaml:"model"`
	Kernel      *rawKernel        `yaml:"kernel"`
	RetrainCost scalar            `yaml:"retrain_cost"`
	Algorithms  scalars           `yaml:"algorithms"`
	Detectors   *rawDetectors     `yaml:"detectors"`
	Tour        []rawStop         `yaml:"tour"`   // tour.go
	Whatif      *rawWhatifSection `yaml:"whatif"` // whatif.go
}

type rawDetectors struct {
	Feed  scalar `yaml:"feed"`
	Reset scalar `yaml:"reset"`
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

// rawGenerator is a point generator, written the same under data and queries: exactly one of
// gaussian, uniform or mixture.
type rawGenerator struct {
	Gaussian *rawGaussian   `yaml:"gaussian"`
	Uniform  *rawUniform    `yaml:"uniform"`
	Mixture  []rawComponent `yaml:"mixture"`
}

// set reports whether any generator is given.
func (g rawGenerator) set() bool { return g.Gaussian != nil || g.Uniform != nil || g.Mixture != nil }

type rawData struct {
	Size        scalar       `yaml:"size"`
	Features    scalar       `yaml:"features"`
	Points      rawGenerator `yaml:",inline"` // where the points are
	Label       scalar       `yaml:"label"`
	Concepts    []rawConcept `yaml:"concepts"`
	Noise       scalar       `yaml:"noise"`
	Resample    scalar       `yaml:"resample"`
	CSV         scalar       `yaml:"csv"`
	BatchColumn scalar       `yaml:"batch_column"`
	Shuffle     scalar       `yaml:"shuffle"`
	Ignore      scalars      `yaml:"ignore"`      // CSV columns that are not features
	Categorical scalars      `yaml:"categorical"` // CSV columns one-hot encoded whatever their values
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
	Size        scalar       `yaml:"size"`
	Fraction    scalar       `yaml:"fraction"`
	From        scalar       `yaml:"from"`
	Points      rawGenerator `yaml:",inline"` // where the points are
	CSV         scalar       `yaml:"csv"`
	Label       scalar       `yaml:"label"`
	BatchColumn scalar       `yaml:"batch_column"`
}

type rawModel struct {
	RandomForest    *rawForest   `yaml:"random_forest"`
	Logistic        *rawLogistic `yaml:"logistic"`
	KNN             *rawKNN      `yaml:"knn"`
	NearestCentroid *struct{}    `yaml:"nearest_centroid"`
}

type rawForest struct {
	Trees       scalar `yaml:"trees"`
	MaxDepth    scalar `yaml:"max_depth"`
	MinLeaf     scalar `yaml:"min_leaf"`
	MaxFeatures scalar `yaml:"max_features"`
}

type rawLogistic struct {
	Alpha       scalar `yaml:"alpha"`
	MaxIter     scalar `yaml:"max_iter"`
	Tol         scalar `yaml:"tol"`
	Standardize scalar `yaml:"standardize"`
}

type rawKNN struct {
	K scalar `yaml:"k"`
}

type rawKernel struct {
	Gamma scalar `yaml:"gamma"`
}

// loader turns one file's bytes into a Scenario, keeping its syntax tree to place errors.
type loader struct {
	file   string     // as shown in errors
	src    []byte     // the file's text, read again to check a tour's what-ifs
	sets   []override // --set overrides merged into tree
	dir    string     // folder for relative CSV paths; "" for an embedded scenario
	tree   *ast.File
	opt    Options
	noTour bool // reading the scenario under a tour stop's what-if: the tour itself is not read
	// noWhatif: reading the scenario under a what-if, its query alternatives are taken as they
	// are, not each loaded again (whatif.go)
	noWhatif bool
	knnK     scalar // model.knn.k, checked against the batch size once the data are known

	smallest, smallestAt int      // the fewest points in a batch, and that batch
	notes                []string // Scenario.Notes
	tables               []*Table // the CSV tables read, for contentHash
	read                 []string // the CSV files read, as found (identity)
}

// Parse reads a scenario from src. name is the file's name for errors; dir is the folder that
// relative CSV paths start from ("" for an embedded scenario).
func Parse(name string, src []byte, dir string, opt Options) (*Scenario, error) {
	if opt.spool == nil {
		opt.spool = &spool{}
	}
	l := &loader{file: name, src: src, dir: dir, opt: opt}
	for _, s := range opt.Set {
		o, err := parseOverride(s)
		if err != nil {
			return nil, err
		}
		l.sets = append(l.sets, o)
	}
	for _, f := range opt.Flags {
		l.sets = append(l.sets, override{path: f.Path, value: f.Value, flag: f.Name, under: f.Under})
	}
	s, err := l.parse()
	if err != nil && opt.Context != nil && opt.Context.Err() != nil {
		return nil, opt.Context.Err() // interrupted (a FIFO's read), not a mistake in the file
	}
	if err != nil {
		return nil, l.wrap(err)
	}
	s.origin = &origin{file: name, src: src, dir: dir, opt: opt, sets: l.sets}
	s.identity = l.identity()
	return s, nil
}

// parse reads l.src with l.sets merged in; its errors are not yet placed (wrap places them).
func (l *loader) parse() (*Scenario, error) {
	// A byte order mark, as some editors write, is not part of the text (a CSV's is dropped too).
	l.src = bytes.TrimPrefix(l.src, []byte("\ufeff"))
	if err := checkUTF8(l.src); err != nil {
		return nil, err
	}
	tree, err := parser.ParseBytes(l.src, 0)
	if err != nil {
		return nil, err
	}
	for _, doc := range tree.Docs[min(1, len(tree.Docs)):] {
		// The decoder reads the first document only: the rest would be dropped without a word.
		if doc.Body != nil {
			tk := doc.Body.GetToken()
			if doc.Start != nil {
				tk = doc.Start
			}
			return nil, &posError{line: tk.Position.Line, col: tk.Position.Column, msg: "a second YAML document starts here; a scenario file holds one (remove the --- and what follows, or split the file)"}
		}
	}
	l.tree = tree
	merged := expandMerges(tree)
	var raw rawScenario
	if len(l.sets) == 0 && !merged {
		dec := yaml.NewDecoder(bytes.NewReader(l.src), yaml.Strict(), yaml.DisallowUnknownField())
		err = dec.Decode(&raw)
	} else if err = applySets(tree, l.sets); err == nil {
		err = yaml.NodeToValue(tree.Docs[0].Body, &raw, yaml.Strict(), yaml.DisallowUnknownField())
	}
	if errors.Is(err, io.EOF) { // nothing but blanks and comments
		return nil, &posError{line: 1, col: 1, msg: "the file is empty; a scenario needs at least name, batches, offline, data, queries, model and retrain_cost (see cara list and the README's \"Scenario files\")"}
	}
	if err != nil {
		return nil, err
	}
	return l.build(&raw)
}

// checkUTF8 refuses a file that is not UTF-8 text, at the first byte that is not: its text would
// otherwise show as it came (invalid in a title, a callout).
func checkUTF8(src []byte) error {
	if utf8.Valid(src) {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size == 1 {
			return &posError{line: line, col: col, msg: fmt.Sprintf("the file is not UTF-8 text (byte 0x%02x); save it as UTF-8", src[i])}
		}
		if r == '\n' {
			line, col = line+1, 0
		}
		col++
		i += size
	}
	return nil
}

// build turns the decoded file into a Scenario, one section at a time: the data before the
// offline block, since a CSV with a batch column decides the number of batches.
func (l *loader) build(raw *rawScenario) (*Scenario, error) {
	s := &Scenario{Algorithms: algos.Names}
	for _, section := range []func(*Scenario, *rawScenario) error{
		l.header, l.requireSections, l.modelAndKernel, l.detectors, l.algorithms, l.data, l.offline,
		func(s *Scenario, raw *rawScenario) error { return l.retrainCost(s, raw.RetrainCost) },
		func(s *Scenario, _ *rawScenario) error { return l.checkKNN(s) },
		l.whatifSection, l.tour,
	} {
		if err := section(s, raw); err != nil {
			return nil, err
		}
	}
	s.Notes = l.notes
	s.content = l.contentHash()
	return s, nil
}

// checkKNN refuses a k larger than the smallest batch: the model would vote with every point.
func (l *loader) checkKNN(s *Scenario) error {
	knn, ok := s.Model.(sim.KNN)
	if !ok || knn.K <= l.smallest {
		return nil
	}
	place := l.knnK
	if !place.set {
		place = l.at("$.model.knn")
	}
	return place.errorf("model.knn.k", "is %d but batch %d has %d points; k must be at most the points of a batch", knn.K, l.smallestAt, l.smallest)
}

// probePoints bounds the points per batch that checkClasses generates at load.
const probePoints = 2000

// checkClasses refuses a concept timeline that labels every point with one class: a model of a
// single class has no boundary, and every cell of C would be 0. It labels (without noise, which
// would hide the mistake) up to probePoints points of the first batch, of each concept's first
// batch and of the last, drawn as the run draws them. Errors of the generators (a parameter
// undefined at some t) show here, at load, too.
func (l *loader) checkClasses(g *genData, concepts []concept, rd *rawData) error {
	probe := []int{0}
	for _, c := range concepts {
		probe = append(probe, int(c.at))
	}
	probe = append(probe, g.T-1)
	slices.Sort(probe)
	probe = slices.Compact(probe)
	var seen [2]bool
	both := false
	for _, t := range probe {
		x, _, err := g.Data(t)
		if err != nil {
			return err
		}
		y, _, err := g.Label(t, x)
		if err != nil {
			return err
		}
		var here [2]bool
		for _, v := range y {
			here[v] = true
		}
		both = both || here[0] && here[1]
		seen[0], seen[1] = seen[0] || here[0], seen[1] || here[1]
	}
	if both {
		return nil
	}
	place, field := rd.Label, "data.label"
	if !place.set {
		place, field = l.at("$.data.concepts"), "data.concepts"
	}
	class := "class 1 (the expression is true everywhere)"
	if !seen[1] {
		class = "class 0 (the expression is never true)"
	} else if seen[0] {
		class = "a single class each"
	}
	return place.errorf(field, "labels every point of batches %s with %s, noise aside: a model needs both classes to learn a boundary; check the expression (a division by zero gives +Inf or NaN, and every comparison with NaN is false)",
		joinInts(probe), class)
}

func joinInts(v []int) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
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

// model reads the model section: exactly one model, its unset fields at their defaults.
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
	switch {
	case m.RandomForest != nil:
		return forest(m.RandomForest)
	case m.Logistic != nil:
		return logistic(m.Logistic)
	case m.KNN != nil:
		l.knnK = m.KNN.K
		k, err := m.KNN.K.optInt("model.knn.k", 1)
		return sim.KNN{K: k}.WithDefaults(), err
	}
	return sim.NearestCentroid{}, nil
}

func forest(f *rawForest) (sim.Trainer, error) {
	var rf sim.RandomForest
	var err error
	if rf.Trees, err = f.Trees.optInt("model.random_forest.trees", 1); err != nil {
		return nil, err
	}
	if rf.MaxDepth, err = f.MaxDepth.optInt("model.random_forest.max_depth", 0); err != nil {
		return nil, err
	}
	if rf.MinLeaf, err = f.MinLeaf.optInt("model.random_forest.min_leaf", 1); err != nil {
		return nil, err
	}
	rf.MaxFeatures = f.MaxFeatures.text
	rf = rf.WithDefaults()
	if err := rf.Validate(); err != nil {
		return nil, f.MaxFeatures.errorf("model.random_forest.max_features", "%v", err)
	}
	return rf, nil
}

func logistic(f *rawLogistic) (sim.Trainer, error) {
	var lr sim.Logistic
	var err error
	if f.Alpha.set {
		if lr.Alpha, err = f.Alpha.float("model.logistic.alpha", math.SmallestNonzeroFloat64, math.MaxFloat64); err != nil {
			return nil, err
		}
	}
	if lr.MaxIter, err = f.MaxIter.optInt("model.logistic.max_iter", 1); err != nil {
		return nil, err
	}
	if f.Tol.set {
		if lr.Tol, err = f.Tol.float("model.logistic.tol", 0, math.MaxFloat64); err != nil {
			return nil, err
		}
	}
	if lr.Standardize, err = f.Standardize.optBool("model.logistic.standardize"); err != nil {
		return nil, err
	}
	return lr.WithDefaults(), nil
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
func (l *loader) generator(path, field string, rg rawGenerator, d int) (pointGen, error) {
	g, u, mix := rg.Gaussian, rg.Uniform, rg.Mixture
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

// maxScenarioBytes bounds a scenario file: one that is a device or an endless pipe is refused
// rather than read until memory runs out.
const maxScenarioBytes = 64 << 20

// readFile reads a scenario file under ctx (a FIFO waits for its writer), with a message that
// says what was expected.
func readFile(ctx context.Context, path string) ([]byte, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	b, err := readText(ctx, path, maxScenarioBytes, false)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("reading scenario %s: %w", path, err)
	}
	return b, nil
}
