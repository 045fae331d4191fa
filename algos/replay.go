package algos

import (
	"fmt"
	"math"
	"slices"
)

// Policy is a decision function: at batch t, with the model of batch tp in use, retrain or keep.
// Decide is called once per batch in increasing t; a policy with state (a running sum, a drift
// detector) sees tp change after each of its own retrains. Explain, called right after Decide with
// its answer, says why in one short line; it is kept apart so tuning loops format no strings.
type Policy interface {
	Decide(c Costs, t, tp int) (retrain bool)
	Explain(c Costs, t, tp int, retrain bool) string
}

// Replay runs Algorithm 1 over start..end: the model of start is trained at start, then at each
// later batch the policy decides; a retrain costs C[t, t], a keep costs C[tp, t].
func Replay(c Costs, start, end int, p Policy) Strategy {
	n := end - start + 1
	s := Strategy{Start: start, End: end, Model: make([]int, n), Cumulative: make([]float64, n), Reasons: make([]string, n)}
	tp, sum := start, c.At(start, start)
	s.Model[0], s.Cumulative[0], s.Reasons[0] = start, sum, fmt.Sprintf("train the first model at %d", start)
	for t := start + 1; t <= end; t++ {
		retrain := p.Decide(c, t, tp)
		why := p.Explain(c, t, tp, retrain)
		if retrain {
			tp = t
			s.Retrains = append(s.Retrains, t)
		}
		sum += c.At(tp, t)
		i := t - start
		s.Model[i], s.Cumulative[i], s.Reasons[i] = tp, sum, why
	}
	return s
}

// replayCost is Replay reduced to the strategy cost and retrain count, without allocations: the
// inner loop of tuning.
func replayCost(c Costs, start, end int, p Policy) (cost float64, retrains int) {
	tp, cost := start, c.At(start, start)
	for t := start + 1; t <= end; t++ {
		if p.Decide(c, t, tp) {
			tp = t
			retrains++
		}
		cost += c.At(tp, t)
	}
	return cost, retrains
}

// Threshold is CARA-T: keep iff C[tp, t] < Theta.
type Threshold struct{ Theta float64 }

// Decide implements Policy.
func (p Threshold) Decide(c Costs, t, tp int) bool { return !(c.At(tp, t) < p.Theta) }

// Explain implements Policy.
func (p Threshold) Explain(c Costs, t, tp int, retrain bool) string {
	if retrain {
		return fmt.Sprintf("retrain: QDMdiff %.4g >= theta %.4g", c.At(tp, t), p.Theta)
	}
	return fmt.Sprintf("keep: QDMdiff %.4g < theta %.4g", c.At(tp, t), p.Theta)
}

// Cumulative is CARA-CT: keep iff the sum of C[tp, j] for j = tp+1..t is < Theta; the sum restarts
// after a retrain. Use a fresh value per replay.
type Cumulative struct {
	Theta float64
	tp    int
	sum   float64
	begun bool
}

// Decide implements Policy.
func (p *Cumulative) Decide(c Costs, t, tp int) bool {
	if !p.begun || tp != p.tp {
		p.tp, p.sum, p.begun = tp, 0, true
	}
	p.sum += c.At(tp, t)
	return !(p.sum < p.Theta)
}

// Explain implements Policy.
func (p *Cumulative) Explain(c Costs, t, tp int, retrain bool) string {
	if retrain {
		return fmt.Sprintf("retrain: cumulative QDMdiff %.4g >= theta_c %.4g", p.sum, p.Theta)
	}
	return fmt.Sprintf("keep: cumulative QDMdiff %.4g < theta_c %.4g", p.sum, p.Theta)
}

// Periodic is CARA-P: retrain iff t mod P == O (absolute batch index, so a period found offline
// keeps its phase online). P == 0 stands for p = +Inf: never retrain.
type Periodic struct{ P, O int }

// Decide implements Policy.
func (p Periodic) Decide(c Costs, t, tp int) bool { return p.P > 0 && t%p.P == p.O }

// Explain implements Policy.
func (p Periodic) Explain(c Costs, t, tp int, retrain bool) string {
	switch {
	case p.P == 0:
		return "keep: period +Inf (never retrains)"
	case retrain:
		return fmt.Sprintf("retrain: %d mod %d = %d", t, p.P, p.O)
	}
	return fmt.Sprintf("keep: %d mod %d = %d, not %d", t, p.P, t%p.P, p.O)
}

