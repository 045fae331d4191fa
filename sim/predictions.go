package sim

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/cara-sim/cara/internal/bitset"
)

// Predictions are a model from outside whose every answer is known: the class of each model t' at
// every row of every batch t >= t' and, when it has them, at every query of those batches. A predictions file
// fills them (scenarios read it: Set, then Missing); a run records its model's answers into them
// (Record, for --predictions-out). One bit a prediction: 5 million of them (100 batches of 1000
// rows) hold 0.6 MB, and as much again while they are filled, to find a missing or doubled one.
// Once filled they are only read, by any number of runs at once.
type Predictions struct {
	name    string
	rows    []int // rows of each batch
	queries []int // queries of each batch; nil: no answers at the queries
	data    []bitset.Bits
	query   []bitset.Bits
	seen    []bitset.Bits // while filled: the predictions given (data, then queries), per cell
	qseen   []bitset.Bits
	seed    uint64
	oneSeed bool // the answers are for the data of seed alone (generated data)
}

// NewPredictions makes room for the predictions of models on batches of rows[t] rows each and,
// when queries is not nil, of queries[t] queries each; name is what messages call them.
func NewPredictions(name string, rows, queries []int) *Predictions {
	p := &Predictions{name: name, rows: rows, queries: queries}
	p.data, p.seen = cells(rows), cells(rows)
	if queries != nil {
		p.query, p.qseen = cells(queries), cells(queries)
	}
	return p
}

// cells is a bitset per cell (tp, t) of the upper triangle, in the matrix's order, of n[t] bits.
func cells(n []int) []bitset.Bits {
	T := len(n)
	out := make([]bitset.Bits, T*(T+1)/2)
	for t := range T {
		for tp := 0; tp <= t; tp++ {
			out[index(tp, t)] = bitset.New(n[t])
		}
	}
	return out
}

// Name implements Outside.
func (p *Predictions) Name() string { return p.name }

// Batches is the number of batches the predictions are for.
func (p *Predictions) Batches() int { return len(p.rows) }

// Rows is the number of rows of batch t.
func (p *Predictions) Rows(t int) int { return p.rows[t] }

// Queries is the number of queries of batch t, and whether the predictions hold answers at them.
func (p *Predictions) Queries(t int) (int, bool) {
	if p.queries == nil {
		return 0, false
	}
	return p.queries[t], true
}

// ForSeed says that the predictions hold for the data of seed alone (generated data change with
// the seed): a run of another seed is refused.
func (p *Predictions) ForSeed(seed uint64) { p.seed, p.oneSeed = seed, true }

// DropQueries forgets the answers at the queries: they were for other queries than a run's.
func (p *Predictions) DropQueries() *Predictions {
	c := *p
	c.queries, c.query, c.qseen = nil, nil, nil
	return &c
}

// Set records that M_tp predicts class c at row of batch t (at its query of that index when
// query is true). It refuses, saying why, a batch, model or row out of range, a model asked about
// an earlier batch, a class other than 0 and 1, and a second answer for the same place.
func (p *Predictions) Set(query bool, tp, t, row int, c uint8) error {
	T := len(p.rows)
	what, n, bits, seen := "rows", p.rows, p.data, p.seen
	if query {
		if p.queries == nil {
			return fmt.Errorf("the data hold no answers at the queries")
		}
		what, n, bits, seen = "queries", p.queries, p.query, p.qseen
	}
	switch {
	case t < 0 || t >= T:
		return fmt.Errorf("batch %d is out of range: the data have batches 0..%d", t, T-1)
	case tp < 0 || tp >= T:
		return fmt.Errorf("model %d is out of range: a model is named by the batch it was trained on, 0..%d", tp, T-1)
	case tp > t:
		return fmt.Errorf("model %d is asked about batch %d: a model answers for its own batch and later ones (model <= batch)", tp, t)
	case row < 0 || row >= n[t]:
		return fmt.Errorf("row %d is out of range: batch %d has %d %s (0..%d)", row, t, n[t], what, n[t]-1)
	case c > 1:
		return fmt.Errorf("class %d: want 0 or 1", c)
	}
	i := index(tp, t)
	if seen[i].Get(row) {
		return fmt.Errorf("a second prediction of model %d for batch %d %s %d", tp, t, singular(what), row)
	}
	seen[i].Set(row)
	if c == 1 {
		bits[i].Set(row)
	}
	return nil
}

func singular(what string) string {
	if what == "queries" {
		return "query"
	}
	return "row"
}

