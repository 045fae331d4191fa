package claims

import (
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/scenarios/tour"
	"github.com/cara-sim/cara/sim"
)

// The embedded tours teach with numbers. Most come from the run itself, through the templates of
// say.go ({C 0 11}, {cost Oracle}), filled in as the player fills them. Each claim below rebuilds,
// from the scenario computed afresh at its own seed and model, the fragments of a stop's text that
// state a number or a decision in words, and the stop, its templates filled, must contain them
// word for word; every number left literal in a stop must be one of those fragments', one of the
// scenario file's own parameters, or the stop's batch. When the engine, a model or a scenario
// changes what the player shows, this test prints the fragment the text should now say.

// tourRun is one computed scenario: its matrix and every algorithm's result.
type tourRun struct {
	t    *testing.T
	s    *scenarios.Scenario
	m    *sim.Matrix
	res  map[algos.Name]algos.Result
	list []algos.Result
}

// facts are the run as the player shows it at a stop at batch at: what fills a stop's templates.
func (r *tourRun) facts(at int) tour.Facts {
	return tour.Facts{M: r.m, R: r.s.RetrainCost, Results: r.list, At: at}
}

func (r *tourRun) C(tp, t int) float64         { return r.m.Cell(tp, t).C() }
func (r *tourRun) cell(tp, t int) *sim.Cell    { return r.m.Cell(tp, t) }
func (r *tourRun) retrains(a algos.Name) []int { return r.res[a].Strategy.Retrains }
func (r *tourRun) cost(a algos.Name) float64   { return r.res[a].Strategy.Cost() }

// rowMax and rowMean are over C[tp, from..to].
func (r *tourRun) rowMax(tp, from, to int) float64 {
	m := math.Inf(-1)
	for t := from; t <= to; t++ {
		m = max(m, r.C(tp, t))
	}
	return m
}

func (r *tourRun) rowSum(tp, from, to int) float64 {
	s := 0.0
	for t := from; t <= to; t++ {
		s += r.C(tp, t)
	}
	return s
}

// inUse is the model an algorithm uses at batch t, after its decision there.
func (r *tourRun) inUse(a algos.Name, t int) int {
	st := r.res[a].Strategy
	return st.Model[t-st.Start]
}

// batch is batch t of the run's stream.
func (r *tourRun) batch(t int) *sim.Batch {
	st, err := r.s.Stream(r.s.Seed)
	if err != nil {
		r.t.Fatal(err)
	}
	b, err := st.Batch(t)
	if err != nil {
		r.t.Fatal(err)
	}
	return b
}

// mean and queryMean are the means of feature k over batch t's data and queries.
func (r *tourRun) mean(t, k int) float64      { return meanOf(r.batch(t).X, k) }
func (r *tourRun) queryMean(t, k int) float64 { return meanOf(r.batch(t).Q, k) }

func meanOf(p sim.Points, k int) float64 {
	sum := 0.0
	for i := range p.Len() {
		sum += p.Row(i)[k]
	}
	return sum / float64(p.Len())
}

// tourRuns computes each scenario (and each what-if) once, when a claim first needs it.
type tourRuns struct {
	t    *testing.T
	runs map[string]*tourRun
}

func (rs *tourRuns) get(name string, sets ...string) *tourRun {
	key := strings.Join(append([]string{name}, sets...), " ")
	if r, ok := rs.runs[key]; ok {
		return r
	}
	s, err := scenarios.Load(name, scenarios.Options{Set: sets})
	if err != nil {
		rs.t.Fatal(err)
	}
	var m *sim.Matrix
	if onlyR(sets) { // a new R is a replay over the same matrix
		m = rs.get(name).m
	} else {
		cfg, err := s.Config(s.Seed)
		if err != nil {
			rs.t.Fatal(err)
		}
		if m, err = sim.Run(context.Background(), cfg, nil); err != nil {
			rs.t.Fatal(err)
		}
	}
	res, err := s.Evaluation.Evaluate(m, s.RetrainCost, algos.Names, m.Batches()-1)
	if err != nil {
		rs.t.Fatal(err)
	}
	r := &tourRun{t: rs.t, s: s, m: m, res: map[algos.Name]algos.Result{}, list: res}
	for _, x := range res {
		r.res[x.Algorithm] = x
	}
	rs.runs[key] = r
	return r
}

