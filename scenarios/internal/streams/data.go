package streams

// The data section: points drawn from a generator and labelled by a concept timeline, or rows of
// a CSV file. Each function reads one part and names the field of any error.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cara-sim/cara/scenarios/internal/expr"
	"github.com/cara-sim/cara/scenarios/internal/format"
	"github.com/cara-sim/cara/sim"
)

// genSpec is a generated data section, compiled: what genData needs besides a seed.
type genSpec struct {
	T, size, d int
	points     pointGen
	concepts   []concept
	noise      float64
	resample   bool
	hyperplane *hyperplaneSpec // the label instead of concepts (classic.go)
	rbf        *rbfSpec        // the points and labels instead of points and concepts (classic.go)
}

// newData is the data of a seed, n points a batch.
func (g genSpec) newData(seed uint64, n int) dataSource {
	switch {
	case g.rbf != nil:
		return newRBF(seed, g.T, n, g.d, *g.rbf, g.noise)
	case g.hyperplane != nil:
		data := &hyperData{seed: seed, T: g.T, n: n, d: g.d, points: g.points, spec: *g.hyperplane, noise: g.noise, resample: g.resample}
		data.evaluator.New = func() any { return expr.NewEvaluator(g.d) }
		return data
	}
	data := &genData{seed: seed, T: g.T, n: n, d: g.d, points: g.points, concepts: g.concepts, noise: g.noise, resample: g.resample}
	data.evaluator.New = func() any { return expr.NewEvaluator(g.d) }
	return data
}

// generatedData reads a generated data section and the queries, and sets the scenario's stream;
// the labels of the scenario's own seed are checked.
func (r *reader) generatedData(f *format.File, scenarioSeed uint64) error {
	out := r.out
	var err error
	if out.Batches, err = r.batches(f); err != nil {
		return err
	}
	g, err := r.genSpec(f.Data, out.Batches)
	if err != nil {
		return err
	}
	out.Features = g.d
	out.Smallest, out.SmallestAt = g.size, 0
	newQueries, err := r.queries(f.Queries, g.d, out.Batches, nil)
	if err != nil {
		return err
	}
	src := r.doc.Source
	out.newStream = func(seed uint64) (sim.Stream, error) {
		data := g.newData(seed, g.size)
		q, err := newQueries(seed, data)
		if err != nil {
			return nil, err
		}
		return &stream{data: data, queries: q, src: &src}, nil
	}
	return r.checkClasses(g.newData(scenarioSeed, min(g.size, probePoints)), out.Batches, g.concepts, f.Data)
}

// genSpec compiles the fields of a generated data section.
func (r *reader) genSpec(rd *format.Data, T int) (genSpec, error) {
	g := genSpec{T: T}
	var err error
	if g.size, err = r.requiredInt(rd.Size, "$.data.size", "data.size", 1, 100_000_000); err != nil {
		return g, err
	}
	if g.d, err = r.requiredInt(rd.Features, "$.data.features", "data.features", 1, 10_000); err != nil {
		return g, err
	}
	if g.noise, g.resample, err = noiseAndResample(rd); err != nil {
		return g, err
	}
	if err := r.noCSVFields(rd); err != nil {
		return g, err
	}
	if rd.Hyperplane != nil || rd.RBF != nil {
		return r.classicSpec(rd, g)
	}
	if g.points, err = r.generator("$.data", "data", rd.Points, g.d); err != nil {
		return g, err
	}
	g.concepts, err = r.concepts(rd, g.d, T)
	return g, err
}

// concepts reads the labelling: a single label expression, or a timeline of concepts.
func (r *reader) concepts(rd *format.Data, d, T int) ([]concept, error) {
	switch {
	case rd.Label.Set == (rd.Concepts != nil):
		return nil, r.doc.At("$.data").Errorf("data", "give exactly one of label (an expression true for class 1) or concepts (a timeline)")
	case rd.Label.Set:
		p, err := expr.Compile(rd.Label, "data.label", d, true, true)
		if err != nil {
			return nil, err
		}
		return []concept{{label: p}}, nil
	}
	var out []concept
	for i, c := range rd.Concepts {
		cc, err := r.concept(i, c, d, T, out)
		if err != nil {
			return nil, err
		}
		out = append(out, cc)
	}
	if len(out) == 0 {
		return nil, r.doc.At("$.data.concepts").Errorf("data.concepts", "needs at least one concept")
	}
	return out, nil
}

