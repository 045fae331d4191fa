package algos

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Tuned is the outcome of an exact threshold search: the chosen value (the midpoint rule), the
// offline cost it gives, its number of offline retrains, and the optimal interval (Low, High] it
// was chosen from: every threshold in it gives that cost with those retrains offline. Low is -Inf
// when the interval is unbounded below, High +Inf when it is unbounded above.
type Tuned struct {
	Value     float64
	Cost      float64
	Retrains  int
	Low, High float64
}

// Tie says which threshold of the optimal interval (Low, High] the tuning takes
// (docs/conventions.md, "the tie rule"): the offline block cannot tell them apart, the online
// block can. TieMid, the zero value, is the convention's and the paper's numbers' midpoint.
type Tie int

const (
	TieMid  Tie = iota // the midpoint; the finite end when unbounded below, +Inf when unbounded above
	TieLow             // just above Low (the smallest float64 in the interval); as TieMid when unbounded below
	TieHigh            // High itself (the interval is closed above); +Inf when unbounded above
)

var tieNames = []string{"mid", "low", "high"}

// String is the name a scenario's tuning.tie uses.
func (t Tie) String() string {
	if t >= 0 && int(t) < len(tieNames) {
		return tieNames[t]
	}
	return fmt.Sprintf("Tie(%d)", int(t))
}

// ParseTie reads low, mid or high.
func ParseTie(s string) (Tie, error) {
	if i := slices.Index(tieNames, s); i >= 0 {
		return Tie(i), nil
	}
	return 0, fmt.Errorf("the tie rule must be low, mid or high, got %q", s)
}

// Pick is the threshold the tie rule takes from the optimal interval.
func (tu Tuned) Pick(tie Tie) float64 {
	switch {
	case tie == TieLow && !math.IsInf(tu.Low, -1):
		return math.Nextafter(tu.Low, math.Inf(1))
	case tie == TieHigh:
		return tu.High
	}
	return tu.Value
}

// Interval is an optimal interval of thresholds (Low, High] on the offline block, as Tuned has it.
type Interval struct{ Low, High float64 }

// GoString keeps the Go syntax of Options as it was before Tie, while Tie is the default: a
// scenario's content hash (scenarios.Hash) prints its options with %#v, and a sweep resumes only
// into rows of the same hash.
func (o Options) GoString() string {
	type options Options // fmt's own %#v, without this method
	s := strings.Replace(fmt.Sprintf("%#v", options(o)), "algos.options{", "algos.Options{", 1)
	if o.Tie == TieMid {
		s = strings.Replace(s, ", Tie:0", "", 1)
	}
	return s
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
	upper, lower := cands[hi], math.Inf(-1)
	if lo > 0 {
		lower = cands[lo-1]
	}
	var value float64
	switch {
	case math.IsInf(upper, 1):
		value = upper
	case lo == 0:
		value = upper // unbounded below: its finite end
	default:
		value = (lower + upper) / 2
	}
	return Tuned{Value: value, Cost: best.cost, Retrains: best.retrains, Low: lower, High: upper}
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
