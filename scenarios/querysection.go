package scenarios

// The queries section: a CSV file, a sample of each batch's data, or points from a generator
// labelled by the data's concept. It compiles into a constructor of the query source for a seed.

import (
	"math"
	"sync"
)

// newQueries builds the query source of a seed over its data.
type newQueries func(seed uint64, data dataSource) (querySource, error)

// queries compiles the queries section (or --queries).
func (l *loader) queries(rq *rawQueries, d, T int, like *Table) (newQueries, error) {
	if err := l.queryFields(rq); err != nil {
		return nil, err
	}
	switch {
	case rq.CSV.set || l.opt.Queries != "":
		return l.csvQueries(rq, d, T, like)
	case rq.From.set:
		return l.sampledQueries(rq)
	}
	return l.generatedQueries(rq, d)
}

// queryFields refuses fields that do not go together.
func (l *loader) queryFields(rq *rawQueries) error {
	generated := rq.Points.set()
	switch {
	case rq.CSV.set && (rq.From.set || rq.Size.set || rq.Fraction.set || generated):
		return l.at("$.queries").errorf("queries", "a csv query stream takes only csv, label and batch_column")
	case !rq.CSV.set && (rq.Label.set || rq.BatchColumn.set):
		return l.at("$.queries").errorf("queries", "label and batch_column go with queries.csv (queries from data take the data's labels, generated ones the concept's)")
	case rq.From.set && generated:
		return l.at("$.queries").errorf("queries", "give either from: data or a point generator, not both")
	case !rq.From.set && rq.Fraction.set && !rq.CSV.set:
		return rq.Fraction.errorf("queries.fraction", "goes with from: data")
	}
	return nil
}

// csvQueries reads logged queries, encoded like the data's table when there is one.
func (l *loader) csvQueries(rq *rawQueries, d, T int, like *Table) (newQueries, error) {
	path, dir := rq.CSV.text, l.dir
	if l.opt.Queries != "" {
		path, dir = l.opt.Queries, "."
	}
	place := rq.CSV
	if !place.set { // --queries replaces a generated or sampled query stream
		place = l.at("$.queries")
	}
	tab, resolved, err := l.csvTable(dir, path, TableOptions{Label: rq.Label.text, BatchColumn: rq.BatchColumn.text, Like: like})
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
	l.notes = append(l.notes, tab.Notes...)
	return func(uint64, dataSource) (querySource, error) { return q, nil }, nil
}

// sampledQueries reads from: data, with a size or a fraction of each batch.
func (l *loader) sampledQueries(rq *rawQueries) (newQueries, error) {
	if rq.From.text != "data" {
		return nil, rq.From.errorf("queries.from", "must be data (or give a point generator or csv), got %q", rq.From.text)
	}
	fd := fromData{}
	var err error
	switch {
	case rq.Size.set == rq.Fraction.set:
		return nil, l.at("$.queries").errorf("queries", "with from: data give exactly one of size or fraction")
	case rq.Size.set:
		fd.size, err = rq.Size.int("queries.size", 1, maxInt)
	default:
		fd.fraction, err = rq.Fraction.float("queries.fraction", math.SmallestNonzeroFloat64, 1)
	}
	if err != nil {
		return nil, err
	}
	// A copy per stream: streams of one loaded scenario are made concurrently (a server's sessions).
	return func(seed uint64, _ dataSource) (querySource, error) { f := fd; f.seed = seed; return f, nil }, nil
}

// generatedQueries reads a point generator with a size; the queries take the data's concept.
func (l *loader) generatedQueries(rq *rawQueries, d int) (newQueries, error) {
	n, err := l.requiredInt(rq.Size, "$.queries.size", "queries.size", 1, maxInt)
	if err != nil {
		return nil, err
	}
	points, err := l.generator("$.queries", "queries", rq.Points, d)
	if err != nil {
		return nil, err
	}
	pool := &sync.Pool{New: func() any { return newEvaluator(d) }}
	return func(seed uint64, data dataSource) (querySource, error) {
		return &genQueries{seed: seed, n: n, d: d, points: points, data: data, pool: pool}, nil
	}, nil
}
