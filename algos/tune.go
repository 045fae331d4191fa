package algos

import (
	"math"
	"slices"
)

// Tuned is the outcome of an exact threshold search: the chosen value, the offline cost it gives
// and its number of offline retrains.
type Tuned struct {
	Value    float64
	Cost     float64
	Retrains int
}

// TuneThreshold finds CARA-T's theta (cumulative false) or CARA-CT's theta_c (cumulative true) that
// minimises the strategy cost over start..end, exactly.
//
// Why a finite search is exact: the decision "keep iff v < theta" depends on theta only through
// which candidate values v lie below it. With the distinct candidates v_1 < ... < v_k (cell values
// for CARA-T, partial sums S(t', t) = sum of C[t', t'+1..t] for CARA-CT), every theta in the interval
// (v_{i-1}, v_i] behaves like theta = v_i, and every theta above v_k like +Inf. So trying each v_i
// and +Inf visits every behaviour once.
//
// Ties (docs/conventions.md): among optimal intervals keep those with the fewest retrains; merge
// adjacent ones into maximal intervals; take the highest; return its midpoint, its finite end when
// it is unbounded below, +Inf when it is unbounded above.
func TuneThreshold(c Costs, start, end int, cumulative bool) Tuned {
	var cands []float64
	for tp := start; tp <= end; tp++ {
		sum := 0.0
		for t := tp + 1; t <= end; t++ {
			v := c.At(tp, t)
			if cumulative {
				sum += v
				v = sum
			}
			cands = append(cands, v)
		}
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	cands = append(cands, math.Inf(1))

	// Interval i is (cands[i-1], cands[i]], with cands[-1] = -Inf.
	type outcome struct {
		cost     float64
		retrains int
	}
	outs := make([]outcome, len(cands))
	best := outcome{cost: math.Inf(1)}
	for i, v := range cands {
		var p Policy = Threshold{Theta: v}
		if cumulative {
			p = &Cumulative{Theta: v}
		}
		cost, retrains := replayCost(c, start, end, p)
		outs[i] = outcome{cost, retrains}
		if o := outs[i]; o.cost < best.cost || (o.cost == best.cost && o.retrains < best.retrains) {
			best = o
		}
	}
	// The highest optimal interval, extended downward over adjacent optimal intervals.
	hi := len(cands) - 1
	for outs[hi] != best {
		hi--
	}
	lo := hi
	for lo > 0 && outs[lo-1] == best {
		lo--
	}
	upper := cands[hi]
	var value float64
	switch {
	case math.IsInf(upper, 1):
		value = upper
	case lo == 0:
		value = upper // unbounded below: its finite end
	default:
		value = (cands[lo-1] + upper) / 2
	}
	return Tuned{Value: value, Cost: best.cost, Retrains: best.retrains}
}

// TunePeriodic finds CARA-P's period p in 1..n and offset o in 0..p-1 (n = end-start+1), or
// p = +Inf (never retrain, P == 0), that minimise the strategy cost over start..end. Ties: never
// first (it has no retrain, and a period that retrains at no offline batch would still retrain
// online), then fewest retrains, then smallest p, then smallest o.
func TunePeriodic(c Costs, start, end int) (Periodic, float64) {
	n := end - start + 1
	best, retrains := Periodic{}, 0
	cost, _ := replayCost(c, start, end, best)
	for pp := 1; pp <= n; pp++ {
		for oo := range pp {
			if cc, r := replayCost(c, start, end, Periodic{P: pp, O: oo}); cc < cost || (cc == cost && r < retrains) {
				best, cost, retrains = Periodic{P: pp, O: oo}, cc, r
			}
		}
	}
	return best, cost
}
