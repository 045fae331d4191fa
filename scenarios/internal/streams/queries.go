package streams

// The queries section: a CSV file, a sample of each batch's data, or points from a generator
// labelled by the data's concept. It compiles into a constructor of the query source for a seed.

import (
	"math"
	"sync"

	"github.com/cara-sim/cara/scenarios/internal/expr"
	"github.com/cara-sim/cara/scenarios/internal/format"
)

// newQueries builds the query source of a seed over its data.
type newQueries func(seed uint64, data dataSource) (querySource, error)

// queries compiles the queries section (or --queries).
func (r *reader) queries(rq *format.Queries, d, T int, like *Table) (newQueries, error) {
	if err := r.queryFields(rq); err != nil {
		return nil, err
	}
	switch {
	case rq.CSV.Set || r.opt.Queries != "":
		return r.csvQueries(rq, d, T, like)
	case rq.From.Set:
		return r.sampledQueries(rq)
	}
	return r.generatedQueries(rq, d)
}

// queryFields refuses fields that do not go together.
func (r *reader) queryFields(rq *format.Queries) error {
	generated := rq.Points.Given()
	switch {
	case rq.CSV.Set && (rq.From.Set || rq.Size.Set || rq.Fraction.Set || generated):
		return r.doc.At("$.queries").Errorf("queries", "a csv query stream takes only csv, label and batch_column")
	case !rq.CSV.Set && (rq.Label.Set || rq.BatchColumn.Set):
		return r.doc.At("$.queries").Errorf("queries", "label and batch_column go with queries.csv (queries from data take the data's labels, generated ones the concept's)")
	case rq.From.Set && generated:
		return r.doc.At("$.queries").Errorf("queries", "give either from: data or a point generator, not both")
	case !rq.From.Set && rq.Fraction.Set && !rq.CSV.Set:
		return rq.Fraction.Errorf("queries.fraction", "goes with from: data")
	}
	return nil
}

// csvQueries reads logged queries, encoded like the data's table when there is one.
func (r *reader) csvQueries(rq *format.Queries, d, T int, like *Table) (newQueries, error) {
	path, dir := rq.CSV.Text, r.opt.Dir
	if r.opt.Queries != "" {
		path, dir = r.opt.Queries, "."
	}
	place := rq.CSV
	if !place.Set { // --queries replaces a generated or sampled query stream
		place = r.doc.At("$.queries")
	}
	tab, resolved, err := r.csvTable(dir, path, TableOptions{Label: rq.Label.Text, BatchColumn: rq.BatchColumn.Text, Like: like, Missing: r.out.missing.Text})
	if err != nil {
		return nil, place.Errorf("queries.csv", "%v", err)
	}
	r.out.tables = append(r.out.tables, tab)
	if tab.X.D != d {
		return nil, place.Errorf("queries.csv", "%s has %d features, the data %d", resolved, tab.X.D, d)
	}
	q, err := newTableQueries(tab, T)
	if err != nil {
		return nil, place.Errorf("queries.csv", "%v", err)
	}
	*r.notes = append(*r.notes, tab.Notes...)
	return func(uint64, dataSource) (querySource, error) { return q, nil }, nil
}

// sampledQueries reads from: data, with a size or a fraction of each batch.
func (r *reader) sampledQueries(rq *format.Queries) (newQueries, error) {
	if rq.From.Text != "data" {
		return nil, rq.From.Errorf("queries.from", "must be data (or give a point generator or csv), got %q", rq.From.Text)
	}
	fd := fromData{}
	var err error
	switch {
	case rq.Size.Set == rq.Fraction.Set:
		return nil, r.doc.At("$.queries").Errorf("queries", "with from: data give exactly one of size or fraction")
	case rq.Size.Set:
		fd.size, err = rq.Size.Int("queries.size", 1, format.MaxInt)
	default:
		fd.fraction, err = rq.Fraction.Float("queries.fraction", math.SmallestNonzeroFloat64, 1)
	}
	if err != nil {
		return nil, err
	}
	// Queries are drawn without replacement: a batch smaller than size gives all its points, and a
	// fraction that rounds to none gives one. Neither is silent.
	csv := len(r.out.tables) > 0
	switch n := r.out.Smallest; {
	case fd.size > n && !csv:
		return nil, rq.Size.Errorf("queries.size", "is %d but a batch has %d points; queries from data are drawn without replacement, so at most %d (or use fraction)", fd.size, n, n)
	case fd.size > n:
		r.notes.Add("queries.size %d is more than the %d points of batch %d (the smallest): a batch with fewer than %d points gives all of them as queries", fd.size, n, r.out.SmallestAt, fd.size)
	case fd.fraction > 0 && int(fd.fraction*float64(n)+0.5) == 0:
		r.notes.Add("queries.fraction %g of the %d points of batch %d rounds to no query: a batch takes at least 1 (fraction x points, rounded to the nearest whole number)", fd.fraction, n, r.out.SmallestAt)
	}
	// A copy per stream: streams of one loaded scenario are made concurrently (a server's sessions).
	return func(seed uint64, _ dataSource) (querySource, error) { f := fd; f.seed = seed; return f, nil }, nil
}

// generatedQueries reads a point generator with a size; the queries take the data's concept.
func (r *reader) generatedQueries(rq *format.Queries, d int) (newQueries, error) {
	n, err := r.requiredInt(rq.Size, "$.queries.size", "queries.size", 1, format.MaxInt)
	if err != nil {
		return nil, err
	}
	points, err := r.generator("$.queries", "queries", rq.Points, d)
	if err != nil {
		return nil, err
	}
	pool := &sync.Pool{New: func() any { return expr.NewEvaluator(d) }}
	return func(seed uint64, data dataSource) (querySource, error) {
		return &genQueries{seed: seed, n: n, d: d, points: points, data: data, pool: pool}, nil
	}, nil
}
