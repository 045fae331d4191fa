package sim

// What the kernel sees of the batches: their points, standardised by the offline block when
// Config.Standardize asks for it (the models still see the points as they are), and each error
// weighted by its point's true class when Config.Weights asks for it. Both are beyond the paper
// and off at their zero values, where the kernel sees exactly the batches and every error counts 1.

import (
	"fmt"
	"math"
	"strings"

	"github.com/cara-sim/cara/internal/bitset"
)

// featureStat is one feature's mean and standard deviation over a set of points, kept in units of
// 2^exp: the sums of a feature near 1e300 (or 1e-300) run on its values scaled by a power of two
// (an exact scaling), so that they give its statistics instead of an overflow (or 0).
type featureStat struct {
	exp      int
	mean, sd float64 // in units of 2^exp
}

// Mean and SD are the statistics in the features' own units (+Inf when they overflow).
func (f featureStat) Mean() float64 { return math.Ldexp(f.mean, f.exp) }
func (f featureStat) SD() float64   { return math.Ldexp(f.sd, f.exp) }

// featureStats are the mean and the population standard deviation of each feature of the data of
// batches, in order (Welford's sums, point by point).
func featureStats(batches []*Batch) []featureStat {
	d := batches[0].X.D
	stats := make([]featureStat, d)
	for f := range stats {
		biggest := 0.0
		for _, b := range batches {
			for i := f; i < len(b.X.V); i += d {
				biggest = max(biggest, math.Abs(b.X.V[i]))
			}
		}
		// Only features whose squares would leave the float64 range are scaled: others are
		// summed as they are, so their statistics are the plain sums' bits.
		if biggest > 0x1p500 || biggest > 0 && biggest < 0x1p-500 {
			_, stats[f].exp = math.Frexp(biggest)
		}
	}
	n := 0.0
	mean, m2 := make([]float64, d), make([]float64, d)
	for _, b := range batches {
		for i := range b.X.Len() {
			n++
			for f, v := range b.X.Row(i) {
				v = math.Ldexp(v, -stats[f].exp)
				delta := v - mean[f]
				mean[f] += delta / n
				m2[f] += delta * (v - mean[f])
			}
		}
	}
	for f := range stats {
		stats[f].mean, stats[f].sd = mean[f], math.Sqrt(m2[f]/n)
	}
	return stats
}

// scalesText describes the features' scales for a message: the smallest and the largest standard
// deviation, each with its mean and feature.
func scalesText(stats []featureStat) string {
	lo, hi := 0, 0
	for f, s := range stats {
		if s.SD() < stats[lo].SD() {
			lo = f
		}
		if s.SD() > stats[hi].SD() {
			hi = f
		}
	}
	if hi == lo {
		return fmt.Sprintf("feature %d has standard deviation %.3g around %.4g", lo+1, stats[lo].SD(), stats[lo].Mean())
	}
	return fmt.Sprintf("features range from standard deviation %.3g around %.4g (feature %d) to %.3g around %.4g (feature %d)",
		stats[lo].SD(), stats[lo].Mean(), lo+1, stats[hi].SD(), stats[hi].Mean(), hi+1)
}

// scaleGammaError explains a gamma scale that is not a positive finite number: the offline data
// have no variance, or one so large (features near 1e300) or so small that 1/(d x variance)
// leaves the float64 range, where every similarity exp(-gamma ||q - x||^2) would be undefined or
// meaningless.
func scaleGammaError(offline []*Batch) error {
	stats := featureStats(offline)
	flat := true
	for _, s := range stats {
		flat = flat && s.sd == 0
	}
	if flat {
		return fmt.Errorf("kernel gamma scale: the offline data have zero variance; set kernel: {gamma: NUMBER}")
	}
	return fmt.Errorf("kernel gamma scale is 1/(d x the variance of all offline feature values pooled), and these features' variance leaves the range of a 64-bit float (%s): gamma would be 0 or infinite and every similarity exp(-gamma ||q - x||^2) undefined; standardise the features (kernel: {standardize: true}), rescale them in the data, or set kernel: {gamma: NUMBER}",
		scalesText(stats))
}

// kernel returns the batches as the kernel sees them, the width g gives them, and what the user
// should know of them (the notes a matrix carries as warnings): a kernel that cannot tell the
// queries apart, one feature that carries the distances, features standardize cannot scale.
func (v KernelView) kernel(g GammaSpec, batches []*Batch, offline int) ([]*Batch, float64, []string, error) {
	if offline < 1 || offline > len(batches) {
		return nil, 0, nil, fmt.Errorf("%d offline batches of %d", offline, len(batches))
	}
	kb := batches
	var notes []string
	if v.Standardize {
		stats := featureStats(batches[:offline])
		note, err := constantFeatures(stats, offline, v.Features)
		if err != nil {
			return nil, 0, nil, err
		}
		if note != "" {
			notes = append(notes, note)
		}
		kb = standardized(batches, stats)
	}
	gamma, err := ResolveGamma(g, kb[:offline])
	if err != nil {
		return nil, 0, nil, err
	}
	if w := kernelWarning(g, gamma, kb, offline, v.Standardize); w != "" {
		notes = append(notes, w)
	}
	if !v.Standardize {
		if w := dominantFeature(kb, v.Features); w != "" {
			notes = append(notes, w)
		}
	}
	return kb, gamma, notes, nil
}

