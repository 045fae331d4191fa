package algos

import "math"

// DDM is the drift detection method of Gama et al. (2004) as scikit-multiflow 0.5.3 implements it:
// it tracks the error rate p and its deviation s = sqrt(p(1-p)/n), starting at count 1, p 1, s 0;
// from the 29th element on it keeps the minimum of p+s, warns above p_min + 2 s_min and signals a
// drift above p_min + 3 s_min. It resets itself at the update after a drift.
type DDM struct {
	n           float64 // scikit-multiflow's sample_count: elements seen plus one
	p, s        float64
	pMin, sMin  float64
	psMin       float64
	drift, warn bool
}

// DDM parameters: scikit-multiflow's defaults.
const (
	ddmMinInstances = 30
	ddmWarning      = 2.0
	ddmDrift        = 3.0
)

// NewDDM returns a DDM detector with scikit-multiflow's defaults.
func NewDDM() *DDM {
	d := &DDM{}
	d.Reset()
	return d
}

// Reset forgets everything seen.
func (d *DDM) Reset() {
	*d = DDM{n: 1, p: 1, pMin: math.Inf(1), sMin: math.Inf(1), psMin: math.Inf(1)}
}

// Warning reports whether the last update was in the warning zone.
func (d *DDM) Warning() bool { return d.warn }

// Update adds x (1 for an error, 0 for a correct prediction) and reports a drift at this update.
func (d *DDM) Update(x float64) bool {
	if d.drift {
		d.Reset()
	}
	d.p += (x - d.p) / d.n
	d.s = math.Sqrt(d.p * (1 - d.p) / d.n)
	d.n++
	d.drift, d.warn = false, false
	if d.n < ddmMinInstances {
		return false
	}
	if d.p+d.s <= d.psMin {
		d.pMin, d.sMin, d.psMin = d.p, d.s, d.p+d.s
	}
	switch {
	case d.p+d.s > d.pMin+ddmDrift*d.sMin:
		d.drift = true
	case d.p+d.s > d.pMin+ddmWarning*d.sMin:
		d.warn = true
	}
	return d.drift
}
