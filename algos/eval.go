package algos

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Strategy is the outcome of replaying a decision function (Algorithm 1 of the paper) over the
// batches Start..End (inclusive). The model of Start is trained at Start: every strategy pays
// C[Start, Start], and that initial training is not counted among Retrains.
type Strategy struct {
	Start, End int
	Model      []int     // Model[i] = s_t, the model in use at batch t = Start+i (after the decision)
	Retrains   []int     // batches t > Start where the decision was RETRAIN, ascending
	Cumulative []float64 // Cumulative[i] = sum of C[s_j, j] for j = Start..Start+i
	Reasons    []string  // Reasons[i]: why the decision at Start+i was taken, one short line
	// Alarms are the batches where a drift detector signalled, ascending: its retrains, and Start
	// when it fired at the call Algorithm 1 makes there (which retrains nothing: the first model is
	// trained at Start anyway). Nil for a policy that is not a detector. AlarmPoints[i] is the
	// point of batch Alarms[i] (in data order, from 0) where it first signalled.
	Alarms, AlarmPoints []int
}

// Cost is the strategy cost: the sum of C[s_t, t] over Start..End.
func (s Strategy) Cost() float64 {
	if len(s.Cumulative) == 0 {
		return 0
	}
	return s.Cumulative[len(s.Cumulative)-1]
}

// Result is one algorithm's run over the online block at one retraining cost.
type Result struct {
	Algorithm   Name
	Strategy    Strategy
	Params      map[string]float64 // tuned parameters (theta, theta_c, period, offset); nil when none
	OfflineCost float64            // the tuned variant's offline-optimal cost; NaN when not tuned
	// OfflineRetrains are the batches where the tuned variant retrains on the offline block (what
	// its parameters were learned from); nil when not tuned.
	OfflineRetrains []int
	// Optimal is CARA-T's or CARA-CT's optimal interval of thresholds on the offline block, the one
	// Params' theta or theta_c was picked from (Options.Tie); nil for the others.
	Optimal       *Interval
	SCPE          float64 // 100*|a-b|/|b| against the Oracle; NaN when undefined (b <= 0)
	Gap           float64 // a - b
	QueryAccuracy float64 // prequential mean over online batches; NaN without query labels
	// Detection is a detector's alarms (Strategy.Alarms) scored against the drifts the stream
	// knows; nil for an algorithm that is not a detector, or a stream that does not know its drifts.
	Detection *DriftScore
}

// Name names an algorithm as scenario files, the command line and the JSON outputs do ("cara-t").
type Name string

// The algorithms.
const (
	NameOracle      Name = "oracle"
	NameCaraT       Name = "cara-t"
	NameCaraCT      Name = "cara-ct"
	NameCaraP       Name = "cara-p"
	NameNever       Name = "never"
	NameMarkov      Name = "markov"
	NameADWIN       Name = "adwin"
	NameDDM         Name = "ddm"
	NamePageHinkley Name = "page-hinkley"
	NameEDDM        Name = "eddm"
	NameHDDMA       Name = "hddm-a"
	NameHDDMW       Name = "hddm-w"
	NameKSWIN       Name = "kswin"
)

// Names lists the algorithms a scenario runs unless it chooses (its algorithms or detectors.run),
// in display order: the paper's, and Page-Hinkley.
var Names = []Name{NameOracle, NameCaraT, NameCaraCT, NameCaraP, NameNever, NameMarkov, NameADWIN, NameDDM, NamePageHinkley}

// MoreDetectors are the detectors River and MOA ship beyond those of Names, run when a scenario
// asks for them (detectors.run: all, or by name): four more rows would make every table harder to
// read, and the paper's numbers and the tours are about Names.
var MoreDetectors = []Name{NameEDDM, NameHDDMA, NameHDDMW, NameKSWIN}

// Known lists every algorithm's name, in display order: Names, then MoreDetectors. (Schedules are
// named by their own rule: Schedule.Name.)
var Known = slices.Concat(Names, MoreDetectors)

// Detectors are the drift detectors among Known, in display order.
var Detectors = []Name{NameADWIN, NameDDM, NamePageHinkley, NameEDDM, NameHDDMA, NameHDDMW, NameKSWIN}

// IsDetector reports whether n names a drift detector.
func (n Name) IsDetector() bool { return slices.Contains(Detectors, n) }

// displayNames are the names as the paper writes them: the one place they are spelt.
var displayNames = map[Name]string{
	NameOracle: "Oracle", NameCaraT: "CARA-T", NameCaraCT: "CARA-CT", NameCaraP: "CARA-P",
	NameNever: "Never-retrain", NameMarkov: "Markov", NameADWIN: "ADWIN", NameDDM: "DDM", NamePageHinkley: "Page-Hinkley",
	NameEDDM: "EDDM", NameHDDMA: "HDDM-A", NameHDDMW: "HDDM-W", NameKSWIN: "KSWIN",
}

