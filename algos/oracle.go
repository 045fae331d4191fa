package algos

import (
	"fmt"
	"math"
	"slices"
)

// Oracle returns the retrospectively optimal strategy over start..end: the paper's "Memoize DP
// table" and "Oracle retrains" algorithms. D[t][p] is the cheapest cost of batches start..t with the
// model of p in use at t; D[t][t] = C[t,t] + min over p' of D[t-1][p'], D[t][p] = C[p,t] + D[t-1][p]
// for p < t. Ties go to the smallest index, so among optimal strategies the one that keeps the older
// model wins. O(n^2) time and memory for n = end-start+1 batches.
func Oracle(c Costs, start, end int) Strategy {
	retrains := OracleRetrains(c, start, end)
	return Replay(c, start, end, oraclePolicy(retrains))
}

// OracleRetrains returns the Oracle's RETRAIN batches over start..end (start itself excluded).
func OracleRetrains(c Costs, start, end int) []int {
	n := end - start + 1
	d := make([][]float64, n)
	for t := range d {
		d[t] = make([]float64, t+1)
	}
	d[0][0] = c.At(start, start)
	for t := 1; t < n; t++ {
		d[t][0] = d[t-1][0] + c.At(start, start+t)
		for p := 1; p < t; p++ {
			d[t][p] = d[t-1][p] + c.At(start+p, start+t)
		}
		d[t][t] = c.At(start+t, start+t) + minOf(d[t-1])
	}
	var retrains []int
	for p := argmin(d[n-1]); p > 0; p = argmin(d[p-1]) {
		retrains = append(retrains, start+p)
	}
	slices.Sort(retrains)
	return retrains
}

func minOf(v []float64) float64 { return v[argmin(v)] }

// argmin returns the first index of the smallest value.
func argmin(v []float64) int {
	best := 0
	for i, x := range v {
		if x < v[best] {
			best = i
		}
	}
	return best
}

// oraclePolicy retrains exactly at the given batches.
type oraclePolicy []int

func (o oraclePolicy) Decide(c Costs, t, tp int) bool {
	_, ok := slices.BinarySearch(o, t)
	return ok
}

func (o oraclePolicy) Explain(c Costs, t, tp int, retrain bool) string {
	if retrain {
		return fmt.Sprintf("retrain: hindsight-optimal (QDMdiff %.4g, R %.4g)", c.At(tp, t), c.R(t))
	}
	return fmt.Sprintf("keep: hindsight-optimal (QDMdiff %.4g)", c.At(tp, t))
}

// RMax is the smallest constant retraining cost at which the Oracle over batches 0..n-1 never
// retrains (Oracle = Never-retrain): the top of the range (0, R_max] that sweeps explore. It is
// also the largest R that changes the Oracle, since the Oracle's retrain count never rises with R.
// The paper reads it from the offline cost matrix of batches 0..T_off inclusive, n = Offline()+1
// (cells up to column n-1 must be computed). A strategy with k >= 1 retrains costs (k+1)R + S_k
// and Never-retrain costs R + S_never, so the Oracle never retrains iff R >= (S_never - S_k)/k
// for every k, where S_k is the least staleness with exactly k retrains. Returns 0 when never
// retraining is optimal at any cost.
func RMax(m Matrix, n int) float64 {
	if n < 2 {
		return 0
	}
	// row[p][q] = sum of C[p, p+1..q-1]: the staleness of keeping model p until just before q.
	row := make([][]float64, n)
	for p := range n {
		row[p] = make([]float64, n+1)
		for q := p + 2; q <= n; q++ {
			row[p][q] = row[p][q-1] + m.Staleness(p, q-1)
		}
	}
	never := row[0][n]
	// g[q] = least staleness of batches 0..q-1 with the k-th retrain at q.
	g := make([]float64, n)
	for q := 1; q < n; q++ {
		g[q] = row[0][q]
	}
	rmax := 0.0
	for k := 1; k < n; k++ {
		if k > 1 {
			next := make([]float64, n)
			for q := range next {
				next[q] = math.Inf(1)
				for p := k - 1; p < q; p++ {
					next[q] = min(next[q], g[p]+row[p][q])
				}
			}
			g = next
		}
		sk := math.Inf(1)
		for p := k; p < n; p++ {
			sk = min(sk, g[p]+row[p][n])
		}
		rmax = max(rmax, (never-sk)/float64(k))
	}
	// Rounding can leave the Oracle's tie at exactly R_max on the retraining side: step up by a
	// few ulps until it never retrains.
	for step := 1.0; step < 1<<40 && len(OracleRetrains(Costs{M: m, R: Constant(rmax)}, 0, n-1)) > 0; step *= 2 {
		rmax = math.Nextafter(rmax, math.Inf(1)) + step*ulp(rmax)
	}
	return rmax
}

func ulp(x float64) float64 { return math.Nextafter(x, math.Inf(1)) - x }
