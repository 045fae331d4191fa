package streams

import (
	"errors"
	"math/rand/v2"
	"slices"

	"github.com/cara-sim/cara/scenarios/internal/format"
	"github.com/cara-sim/cara/sim"
)

// dataSource yields the data of each batch: a generator with its concept timeline, or a CSV table.
// Sources own their seeds and are safe for concurrent use.
type dataSource interface {
	Len() int
	Features() int
	Data(t int) (sim.Points, []uint8, error)
	// Label labels x by the concept in force at batch t; ok is false when the source has no known
	// concept (a CSV), and then generated queries carry no labels.
	Label(t int, x sim.Points) (y []uint8, ok bool, err error)
	Drifts() []sim.Drift
}

// querySource yields the queries of batch t given that batch's data.
type querySource interface {
	Queries(t int, b *sim.Batch) (sim.Points, []uint8, error)
}

// dataQueries is a querySource whose queries are points of the batch's data: QueryRows gives them
// with which points they are (sim.Batch.QRows), for a model whose answers are known by row.
type dataQueries interface {
	QueryRows(t int, b *sim.Batch) (sim.Points, []uint8, []int32, error)
}

// queriesOf draws batch b's queries from q, with their rows when q has them.
func queriesOf(q querySource, b *sim.Batch) (sim.Points, []uint8, []int32, error) {
	if dq, ok := q.(dataQueries); ok {
		return dq.QueryRows(b.T, b)
	}
	x, y, err := q.Queries(b.T, b)
	return x, y, nil, err
}

// stream joins a data source and a query source into a sim.Stream.
type stream struct {
	data    dataSource
	queries querySource
	src     *format.Source // the scenario's text, to place errors found while generating a batch
}

func (s *stream) Len() int            { return s.data.Len() }
func (s *stream) Features() int       { return s.data.Features() }
func (s *stream) Drifts() []sim.Drift { return s.data.Drifts() }

// TrueLabels labels points x by the concept of batch t, without noise: the true decision boundary
// of a generated scenario (the player draws it faintly). ok is false for data read from a CSV,
// whose concept is unknown.
func (s *stream) TrueLabels(t int, x sim.Points) (y []uint8, ok bool, err error) {
	return s.data.Label(t, x)
}

// FeatureNames are the names of the stream's features: a CSV's header, nil for generated data
// (whose features are x1, x2, ...). The player labels its scatter's axes with them.
func (s *stream) FeatureNames() []string {
	if n, ok := s.data.(interface{ FeatureNames() []string }); ok {
		return n.FeatureNames()
	}
	return nil
}

// Batch implements sim.Stream.
func (s *stream) Batch(t int) (*sim.Batch, error) {
	x, y, err := s.data.Data(t)
	if err != nil {
		return nil, s.place(err)
	}
	b := &sim.Batch{T: t, X: x, Y: y}
	if sh, ok := s.data.(shuffledData); ok {
		b.Rows = sh.rows(t, x.Len())
	}
	if b.Q, b.QY, b.QRows, err = queriesOf(s.queries, b); err != nil {
		return nil, s.place(err)
	}
	return b, nil
}

// place prefixes an error at a place in the scenario file (an expression undefined at some t)
// with the file's name.
func (s *stream) place(err error) error {
	var pe *format.Error
	if errors.As(err, &pe) && s.src != nil {
		return s.src.Locate(err)
	}
	return err
}

// fromData samples queries without replacement from the batch's data; their labels are the data's.
type fromData struct {
	seed     uint64
	size     int     // a number of queries, or
	fraction float64 // a fraction of the batch
}

func (q fromData) Queries(t int, b *sim.Batch) (sim.Points, []uint8, error) {
	x, y, _, err := q.QueryRows(t, b)
	return x, y, err
}

// QueryRows implements dataQueries.
func (q fromData) QueryRows(t int, b *sim.Batch) (sim.Points, []uint8, []int32, error) {
	n := b.X.Len()
	k := q.size
	if q.fraction > 0 {
		k = max(1, int(q.fraction*float64(n)+0.5))
	}
	k = min(k, n)
	rng := sim.NewRand(q.seed, 3, uint64(t))
	idx := sample(rng, n, k)
	d := b.X.D
	out := sim.Points{D: d, V: make([]float64, 0, k*d)}
	y := make([]uint8, 0, k)
	rows := make([]int32, 0, k)
	for _, i := range idx {
		out.V = append(out.V, b.X.Row(i)...)
		y = append(y, b.Y[i])
		rows = append(rows, int32(i))
	}
	return out, y, rows, nil
}

// sample draws k of 0..n-1 without replacement (a partial Fisher-Yates shuffle), in ascending order.
func sample(rng *rand.Rand, n, k int) []int {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for i := range k {
		j := i + rng.IntN(n-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	out := perm[:k]
	slices.Sort(out)
	return out
}

// shuffledData serves a data source's batches with their points in a random order drawn from the
// seed (stream (seed, 6, t)): `shuffle: within_batch` for a CSV stream whose rows, in file order,
// make neighbouring points nearly the same (Elec2's half-hours), so that a model's errors on the
// next batch are not those of a stream read in order.
type shuffledData struct {
	dataSource
	seed uint64
}

func (s shuffledData) Data(t int) (sim.Points, []uint8, error) {
	x, y, err := s.dataSource.Data(t)
	if err != nil {
		return x, y, err
	}
	n, d := x.Len(), x.D
	perm := s.perm(t, n)
	sx := sim.Points{D: d, V: make([]float64, len(x.V))}
	sy := make([]uint8, n)
	for i, j := range perm {
		copy(sx.V[i*d:(i+1)*d], x.Row(j))
		sy[i] = y[j]
	}
	return sx, sy, nil
}

// FeatureNames are the names of the data's features (a CSV's), which a shuffle keeps.
func (s shuffledData) FeatureNames() []string {
	if n, ok := s.dataSource.(interface{ FeatureNames() []string }); ok {
		return n.FeatureNames()
	}
	return nil
}

// perm is the order of batch t's n rows: point i is row perm[i].
func (s shuffledData) perm(t, n int) []int { return sim.NewRand(s.seed, 6, uint64(t)).Perm(n) }

// rows are the rows of batch t's n points, in the order Data serves them (sim.Batch.Rows).
func (s shuffledData) rows(t, n int) []int32 {
	out := make([]int32, n)
	for i, j := range s.perm(t, n) {
		out[i] = int32(j)
	}
	return out
}

// QueriesOf returns the query half of st: a batch with the data of the one it is given and the
// queries st draws for them, as st.Batch(b.T) draws them (their labels, nil when they have none,
// and which data points they are, when they are some), without drawing the data again. A stream
// not made here gives the queries of its whole batch.
func QueriesOf(st sim.Stream) func(b *sim.Batch) (*sim.Batch, error) {
	str, ok := st.(*stream)
	with := func(b *sim.Batch, q sim.Points, y []uint8, rows []int32) *sim.Batch {
		return &sim.Batch{T: b.T, X: b.X, Y: b.Y, Rows: b.Rows, Q: q, QY: y, QRows: rows}
	}
	if !ok {
		return func(b *sim.Batch) (*sim.Batch, error) {
			full, err := st.Batch(b.T)
			if err != nil {
				return nil, err
			}
			return with(b, full.Q, full.QY, full.QRows), nil
		}
	}
	return func(b *sim.Batch) (*sim.Batch, error) {
		q, y, rows, err := queriesOf(str.queries, b)
		if err != nil {
			return nil, str.place(err)
		}
		return with(b, q, y, rows), nil
	}
}
