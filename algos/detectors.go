package algos

// ADWIN is the adaptive-windowing change detector (Bifet & Gavalda 2007) as scikit-multiflow 0.5.3
// implements it. TEMPORARY SKELETON: being written.
type ADWIN struct{}

// NewADWIN returns an ADWIN detector with confidence delta (scikit-multiflow's default: 0.002).
func NewADWIN(delta float64) *ADWIN { return &ADWIN{} }

// Update adds x and reports whether a drift is signalled at this update.
func (a *ADWIN) Update(x float64) bool { return false }

// Reset forgets everything seen.
func (a *ADWIN) Reset() {}

// DDM is the drift detection method of Gama et al. (2004) as scikit-multiflow 0.5.3 implements it.
// TEMPORARY SKELETON: being written.
type DDM struct{}

// NewDDM returns a DDM detector with scikit-multiflow's defaults.
func NewDDM() *DDM { return &DDM{} }

// Update adds x (1 for an error, 0 for a correct prediction) and reports a drift at this update.
func (d *DDM) Update(x float64) bool { return false }

// Reset forgets everything seen.
func (d *DDM) Reset() {}

// PageHinkley is the Page-Hinkley test with River's defaults. TEMPORARY SKELETON: being written.
type PageHinkley struct{}

// NewPageHinkley returns a Page-Hinkley detector with River's defaults.
func NewPageHinkley() *PageHinkley { return &PageHinkley{} }

// Update adds x and reports a drift at this update.
func (p *PageHinkley) Update(x float64) bool { return false }

// Reset forgets everything seen.
func (p *PageHinkley) Reset() {}
