package algos

import "math"

// EDDM is the early drift detection method of Baena-García et al. (2006), "Early Drift Detection
// Method", with scikit-multiflow 0.5.3's constants and counting. Where DDM watches the error rate,
// EDDM watches the distance between consecutive errors (in elements): while a model fits, errors
// grow apart; after a change they crowd together. It keeps the running mean p' and standard
// deviation s' of the distances and the largest p' + 2 s' seen; once more than 30 errors have
// been seen (and 30 elements), the ratio (p' + 2 s') / max falling below 0.95 is a warning and
// below 0.90 a drift. Only an error updates it. It resets itself at the update after a drift.
type EDDM struct {
	n       int     // scikit-multiflow's m_n: elements seen plus one
	errors  int     // errors seen
	last    int     // the element number of the last error (m_d)
	mean    float64 // p': mean distance between consecutive errors
	m2      float64 // sum of squared deviations of the distances (Welford)
	maxM2S  float64 // the largest p' + 2 s' so far
	drift   bool
	warning bool
}

// EDDM parameters: the paper's, as scikit-multiflow 0.5.3 fixes them.
const (
	eddmMinInstances = 30   // elements, and errors, before a check
	eddmWarning      = 0.95 // alpha: warning when (p' + 2 s') / max < alpha
	eddmDrift        = 0.90 // beta: drift when the ratio < beta
)

// NewEDDM returns an EDDM detector with scikit-multiflow's defaults.
func NewEDDM() *EDDM {
	e := &EDDM{}
	e.Reset()
	return e
}

// Reset forgets everything seen.
func (e *EDDM) Reset() { *e = EDDM{n: 1} }

// Warning reports whether the detector is in its warning zone (it changes at errors only).
func (e *EDDM) Warning() bool { return e.warning }

// Update adds x (1 for an error, 0 for a correct prediction) and reports a drift at this update.
func (e *EDDM) Update(x float64) bool {
	if e.drift {
		e.Reset()
	}
	e.n++
	if x != 1 {
		return false
	}
	e.warning = false
	e.errors++
	prev := e.last
	e.last = e.n - 1
	dist := float64(e.last - prev)
	old := e.mean
	e.mean += (dist - e.mean) / float64(e.errors)
	e.m2 += (dist - e.mean) * (dist - old)
	m2s := e.mean + 2*math.Sqrt(e.m2/float64(e.errors))
	if e.n < eddmMinInstances {
		return false
	}
	if m2s > e.maxM2S {
		e.maxM2S = m2s
		return false
	}
	ratio := m2s / e.maxM2S
	switch {
	case e.errors > eddmMinInstances && ratio < eddmDrift:
		e.drift = true
	case e.errors > eddmMinInstances && ratio < eddmWarning:
		e.warning = true
	}
	return e.drift
}
