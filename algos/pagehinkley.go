package algos

// PageHinkley is the Page-Hinkley test for an increase in the mean, with River's defaults:
// min_instances 30, delta 0.005, threshold 50, alpha 1-1e-4. It resets itself at the update after
// a drift.
type PageHinkley struct {
	n     float64 // River's sample_count: elements seen plus one
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
	p.drift = p.n >= phMinInstances && p.sum >= phThreshold
	return p.drift
}
