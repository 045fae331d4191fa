package scenarios

import (
	"math/rand/v2"
	"sync"

	"github.com/cara-sim/cara/sim"
)

// component is one point distribution: a Gaussian (a = mean, b = std) or a uniform box (a = low,
// b = high), each parameter an expression of t per feature.
type component struct {
	gaussian bool
	a, b     []*program
	weight   *program // in a mixture; nil otherwise
}

// pointGen draws points from one component or a mixture of them.
type pointGen struct {
	comps []component
	field string
}

// draw returns n points of batch t. Parameters are evaluated once per batch.
func (g *pointGen) draw(ev *evaluator, t, n, d int, rng *rand.Rand) (sim.Points, error) {
	type params struct{ a, b []float64 }
	ps := make([]params, len(g.comps))
	weights := make([]float64, len(g.comps))
	total := 0.0
	for ci, c := range g.comps {
		ps[ci] = params{make([]float64, d), make([]float64, d)}
		for k := range d {
			var err error
			if ps[ci].a[k], err = ev.num(c.a[k], g.field, t, nil); err != nil {
				return sim.Points{}, err
			}
			if ps[ci].b[k], err = ev.num(c.b[k], g.field, t, nil); err != nil {
				return sim.Points{}, err
			}
			if c.gaussian && ps[ci].b[k] < 0 {
				return sim.Points{}, c.b[k].at.errorf(g.field+".gaussian.std", "is %g at t=%d; a standard deviation must be >= 0", ps[ci].b[k], t)
			}
			if !c.gaussian && ps[ci].b[k] < ps[ci].a[k] {
				return sim.Points{}, c.b[k].at.errorf(g.field+".uniform.high", "is %g at t=%d, below uniform.low %g (feature %d); give low <= high", ps[ci].b[k], t, ps[ci].a[k], k+1)
			}
		}
		weights[ci] = 1
		if c.weight != nil {
			w, err := ev.num(c.weight, g.field+".weight", t, nil)
			if err != nil {
				return sim.Points{}, err
			}
			if w < 0 {
				return sim.Points{}, c.weight.at.errorf(g.field+".weight", "is %g at t=%d; weights must be >= 0", w, t)
			}
			weights[ci] = w
		}
		total += weights[ci]
	}
	if !(total > 0) {
		return sim.Points{}, g.comps[0].weight.at.errorf(g.field+".mixture", "the weights sum to 0 at t=%d", t)
	}
	x := sim.Points{D: d, V: make([]float64, n*d)}
	for i := range n {
		ci := 0
		if len(g.comps) > 1 {
			u := rng.Float64() * total
			for ci < len(g.comps)-1 && u >= weights[ci] {
				u -= weights[ci]
				ci++
			}
		}
		p := ps[ci]
		row := x.Row(i)
		for k := range d {
			if g.comps[ci].gaussian {
				row[k] = p.a[k] + p.b[k]*rng.NormFloat64()
			} else {
				row[k] = p.a[k] + (p.b[k]-p.a[k])*rng.Float64()
			}
		}
	}
	return x, nil
}

// genData generates each batch's points and labels from a point generator and a concept timeline.
type genData struct {
	seed      uint64
	T, n, d   int
	points    pointGen
	concepts  []concept // sorted by at; the first is at 0
	noise     float64
	resample  bool
	evaluator sync.Pool

	driftsOnce sync.Once
	drifts     []sim.Drift
}

func (g *genData) Len() int      { return g.T }
func (g *genData) Features() int { return g.d }

func (g *genData) ev() *evaluator { return g.evaluator.Get().(*evaluator) }

// Data implements dataSource. Points draw from stream (seed, 2, t) (batch 0's for every t when
// resample is false); label coins and noise from (seed, 4, t).
func (g *genData) Data(t int) (sim.Points, []uint8, error) {
	ev := g.ev()
	defer g.evaluator.Put(ev)
	pt := t
	if !g.resample {
		pt = 0
	}
	x, err := g.points.draw(ev, pt, g.n, g.d, sim.NewRand(g.seed, 2, uint64(pt)))
	if err != nil {
		return sim.Points{}, nil, err
	}
	y, err := g.label(ev, t, x, sim.NewRand(g.seed, 4, uint64(t)), g.noise)
	return x, y, err
}

// Label implements dataSource: the concept at t without noise (for generated queries).
func (g *genData) Label(t int, x sim.Points) ([]uint8, bool, error) {
	ev := g.ev()
	defer g.evaluator.Put(ev)
	y, err := g.label(ev, t, x, sim.NewRand(g.seed, 5, uint64(t)), 0)
	return y, true, err
}

// genQueries draws queries from a point generator, labelled by the data's concept at t.
type genQueries struct {
	seed   uint64
	n, d   int
	points pointGen
	data   dataSource
	pool   *sync.Pool
}

func (q *genQueries) Queries(t int, b *sim.Batch) (sim.Points, []uint8, error) {
	ev := q.pool.Get().(*evaluator)
	x, err := q.points.draw(ev, t, q.n, q.d, sim.NewRand(q.seed, 3, uint64(t)))
	q.pool.Put(ev)
	if err != nil {
		return sim.Points{}, nil, err
	}
	y, ok, err := q.data.Label(t, x)
	if err != nil || !ok {
		return x, nil, err
	}
	return x, y, nil
}
