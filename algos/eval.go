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
)

// Names lists every algorithm, in display order.
var Names = []Name{NameOracle, NameCaraT, NameCaraCT, NameCaraP, NameNever, NameMarkov, NameADWIN, NameDDM, NamePageHinkley}

// displayNames are the names as the paper writes them: the one place they are spelt.
var displayNames = map[Name]string{
	NameOracle: "Oracle", NameCaraT: "CARA-T", NameCaraCT: "CARA-CT", NameCaraP: "CARA-P",
	NameNever: "Never-retrain", NameMarkov: "Markov", NameADWIN: "ADWIN", NameDDM: "DDM", NamePageHinkley: "Page-Hinkley",
}

// Display is the algorithm's name as the paper writes it ("CARA-T", "Never-retrain"); an unknown
// name as it is.
func (n Name) Display() string {
	if d, ok := displayNames[n]; ok {
		return d
	}
	return string(n)
}

// Rank is the algorithm's place in Names (len(Names) for an unknown one): display order.
func (n Name) Rank() int {
	if i := slices.Index(Names, n); i >= 0 {
		return i
	}
	return len(Names)
}

// ParseName reads an algorithm's name, refusing unknown ones with the list of valid names.
func ParseName(s string) (Name, error) {
	if n := Name(s); slices.Contains(Names, n) {
		return n, nil
	}
	valid := make([]string, len(Names))
	for i, n := range Names {
		valid[i] = string(n)
	}
	return "", fmt.Errorf("unknown algorithm %q (valid: %s)", s, strings.Join(valid, ", "))
}

// Validate checks that every name is one of Names.
func Validate(names []Name) error {
	for _, n := range names {
		if _, err := ParseName(string(n)); err != nil {
			return err
		}
	}
	return nil
}

// Options are the choices of an evaluation that the paper leaves open. The zero value is the
// default: detectors fed whole batches as Algorithm 1 does (FeedBatch), never reset by the caller.
type Options struct {
	DetectorReset DetectorReset
	DetectorFeed  DetectorFeed
	Tie           Tie // which threshold of CARA-T's and CARA-CT's optimal interval (tune.go)
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
	if err := Validate(names); err != nil {
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