// Display is the algorithm's name as the paper writes it ("CARA-T", "Never-retrain"); an unknown
// name as it is.
func (n Name) Display() string {
	if d, ok := displayNames[n]; ok {
		return d
	}
	return string(n)
}

// Rank is the algorithm's place in Known (len(Known) for another name, a schedule's): display
// order.
func (n Name) Rank() int {
	if i := slices.Index(Known, n); i >= 0 {
		return i
	}
	return len(Known)
}

// ParseName reads an algorithm's name, refusing unknown ones with the list of valid names.
func ParseName(s string) (Name, error) {
	if n := Name(s); slices.Contains(Known, n) {
		return n, nil
	}
	valid := make([]string, len(Known))
	for i, n := range Known {
		valid[i] = string(n)
	}
	return "", fmt.Errorf("unknown algorithm %q (valid: %s)", s, strings.Join(valid, ", "))
}

// Validate checks that every name is one of Known.
func Validate(names []Name) error {
	return Options{}.validate(names)
}

// validate checks that every name is one of Known or of o's schedules.
func (o Options) validate(names []Name) error {
	for _, n := range names {
		if _, ok := o.schedule(n); ok {
			continue
		}
		if _, err := ParseName(string(n)); err != nil {
			return err
		}
	}
	return nil
}

// Options are the choices of an evaluation that the paper leaves open. The zero value is the
// default: detectors fed whole batches as Algorithm 1 does (FeedBatch), never reset by the caller,
// their alarms scored with DefaultDriftWindow; no schedules.
type Options struct {
	DetectorReset DetectorReset
	DetectorFeed  DetectorFeed
	// Schedules are fixed schedules priced as algorithms, each under its Name.
	Schedules []Schedule
	// DriftWindow is how many batches after a known drift's last batch an alarm still detects it:
	// 0 stands for DefaultDriftWindow and a negative value for none (only the drift's own batches).
	DriftWindow int
	Tie         Tie // which threshold of CARA-T's and CARA-CT's optimal interval (tune.go)
}

// Score is a detector's strategy's alarms scored against m's known drifts over the strategy's
// batches (Start..End: a strategy cut with UpTo scores what it had raised by then), in o's
// window, as Evaluate scores every detector's whole block; nil when the strategy raises no alarms
// (not a detector) or m's stream does not know its drifts.
func (o Options) Score(m Matrix, s Strategy) *DriftScore {
	drifts, known := KnownDrifts(m)
	return o.score(m, s, drifts, known)
}

func (o Options) score(m Matrix, s Strategy, drifts []Drift, known bool) *DriftScore {
	if s.Alarms == nil || !known {
		return nil
	}
	score := Score(s.Alarms, s.AlarmPoints, drifts, s.Start, s.End, o.window(), func(t int) int { return m.Errors(t, t).N })
	return &score
}

// window is the drift window o scores with.
func (o Options) window() int {
	switch {
	case o.DriftWindow == 0:
		return DefaultDriftWindow
	case o.DriftWindow < 0:
		return 0
	}
	return o.DriftWindow
}

// Evaluate is Options{}.Evaluate: the default evaluation.
func Evaluate(m Matrix, r RetrainCost, names []Name, end int) ([]Result, error) {
	return Options{}.Evaluate(m, r, names, end)
}

// Evaluate tunes each named algorithm on the offline block 0..Offline()-1 and replays it over the
// online block Offline()..end (end inclusive, end < Batches(); cells up to column end must be
// computed), at retraining cost r. The Oracle is always computed (SCPE needs it); results follow
// the order of names.
func (o Options) Evaluate(m Matrix, r RetrainCost, names []Name, end int) ([]Result, error) {
	if err := o.validate(names); err != nil {
		return nil, err
	}
	off := m.Offline()
	if off < 1 || off >= m.Batches() {
		return nil, fmt.Errorf("offline block of %d batches out of %d leaves no online block", off, m.Batches())
	}
	if end < off || end >= m.Batches() {
		return nil, fmt.Errorf("end batch %d outside the online block %d..%d", end, off, m.Batches()-1)
	}
	c := Costs{M: m, R: r}
	oracle := Oracle(c, off, end)
	b := oracle.Cost()
	drifts, known := KnownDrifts(m)
	out := make([]Result, 0, len(names))
	for _, name := range names {
		res := Result{Algorithm: name, OfflineCost: math.NaN()}
		if name == NameOracle {
			res.Strategy = oracle
		} else {
			policy, params, offCost, optimal := o.policyFor(name, c)
			res.Strategy = Replay(c, off, end, policy())
			res.Params, res.OfflineCost, res.Optimal = params, offCost, optimal
			if params != nil { // tuned: what it learned from, the offline block's replay
				res.OfflineRetrains = nonNil(Replay(c, 0, off-1, policy()).Retrains)
			}
		}
		res.Detection = o.score(m, res.Strategy, drifts, known)
		out = append(out, res.against(m, b))
	}
	return out, nil
}