func onlyR(sets []string) bool {
	for _, s := range sets {
		if !strings.HasPrefix(s, "retrain_cost=") {
			return false
		}
	}
	return len(sets) > 0
}

// whatif is the run under the what-if of stop i of name's tour.
func (rs *tourRuns) whatif(name string, i int) *tourRun {
	return rs.get(name, mustStop(rs.t, name, i).Sets()...)
}

// Fragments: numbers as the tours write them.
func fnum(prec int, v float64) string { return strconv.FormatFloat(v, 'f', prec, 64) }
func batchList(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// cloudSE bounds how far a batch's sample mean strays from its centre: 1000 points of standard
// deviation 0.1 give a standard error of 0.003; the tours state the centres.
const cloudSE = 0.012

// approx returns stated, the centre a tour names, if v (a sample mean) is within tol of it.
func approx(stated string, v, tol float64) string {
	x, err := strconv.ParseFloat(stated, 64)
	if err != nil || math.Abs(x-v) > tol {
		return fmt.Sprintf("\x00(not so: %s is %.4f)", stated, v)
	}
	return stated
}

// holds turns a condition the text states in words into a fragment that cannot match when it fails.
func holds(ok bool, what string) string {
	if ok {
		return ""
	}
	return "\x00(not so: " + what + ")"
}

// tourClaim checks stop `stop` of a scenario's tour.
type tourClaim struct {
	scenario string
	stop     int
	says     func(rs *tourRuns) []string
}

const (
	oracle = algos.NameOracle
	caraT  = algos.NameCaraT
	caraP  = algos.NameCaraP
	never  = algos.NameNever
	markov = algos.NameMarkov
	adwin  = algos.NameADWIN
	ddm    = algos.NameDDM
)

var tourClaims = []tourClaim{
	// covcon-d
	{"covcon-d", 0, func(rs *tourRuns) []string {
		r := rs.get("covcon-d")
		return []string{"1000 points", "100 queries of a batch are drawn from its data", holds(r.batch(0).Q.Len() == 100, "100 queries"),
			holds(math.Abs(r.mean(6, 0)) < cloudSE && math.Abs(r.mean(5, 0)-0.6) < cloudSE, "the cloud is at the corner at 6 and at 0.6 at 5"),
			"every 7 batches", "every 10 batches", "to m = " + approx("0.6", r.mean(5, 0), cloudSE)}
	}},
	{"covcon-d", 1, func(rs *tourRuns) []string {
		r := rs.get("covcon-d")
		return []string{"flipped at 10", holds(r.cell(0, 11).ErrorRate > 0.5, "M_0 gets most of batch 11 wrong")}
	}},
	{"covcon-d", 2, func(rs *tourRuns) []string {
		r := rs.get("covcon-d")
		return []string{holds(r.rowMax(0, 1, 9) < 10 && r.rowSum(0, 10, 19)/10 > 3*r.s.RetrainCost(0), "row 0 cheap in columns 1-9, dear in 10-19"),
			"batches 0 to 24", "columns 1 to 9", "columns 10 to 19", "every 7 columns",
			holds(math.Abs(r.mean(6, 0)) < cloudSE, "batch 6 in the corner"), "m = " + approx("0.3", r.mean(9, 0), cloudSE)}
	}},
	{"covcon-d", 3, func(rs *tourRuns) []string { return []string{"Batch 25 opens"} }},
	{"covcon-d", 4, func(rs *tourRuns) []string {
		r := rs.get("covcon-d")
		return []string{"cloud at m = " + approx("0.5", r.mean(25, 0), cloudSE), "the corner, m = " + approx("0", r.mean(27, 0), cloudSE), "since 20"}
	}},
	{"covcon-d", 5, func(rs *tourRuns) []string {
		r := rs.get("covcon-d")
		var corner []int
		for t := 25; len(corner) < 3; t++ {
			if (t+1)%7 == 0 { // m = ((t+1) % 7)/10 = 0
				corner = append(corner, t)
			}
		}
		flipsOrCorner := !slices.ContainsFunc(r.retrains(oracle), func(t int) bool { return t%10 != 0 && (t+1)%7 != 0 })
		return []string{"(" + batchList(corner) + ", ...: every 7)", "every 10 batches", holds(flipsOrCorner, "every Oracle retrain is at a flip or a corner jump"),
			"m = " + approx("0.6", r.mean(40, 0), cloudSE)}
	}},
	{"covcon-d", 6, func(rs *tourRuns) []string { return nil }},
	{"covcon-d", 7, func(rs *tourRuns) []string { return []string{"appendix B"} }},

	// covcon-s
	{"covcon-s", 0, func(rs *tourRuns) []string {
		d, s := rs.get("covcon-d"), rs.get("covcon-s")
		sameData := true
		for _, t := range []int{0, 50, 99} {
			sameData = sameData && d.mean(t, 0) == s.mean(t, 0)
		}
		return []string{holds(sameData, "the same data"), holds(d.cell(3, 40).ErrorRate == s.cell(3, 40).ErrorRate, "the same models"),
			"100 a batch from N((0.5, 0.5), 0.015)"}
	}},
	{"covcon-s", 1, func(rs *tourRuns) []string {
		r := rs.get("covcon-s")
		return []string{"block 10 to 19", "of batch 13", fmt.Sprintf("(m = %s to %s)", approx("0.4", r.mean(10, 0), cloudSE), approx("0.6", r.mean(12, 0), cloudSE)),
			fmt.Sprintf("(m = %s and %s)", approx("0", r.mean(13, 0), cloudSE), approx("0.1", r.mean(14, 0), cloudSE)),
			holds(r.cell(0, 13).ErrorRate > 0.9, "M_0 as wrong in the corner"),
			fmt.Sprintf("(%s in CovCon-D)", fnum(2, rs.get("covcon-d").res[caraT].Params["theta"]))}
	}},
	{"covcon-s", 2, func(rs *tourRuns) []string {
		d, s := rs.get("covcon-d"), rs.get("covcon-s")
		corner := slices.DeleteFunc(slices.Clone(d.retrains(oracle)), func(t int) bool { return t%10 == 0 })
		return []string{holds(slices.Contains(d.retrains(oracle), 34), "the Oracle retrains at 34 in CovCon-D"),
			"C[30, 34] was " + fnum(1, d.C(30, 34)), holds(d.cell(30, 34).ErrorRate == s.cell(30, 34).ErrorRate, "the same errors"),
			"CovCon-D's five corner", holds(len(corner) == 5, "five corner retrains in CovCon-D"),
			holds(!slices.ContainsFunc(s.retrains(oracle), func(t int) bool { return slices.Contains(corner, t) }), "no corner retrain in CovCon-S")}
	}},
	{"covcon-s", 3, func(rs *tourRuns) []string {
		r := rs.get("covcon-s")
		return []string{holds(r.inUse(oracle, 69) == 60 && r.inUse(caraT, 69) == 60, "M_60 in use at 69"), "flips at 70"}
	}},
	{"covcon-s", 4, func(rs *tourRuns) []string {
		r := rs.get("covcon-s")
		return []string{"m = " + approx("0.1", r.mean(70, 0), cloudSE), "at 72", holds(r.C(60, 71) < r.s.RetrainCost(71), "C[60, 71] under R")}
	}},
	{"covcon-s", 5, func(rs *tourRuns) []string {
		d, s := rs.get("covcon-d"), rs.get("covcon-s")
		flipsOnly := !slices.ContainsFunc(s.retrains(oracle), func(t int) bool { return t%10 > 1 })
		return []string{fmt.Sprintf("against %d times in CovCon-D", len(d.retrains(oracle))), holds(flipsOnly, "only at flips (or one batch after)"),
			holds(slices.Equal(s.retrains(adwin), d.retrains(adwin)) && slices.Equal(s.retrains(ddm), d.retrains(ddm)), "ADWIN and DDM as in CovCon-D")}
	}},
	{"covcon-s", 6, func(rs *tourRuns) []string {
		s, err := scenarios.Load("covcon-s", scenarios.Options{Set: mustStop(rs.t, "covcon-s", 6).Sets()})
		if err != nil {
			rs.t.Fatal(err)
		}
		d := rs.get("covcon-d")
		return []string{holds(sameBatches(rs.t, s, d.s), "the what-if streams CovCon-D's batches"), "100 drawn from each batch"}
	}},

	// scenario1-far and -near
	{"scenario1-far", 0, func(rs *tourRuns) []string {
		r := rs.get("scenario1-far")
		return []string{"(figure 1)", "400 points", "40 queries", "t = 1", fmt.Sprintf("around (%s, %s)", fnum(1, r.queryMean(0, 0)), fnum(1, r.queryMean(0, 1)))}
	}},
	{"scenario1-far", 1, func(rs *tourRuns) []string {
		r := rs.get("scenario1-far")
		return []string{"started at " + strconv.Itoa(r.s.Offline), "M_1 at batch 2"}
	}},
	{"scenario1-far", 2, func(rs *tourRuns) []string {
		r := rs.get("scenario1-far")
		return []string{fmt.Sprintf("exp(-%g |q - x|^2)", r.m.Gamma), "By batch 3", "R at batch 1"}
	}},
	{"scenario1-far", 3, func(rs *tourRuns) []string {
		w, near := rs.whatif("scenario1-far", 3), rs.get("scenario1-near")
		return []string{"around (0.85, 0.7)", holds(w.C(0, 3) == near.C(0, 3) && slices.Equal(w.retrains(oracle), near.retrains(oracle)), "the what-if is scenario1-near"),
			holds(w.C(0, 1) < w.C(0, 2) && w.C(0, 2) < w.C(0, 3), "row 0 grows")}
	}},
	{"scenario1-near", 0, func(rs *tourRuns) []string {
		r := rs.get("scenario1-near")
		return []string{"40 queries", fmt.Sprintf("around (%s, %s)", fnum(2, r.queryMean(0, 0)), fnum(1, r.queryMean(0, 1)))}
	}},
	{"scenario1-near", 1, func(rs *tourRuns) []string {
		far := rs.get("scenario1-far")
		return []string{"at batch 1", holds(far.C(0, 1) < 0.001, "far's C[0, 1] under 0.001"), "under 0.001"}
	}},
	{"scenario1-near", 2, func(rs *tourRuns) []string { return []string{"M_1 at batch 2"} }},
	{"scenario1-near", 3, func(rs *tourRuns) []string {
		r := rs.get("scenario1-near")
		return []string{holds(r.C(0, 1) < r.C(0, 2) && r.C(0, 2) < r.C(0, 3), "row 0 grows"), "figure 7e", "at batch 1 to", "at batch 3",
			holds(r.C(2, 3) > r.s.RetrainCost(3), "C[2, 3] over R"), "once, at 2"}
	}},
	{"scenario1-near", 4, func(rs *tourRuns) []string {
		r := rs.get("scenario1-near")
		return []string{holds(slices.Equal(r.retrains(markov), r.retrains(oracle)), "Markov matches the Oracle"),
			holds(math.IsInf(r.res[caraT].Params["theta"], 1) && len(r.retrains(caraT)) == 0, "CARA-T's theta is infinite"),
			holds(slices.Equal(r.retrains(ddm), rs.get("scenario1-far").retrains(ddm)), "DDM as in scenario1-far")}
	}},

	// scenario2
	{"scenario2", 0, func(rs *tourRuns) []string {
		r := rs.get("scenario2")
		step := r.queryMean(1, 0) - r.queryMean(0, 0)
		return []string{"(figure 2)", "400 points", "40 queries", "0.1 sin(10 x1)", fnum(2, step) + " a batch", holds(r.mean(0, 0) == r.mean(3, 0), "batch 3 is batch 0")}
	}},
	{"scenario2", 1, func(rs *tourRuns) []string { return []string{"M_1 at batch 2"} }},
	{"scenario2", 2, func(rs *tourRuns) []string {
		r := rs.get("scenario2")
		return []string{"400 points", holds(r.cell(0, 3).B == r.cell(0, 3).A && r.C(0, 3) == 0, "B = A")}
	}},
	{"scenario2", 3, func(rs *tourRuns) []string {
		r := rs.get("scenario2")
		zero, rate := true, r.cell(1, 1).ErrorRate // M_1 is the model every algorithm keeps
		for tp := range 4 {
			for t := tp + 1; t < 4; t++ {
				zero = zero && r.C(tp, t) == 0 && (tp != 1 || r.cell(tp, t).ErrorRate == rate)
			}
		}
		none := true
		for _, x := range r.res {
			none = none && len(x.Strategy.Retrains) == 0 && x.Strategy.Cost() == 1
		}
		return []string{holds(zero, "every cell 0, M_1's error rate the same in every batch"), holds(none, "no algorithm retrains, each costs 1"),
			"M_1 err on the same " + fmt.Sprintf("%.1f %%", 100*rate) + " of every batch", "R of batch 1"}
	}},
	{"scenario2", 4, func(rs *tourRuns) []string {
		r, w := rs.get("scenario2"), rs.whatif("scenario2", 4)
		zero := true
		for tp := range 4 {
			for t := tp + 1; t < 4; t++ {
				zero = zero && w.C(tp, t) == 0
			}
		}
		rise := w.cell(0, 3).A - w.cell(0, 0).A
		return []string{"(" + fnum(2, r.cell(0, 0).A) + " with the walking queries)", holds(math.Abs(rise) < 0.1*w.cell(0, 0).A, "hardly a rise"),
			holds(w.res[oracle].QueryAccuracy < r.res[oracle].QueryAccuracy, "query accuracy worse"), holds(zero, "C stays 0")}
	}},

	// gauss-d
	{"gauss-d", 0, func(rs *tourRuns) []string {
		r := rs.get("gauss-d")
		return []string{fmt.Sprintf("(%s, %s), to the bottom, (%s, %s)", approx("0", r.mean(14, 0), cloudSE), approx("0.5", r.mean(14, 1), cloudSE),
			approx("0.47", r.mean(13, 0), cloudSE), approx("0.03", r.mean(13, 1), cloudSE)),
			"every 15 batches"}
	}},
	{"gauss-d", 1, func(rs *tourRuns) []string {
		r := rs.get("gauss-d")
		return []string{fmt.Sprintf("cloud at (%s, %s)", approx("0.43", r.mean(12, 0), cloudSE), approx("0.07", r.mean(12, 1), cloudSE)),
			holds(math.Abs(r.mean(14, 0)) < cloudSE, "batch 14 at the left edge"), "batch 14 is back", "every 15 batches"}
	}},
	{"gauss-d", 2, func(rs *tourRuns) []string {
		r := rs.get("gauss-d")
		return []string{fmt.Sprintf("learned the cloud at (%s, %s)", approx("0.37", r.mean(25, 0), cloudSE), approx("0.13", r.mean(25, 1), cloudSE)),
			holds(math.Abs(r.mean(29, 0)) < cloudSE, "batch 29 at the left edge")}
	}},
	{"gauss-d", 3, func(rs *tourRuns) []string {
		r := rs.get("gauss-d")
		return []string{holds(r.C(25, 29) < r.s.RetrainCost(29)/2, "far under R"), "by batch 34", holds(r.rowMax(29, 30, 33) < 5, "M_29 under 5"), "stay under 5"}
	}},
	{"gauss-d", 4, func(rs *tourRuns) []string {
		r := rs.get("gauss-d")
		last := r.retrains(oracle)[len(r.retrains(oracle))-1]
		return []string{holds(last == 68 && r.inUse(oracle, 67) == 38, "the Oracle's last retrain at 68, after M_38"),
			fmt.Sprintf("c = %s, midway", approx("0.3", r.mean(38, 0), cloudSE)), holds(math.Abs(r.mean(68, 0)-r.mean(38, 0)) < cloudSE, "M_68 at the same c"),
			fmt.Sprintf("under %s from 39 to 67", fnum(1, math.Ceil(r.rowMax(38, 39, 67)*10)/10)),
			fmt.Sprintf("under %s to the end, %s in all over the %d batches 69 to 99", fnum(1, math.Ceil(r.rowMax(68, 69, 99)*10)/10), fnum(1, r.rowSum(68, 69, 99)), 99-68)}
	}},
	{"gauss-d", 5, func(rs *tourRuns) []string { return nil }},

	// circle-d
	{"circle-d", 0, func(rs *tourRuns) []string {
		return []string{"at 25, 50 and 75", "batches 0, 25 and 50", holds(rs.get("circle-d").s.Offline == 25, "batch 0 is offline")}
	}},
	{"circle-d", 1, func(rs *tourRuns) []string {
		r := rs.get("circle-d")
		return []string{holds(r.C(1, 24) < r.C(0, 24), "M_1 is staler than M_0")}
	}},
	{"circle-d", 2, func(rs *tourRuns) []string {
		return []string{holds(!math.IsInf(rs.get("circle-d").res[caraT].Params["theta"], 1), "CARA-T's theta is finite")}
	}},
	{"circle-d", 3, func(rs *tourRuns) []string { return []string{"to 49"} }},
	{"circle-d", 4, func(rs *tourRuns) []string {
		r := rs.get("circle-d")
		mean := func(tp, from, to int) float64 { return r.rowSum(tp, from, to) / float64(to-from+1) }
		a, b := mean(25, 26, 49), mean(26, 27, 49)
		return []string{holds(r.C(25, 26) < r.s.RetrainCost(26), "C[25, 26] is under R"),
			fmt.Sprintf("up to batch 49 average %s, those of M_26, a model of the second circle alone, %s", fnum(2, a), fnum(2, b)),
			fmt.Sprintf("about %s a batch for %d batches", fnum(1, a-b), 49-26),
			holds(slices.Contains(r.retrains(oracle), 26), "the Oracle retrains at 26")}
	}},
	{"circle-d", 5, func(rs *tourRuns) []string {
		r := rs.get("circle-d")
		first := -1
		for t := 26; t < 100 && first < 0; t++ {
			if r.C(25, t) >= r.s.RetrainCost(t) {
				first = t
			}
		}
		return []string{holds(len(r.retrains(markov)) > 0 && r.retrains(markov)[0] == first, "Markov's first retrain at its first cell over R")}
	}},
	{"circle-d", 6, func(rs *tourRuns) []string {
		r, w := rs.get("circle-d"), rs.whatif("circle-d", 6)
		return []string{holds(w.res[caraT].Params["theta"] == r.res[caraT].Params["theta"], "the same theta"),
			holds(len(w.retrains(markov)) > len(r.retrains(markov)), "Markov now retrains more")}
	}},
}

// raceDetector is set by race_test.go in a -race build.
var raceDetector bool

// TestTourClaims computes the toured scenarios as shipped (seed, model, R) and checks every
// number and decision their stops state. A 100-batch scenario of 100-tree forests takes some ten
// seconds of CPU: by default the 4-batch scenarios and covcon-d are checked; CARA_TOURS=all
// checks every tour (CI does); -short and -race check the 4-batch ones only.
func TestTourClaims(t *testing.T) {
	rs := &tourRuns{t: t, runs: map[string]*tourRun{}}
	skipped := map[string]bool{}
	for _, c := range tourClaims {
		s := mustScenario(t, c.scenario)
		if s.Batches > 10 && (testing.Short() || raceDetector || c.scenario != "covcon-d" && os.Getenv("CARA_TOURS") != "all") {
			skipped[c.scenario] = true
			continue
		}
		if c.stop >= len(s.Tour) {
			continue // TestTourClaimsCoverEveryStop reports it
		}
		st := s.Tour[c.stop]
		r := rs.get(c.scenario)
		if len(st.Whatif) > 0 {
			r = rs.whatif(c.scenario, c.stop)
		}
		say := st.Text(r.facts(st.At))
		if strings.Contains(say, "…") {
			t.Errorf("%s, stop %d: a template is not filled from the finished run:\n  %s", c.scenario, c.stop, say)
		}
		t.Logf("%s, stop %d (at %d): %s", c.scenario, c.stop, st.At, say)
		frags := c.says(rs)
		for _, frag := range frags {
			if !strings.Contains(say, frag) {
				t.Errorf("%s, stop %d (at %d): the text should say %q, computed from the run\n  it says: %s", c.scenario, c.stop, st.At, frag, say)
			}
		}
		given := append(numbers(strings.Join(frags, " "), false), numbers(fileParameters(t, c.scenario), false)...)
		given = append(given, strconv.Itoa(st.At))
		for _, n := range numbers(st.Literal(), true) {
			if !slices.Contains(given, n) {
				t.Errorf("%s, stop %d (at %d): %s is written in the text, but neither a claim computed from the run nor the scenario's file gives it: make it a template, or claim it\n  it says: %s",
					c.scenario, c.stop, st.At, n, st.Say)
			}
		}
	}
	if len(skipped) > 0 {
		t.Logf("not computed here (CARA_TOURS=all computes them): %s", strings.Join(slices.Sorted(maps.Keys(skipped)), ", "))
	}
}

// Every stop of every embedded tour has its claims listed above: a new stop, or a new tour, comes
// with the numbers it states checked.
func TestTourClaimsCoverEveryStop(t *testing.T) {
	declared := map[string]map[int]bool{}
	for _, c := range tourClaims {
		if declared[c.scenario] == nil {
			declared[c.scenario] = map[int]bool{}
		}
		declared[c.scenario][c.stop] = true
	}
	toured := 0
	for _, info := range scenarios.Embedded() {
		s := mustScenario(t, info.Name)
		if len(s.Tour) > 0 {
			toured++
		}
		for i := range s.Tour {
			if !declared[info.Name][i] {
				t.Errorf("%s: stop %d (at %d) has no claims in tourClaims", info.Name, i, s.Tour[i].At)
			}
		}
		for i := range declared[info.Name] {
			if i >= len(s.Tour) {
				t.Errorf("%s: tourClaims checks stop %d of a tour of %d", info.Name, i, len(s.Tour))
			}
		}
	}
	if toured < 7 {
		t.Errorf("%d embedded scenarios have a tour, want at least 7", toured)
	}
}

// numbers are the numbers written in s ("0.31", "20"), in order. With names, numbers that are part
// of a name or a cell are left out: indices (M_25, Q_11, x1), cells (C[25, 27]), "7e", "2x2".
func numbers(s string, names bool) []string {
	var out []string
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '[':
			depth++
			continue
		case c == ']':
			depth = max(depth-1, 0)
			continue
		case c < '0' || c > '9':
			continue
		}
		j := i
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9') {
			j++
		}
		n := s[i:j]
		prev, next := byte(' '), byte(' ')
		if i > 0 {
			prev = s[i-1]
		}
		if j < len(s) {
			next = s[j]
		}
		letter := func(b byte) bool { return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
		i = j - 1
		if names && (depth > 0 || letter(prev) || letter(next)) {
			continue
		}
		out = append(out, n)
	}
	return out
}

