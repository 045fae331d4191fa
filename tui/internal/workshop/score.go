package workshop

import (
	"slices"
	"strings"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

// How an answer is scored and priced. A question is asked on a run: the matrix the panes show
// (the run's, or a what-if's) at the R in force (R's scale applied). The answer is scored and
// priced on that run whatever is shown later (a tour's last stop puts up a what-if; R's scale
// changes): the reveal, the results pane's "You", the room's summary and the answers file all
// speak of the run the question was about.
//
// An answer is priced as the paper prices a strategy, C[s_j, j] summed: the answer at t decides
// the model in use from t on, until the next decision that changes it, the next batch at which
// the Oracle retrains (from there on both use the Oracle's model) or the next batch answered
// (whose question names its own model in use). Over those batches the answer pays what its model
// costs (R_t and the new model's staleness after a RETRAIN, the kept model's staleness after a
// KEEP) and the Oracle pays what its own path costs: a wrong KEEP pays for the batches after.

// askedOn is the run a question was asked on.
type askedOn struct {
	m      *sim.Matrix
	r      algos.RetrainCost
	scale  float64
	whatIf string // the what-if shown, one --set a line ("" for the run itself)
	// oracle is the Oracle on this run in hindsight, over its whole online block, once known: the
	// player's replay of it while it is shown, else the paper's DP, computed once (nil until then).
	oracle *algos.Strategy
}

// runOf is the run f shows, as a question asked now is asked on it.
func runOf(f Frame) *askedOn {
	return &askedOn{m: f.Matrix, r: f.R, scale: f.Scale, whatIf: strings.Join(f.WhatIf, "\n")}
}

// shownIn reports whether f shows the run: the same matrix at the same R.
func (a *askedOn) shownIn(f Frame) bool {
	return a.m == f.Matrix && a.scale == f.Scale && a.whatIf == strings.Join(f.WhatIf, "\n")
}

// costs is the run's cost matrix.
func (a *askedOn) costs() algos.Costs { return algos.Costs{M: a.m, R: a.r} }

// oracleIn is the Oracle on the run, and whether it is only the best so far: f's own (the one
// replay every pane reads) while f shows the run; else the DP over the run's whole online block,
// whose columns are all in (a what-if is made of a finished run; a run changed only in R's scale
// is the one f shows, as far as f has it).
func (a *askedOn) oracleIn(f Frame) (algos.Strategy, bool) {
	if a.oracle != nil {
		return *a.oracle, false // the run's Oracle in hindsight: it does not change
	}
	if a.shownIn(f) {
		if o := oracleOfWhole(f); o != nil {
			a.oracle = o // kept: a summary asks for it once an answer, the room's thirty times
			return *o, false
		}
		return oracleOf(f), f.Provisional
	}
	end := a.m.Batches() - 1
	if a.m == f.Matrix {
		end = f.Computed - 1
	}
	off := a.m.Offline()
	if end <= off {
		return algos.Strategy{}, true
	}
	o := algos.Oracle(a.costs(), off, end)
	if end < a.m.Batches()-1 {
		return o, true // not kept: more columns come
	}
	a.oracle = &o
	return o, false
}

// oracleOfWhole is the Oracle over the whole online block of the run f shows, nil until the
// matrix is in.
func oracleOfWhole(f Frame) *algos.Strategy {
	if whole := f.WholeBlock; whole != nil {
		for _, r := range whole() {
			if r.Algorithm == algos.NameOracle {
				return &r.Strategy
			}
		}
	}
	return nil
}

// retrains reports whether strategy s retrains at t.
func retrains(s algos.Strategy, t int) bool {
	_, ok := slices.BinarySearch(s.Retrains, t)
	return ok
}

// priced is an answer priced against the Oracle: over batches t..last, what the answer's model
// costs there (cost) and what the Oracle's path does (oracle).
type priced struct {
	cost, oracle float64
	last         int
}

// price prices answering retrain at t, about model tp in use, on costs c against the Oracle o:
// over t up to the batch before the next one that decides again (o's next retrain after t, or
// next, the next batch answered; -1 for none), and no further than upTo or o's end. ok is false
// when t is not in o's online block (the first online batch is every strategy's retrain).
func price(c algos.Costs, o algos.Strategy, t, tp int, retrain bool, next, upTo int) (priced, bool) {
	i := t - o.Start
	if i <= 0 || t > o.End || i >= len(o.Cumulative) {
		return priced{}, false
	}
	last := min(upTo, o.End)
	if k, _ := slices.BinarySearch(o.Retrains, t+1); k < len(o.Retrains) {
		last = min(last, o.Retrains[k]-1)
	}
	if next > t {
		last = min(last, next-1)
	}
	model := tp
	if retrain {
		model = t
	}
	p := priced{last: last}
	for j := t; j <= last; j++ {
		p.cost += c.At(model, j)
	}
	p.oracle = o.Cumulative[last-o.Start] - o.Cumulative[i-1]
	return p, true
}