// Missing returns the first place, in order of model, batch and row (the data before the
// queries), that has no prediction; ok is false when every place has one.
func (p *Predictions) Missing() (query bool, tp, t, row int, ok bool) {
	for _, part := range []struct {
		query bool
		n     []int
		seen  []bitset.Bits
	}{{false, p.rows, p.seen}, {true, p.queries, p.qseen}} {
		if part.n == nil {
			continue
		}
		T := len(part.n)
		for tp := range T {
			for t := tp; t < T; t++ {
				s := part.seen[index(tp, t)]
				if c := s.Count(); c < s.N {
					for r := range s.N {
						if !s.Get(r) {
							return part.query, tp, t, r, true
						}
					}
				}
			}
		}
	}
	return false, 0, 0, 0, false
}

// Filled ends the filling: every place has its prediction (Missing found none), and what found
// the missing ones is let go.
func (p *Predictions) Filled() { p.seen, p.qseen = nil, nil }

// Class is M_tp's class at row of batch t (at its query of that index when query is true).
func (p *Predictions) Class(query bool, tp, t, row int) uint8 {
	bits := p.data
	if query {
		bits = p.query
	}
	if bits[index(tp, t)].Get(row) {
		return 1
	}
	return 0
}

// Record sets the answers of M_tp at batch b (Config.Answered): at its data points, by their rows
// (Batch.Rows), and at its queries when they were asked and the predictions have room for them.
// Answers of different cells may be recorded at once; those of one cell come in one call.
func (p *Predictions) Record(tp int, b *Batch, data, queries []uint8) {
	i := index(tp, b.T)
	for k, c := range data {
		row := b.Row(k)
		p.seen[i].Set(row)
		if c == 1 {
			p.data[i].Set(row)
		}
	}
	if queries == nil || p.query == nil {
		return
	}
	for j, c := range queries {
		p.qseen[i].Set(j)
		if c == 1 {
			p.query[i].Set(j)
		}
	}
}

// Digest writes the predictions to h: what a scenario's content hash holds of a predictions file.
func (p *Predictions) Digest(h io.Writer) {
	var b [8]byte
	for _, part := range [][]bitset.Bits{p.data, p.query} {
		fmt.Fprintf(h, "\x00predictions %d\n", len(part))
		for _, bits := range part {
			binary.LittleEndian.PutUint64(b[:], uint64(bits.N))
			h.Write(b[:])
			for _, w := range bits.Words {
				binary.LittleEndian.PutUint64(b[:], w)
				h.Write(b[:])
			}
		}
	}
}

// Open implements Outside: the run's batches must be the ones the predictions are for.
func (p *Predictions) Open(_ context.Context, run OutsideRun) (Answers, error) {
	if p.seen != nil {
		return nil, fmt.Errorf("the predictions are not filled yet")
	}
	if p.oneSeed && run.Seed != p.seed {
		return nil, fmt.Errorf("the predictions are for the data of seed %d, and the data are generated, so seed %d's differ: run seed %d, or give the model as a command (model: {command: [...]}), which is asked about any seed's data", p.seed, run.Seed, p.seed)
	}
	if run.Window > 1 {
		return nil, fmt.Errorf("model.window is how cara fits its own models: predictions from outside come from models already fitted")
	}
	if len(run.Batches) != len(p.rows) {
		return nil, fmt.Errorf("the predictions are for %d batches, the run has %d", len(p.rows), len(run.Batches))
	}
	for t, b := range run.Batches {
		if n := b.X.Len(); n != p.rows[t] {
			return nil, fmt.Errorf("the predictions are for %d rows in batch %d, the run's batch has %d", p.rows[t], t, n)
		}
		if p.queries != nil && b.QRows == nil && b.Q.Len() != p.queries[t] {
			return nil, fmt.Errorf("the predictions have answers at %d queries of batch %d, the run's batch has %d", p.queries[t], t, b.Q.Len())
		}
	}
	return predictionAnswers{p: p, batches: run.Batches}, nil
}

// predictionAnswers are Predictions opened for a run over batches.
type predictionAnswers struct {
	p       *Predictions
	batches []*Batch
}

func (predictionAnswers) Fit(int) error { return nil }
func (predictionAnswers) Close() error  { return nil }

func (a predictionAnswers) Predict(tp, t int, data, queries []uint8) (bool, error) {
	b := a.batches[t]
	for i := range data {
		data[i] = a.p.Class(false, tp, t, b.Row(i))
	}
	if queries == nil || a.p.query == nil {
		return false, nil
	}
	for j := range queries {
		queries[j] = a.p.Class(true, tp, t, j)
	}
	return true, nil
}
