package scenarios

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
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
				return sim.Points{}, c.b[k].at.errorf(g.field+".std", "is %g at t=%d; a standard deviation must be >= 0", ps[ci].b[k], t)
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
		return sim.Points{}, fmt.Errorf("%s: the mixture weights sum to 0 at t=%d", g.field, t)
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

// concept is a labelling rule in force from batch at, entered through a transition of width
// batches: a point at time tau (its batch plus its place in the batch) takes the new concept's
// label with probability p(tau), p rising from 0 at at to 1 at at+width (linearly, or as a sigmoid
// centred at at+width/2 with slope 4/width, as MOA's concept-drift streams do).
type concept struct {
	at      int
	label   *program
	width   float64
	sigmoid bool
}

func (c concept) probability(tau float64) float64 {
	if c.width <= 0 {
		if tau >= float64(c.at) {
			return 1
		}
		return 0
	}
	if c.sigmoid {
		return 1 / (1 + math.Exp(-4*(tau-(float64(c.at)+c.width/2))/c.width))
	}
	return min(1, max(0, (tau-float64(c.at))/c.width))
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

func (g *genData) label(ev *evaluator, t int, x sim.Points, rng *rand.Rand, noise float64) ([]uint8, error) {
	n := x.Len()
	y := make([]uint8, n)
	for i := range n {
		tau := float64(t) + (float64(i)+0.5)/float64(n)
		j := len(g.concepts) - 1
		for j > 0 && float64(g.concepts[j].at) > tau {
			j--
		}
		c := g.concepts[j]
		if j > 0 && c.width > 0 && tau < float64(c.at)+c.width {
			if rng.Float64() >= c.probability(tau) {
				c = g.concepts[j-1]
			}
		}
		v, err := ev.cond(c.label, "label", t, x.Row(i))
		if err != nil {
			return nil, err
		}
		if v {
			y[i] = 1
		}
		if noise > 0 && rng.Float64() < noise {
			y[i] ^= 1
		}
	}
	return y, nil
}

// Drifts implements dataSource: each change of concept, with its kind.
func (g *genData) Drifts() []sim.Drift {
	var out []sim.Drift
	for j := 1; j < len(g.concepts); j++ {
		c := g.concepts[j]
		d := sim.Drift{From: c.at, To: max(c.at, int(math.Ceil(float64(c.at)+c.width))-1), Kind: "abrupt"}
		switch {
		case slices.ContainsFunc(g.concepts[:j-1], func(o concept) bool { return o.label.src == c.label.src }):
			d.Kind = "recurring"
		case c.width > 0 && c.sigmoid:
			d.Kind = "gradual"
		case c.width > 0:
			d.Kind = "incremental"
		}
		if c.at < g.T {
			out = append(out, d)
		}
	}
	return out
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
