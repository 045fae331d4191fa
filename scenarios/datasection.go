package scenarios

// The data section: points drawn from a generator and labelled by a concept timeline, or rows of
// a CSV file. Each function reads one part and names the field of any error.

import (
	"fmt"
	"strconv"

	"github.com/cara-sim/cara/sim"
)

// genSpec is a generated data section, compiled: what genData needs besides a seed.
type genSpec struct {
	T, size, d int
	points     pointGen
	concepts   []concept
	noise      float64
	resample   bool
}

// newData is the data of a seed, n points a batch.
func (g genSpec) newData(seed uint64, n int) *genData {
	data := &genData{seed: seed, T: g.T, n: n, d: g.d, points: g.points, concepts: g.concepts, noise: g.noise, resample: g.resample}
	data.evaluator.New = func() any { return newEvaluator(g.d) }
	return data
}

// generatedData reads a generated data section and the queries, and sets the scenario's stream.
func (l *loader) generatedData(s *Scenario, raw *rawScenario) error {
	var err error
	if s.Batches, err = l.batches(raw); err != nil {
		return err
	}
	g, err := l.genSpec(raw.Data, s.Batches)
	if err != nil {
		return err
	}
	s.Features = g.d
	l.smallest, l.smallestAt = g.size, 0
	newQueries, err := l.queries(raw.Queries, g.d, s.Batches, nil)
	if err != nil {
		return err
	}
	s.newStream = func(seed uint64) (sim.Stream, error) {
		data := g.newData(seed, g.size)
		q, err := newQueries(seed, data)
		if err != nil {
			return nil, err
		}
		return &stream{data: data, queries: q, src: l.source()}, nil
	}
	return l.checkClasses(g.newData(s.Seed, min(g.size, probePoints)), g.concepts, raw.Data)
}

// genSpec compiles the fields of a generated data section.
func (l *loader) genSpec(rd *rawData, T int) (genSpec, error) {
	g := genSpec{T: T}
	var err error
	if g.size, err = l.requiredInt(rd.Size, "$.data.size", "data.size", 1, 100_000_000); err != nil {
		return g, err
	}
	if g.d, err = l.requiredInt(rd.Features, "$.data.features", "data.features", 1, 10_000); err != nil {
		return g, err
	}
	if g.points, err = l.generator("$.data", "data", rd.Points, g.d); err != nil {
		return g, err
	}
	if g.concepts, err = l.concepts(rd, g.d, T); err != nil {
		return g, err
	}
	if g.noise, g.resample, err = l.noiseAndResample(rd); err != nil {
		return g, err
	}
	return g, l.noCSVFields(rd)
}

// requiredInt reads a whole number that must be there.
func (l *loader) requiredInt(v scalar, path, field string, lo, hi int) (int, error) {
	if !v.set {
		return 0, l.required(path, field)
	}
	return v.int(field, lo, hi)
}

// concepts reads the labelling: a single label expression, or a timeline of concepts.
func (l *loader) concepts(rd *rawData, d, T int) ([]concept, error) {
	switch {
	case rd.Label.set == (rd.Concepts != nil):
		return nil, l.at("$.data").errorf("data", "give exactly one of label (an expression true for class 1) or concepts (a timeline)")
	case rd.Label.set:
		p, err := compileExpr(rd.Label, "data.label", d, true, true)
		if err != nil {
			return nil, err
		}
		return []concept{{label: p}}, nil
	}
	var out []concept
	for i, c := range rd.Concepts {
		cc, err := l.concept(i, c, d, T, out)
		if err != nil {
			return nil, err
		}
		out = append(out, cc)
	}
	if len(out) == 0 {
		return nil, l.at("$.data.concepts").errorf("data.concepts", "needs at least one concept")
	}
	return out, nil
}

// concept reads concept i of a timeline, after those before it.
func (l *loader) concept(i int, c rawConcept, d, T int, before []concept) (concept, error) {
	field := fmt.Sprintf("data.concepts[%d]", i)
	if !c.At.set || !c.Label.set {
		return concept{}, l.at(fmt.Sprintf("$.data.concepts[%d]", i)).errorf(field, "each concept needs at (a batch) and label (an expression)")
	}
	at, err := c.At.int(field+".at", 0, T-1)
	if err != nil {
		return concept{}, err
	}
	if i == 0 && at != 0 {
		return concept{}, c.At.errorf(field+".at", "the first concept must start at 0, got %d", at)
	}
	if i > 0 && at <= before[i-1].at {
		return concept{}, c.At.errorf(field+".at", "concepts must start at increasing batches: %d after %d", at, before[i-1].at)
	}
	p, err := compileExpr(c.Label, field+".label", d, true, true)
	if err != nil {
		return concept{}, err
	}
	cc := concept{at: at, label: p}
	if c.Transition != nil {
		cc.width, cc.sigmoid, err = transition(c.Transition, field, T)
	}
	return cc, err
}

