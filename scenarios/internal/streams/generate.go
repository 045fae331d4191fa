package streams

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/cara-sim/cara/scenarios/internal/expr"
	"github.com/cara-sim/cara/scenarios/internal/format"
	"github.com/cara-sim/cara/sim"
)

// component is one point distribution: a Gaussian (a = mean, b = std), a uniform box (a = low,
// b = high) or discrete levels (a = levels, b unused), each parameter an expression of t per
// feature.
type component struct {
	gaussian, discrete bool
	a, b               []*expr.Program
	weight             *expr.Program // in a mixture; nil otherwise
}

// pointGen draws points from one component or a mixture of them.
type pointGen struct {
	comps []component
	field string
}

// draw returns n points of batch t. Parameters are evaluated once per batch.
func (g *pointGen) draw(ev *expr.Evaluator, t, n, d int, rng *rand.Rand) (sim.Points, error) {
	type params struct{ a, b []float64 }
	ps := make([]params, len(g.comps))
	weights := make([]float64, len(g.comps))
	total := 0.0
	for ci, c := range g.comps {
		ps[ci] = params{make([]float64, d), make([]float64, d)}
		for k := range d {
			var err error
			if ps[ci].a[k], err = ev.Num(c.a[k], g.field, t, nil); err != nil {
				return sim.Points{}, err
			}
			if c.discrete {
				if l := ps[ci].a[k]; !(l >= 1 && l <= maxLevels) || l != math.Trunc(l) {
					return sim.Points{}, c.a[k].At.Errorf(g.field+".discrete.levels", "is %g at t=%d; give a whole number of levels in 1..%d", l, t, maxLevels)
				}
				continue
			}
			if ps[ci].b[k], err = ev.Num(c.b[k], g.field, t, nil); err != nil {
				return sim.Points{}, err
			}
			if c.gaussian && ps[ci].b[k] < 0 {
				return sim.Points{}, c.b[k].At.Errorf(g.field+".gaussian.std", "is %g at t=%d; a standard deviation must be >= 0", ps[ci].b[k], t)
			}
			if !c.gaussian && ps[ci].b[k] < ps[ci].a[k] {
				return sim.Points{}, c.b[k].At.Errorf(g.field+".uniform.high", "is %g at t=%d, below uniform.low %g (feature %d); give low <= high", ps[ci].b[k], t, ps[ci].a[k], k+1)
			}
		}
		weights[ci] = 1
		if c.weight != nil {
			w, err := ev.Num(c.weight, g.field+".weight", t, nil)
			if err != nil {
				return sim.Points{}, err
			}
			if w < 0 {
				return sim.Points{}, c.weight.At.Errorf(g.field+".weight", "is %g at t=%d; weights must be >= 0", w, t)
			}
			weights[ci] = w
		}
		total += weights[ci]
	}
	if !(total > 0) {
		return sim.Points{}, g.comps[0].weight.At.Errorf(g.field+".mixture", "the weights sum to 0 at t=%d", t)
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
			switch {
			case g.comps[ci].discrete:
				row[k] = float64(rng.IntN(int(p.a[k])))
			case g.comps[ci].gaussian:
				row[k] = p.a[k] + p.b[k]*rng.NormFloat64()
			default:
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

func (g *genData) ev() *expr.Evaluator { return g.evaluator.Get().(*expr.Evaluator) }

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
	ev := q.pool.Get().(*expr.Evaluator)
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

// maxLevels bounds a discrete feature's levels.
const maxLevels = 1 << 20

// generator compiles a point generator: exactly one of gaussian, uniform, discrete, mixture.
func (r *reader) generator(path, field string, rg format.Generator, d int) (pointGen, error) {
	g, u, disc, mix := rg.Gaussian, rg.Uniform, rg.Discrete, rg.Mixture
	n := 0
	for _, set := range []bool{g != nil, u != nil, disc != nil, mix != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return pointGen{}, r.doc.At(path).Errorf(field, "give exactly one point generator: gaussian {mean, std}, uniform {low, high}, discrete {levels} or mixture (found %d)", n)
	}
	if mix == nil {
		mix = []format.Component{{Gaussian: g, Uniform: u, Discrete: disc}}
	}
	pg := pointGen{field: field}
	for i, c := range mix {
		cf := field
		if len(mix) > 1 || g == nil && u == nil && disc == nil {
			cf = fmt.Sprintf("%s.mixture[%d]", field, i)
		}
		comp := component{gaussian: c.Gaussian != nil, discrete: c.Discrete != nil}
		var a, b format.Scalars
		var an, bn string
		switch {
		case c.Gaussian != nil && c.Uniform == nil && c.Discrete == nil:
			a, b, an, bn = c.Gaussian.Mean, c.Gaussian.Std, "gaussian.mean", "gaussian.std"
		case c.Uniform != nil && c.Gaussian == nil && c.Discrete == nil:
			a, b, an, bn = c.Uniform.Low, c.Uniform.High, "uniform.low", "uniform.high"
		case c.Discrete != nil && c.Gaussian == nil && c.Uniform == nil:
			a, an = c.Discrete.Levels, "discrete.levels"
		default:
			return pointGen{}, r.doc.At(fmt.Sprintf("%s.mixture[%d]", path, i)).Errorf(cf, "each mixture component is exactly one of gaussian, uniform or discrete")
		}
		var err error
		if comp.a, err = params(a, cf+"."+an, d); err != nil {
			return pointGen{}, err
		}
		if !comp.discrete {
			if comp.b, err = params(b, cf+"."+bn, d); err != nil {
				return pointGen{}, err
			}
		}
		if len(mix) > 1 {
			if !c.Weight.Set {
				c.Weight = format.Scalar{Set: true, Text: "1", Line: a.Line, Col: a.Col}
			}
			if comp.weight, err = expr.Compile(c.Weight, cf+".weight", d, false, false); err != nil {
				return pointGen{}, err
			}
		}
		pg.comps = append(pg.comps, comp)
	}
	return pg, nil
}

// params compiles a per-feature parameter: one value for every feature, or a list of d values.
func params(v format.Scalars, field string, d int) ([]*expr.Program, error) {
	if !v.Set || len(v.Items) == 0 {
		return nil, v.Place().Errorf(field, "is required")
	}
	if len(v.Items) != 1 && len(v.Items) != d {
		return nil, v.Place().Errorf(field, "has %d values; give 1 (for every feature) or %d (one per feature)", len(v.Items), d)
	}
	out := make([]*expr.Program, d)
	for k := range d {
		item := v.Items[min(k, len(v.Items)-1)]
		p, err := expr.Compile(item, field, d, false, false)
		if err != nil {
			return nil, err
		}
		out[k] = p
	}
	return out, nil
}
