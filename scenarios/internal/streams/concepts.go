package streams

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/cara-sim/cara/scenarios/internal/expr"
	"github.com/cara-sim/cara/sim"
)

// concept is a labelling rule in force from time at (a batch, or a point within one: 0.5 is the
// middle of batch 0), entered through a transition of width batches: a point at time tau (its batch plus its place in the batch) takes the new concept's
// label with probability p(tau), p rising from 0 at at to 1 at at+width (linearly, or as a sigmoid
// centred at at+width/2 with slope 4/width, as MOA's concept-drift streams do; the sigmoid is cut
// at both ends of the transition, where it is 0.12 and 0.88). Before and after, the choice is
// certain.
type concept struct {
	at      float64
	label   *expr.Program
	width   float64
	sigmoid bool
}

func (c concept) probability(tau float64) float64 {
	if c.width <= 0 {
		if tau >= c.at {
			return 1
		}
		return 0
	}
	if c.sigmoid {
		return 1 / (1 + math.Exp(-4*(tau-(c.at+c.width/2))/c.width))
	}
	return min(1, max(0, (tau-c.at)/c.width))
}

// pick returns the concept that labels a point at time tau: the last one begun by tau, or, during
// its transition, the one before it unless a coin of probability p(tau) says otherwise.
func pick(concepts []concept, tau float64, rng *rand.Rand) *concept {
	j := len(concepts) - 1
	for j > 0 && concepts[j].at > tau {
		j--
	}
	c := &concepts[j]
	if j > 0 && c.width > 0 && tau < c.at+c.width && rng.Float64() >= c.probability(tau) {
		return &concepts[j-1]
	}
	return c
}

// label labels the points x of batch t by the concept timeline; point i of n stands at time
// tau = t + (i+0.5)/n. noise flips each label with that probability. Transition coins and noise
// draw from rng, in point order.
func (g *genData) label(ev *expr.Evaluator, t int, x sim.Points, rng *rand.Rand, noise float64) ([]uint8, error) {
	n := x.Len()
	y := make([]uint8, n)
	for i := range n {
		c := pick(g.concepts, float64(t)+(float64(i)+0.5)/float64(n), rng)
		v, err := ev.Cond(c.label, "label", t, x.Row(i))
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

// Drifts implements dataSource: the true drift intervals, named as the literature names them
// (Gama et al. 2014, "A survey on concept drift adaptation"). Each change of concept in the
// timeline is one, over its transition: abrupt without one; gradual through a transition, linear
// or sigmoid, since a point then takes the old or the new concept with a changing probability (a
// mixture of two concepts); recurring when an earlier concept comes back. A label expression that
// reads t changes the concept itself: batch t is a drift when the expression labels batch t's
// points differently at t-1 and at t, and consecutive such batches form one incremental drift (a
// concept that moves continuously).
func (g *genData) Drifts() []sim.Drift {
	g.driftsOnce.Do(func() { g.drifts = g.findDrifts() })
	return slices.Clone(g.drifts)
}

func (g *genData) findDrifts() []sim.Drift {
	out := []sim.Drift{} // known, even when there is none
	inTransition := make([]bool, g.T)
	for j := 1; j < len(g.concepts); j++ {
		c := g.concepts[j]
		if c.at >= float64(g.T) {
			continue
		}
		from := int(math.Floor(c.at))
		d := sim.Drift{From: from, To: min(g.T-1, max(from, int(math.Ceil(c.at+c.width))-1)), Kind: sim.DriftAbrupt}
		switch {
		case slices.ContainsFunc(g.concepts[:j-1], func(o concept) bool { return o.label.Src == c.label.Src }):
			d.Kind = sim.DriftRecurring
		case c.width > 0:
			d.Kind = sim.DriftGradual
		}
		for t := d.From; t <= d.To; t++ {
			inTransition[t] = true
		}
		// Changes within one batch (a transition and the return from it, as a generator that
		// changes concept every so many points has) are one drift, gradual if any is.
		if k := len(out) - 1; k >= 0 && out[k].From == d.From && out[k].To == d.To {
			if d.Kind == sim.DriftGradual || out[k].Kind == sim.DriftAbrupt {
				out[k].Kind = d.Kind
			}
			continue
		}
		out = append(out, d)
	}
	// Changes of a label expression over t, outside transitions.
	ev := g.ev()
	defer g.evaluator.Put(ev)
	changed := func(t int) bool {
		if inTransition[t] {
			return false
		}
		c := pick(g.concepts, float64(t), nil) // no coin: t is outside every transition
		if !c.label.UsesT || c.at == float64(t) {
			return false
		}
		pt := t
		if !g.resample {
			pt = 0
		}
		x, err := g.points.draw(ev, pt, g.n, g.d, sim.NewRand(g.seed, 2, uint64(pt)))
		if err != nil {
			return false // Data(t) reports it
		}
		for i := range x.Len() {
			a, err1 := ev.Cond(c.label, "label", t-1, x.Row(i))
			b, err2 := ev.Cond(c.label, "label", t, x.Row(i))
			if err1 == nil && err2 == nil && a != b {
				return true
			}
		}
		return false
	}
	for t := 1; t < g.T; t++ {
		if !changed(t) {
			continue
		}
		if k := len(out) - 1; k >= 0 && out[k].To == t-1 && out[k].Kind != sim.DriftGradual && out[k].Kind != sim.DriftRecurring && !inTransition[t-1] {
			out[k].To, out[k].Kind = t, sim.DriftIncremental
			continue
		}
		out = append(out, sim.Drift{From: t, To: t, Kind: sim.DriftAbrupt})
	}
	slices.SortStableFunc(out, func(a, b sim.Drift) int { return a.From - b.From })
	return out
}