// concept reads concept i of a timeline, after those before it.
func (r *reader) concept(i int, c format.Concept, d, T int, before []concept) (concept, error) {
	field := fmt.Sprintf("data.concepts[%d]", i)
	if !c.At.Set || !c.Label.Set {
		return concept{}, r.doc.At(fmt.Sprintf("$.data.concepts[%d]", i)).Errorf(field, "each concept needs at (a batch) and label (an expression)")
	}
	// A fraction of a batch starts a concept within it (0.5: at its middle point), as a generator
	// that changes concept every so many points does.
	at, err := c.At.Float(field+".at", 0, float64(T-1))
	if err != nil {
		return concept{}, err
	}
	if i == 0 && at != 0 {
		return concept{}, c.At.Errorf(field+".at", "the first concept must start at 0, got %g", at)
	}
	// A concept entered through a transition may start where the one before it starts: the
	// transition from that one then begins at once.
	if i > 0 && (at < before[i-1].at || at == before[i-1].at && c.Transition == nil) {
		return concept{}, c.At.Errorf(field+".at", "concepts must start at increasing times (one with a transition may share the start of the one before it): %g after %g", at, before[i-1].at)
	}
	p, err := expr.Compile(c.Label, field+".label", d, true, true)
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
func transition(tr *format.Transition, field string, T int) (width float64, sigmoid bool, err error) {
	if tr.Width.Set {
		if width, err = tr.Width.Float(field+".transition.width", 0, float64(T)); err != nil {
			return 0, false, err
		}
	}
	switch tr.Shape.Text {
	case "", "sigmoid":
		return width, true, nil
	case "linear":
		return width, false, nil
	}
	return 0, false, tr.Shape.Errorf(field+".transition.shape", "must be sigmoid or linear, got %q", tr.Shape.Text)
}

// noiseAndResample reads the label noise and whether each batch draws new points.
func noiseAndResample(rd *format.Data) (noise float64, resample bool, err error) {
	if rd.Noise.Set {
		if noise, err = rd.Noise.Float("data.noise", 0, 1); err != nil {
			return 0, false, err
		}
	}
	resample = true
	if rd.Resample.Set {
		if resample, err = strconv.ParseBool(rd.Resample.Text); err != nil || rd.Resample.Quoted {
			return 0, false, rd.Resample.Errorf("data.resample", "must be true or false, got %q", rd.Resample.Text)
		}
	}
	return noise, resample, nil
}

// noCSVFields refuses the fields of a CSV stream in a generated one.
func (r *reader) noCSVFields(rd *format.Data) error {
	if rd.CSV.Set || rd.BatchColumn.Set {
		return r.doc.At("$.data.batch_column").Errorf("data.batch_column", "goes with data.csv")
	}
	if rd.Shuffle.Set {
		return rd.Shuffle.Errorf("data.shuffle", "goes with data.csv (generated points are drawn in no particular order)")
	}
	for _, v := range []struct {
		field string
		list  format.Scalars
	}{{"data.ignore", rd.Ignore}, {"data.categorical", rd.Categorical}} {
		if v.list.Set {
			return v.list.Place().Errorf(v.field, "goes with data.csv (it names CSV columns)")
		}
	}
	if rd.Missing.Set {
		return rd.Missing.Errorf("data.missing", "goes with data.csv (generated data have no empty cells)")
	}
	if rd.Positive.Set {
		return rd.Positive.Errorf("data.positive", "goes with data.csv (generated data's class 1 is where the label is true)")
	}
	return nil
}

// csvData reads a CSV data section and the queries, and sets the scenario's stream.
func (r *reader) csvData(f *format.File) error {
	rd, out := f.Data, r.out
	shuffle, err := r.csvFields(rd)
	if err != nil {
		return err
	}
	tab, data, err := r.csvBatches(f)
	if err != nil {
		return err
	}
	out.Features, out.Batches, out.Classes, out.data = tab.X.D, data.Len(), tab.Classes, data
	out.Smallest = format.MaxInt
	var oneClass []int // batches whose rows all have one label
	for t, rg := range data.ranges {
		if n := rg[1] - rg[0]; n < out.Smallest {
			out.Smallest, out.SmallestAt = n, t
		}
		if y := tab.Y[rg[0]:rg[1]]; !slices.Contains(y, 1-y[0]) {
			oneClass = append(oneClass, t)
		}
	}
	// A model of one class has no boundary: as generated data are refused when every batch has a
	// single class, so are CSV data; some such batches are worth a note.
	switch {
	case len(oneClass) == len(data.ranges):
		return rd.Label.Errorf("data.label", "every batch of %s has a single class in column %q: a model needs both classes to learn a boundary", tab.Path, rd.Label.Text)
	case len(oneClass) > 0:
		n, more := len(oneClass), ""
		if n > 10 {
			oneClass, more = oneClass[:10], ", ..."
		}
		r.notes.Add("%s: %d of %d batches have a single class in column %q (batches %s%s): their models predict it everywhere",
			tab.Path, n, len(data.ranges), rd.Label.Text, joinInts(oneClass), more)
	}
	newQueries, err := r.queries(f.Queries, tab.X.D, out.Batches, tab)
	if err != nil {
		return err
	}
	src := r.doc.Source
	out.newStream = func(seed uint64) (sim.Stream, error) {
		var d dataSource = data
		if shuffle {
			d = shuffledData{dataSource: data, seed: seed}
		}
		q, err := newQueries(seed, d)
		if err != nil {
			return nil, err
		}
		return &stream{data: d, queries: q, src: &src}, nil
	}
	return nil
}

// csvFields refuses generator fields in a CSV stream and reads shuffle.
func (r *reader) csvFields(rd *format.Data) (shuffle bool, err error) {
	if rd.Points.Given() || rd.Concepts != nil || rd.Size.Set || rd.Features.Set || rd.Noise.Set || rd.Resample.Set || rd.Hyperplane != nil || rd.RBF != nil {
		return false, r.doc.At("$.data").Errorf("data", "a csv stream takes only csv, label, batch_column, shuffle, ignore, categorical, missing and positive")
	}
	switch m := rd.Missing; {
	case !m.Set:
	case m.Text == MissingMean || m.Text == MissingMedian || m.Text == MissingDrop:
		r.out.missing = m
	default:
		return false, m.Errorf("data.missing", "must be mean or median (an empty numeric cell takes its column's mean or median over the offline block) or drop (its row is dropped), got %q", m.Text)
	}
	if rd.Positive.Set && rd.Positive.Text == "" {
		return false, rd.Positive.Errorf("data.positive", "is empty; give the label value that is class 1")
	}
	if rd.Shuffle.Set {
		if rd.Shuffle.Text != "within_batch" && rd.Shuffle.Text != "none" {
			return false, rd.Shuffle.Errorf("data.shuffle", "must be none (rows in file order, the default) or within_batch (each batch's rows in a random order drawn from the seed), got %q", rd.Shuffle.Text)
		}
		shuffle = rd.Shuffle.Text == "within_batch"
	}
	if !rd.Label.Set {
		return false, r.doc.Required("$.data.label", "data.label")
	}
	return shuffle, nil
}

// csvBatches reads the data CSV (or --data) and splits it into batches: by its batch column, or
// into the scenario's batches.
func (r *reader) csvBatches(f *format.File) (*Table, *tableData, error) {
	rd := f.Data
	path, dir := rd.CSV.Text, r.opt.Dir
	if r.opt.Data != "" {
		path, dir = r.opt.Data, "."
	}
	tab, resolved, err := r.csvTable(dir, path, TableOptions{Label: rd.Label.Text, BatchColumn: rd.BatchColumn.Text,
		Ignore: rd.Ignore.Texts(), Categorical: rd.Categorical.Texts(), Missing: r.out.missing.Text, Positive: rd.Positive.Text})
	if err != nil {
		return nil, nil, rd.CSV.Errorf("data.csv", "%v", err)
	}
	r.out.tables = append(r.out.tables, tab)
	*r.notes = append(*r.notes, tab.Notes...)
	T := 0
	if tab.Batch == nil {
		if T, err = r.batches(f); err != nil {
			return nil, nil, err
		}
	}
	data, err := newTableData(tab, T)
	if err != nil {
		return nil, nil, rd.CSV.Errorf("data.csv", "%v", err)
	}
	if tab.Batch == nil {
		return tab, data, nil
	}
	if f.Batches.Set {
		if n, err := f.Batches.Int("batches", 2, format.MaxInt); err != nil || n != data.Len() {
			return nil, nil, f.Batches.Errorf("batches", "is %s but %s has %d batches in column %q", f.Batches.Text, resolved, data.Len(), rd.BatchColumn.Text)
		}
	}
	if data.Len() < 2 {
		return nil, nil, rd.BatchColumn.Errorf("data.batch_column", "%s has %d batch(es); at least 2 are needed", resolved, data.Len())
	}
	if note := batchNote(tab, rd.BatchColumn.Text, data.ranges); note != "" {
		r.notes.Add("%s", note)
	}
	return tab, data, nil
}

// probePoints bounds the points per batch that checkClasses generates at load.
const probePoints = 2000

// checkClasses refuses a concept timeline that labels every point with one class: a model of a
// single class has no boundary, and every cell of C would be 0. It labels (without noise, which
// would hide the mistake) up to probePoints points of the first batch, of each concept's first
// batch and of the last, drawn as the run draws them. Errors of the generators (a parameter
// undefined at some t) show here, at load, too.
func (r *reader) checkClasses(g dataSource, T int, concepts []concept, rd *format.Data) error {
	probe := []int{0}
	for _, c := range concepts {
		probe = append(probe, int(c.at))
	}
	probe = append(probe, T-1)
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
	if !place.Set {
		place, field = r.doc.At("$.data.concepts"), "data.concepts"
	}
	class := "class 1 (the expression is true everywhere)"
	if !seen[1] {
		class = "class 0 (the expression is never true)"
	} else if seen[0] {
		class = "a single class each"
	}
	return place.Errorf(field, "labels every point of batches %s with %s, noise aside: a model needs both classes to learn a boundary; check the expression (a division by zero gives +Inf or NaN, and every comparison with NaN is false)",
		joinInts(probe), class)
}

func joinInts(v []int) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}
