package algos

import (
	"fmt"
	"math"
	"strings"
)

// negativeShare is the share of negative off-diagonal cells above which a matrix is flagged. Some
// negative cells are normal (a model a little worse on its own batch than on the next, by chance);
// past a quarter of them, the model fits its own batches badly and C stops measuring staleness.
const negativeShare = 0.25

// Warnings says where results stop meaning what they seem to: the matrix's warnings over the
// columns 0..end (MatrixWarnings) followed by those of the results (ResultWarnings). Each is one
// sentence for a person; none means all is well. The player, the tables and the JSON outputs all
// show these.
func Warnings(m Matrix, end int, res []Result) []string {
	return append(MatrixWarnings(m, end), ResultWarnings(res)...)
}

// MatrixWarnings gives the warnings of the matrix itself, when it has any (a Warnings method, as
// sim.Matrix has: a kernel that cannot tell the queries apart), and flags a cost matrix whose
// off-diagonal cells are negative in more than a quarter of the cases. The cells counted are those the algorithms read, in columns up to end: within the
// offline block, within the online block, and (T_off-1, T_off). The cells that cross from the
// offline block into the online one are left out: a headless run does not compute them, and
// counting them where they are (the player, cara matrix) gave another share for the same matrix.
func MatrixWarnings(m Matrix, end int) []string {
	neg, all := 0, 0
	off := m.Offline()
	for t := 1; t <= end && t < m.Batches(); t++ {
		for tp := range t {
			if tp < off && t >= off && !(tp == off-1 && t == off) {
				continue
			}
			v := m.Staleness(tp, t)
			if math.IsNaN(v) {
				continue
			}
			all++
			if v < 0 {
				neg++
			}
		}
	}
	var out []string
	if w, ok := m.(interface{ Warnings() []string }); ok { // the engine's own (sim.Matrix)
		out = append(out, w.Warnings()...)
	}
	if all == 0 || float64(neg) <= negativeShare*float64(all) {
		return out
	}
	return append(out, fmt.Sprintf("%.0f %% of the off-diagonal cells of C (within the offline block and within the online block) are negative: the model fits its own batch worse than later ones, so C no longer measures staleness",
		100*float64(neg)/float64(all)))
}

// ResultWarnings flags results whose SCPE is undefined because the Oracle's cost is <= 0, and
// strategy costs that overflow a float64 (reported as null, like every undefined number).
func ResultWarnings(res []Result) []string {
	var out, over, undefined []string
	for _, r := range res {
		c := r.Strategy.Cost()
		if math.IsNaN(c) {
			undefined = append(undefined, r.Algorithm.Display())
		} else if math.IsInf(c, 0) {
			over = append(over, r.Algorithm.Display())
		} else if r.Algorithm == NameOracle && !(c > 0) {
			out = append(out, fmt.Sprintf("the Oracle's cost is %.4g (<= 0): SCPE is undefined and reported as null; the gap (cost - Oracle) stands in for it", c))
		}
	}
	out = append(out, tuningWarnings(res)...)
	if len(undefined) > 0 { // a cell of C is not a number: the kernel's, not R's doing
		out = append(out, fmt.Sprintf("the strategy cost of %s is undefined (a cell of C it reads is not a number): it, its SCPE and its gap are reported as null; check the kernel (kernel.gamma) and the features' scales",
			strings.Join(undefined, ", ")))
	}
	if len(over) > 0 {
		out = append(out, fmt.Sprintf("the strategy cost of %s overflows a 64-bit float (beyond %.3g): it, its SCPE and its gap are reported as null or inf; use smaller retraining costs",
			strings.Join(over, ", "), math.MaxFloat64))
	}
	return out
}

// tuningWarnings say when the offline block gave a tuned variant nothing to learn from: CARA-T or
// CARA-CT whose offline optimum never retrains (its threshold is then +Inf, and it is
// Never-retrain online), CARA-P whose optimum never retrains or retrains once (a period found
// from one event, or none, is a guess).
func tuningWarnings(res []Result) []string {
	var out, never []string
	oneBatch := false
	for _, r := range res {
		if r.OfflineRetrains == nil || len(r.OfflineRetrains) > 1 {
			continue
		}
		switch {
		case r.Algorithm == NameCaraP && len(r.OfflineRetrains) == 1:
			out = append(out, fmt.Sprintf("CARA-P's period %g (offset %g) rests on one offline retrain, at batch %d: any period that retrains there alone costs the same offline, so the period is a guess; a longer offline block or a lower retraining cost would show whether the data repeat",
				r.Params["period"], r.Params["offset"], r.OfflineRetrains[0]))
		case len(r.OfflineRetrains) == 0:
			never = append(never, r.Algorithm.Display())
			oneBatch = r.Strategy.Start <= 1 // the online block starts where the offline one ends
		}
	}
	if len(never) == 0 {
		return out
	}
	who := "they never retrain"
	if len(never) == 1 {
		who = "it never retrains"
	}
	why := "no retrain pays there at this retraining cost"
	if oneBatch {
		why = "it is batch 0 alone, with no decision in it"
	}
	return append(out, fmt.Sprintf("%s learned nothing from the offline block: %s, so %s online, as Never-retrain does",
		strings.Join(never, ", "), why, who))
}
