package experiment

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Confidence is the level of every interval and test over seeds: 95 %, two-sided, from Student's
// t with n-1 degrees of freedom (n seeds): the seeds are the independent draws, the costs of one
// seed's grid are not.
const Confidence = 0.95

// HalfWidth95 is the half-width of the 95 % t-interval of the mean of the defined values of xs:
// t(0.975, n-1) * s / sqrt(n), s the sample standard deviation. NaN with fewer than two values.
func HalfWidth95(xs []float64) float64 {
	vals := defined(xs)
	n := len(vals)
	if n < 2 {
		return math.NaN()
	}
	sd := stat.StdDev(vals, nil)
	return tQuantile(n-1) * sd / math.Sqrt(float64(n))
}

// tQuantile is the two-sided critical value of Student's t at Confidence with df degrees of
// freedom (2.776 at 4, 4.303 at 2).
func tQuantile(df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(1 - (1-Confidence)/2)
}

func defined(xs []float64) []float64 {
	var out []float64
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			out = append(out, x)
		}
	}
	return out
}

// Paired is a paired t-test over seeds of a - b: the per-seed differences (seeds where either is
// undefined left out), their mean, t = mean / (s / sqrt(n)) and its two-sided p with n-1 degrees
// of freedom. With fewer than two differences T and P are NaN; with no spread at all T is 0 (no
// difference) or infinite, and P 1 or 0.
type Paired struct {
	Diffs []Num `json:"differences"`
	Mean  Num   `json:"mean"`
	T     Num   `json:"t"`
	P     Num   `json:"p"`
}

// PairedTest tests a - b over seeds, a[i] and b[i] from the same seed.
func PairedTest(a, b []float64) Paired {
	var d []float64
	for i := range a {
		if x := a[i] - b[i]; !math.IsNaN(x) && !math.IsInf(x, 0) {
			d = append(d, x)
		}
	}
	out := Paired{Diffs: make([]Num, len(d)), Mean: Num(math.NaN()), T: Num(math.NaN()), P: Num(math.NaN())}
	for i, x := range d {
		out.Diffs[i] = Num(x)
	}
	n := len(d)
	if n == 0 {
		return out
	}
	mean, sd := stat.MeanStdDev(d, nil)
	out.Mean = Num(mean)
	if n < 2 {
		return out
	}
	switch {
	case sd == 0 && mean == 0:
		out.T, out.P = 0, 1
	case sd == 0:
		out.T, out.P = Num(math.Copysign(math.Inf(1), mean)), 0
	default:
		t := mean / (sd / math.Sqrt(float64(n)))
		dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}
		out.T, out.P = Num(t), Num(2*dist.CDF(-math.Abs(t)))
	}
	return out
}

// The words of a test's outcome; the third is notSignificant's.
const (
	Holds       = "holds"
	DoesNotHold = "does not hold"
)

// NoTest is the outcome of a comparison with no seed where both sides are defined (SCPE when
// the Oracle's cost is <= 0 on every seed).
const NoTest = "no test: undefined on every seed"

// notSignificant is the outcome of a test that shows neither: "not significant at 5 seeds".
func notSignificant(seeds int) string {
	if seeds == 1 {
		return "not significant at 1 seed"
	}
	return fmt.Sprintf("not significant at %d seeds", seeds)
}

// outcome says what a test of "a - b is on the claimed side" shows: holds when the mean
// difference is on the claimed side and p < 0.05, does not hold when it is on the other side and
// p < 0.05, else not significant at n seeds. ok is whether the claim holds on the means.
func (p Paired) outcome(ok bool) string {
	if len(p.Diffs) == 0 {
		return NoTest
	}
	if float64(p.P) < 1-Confidence {
		if ok {
			return Holds
		}
		return DoesNotHold
	}
	return notSignificant(len(p.Diffs))
}

// words is the test as a line: "t = -7.80, p = 0.001".
func (p Paired) words() string {
	if math.IsNaN(float64(p.T)) {
		return fmt.Sprintf("%d paired seed(s): no test", len(p.Diffs))
	}
	if p.P < 0.001 {
		return fmt.Sprintf("t = %s, p < 0.001", FormatNum(float64(p.T), 2))
	}
	return fmt.Sprintf("t = %s, p = %.3f", FormatNum(float64(p.T), 2), float64(p.P))
}
