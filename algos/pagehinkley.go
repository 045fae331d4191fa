package algos

// PageHinkley is the Page-Hinkley test for an increase in the mean (of the errors: a rise is a
// reason to retrain, a fall is not), with River's defaults: min_instances 30, delta 0.005,
// threshold 50, alpha 1-1e-4.
//
// The formula is scikit-multiflow 0.5.3's (the paper's library) and River's one-sided one (its
// PageHinkley before the two-sided rewrite): after each element x, the running mean m is updated,
// then the cumulative sum S = max(0, alpha*S + x - m - delta), and a drift is signalled when S
// exceeds the threshold (S > 50, strictly, as both libraries test it) once at least 29 elements
// have been seen (their sample_count, which starts at 1, has reached min_instances). The detector
// resets itself at the update after a drift. River's published test stream and its docstring's
// (testdata/pagehinkley_river.json) give River's expected detections. River's current default is
// two-sided (mode "both": a fall in the mean is a drift too) and tracks the minimum of an
// unclipped sum; on its test stream that gives 1020, 1397, 1548 and 1988 where the one-sided test
// gives 1020 and 1991.
type PageHinkley struct {
	n     float64 // the libraries' sample_count: elements seen plus one
	mean  float64
	sum   float64
	drift bool
}

// Page-Hinkley parameters: River's defaults.
const (
	phMinInstances = 30
	phDelta        = 0.005
	phThreshold    = 50
	phAlpha        = 1 - 0.0001
)

// NewPageHinkley returns a Page-Hinkley detector with River's defaults.
func NewPageHinkley() *PageHinkley {
	p := &PageHinkley{}
	p.Reset()
	return p
}

// Reset forgets everything seen.
func (p *PageHinkley) Reset() { *p = PageHinkley{n: 1} }

// Update adds x and reports a drift at this update.
func (p *PageHinkley) Update(x float64) bool {
	if p.drift {
		p.Reset()
	}
	p.mean += (x - p.mean) / p.n
	p.sum = max(0, phAlpha*p.sum+(x-p.mean-phDelta))
	p.n++
	p.drift = phDrift(p.n, p.sum)
	return p.drift
}

// phDrift is the test: enough elements, and the sum over the threshold.
func phDrift(n, sum float64) bool { return n >= phMinInstances && sum > phThreshold }