func nonNil(v []int) []int {
	if v == nil {
		return []int{}
	}
	return v
}

// Against is the result of a strategy found elsewhere (by hand, a player's guesses replayed with
// Fixed) next to the Oracle's, whose strategy cost over the same batches is oracle: its SCPE, gap
// and query accuracy, computed as Evaluate computes them for every algorithm.
func Against(m Matrix, name Name, s Strategy, oracle float64) Result {
	return Result{Algorithm: name, Strategy: s, OfflineCost: math.NaN()}.against(m, oracle)
}

func (res Result) against(m Matrix, b float64) Result {
	a := res.Strategy.Cost()
	res.Gap = a - b
	res.SCPE = math.NaN()
	// A negative Oracle cost comes from negative cells (a model that fits its own batch worse
	// than later ones): a percentage of it would mislead, so SCPE is left undefined.
	if b > 0 {
		res.SCPE = 100 * math.Abs(a-b) / math.Abs(b)
	}
	res.QueryAccuracy = QueryAccuracy(m, res.Strategy)
	return res
}

// policyFor builds a non-Oracle algorithm's decision function, tuning it on the offline block
// where it has parameters: it returns a maker of fresh policies (a policy may hold state over one
// replay), the tuned parameters, the offline-optimal cost (NaN if none) and a threshold's optimal
// interval.
func (o Options) policyFor(name Name, c Costs) (func() Policy, map[string]float64, float64, *Interval) {
	off := c.M.Offline()
	same := func(p Policy) func() Policy { return func() Policy { return p } } // stateless
	switch name {
	case NameCaraT:
		tu := TuneThreshold(c, 0, off-1, false)
		theta := tu.Pick(o.Tie)
		return same(Threshold{Theta: theta}), map[string]float64{"theta": theta}, tu.Cost, &Interval{tu.Low, tu.High}
	case NameCaraCT:
		tu := TuneThreshold(c, 0, off-1, true)
		theta := tu.Pick(o.Tie)
		return func() Policy { return &Cumulative{Theta: theta} }, map[string]float64{"theta_c": theta}, tu.Cost, &Interval{tu.Low, tu.High}
	case NameCaraP:
		p, cost := TunePeriodic(c, 0, off-1)
		return same(p), p.Params(), cost, nil
	case NameNever:
		return same(Never{}), nil, math.NaN(), nil
	case NameMarkov:
		return same(Markov{}), nil, math.NaN(), nil
	case NameADWIN:
		return func() Policy { return NewDetectorPolicy("ADWIN", NewADWIN(0.002), o.DetectorReset, o.DetectorFeed) }, nil, math.NaN(), nil
	case NameDDM:
		return func() Policy { return NewDetectorPolicy("DDM", NewDDM(), o.DetectorReset, o.DetectorFeed) }, nil, math.NaN(), nil
	case NamePageHinkley:
		return func() Policy {
			return NewDetectorPolicy("Page-Hinkley", NewPageHinkley(), o.DetectorReset, o.DetectorFeed)
		}, nil, math.NaN(), nil
	case NameEDDM:
		return func() Policy { return NewDetectorPolicy("EDDM", NewEDDM(), o.DetectorReset, o.DetectorFeed) }, nil, math.NaN(), nil
	case NameHDDMA:
		return func() Policy { return NewDetectorPolicy("HDDM-A", NewHDDMA(), o.DetectorReset, o.DetectorFeed) }, nil, math.NaN(), nil
	case NameHDDMW:
		return func() Policy { return NewDetectorPolicy("HDDM-W", NewHDDMW(), o.DetectorReset, o.DetectorFeed) }, nil, math.NaN(), nil
	case NameKSWIN:
		seed := RunSeed(c.M)
		return func() Policy {
			return NewDetectorPolicy("KSWIN", NewKSWIN(seed), o.DetectorReset, o.DetectorFeed)
		}, nil, math.NaN(), nil
	}
	if s, ok := o.schedule(name); ok {
		return same(s), nil, math.NaN(), nil
	}
	panic("algos: policyFor called with unvalidated name " + string(name))
}

// QueryAccuracy is the prequential query accuracy of a strategy: the queries of batch t are
// answered by the model in use before the decision at t, M_{s_{t-1}} (at Start, M_{Start-1}), and
// the mean over Start..End is returned. NaN when the queries have no labels.
func QueryAccuracy(m Matrix, s Strategy) float64 {
	sum := 0.0
	for i := range s.Model {
		t := s.Start + i
		prev := t - 1
		if i > 0 {
			prev = s.Model[i-1]
		}
		if prev < 0 {
			prev = 0 // a block starting at batch 0 has no earlier model: its own answers first
		}
		sum += m.QueryAccuracy(prev, t)
	}
	return sum / float64(len(s.Model))
}
