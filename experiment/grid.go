package experiment

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cara-sim/cara/algos"
)

// AutoSteps is how many costs --costs auto spreads over (0, R_max].
const AutoSteps = 25

// CostSpec is a sweep's retraining costs: auto (N steps over (0, R_max]), or FROM:TO:N evenly
// spaced, both ends included.
type CostSpec struct {
	Auto     bool
	From, To float64
	N        int
}

// MaxCostSteps bounds N in --costs: a grid is held in memory and a client of a server may ask
// for one.
const MaxCostSteps = 100_000

// ParseCosts reads auto, auto:N or FROM:TO:N.
func ParseCosts(s string) (CostSpec, error) {
	if s == "auto" {
		return CostSpec{Auto: true, N: AutoSteps}, nil
	}
	if rest, ok := strings.CutPrefix(s, "auto:"); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || n > MaxCostSteps || strconv.Itoa(n) != rest {
			return CostSpec{}, fmt.Errorf("--costs auto:N needs a whole N from 1 to %d, got %q", MaxCostSteps, s)
		}
		return CostSpec{Auto: true, N: n}, nil
	}
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return CostSpec{}, fmt.Errorf("--costs must be auto, auto:N or FROM:TO:N (e.g. 1:100:25), got %q", s)
	}
	from, e1 := strconv.ParseFloat(parts[0], 64)
	to, e2 := strconv.ParseFloat(parts[1], 64)
	n, e3 := strconv.Atoi(parts[2])
	if e1 != nil || e2 != nil || e3 != nil || n < 1 || !(from >= 0) || !(to >= from) || math.IsInf(to, 0) {
		return CostSpec{}, fmt.Errorf("--costs FROM:TO:N needs 0 <= FROM <= TO and N >= 1, got %q", s)
	}
	if n > MaxCostSteps {
		return CostSpec{}, fmt.Errorf("--costs %s: N is at most %d", s, MaxCostSteps)
	}
	if from == to && n > 1 { // N equal costs would be one row each, kept once: N asked, 1 given
		return CostSpec{}, fmt.Errorf("--costs %s is %d equal costs; give N = 1 (%g:%g:1) or TO > FROM", s, n, from, to)
	}
	return CostSpec{From: from, To: to, N: n}, nil
}