// transition reads a concept's transition: its width in batches and its shape.
func transition(tr *rawTransition, field string, T int) (width float64, sigmoid bool, err error) {
	if tr.Width.set {
		if width, err = tr.Width.float(field+".transition.width", 0, float64(T)); err != nil {
			return 0, false, err
		}
	}
	switch tr.Shape.text {
	case "", "sigmoid":
		return width, true, nil
	case "linear":
		return width, false, nil
	}
	return 0, false, tr.Shape.errorf(field+".transition.shape", "must be sigmoid or linear, got %q", tr.Shape.text)
}

// noiseAndResample reads the label noise and whether each batch draws new points.
func (l *loader) noiseAndResample(rd *rawData) (noise float64, resample bool, err error) {
	if rd.Noise.set {
		if noise, err = rd.Noise.float("data.noise", 0, 1); err != nil {
			return 0, false, err
		}
	}
	resample = true
	if rd.Resample.set {
		if resample, err = strconv.ParseBool(rd.Resample.text); err != nil || rd.Resample.quoted {
			return 0, false, rd.Resample.errorf("data.resample", "must be true or false, got %q", rd.Resample.text)
		}
	}
	return noise, resample, nil
}

// noCSVFields refuses the fields of a CSV stream in a generated one.
func (l *loader) noCSVFields(rd *rawData) error {
	if rd.CSV.set || rd.BatchColumn.set {
		return l.at("$.data.batch_column").errorf("data.batch_column", "goes with data.csv")
	}
	if rd.Shuffle.set {
		return rd.Shuffle.errorf("data.shuffle", "goes with data.csv (generated points are drawn in no particular order)")
	}
	return nil
}

// csvData reads a CSV data section and the queries, and sets the scenario's stream.
func (l *loader) csvData(s *Scenario, raw *rawScenario) error {
	rd := raw.Data
	shuffle, err := l.csvFields(rd)
	if err != nil {
		return err
	}
	tab, data, err := l.csvBatches(s, raw)
	if err != nil {
		return err
	}
	s.Features, s.Batches = tab.X.D, data.Len()
	l.smallest = maxInt
	for t, r := range data.ranges {
		if n := r[1] - r[0]; n < l.smallest {
			l.smallest, l.smallestAt = n, t
		}
	}
	newQueries, err := l.queries(raw.Queries, tab.X.D, s.Batches, tab)
	if err != nil {
		return err
	}
	s.newStream = func(seed uint64) (sim.Stream, error) {
		var d dataSource = data
		if shuffle {
			d = shuffledData{dataSource: data, seed: seed}
		}
		q, err := newQueries(seed, d)
		if err != nil {
			return nil, err
		}
		return &stream{data: d, queries: q, src: l.source()}, nil
	}
	return nil
}

// csvFields refuses generator fields in a CSV stream and reads shuffle.
func (l *loader) csvFields(rd *rawData) (shuffle bool, err error) {
	if rd.Points.set() || rd.Concepts != nil || rd.Size.set || rd.Features.set || rd.Noise.set || rd.Resample.set {
		return false, l.at("$.data").errorf("data", "a csv stream takes only csv, label, batch_column and shuffle")
	}
	if rd.Shuffle.set {
		if rd.Shuffle.text != "within_batch" && rd.Shuffle.text != "none" {
			return false, rd.Shuffle.errorf("data.shuffle", "must be none (rows in file order, the default) or within_batch (each batch's rows in a random order drawn from the seed), got %q", rd.Shuffle.text)
		}
		shuffle = rd.Shuffle.text == "within_batch"
	}
	if !rd.Label.set {
		return false, l.required("$.data.label", "data.label")
	}
	return shuffle, nil
}

// csvBatches reads the data CSV (or --data) and splits it into batches: by its batch column, or
// into the scenario's batches.
func (l *loader) csvBatches(s *Scenario, raw *rawScenario) (*Table, *tableData, error) {
	rd := raw.Data
	path, dir := rd.CSV.text, l.dir
	if l.opt.Data != "" {
		path, dir = l.opt.Data, "."
	}
	tab, resolved, err := l.csvTable(dir, path, TableOptions{Label: rd.Label.text, BatchColumn: rd.BatchColumn.text})
	if err != nil {
		return nil, nil, rd.CSV.errorf("data.csv", "%v", err)
	}
	T := 0
	if tab.Batch == nil {
		if T, err = l.batches(raw); err != nil {
			return nil, nil, err
		}
	}
	data, err := csvData(tab, T)
	if err != nil {
		return nil, nil, rd.CSV.errorf("data.csv", "%v", err)
	}
	if tab.Batch == nil {
		return tab, data, nil
	}
	if raw.Batches.set {
		if n, err := raw.Batches.int("batches", 2, maxInt); err != nil || n != data.Len() {
			return nil, nil, raw.Batches.errorf("batches", "is %s but %s has %d batches in column %q", raw.Batches.text, resolved, data.Len(), rd.BatchColumn.text)
		}
	}
	if data.Len() < 2 {
		return nil, nil, rd.BatchColumn.errorf("data.batch_column", "%s has %d batch(es); at least 2 are needed", resolved, data.Len())
	}
	return tab, data, nil
}
