package algos

import "math"

// The HDDM detectors of Frías-Blanco et al. (2015), "Online and non-parametric drift detection
// methods based on Hoeffding's bounds", with scikit-multiflow 0.5.3's defaults: drift confidence
// 0.001, warning confidence 0.005, two-sided. Both watch a bounded value (here the 0-1 error) and
// signal a drift when its recent mean rises above its mean at the best point seen by more than a
// Hoeffding bound allows; both reset themselves at a drift.

const (
	hddmDrift   = 0.001 // drift confidence
	hddmWarning = 0.005 // warning confidence
	hddmLambda  = 0.05  // HDDM-W's weight of the newest value
)

// HDDMA is HDDM with the A-test (moving averages). It keeps the running sum and count of the
// values since its last reset and two cut points: where the mean plus its Hoeffding bound was
// lowest (min) and where the mean minus it was highest (max). A drift is the mean since the reset
// exceeding the mean up to min by the bound for the two means (an increase in the error rate);
// being two-sided, it also resets itself, without an alarm, when the mean falls below the mean up
// to max by that bound, so that after an improvement it watches the new, lower level.
type HDDMA struct {
	n, c       float64 // values since the reset and their sum
	nMin, cMin float64 // the min cut point: values and sum up to it
	nMax, cMax float64 // the max cut point
	warning    bool
}

// NewHDDMA returns an HDDM-A detector with scikit-multiflow's defaults.
func NewHDDMA() *HDDMA { return &HDDMA{} }

// Reset forgets everything seen.
func (h *HDDMA) Reset() { *h = HDDMA{} }

// Warning reports whether the last update was in the warning zone.
func (h *HDDMA) Warning() bool { return h.warning }

// hoeffding is the bound on the deviation of a mean of n values in [0, 1] at confidence delta
// (one-sided): sqrt(ln(1/delta) / (2 n)).
func hoeffding(n, delta float64) float64 { return math.Sqrt(1 / (2 * n) * math.Log(1/delta)) }

// Update adds x (1 for an error, 0 for a correct prediction) and reports a drift at this update.
func (h *HDDMA) Update(x float64) bool {
	h.n++
	h.c += x
	if h.nMin == 0 {
		h.nMin, h.cMin = h.n, h.c
	}
	if h.nMax == 0 {
		h.nMax, h.cMax = h.n, h.c
	}
	mean, bound := h.c/h.n, hoeffding(h.n, hddmDrift)
	if h.cMin/h.nMin+hoeffding(h.nMin, hddmDrift) >= mean+bound {
		h.nMin, h.cMin = h.n, h.c
	}
	if h.cMax/h.nMax-hoeffding(h.nMax, hddmDrift) <= mean-bound {
		h.nMax, h.cMax = h.n, h.c
	}
	drift := h.n > h.nMin && mean-h.cMin/h.nMin >= hddmABound(h.nMin, h.n, hddmDrift)
	h.warning = !drift && h.n > h.nMin && mean-h.cMin/h.nMin >= hddmABound(h.nMin, h.n, hddmWarning)
	if drift {
		h.Reset()
		return true
	}
	if h.n > h.nMax && h.cMax/h.nMax-mean >= hddmABound(h.nMax, h.n, hddmDrift) { // a fall
		h.Reset()
	}
	return false
}

// hddmABound is the two-sided Hoeffding bound at confidence delta for the difference between the
// mean of the first nCut of n values and the mean of all n: sqrt(m/2 ln(2/delta)) with
// m = (n - nCut) / (nCut n).
func hddmABound(nCut, n, delta float64) float64 {
	m := (n - nCut) / nCut / n
	return math.Sqrt(m / 2 * math.Log(2/delta))
}

// ewma is an exponentially weighted mean of bounded values and the sum of its squared weights,
// which bounds its deviation (the independent bounded condition of McDiarmid's inequality).
type ewma struct {
	mean, weights float64
	set           bool
}

func (e *ewma) add(x float64) {
	if !e.set {
		*e = ewma{mean: x, weights: 1, set: true}
		return
	}
	e.mean = hddmLambda*x + (1-hddmLambda)*e.mean
	e.weights = hddmLambda*hddmLambda + (1-hddmLambda)*(1-hddmLambda)*e.weights
}

// HDDMW is HDDM with the W-test (weighted moving averages): the EWMA of the values (weight 0.05
// for the newest) with McDiarmid's bound. It keeps the EWMA at the cut point where it plus its
// bound was lowest, and a second EWMA of the values since then; a drift is the second exceeding
// the first by the bound of both together. scikit-multiflow 0.5.3 also keeps the mirror test for a
// fall (which would reset it without an alarm), but its cut point starts at +Inf, so that test
// never runs; it is left out here, and HDDM-W signals increases only, as 0.5.3 does.
type HDDMW struct {
	total   ewma    // every value since the reset
	atCut   ewma    // total at the cut point
	since   ewma    // the values after the cut point
	cut     float64 // the lowest total mean + bound so far
	warning bool
}

// NewHDDMW returns an HDDM-W detector with scikit-multiflow's defaults.
func NewHDDMW() *HDDMW {
	h := &HDDMW{}
	h.Reset()
	return h
}

// Reset forgets everything seen.
func (h *HDDMW) Reset() { *h = HDDMW{cut: math.Inf(1)} }

// Warning reports whether the last update was in the warning zone.
func (h *HDDMW) Warning() bool { return h.warning }

// Update adds x (1 for an error, 0 for a correct prediction) and reports a drift at this update.
func (h *HDDMW) Update(x float64) bool {
	h.total.add(x)
	if b := h.total.mean + mcdiarmid(h.total.weights, hddmDrift); b < h.cut {
		h.cut, h.atCut, h.since = b, h.total, ewma{}
	} else {
		h.since.add(x)
	}
	if h.rise(hddmDrift) {
		h.Reset()
		return true
	}
	h.warning = h.rise(hddmWarning)
	return false
}

// rise reports whether the EWMA since the cut exceeds the one at the cut by more than McDiarmid's
// bound for the two at confidence delta.
func (h *HDDMW) rise(delta float64) bool {
	if !h.atCut.set || !h.since.set {
		return false
	}
	return h.since.mean-h.atCut.mean > mcdiarmid(h.atCut.weights+h.since.weights, delta)
}

// mcdiarmid is the bound sqrt(w ln(1/delta) / 2) on the deviation of a weighted mean whose squared
// weights sum to w.
func mcdiarmid(w, delta float64) float64 { return math.Sqrt(w * math.Log(1/delta) / 2) }