// String is the spec as --costs reads it back: auto:N, or FROM:TO:N in the shortest decimals that
// round-trip. A sweep's rows carry it, so that files of two grids are told apart.
func (c CostSpec) String() string {
	if c.Auto {
		return "auto:" + strconv.Itoa(c.N)
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return f(c.From) + ":" + f(c.To) + ":" + strconv.Itoa(c.N)
}

// Grid lists the retraining costs: FROM:TO:N evenly spaced, or for auto N steps over (0, R_max]
// with R_max the largest of rmaxes (one per seed), so that every seed replays the same costs and
// figures over seeds average like with like. warning is set when R_max is about 0 against scale,
// the offline block's typical |C|.
func (c CostSpec) Grid(rmaxes []float64, scale float64) (costs []float64, warning string) {
	out := make([]float64, c.N)
	if !c.Auto {
		for i := range out {
			if c.N == 1 {
				out[i] = c.From
			} else {
				out[i] = c.From + (c.To-c.From)*float64(i)/float64(c.N-1)
			}
		}
		return out, ""
	}
	rmax := 0.0
	for _, r := range rmaxes {
		rmax = max(rmax, r)
	}
	if rmax <= negligible*scale {
		warning = fmt.Sprintf("R_max is about 0 (%.3g): no retrain pays on the offline block at any R; pass --costs FROM:TO:N", rmax)
		if rmax <= 0 {
			rmax = 1e-6 // a tiny range still shows that never retraining is optimal
		}
	}
	for i := range out {
		out[i] = rmax * float64(i+1) / float64(c.N)
	}
	return out, warning
}

// RRange is where the auto grid's R_max comes from and how seeds share it.
type RRange int

const (
	// RangePaper is the paper's (its appendix): R_max the smallest R at which the Oracle on the
	// offline matrix of batches 0..T_off inclusive ("0 <= t <= T_off") equals Never-retrain, one
	// grid per seed. Of every definition tried, it brought most of the paper's numbers within
	// x1.5 (docs/conventions.md).
	RangePaper RRange = iota
	// RangeRoundTwo is round two's: the Oracle on batches 0..T_off-1, one grid for every seed
	// from the largest R_max.
	RangeRoundTwo
)

// String is the name the command line uses: paper or round-two.
func (r RRange) String() string {
	if r == RangeRoundTwo {
		return "round-two"
	}
	return "paper"
}

// ParseRRange reads paper or round-two.
func ParseRRange(s string) (RRange, error) {
	switch s {
	case "paper":
		return RangePaper, nil
	case "round-two":
		return RangeRoundTwo, nil
	}
	return 0, fmt.Errorf("the R range must be paper or round-two, got %q", s)
}

// RMax is a seed's R_max under this definition (m holds column T_off: OfflineMatrix computes it).
func (r RRange) RMax(m algos.Matrix) float64 {
	if r == RangeRoundTwo {
		return algos.RMax(m, m.Offline())
	}
	return algos.RMax(m, m.Offline()+1)
}

// Grids lists each seed's retraining costs from its R_max and offline scale: with RangePaper its
// own grid, with RangeRoundTwo one grid from the largest R_max, the same for every seed. The
// warnings are those of Grid, once each.
func (c CostSpec) Grids(r RRange, rmaxes, scales []float64) (grids [][]float64, warnings []string) {
	if r == RangeRoundTwo || !c.Auto {
		g, w := c.Grid(rmaxes, slices.Max(append([]float64{0}, scales...)))
		for range rmaxes {
			grids = append(grids, g)
		}
		if w != "" {
			warnings = append(warnings, w)
		}
		return grids, warnings
	}
	for i, rmax := range rmaxes {
		g, w := c.Grid([]float64{rmax}, scales[i])
		grids = append(grids, g)
		if w != "" && !slices.Contains(warnings, w) {
			warnings = append(warnings, w)
		}
	}
	return grids, warnings
}

// negligible is how small R_max is against the offline block's typical |C| to count as about 0.
const negligible = 1e-6

// OfflineScale is the mean |C[t', t]| over the offline block's off-diagonal cells: the scale an
// R_max is compared with.
func OfflineScale(m algos.Matrix) float64 {
	sum, n := 0.0, 0
	for t := 1; t < m.Offline(); t++ {
		for tp := range t {
			if v := m.Staleness(tp, t); !math.IsNaN(v) {
				sum += math.Abs(v)
				n++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// ScaleRMax is R_max for a sweep over factors of a retraining cost r that varies with t: the
// smallest factor f at which the Oracle on the offline matrix of batches 0..T_off inclusive, with
// R_t = f*r(t), never retrains. The Oracle's retrains never rise with f (for r >= 0, a set of
// retrains cheaper than none at f is cheaper still at any smaller f), so a bisection finds it, to
// the last bit. ok is false when no factor makes never retraining optimal: a batch whose r(t) is 0
// and whose retrain pays at any factor.
func ScaleRMax(m algos.Matrix, r algos.RetrainCost) (rmax float64, ok bool) {
	end := m.Offline() // batches 0..T_off
	never := func(f float64) bool {
		return len(algos.OracleRetrains(algos.Costs{M: m, R: Scaled(r, f)}, 0, end)) == 0
	}
	if never(0) {
		return 0, true
	}
	lo, hi := 0.0, 1.0
	for !never(hi) {
		if lo, hi = hi, 2*hi; math.IsInf(hi, 0) {
			return math.Inf(1), false
		}
	}
	for {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			return hi, true
		}
		if never(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
}

// Scaled is the retraining cost f*r(t).
func Scaled(r algos.RetrainCost, f float64) algos.RetrainCost {
	return func(t int) float64 { return f * r(t) }
}
