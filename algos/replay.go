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
	begin(c, start, p)
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
	if a, ok := p.(alarmer); ok {
		s.Alarms, s.AlarmPoints = a.alarms()
	}
	return s
}

// alarmer is a policy that raises alarms (a drift detector's): Replay keeps them in the Strategy,
// each batch with the point where it first signalled.
type alarmer interface {
	alarms() (batches, points []int)
}

// replayCost is Replay reduced to the strategy cost and retrain count, without allocations: the
// inner loop of tuning.
func replayCost(c Costs, start, end int, p Policy) (cost float64, retrains int) {
	begin(c, start, p)
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

// DetectorFeed says how much of a batch a drift detector is fed.
type DetectorFeed int

const (
	// FeedBatch is the paper's Algorithm 1: the detector is fed every point of the batch,
	// drift = drift or detected, and it is called once more at T_start (with the errors of the
	// model just trained there on its own batch), where the decision function is first called.
	FeedBatch DetectorFeed = iota
	// FeedFirstDrift is round two's protocol: feeding stops at the batch's first drift, and the
	// detector first sees the batch after T_start. A DDM that reset itself then meets the
	// just-retrained model and takes its first error after 30 clean points for a drift.
	FeedFirstDrift
)

// String is the name a scenario file and the command line use: batch or first-drift.
func (f DetectorFeed) String() string {
	if f == FeedFirstDrift {
		return "first-drift"
	}
	return "batch"
}

// ParseDetectorFeed reads batch or first-drift.
func ParseDetectorFeed(s string) (DetectorFeed, error) {
	switch s {
	case "batch":
		return FeedBatch, nil
	case "first-drift":
		return FeedFirstDrift, nil
	}
	return 0, fmt.Errorf("detector feed must be batch or first-drift, got %q", s)
}

// starter is a policy that Algorithm 1 also calls at the first batch of a replay (t = t' = start),
// where every strategy trains its first model whatever the decision.
type starter interface {
	start(c Costs, t int)
}

// begin calls the policy at the replay's first batch if it wants that call.
func begin(c Costs, start int, p Policy) {
	if st, ok := p.(starter); ok {
		st.start(c, start)
	}
}

// DetectorPolicy feeds a drift detector, point by point in data order, the 0-1 errors of the model
// in use on D_t, and retrains at t when it signals a drift at any point of the batch. With
// FeedBatch every point of the batch is fed and the detector also sees the first batch of the
// replay; with FeedFirstDrift the rest of a batch is not fed after a drift. With ResetOnRetrain
// the detector is reset when the model changes.
type DetectorPolicy struct {
	name   string
	d      Detector
	reset  DetectorReset
	feed   DetectorFeed
	tp     int
	begun  bool
	at, n  int   // where the batch's first drift was signalled, of how many points
	fired  int   // drifts signalled in the batch
	raised []int // the batches where it signalled
	points []int // ... and the point of each where it first did
}

// NewDetectorPolicy wraps a fresh detector.
func NewDetectorPolicy(name string, d Detector, reset DetectorReset, feed DetectorFeed) *DetectorPolicy {
	return &DetectorPolicy{name: name, d: d, reset: reset, feed: feed}
}

// start feeds the detector the first model's errors on its own batch (FeedBatch only): Algorithm 1
// calls the decision function at T_start too.
func (p *DetectorPolicy) start(c Costs, t int) {
	if p.feed != FeedBatch {
		return
	}
	p.tp, p.begun = t, true
	if p.batch(c.M.Errors(t, t)) {
		p.raise(t)
	}
}

func (p *DetectorPolicy) raise(t int) {
	p.raised, p.points = append(p.raised, t), append(p.points, p.at)
}

// alarms implements alarmer: never nil, so a detector that never fired says so.
func (p *DetectorPolicy) alarms() (batches, points []int) { return nonNil(p.raised), nonNil(p.points) }

// batch feeds one batch's errors and reports a drift anywhere in it.
func (p *DetectorPolicy) batch(errs Bits) bool {
	p.n, p.fired = errs.N, 0
	for i := 0; i < errs.N; i++ {
		x := 0.0
		if errs.Get(i) {
			x = 1
		}
		if p.d.Update(x) {
			if p.fired == 0 {
				p.at = i
			}
			p.fired++
			if p.feed == FeedFirstDrift {
				return true
			}
		}
	}
	return p.fired > 0
}

// Decide implements Policy.
func (p *DetectorPolicy) Decide(c Costs, t, tp int) bool {
	if p.begun && tp != p.tp && p.reset == ResetOnRetrain {
		p.d.Reset()
	}
	p.tp, p.begun = tp, true
	if !p.batch(c.M.Errors(tp, t)) {
		return false
	}
	p.raise(t)
	return true
}

// Explain implements Policy.
func (p *DetectorPolicy) Explain(c Costs, t, tp int, retrain bool) string {
	switch {
	case !retrain:
		return fmt.Sprintf("keep: no %s drift in %d points", p.name, p.n)
	case p.fired > 1:
		return fmt.Sprintf("retrain: %s drift at point %d of %d (%d drifts in the batch)", p.name, p.at, p.n, p.fired)
	}
	return fmt.Sprintf("retrain: %s drift at point %d of %d", p.name, p.at, p.n)
}
