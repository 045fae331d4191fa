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
	var out, over []string
	for _, r := range res {
		c := r.Strategy.Cost()
		if math.IsInf(c, 0) || math.IsNaN(c) {
			over = append(over, r.Algorithm.Display())
		} else if r.Algorithm == NameOracle && !(c > 0) {
			out = append(out, fmt.Sprintf("the Oracle's cost is %.4g (<= 0): SCPE is undefined and reported as null; the gap (cost - Oracle) stands in for it", c))
		}
	}
	if len(over) > 0 {
		out = append(out, fmt.Sprintf("the strategy cost of %s overflows a 64-bit float (beyond %.3g): it, its SCPE and its gap are reported as null or inf; use smaller retraining costs",
			strings.Join(over, ", "), math.MaxFloat64))
	}
	return out
}