// constantFeatures says which features kernel.standardize cannot scale, being constant over the
// offline block: they are only centred, so their online values count in their own units. Every
// feature constant is an error: there is nothing to scale.
func constantFeatures(stats []featureStat, offline int, names []string) (string, error) {
	var flat []string
	for f, s := range stats {
		if s.sd == 0 {
			flat = append(flat, fmt.Sprintf("%s = %.4g", featureName(names, f), s.Mean()))
		}
	}
	block := "batch 0"
	if offline > 1 {
		block = fmt.Sprintf("batches 0..%d", offline-1)
	}
	switch {
	case len(flat) == 0:
		return "", nil
	case len(flat) == len(stats):
		return "", fmt.Errorf("kernel.standardize: every feature is constant over the offline block (%s): there is no spread to standardise by, and every offline point is the same point; turn kernel.standardize off, or make the offline block longer", block)
	}
	if len(flat) > 5 {
		flat = append(flat[:5], fmt.Sprintf("and %d more", len(flat)-5))
	}
	return fmt.Sprintf("kernel.standardize: %s constant over the offline block (%s), so not scaled, only centred: online, where it varies, it counts in its own units, beside features of standard deviation 1",
		strings.Join(flat, ", ")+map[bool]string{true: " is", false: " are"}[len(flat) == 1], block), nil
}

// featureName names feature f (0-based) in a message: its name and number, or its number.
func featureName(names []string, f int) string {
	if f < len(names) && names[f] != "" {
		return fmt.Sprintf("feature %q (%d)", names[f], f+1)
	}
	return fmt.Sprintf("feature %d", f+1)
}

// standardized returns the batches as a kernel on standardised features sees them: every data
// point and query x becomes (x - mean)/sd feature by feature, mean and sd (stats) those of the
// data of the offline block (a feature that does not vary there is only centred). Labels are
// shared with the batches given.
func standardized(batches []*Batch, stats []featureStat) []*Batch {
	scale := func(p Points) Points {
		out := Points{D: p.D, V: make([]float64, len(p.V))}
		for i, v := range p.V {
			s := stats[i%p.D]
			// In units of 2^exp, where nothing overflows; the ratio is the same number.
			x := math.Ldexp(v, -s.exp) - s.mean
			if s.sd > 0 {
				x /= s.sd
			}
			out.V[i] = x
		}
		return out
	}
	out := make([]*Batch, len(batches))
	for t, b := range batches {
		out[t] = &Batch{T: b.T, X: scale(b.X), Y: b.Y, Q: scale(b.Q), QY: b.QY}
	}
	return out
}

// weigh multiplies each point's kernel sum by the weight of its true class: A then sums w(y) K(x)
// over the errors. Nil weights leave the sums as they are.
func weigh(ksum []float64, y []uint8, weights []float64) {
	if weights == nil {
		return
	}
	for i, c := range y {
		ksum[i] *= weights[c]
	}
}

// weightedQDM is QDM with each error of X weighted by its true class (y[i], weights[y[i]]);
// nil weights count every error 1.
func weightedQDM(Q Points, X Points, y []uint8, errs bitset.Bits, gamma float64, weights []float64) float64 {
	if errs.N == 0 {
		return 0
	}
	idx := errorIndices(errs)
	k := make([]float64, len(idx))
	kernelSums(X, idx, Q, gamma, k)
	s := 0.0
	for j, v := range k {
		if weights != nil {
			v *= weights[y[idx[j]]]
		}
		s += v
	}
	return s / float64(errs.N)
}

// trainingSet is what M_t is fitted to: batch t alone (window <= 1, the paper's), or batches
// t-window+1..t, the oldest first, as many as there are.
func trainingSet(batches []*Batch, t, window int) (Points, []uint8) {
	b := batches[t]
	if window <= 1 || t == 0 {
		return b.X, b.Y
	}
	from := max(0, t-window+1)
	x := Points{D: b.X.D}
	var y []uint8
	for _, w := range batches[from : t+1] {
		x.V = append(x.V, w.X.V...)
		y = append(y, w.Y...)
	}
	return x, y
}

// checkWeights refuses class weights the kernel cannot use: one per class (0 and 1), each a
// finite number >= 0, small enough that no sum over batches (their points and queries) leaves
// the float64 range: a weight of 1e308 made A and B infinite, C NaN and the Oracle's cost
// undefined (shown as -), while CARA-T, never retraining across a NaN, costs 3.
func checkWeights(weights []float64, batches []*Batch) error {
	if weights == nil {
		return nil
	}
	if len(weights) != 2 {
		return fmt.Errorf("engine: %d class weights, want 2 (classes 0 and 1)", len(weights))
	}
	for c, w := range weights {
		if !(w >= 0) || math.IsInf(w, 0) {
			return fmt.Errorf("engine: the weight of class %d is %v, want a number >= 0", c, w)
		}
	}
	if limit := weightLimit(batches); max(weights[0], weights[1]) > limit {
		c := 0
		if weights[1] > weights[0] {
			c = 1
		}
		return fmt.Errorf("errors.weights: the weight of class %d, %g, can make C overflow: a cell of C sums weight x similarity over up to the points times the queries of a batch, and a strategy's cost over the batches, and this scenario's would leave the range of a 64-bit float; its weights must be at most %.3g (only their ratio matters: divide them all by the same number)",
			c, weights[c], limit)
	}
	return nil
}

// weightLimit is the largest class weight with which every sum the kernel and the algorithms make
// stays finite: a point's kernel sum is at most its batch's queries (each similarity at most 1),
// A's sum at most that over the batch's points, C at most twice what A or B is, and a strategy's
// cost (or CARA-CT's running sum) at most the batches' Cs together; a factor of 4 covers the
// retraining costs added beside them.
func weightLimit(batches []*Batch) float64 {
	n, q := 1, 1
	for _, b := range batches {
		n, q = max(n, b.X.Len()), max(q, b.Q.Len())
	}
	return math.MaxFloat64 / (4 * float64(q) * float64(max(n, 2*len(batches))))
}