// fileParameters is the scenario file's text above its tour: the parameters the run is made from.
func fileParameters(t *testing.T, name string) string {
	b, err := mustScenario(t, name).Text() // an embedded scenario's file, as it is
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(b), "\ntour:")
	return head
}

var loaded = map[string]*scenarios.Scenario{}

// mustScenario loads an embedded scenario once for the claims.
func mustScenario(t *testing.T, name string) *scenarios.Scenario {
	if s, ok := loaded[name]; ok {
		return s
	}
	s, err := scenarios.Load(name, scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	loaded[name] = s
	return s
}

func mustStop(t *testing.T, name string, i int) tour.Stop { return mustScenario(t, name).Tour[i] }

// sameBatches reports whether two scenarios stream the same data and queries at their seeds.
func sameBatches(t *testing.T, a, b *scenarios.Scenario) bool {
	sa, err := a.Stream(a.Seed)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.Stream(b.Seed)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []int{0, 27, a.Batches - 1} {
		ba, err1 := sa.Batch(tt)
		bb, err2 := sb.Batch(tt)
		if err1 != nil || err2 != nil || !slices.Equal(ba.X.V, bb.X.V) || !slices.Equal(ba.Y, bb.Y) || !slices.Equal(ba.Q.V, bb.Q.V) {
			return false
		}
	}
	return true
}
