package algos

import (
	"math"
	"math/rand/v2"
	"slices"
)

// KSWIN is the Kolmogorov-Smirnov windowing detector of Raab, Heusinger & Schleif (2020),
// "Reactive Soft Prototype Computing for Concept Drift Streams", with scikit-multiflow 0.5.3's
// defaults (alpha 0.005, window 100, statistic window 30) and its order of steps. It keeps the
// last 100 values. Once the window is full, each update first drops the oldest, then compares
// the newest 30 (R) with 30 values drawn at random, with replacement, from the 69 before them
// (W) by a two-sample Kolmogorov-Smirnov test with the exact p-value; a p-value <= alpha with a
// statistic > 0.1 is a drift, and the window keeps only R. The value given is added last.
//
// What it is sensitive to: only the last 100 values, a tenth of a 1000-point batch, so it sees
// sharp changes and is blind to slow ones; the test is two-sided, so a fall in the error rate
// (a model that suddenly fits better) fires it as a rise does; with 0-1 errors the statistic is
// the difference of the two windows' error rates, in steps of 1/30, and the p-value is small
// enough (<= 0.005) from a difference of 14/30 on; and W is a random sample, so the same
// errors can fire it or not depending on the draws. The draws come from a stream seeded by the
// run's seed, so a run's alarms are the same on any machine and number of workers.
type KSWIN struct {
	seed   uint64
	rng    *rand.Rand
	window []float64
	stat   float64 // the last test's statistic and p-value (NaN before the first test)
	p      float64
	sample []float64 // scratch for W
}

// KSWIN parameters: scikit-multiflow's defaults.
const (
	kswinAlpha    = 0.005
	kswinWindow   = 100
	kswinStatSize = 30
	kswinMinStat  = 0.1
)

// kswinP[h] is the exact p-value P(D >= h/30) of the two-sample test of two samples of 30.
var kswinP = ksPValues(kswinStatSize)

// NewKSWIN returns a KSWIN detector with scikit-multiflow's defaults, drawing its samples from a
// stream seeded by seed.
func NewKSWIN(seed uint64) *KSWIN {
	k := &KSWIN{seed: seed, window: make([]float64, 0, kswinWindow), sample: make([]float64, kswinStatSize)}
	k.Reset()
	return k
}

// Reset forgets everything seen, and starts the random draws over: a reset detector is a new one.
func (k *KSWIN) Reset() {
	k.rng = rand.New(rand.NewPCG(k.seed, 0x4b5357494e)) // "KSWIN": a stream of its own
	k.window = k.window[:0]
	k.stat, k.p = math.NaN(), math.NaN()
}

// Test is the statistic and p-value of the last test (NaN before the window first filled).
func (k *KSWIN) Test() (stat, p float64) { return k.stat, k.p }

// Update adds x and reports a drift at this update.
func (k *KSWIN) Update(x float64) bool {
	drift := false
	if len(k.window) >= kswinWindow {
		k.window = append(k.window[:0], k.window[1:]...)
		old, recent := k.window[:len(k.window)-kswinStatSize], k.window[len(k.window)-kswinStatSize:]
		for i := range k.sample {
			k.sample[i] = old[k.rng.IntN(len(old))]
		}
		k.stat = ksStatistic(k.sample, recent)
		k.p = kswinP[ksSteps(k.stat, kswinStatSize)]
		if k.p <= kswinAlpha && k.stat > kswinMinStat {
			drift = true
			k.window = append(k.window[:0], recent...)
		}
	}
	k.window = append(k.window, x)
	return drift
}

// ksStatistic is the two-sample Kolmogorov-Smirnov statistic of a and b, samples of the same size:
// the largest gap between their empirical distribution functions. Values that are all 0 or 1 (a
// detector's errors) take a count; others are sorted.
func ksStatistic(a, b []float64) float64 {
	if ones, ok := countOnes(a); ok {
		if onesB, ok := countOnes(b); ok {
			return float64(absInt(ones-onesB)) / float64(len(a))
		}
	}
	sa, sb := slices.Clone(a), slices.Clone(b)
	slices.Sort(sa)
	slices.Sort(sb)
	d, i, j := 0, 0, 0
	for i < len(sa) && j < len(sb) {
		v := min(sa[i], sb[j])
		for i < len(sa) && sa[i] == v {
			i++
		}
		for j < len(sb) && sb[j] == v {
			j++
		}
		d = max(d, absInt(i-j))
	}
	return float64(d) / float64(len(a))
}

// countOnes counts the 1s of v, ok when every value is 0 or 1.
func countOnes(v []float64) (int, bool) {
	n := 0
	for _, x := range v {
		switch x {
		case 1:
			n++
		case 0:
		default:
			return 0, false
		}
	}
	return n, true
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ksSteps is D as a whole number of steps of 1/n (D of two samples of n is always one).
func ksSteps(d float64, n int) int { return int(d*float64(n) + 0.5) }

// ksPValues are the exact p-values P(D >= h/n), h = 0..n, of the two-sided two-sample test of two
// samples of n drawn from one continuous distribution (the null of scipy's ks_2samp, mode exact,
// which scikit-multiflow calls). By the reflection principle (Gnedenko & Korolyuk 1951), the
// share of the C(2n, n) orderings whose paths leave the band |i - j| < h is
// 2 sum over k >= 1 of (-1)^(k+1) C(2n, n - k h) / C(2n, n); each ratio is a product of h
// factors, so nothing overflows.
func ksPValues(n int) []float64 {
	out := make([]float64, n+1)
	out[0] = 1
	for h := 1; h <= n; h++ {
		sum, sign := 0.0, 1.0
		for k := 1; k*h <= n; k++ {
			// C(2n, n-kh) / C(2n, n) = prod over j < kh of (n - j) / (n + 1 + j).
			r := 1.0
			for j := range k * h {
				r *= float64(n-j) / float64(n+1+j)
			}
			sum += sign * r
			sign = -sign
		}
		out[h] = min(1, max(0, 2*sum))
	}
	return out
}