// Params are the period and offset as results report them: period +Inf and offset NaN (undefined)
// for a policy that never retrains.
func (p Periodic) Params() map[string]float64 {
	if p.P == 0 {
		return map[string]float64{"period": math.Inf(1), "offset": math.NaN()}
	}
	return map[string]float64{"period": float64(p.P), "offset": float64(p.O)}
}

// Never is Never-retrain: always keep.
type Never struct{}

// Decide implements Policy.
func (Never) Decide(c Costs, t, tp int) bool { return false }

// Explain implements Policy.
func (Never) Explain(c Costs, t, tp int, retrain bool) string { return "keep: never retrains" }

// Fixed retrains at exactly the batches it lists (ascending) and keeps everywhere else: a strategy
// chosen outside the algorithms, such as a player's own guesses, replayed like any other.
type Fixed []int

// Decide implements Policy.
func (f Fixed) Decide(c Costs, t, tp int) bool {
	_, ok := slices.BinarySearch(f, t)
	return ok
}

// Explain implements Policy.
func (f Fixed) Explain(c Costs, t, tp int, retrain bool) string {
	if retrain {
		return fmt.Sprintf("retrain: chosen (R %.4g)", c.R(t))
	}
	return fmt.Sprintf("keep: chosen (QDMdiff %.4g)", c.At(tp, t))
}

// Markov keeps iff C[tp, t] < R_t: a threshold that is always the retraining cost.
type Markov struct{}

// Decide implements Policy.
func (Markov) Decide(c Costs, t, tp int) bool { return !(c.At(tp, t) < c.R(t)) }

// Explain implements Policy.
func (Markov) Explain(c Costs, t, tp int, retrain bool) string {
	if retrain {
		return fmt.Sprintf("retrain: QDMdiff %.4g >= R %.4g", c.At(tp, t), c.R(t))
	}
	return fmt.Sprintf("keep: QDMdiff %.4g < R %.4g", c.At(tp, t), c.R(t))
}

// Detector is a drift detector fed one value per update.
type Detector interface {
	Update(x float64) bool
	Reset()
}

// DetectorReset says when the caller resets a drift detector.
type DetectorReset int

const (
	// ResetNever leaves the detector to itself, as scikit-multiflow documents its use
	// (add_element, then detected_change): ADWIN cuts its own window, DDM and Page-Hinkley reset
	// themselves after a drift. The paper's retrain counts follow from this.
	ResetNever DetectorReset = iota
	// ResetOnRetrain resets the detector whenever the model changes, so it only ever sees the
	// errors of the model in use since its training.
	ResetOnRetrain
)

// String is the name a scenario file and the command line use: never or on_retrain.
func (r DetectorReset) String() string {
	if r == ResetOnRetrain {
		return "on_retrain"
	}
	return "never"
}

// ParseDetectorReset reads never or on_retrain.
func ParseDetectorReset(s string) (DetectorReset, error) {
	switch s {
	case "never":
		return ResetNever, nil
	case "on_retrain":
		return ResetOnRetrain, nil
	}
	return 0, fmt.Errorf("detector reset must be never or on_retrain, got %q", s)
}

// DetectorPolicy feeds a drift detector, point by point in data order, the 0-1 errors of the model
// in use on D_t, and retrains at t when it signals a drift at any point of the batch; the rest of
// that batch is not fed. With ResetOnRetrain the detector is reset when the model changes.
type DetectorPolicy struct {
	name  string
	d     Detector
	reset DetectorReset
	tp    int
	begun bool
	at, n int // where the last drift was signalled, of how many points
}

// NewDetectorPolicy wraps a fresh detector.
func NewDetectorPolicy(name string, d Detector, reset DetectorReset) *DetectorPolicy {
	return &DetectorPolicy{name: name, d: d, reset: reset}
}

// Decide implements Policy.
func (p *DetectorPolicy) Decide(c Costs, t, tp int) bool {
	if p.begun && tp != p.tp && p.reset == ResetOnRetrain {
		p.d.Reset()
	}
	p.tp, p.begun = tp, true
	errs := c.M.Errors(tp, t)
	p.n = errs.N
	for i := 0; i < errs.N; i++ {
		x := 0.0
		if errs.Get(i) {
			x = 1
		}
		if p.d.Update(x) {
			p.at = i
			return true
		}
	}
	return false
}

// Explain implements Policy.
func (p *DetectorPolicy) Explain(c Costs, t, tp int, retrain bool) string {
	if retrain {
		return fmt.Sprintf("retrain: %s drift at point %d of %d", p.name, p.at, p.n)
	}
	return fmt.Sprintf("keep: no %s drift in %d points", p.name, p.n)
}
