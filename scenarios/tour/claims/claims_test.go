package claims

import (
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
)

// The embedded tours teach with numbers and with words. The numbers come from the run itself,
// through the templates of say.go ({C 0 11}, {cost Oracle}), filled in as the player fills them.
// The words around them are held to the run by the claims below: for each stop, computed from the
// scenario run afresh on the seed its tour was written for (the scenario's TourSeed), each claim
// names the words it checks and whether the run makes them so (check_test.go). A number or a word
// that states a pattern, a recurrence or a bound ("every 7", "stays under 5", "the last retrain"),
// written in a stop and checked by no claim, fails the test: a sentence about the run is a template
// or a claim, or it is not written. When the engine, a model or a scenario changes what the
// player shows, this test says which words no longer hold.

// tourClaim checks stop `stop` of a scenario's tour.
type tourClaim struct {
	scenario string
	stop     int
	says     func(rs *tourRuns) []claim
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

// covconA is CovCon's concept of the even decades (0-9, 20-29, ...); the odd ones flip it.
func covconA(x []float64) bool { return 0.8*math.Sin(math.Pi*x[0]) > x[1] }

// flipsEvery10 reports whether CovCon's labels follow concept a in the even decades and its flip
// in the odd ones, batch by batch.
func flipsEvery10(r *tourRun) bool {
	for t := range r.m.Batches() {
		share := r.agrees(t, covconA)
		if (t/10)%2 == 0 && share < 0.99 || (t/10)%2 == 1 && share > 0.01 {
			return false
		}
	}
	return true
}

// covconCloud reports whether every batch's cloud sits at m = ((t+1) % 7)/10 on the diagonal.
func covconCloud(r *tourRun) bool {
	for t := range r.m.Batches() {
		m := float64((t+1)%7) / 10
		if !r.centred(t, m, m) {
			return false
		}
	}
	return true
}

// corner is the batches of from..to where CovCon's cloud jumps back to the corner (m = 0).
func corner(from, to int) []int { return every(from, to, func(t int) bool { return (t+1)%7 == 0 }) }

// gaussCloud reports whether every batch's cloud sits at (c, 0.5 - c), c = ((t+1) % 15)/30.
func gaussCloud(r *tourRun) bool {
	for t := range r.m.Batches() {
		c := float64((t+1)%15) / 30
		if !r.centred(t, c, 0.5-c) {
			return false
		}
	}
	return true
}

// prose writes batches as the tours do: "27, 34, 41, 62 and 83".
func prose(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

var tourClaims = []tourClaim{
	// covcon-d
	{"covcon-d", 0, func(rs *tourRuns) []claim {
		r := rs.get("covcon-d")
		return []claim{
			file("Each batch is 1000 points from N(m, 0.1) with m = ((t+1) % 7)/10"),
			holds("the cloud climbs the diagonal from the corner (m = 0) to m = 0.6 and jumps back every 7 batches", covconCloud(r),
				"each batch's cloud at m = ((t+1) % 7)/10 on the diagonal"),
			file("The boundary 0.8 sin(pi x1) > x2"), holds("flips every 10 batches", flipsEvery10(r), "the labels flip each decade"),
			file("The 100 queries of a batch are drawn from its data"), holds("", r.batch(0).Q.Len() == 100, "100 queries"),
			method("Every batch gets its own model M_t"),
		}
	}},
	{"covcon-d", 1, func(rs *tourRuns) []claim {
		r := rs.get("covcon-d")
		return []claim{
			holds("The concept flipped at 10", r.agrees(9, covconA) > 0.99 && r.agrees(10, covconA) < 0.01, "concept a at 9, flipped at 10"),
			holds("M_0 now gets", r.cell(0, 11).ErrorRate > 0.5, "M_0 gets most of batch 11 wrong"),
			method("the same over its own training data"),
			holds("a forest fits its own batch", r.cell(0, 0).B == 0 && r.cell(0, 11).B == 0, "B = 0"),
		}
	}},
	{"covcon-d", 2, func(rs *tourRuns) []claim {
		r := rs.get("covcon-d")
		R := r.s.RetrainCost(0)
		return []claim{
			said(fmt.Sprintf("batches 0 to %d", r.s.Offline-1)),
			holds("Row 0 is cheap (dark) in columns 1 to 9", r.rowMax(0, 1, 9) < R, "row 0 under R in columns 1-9"),
			holds("dear (light) in columns 10 to 19", r.rowMin(0, 10, 19) > R, "row 0 over R in columns 10-19"),
			holds("where it is flipped", r.agrees(10, covconA) < 0.01 && r.agrees(19, covconA) < 0.01, "flipped in 10-19"),
			holds("M_6 saw only the corner", r.centred(6, 0, 0), "batch 6 in the corner"),
			said("batch 9 sits at m = " + approx("0.3", r.mean(9, 0), cloudSE)),
		}
	}},
	{"covcon-d", 3, func(rs *tourRuns) []claim {
		return []claim{method("Every strategy trains M_25 here"), method("the threshold that made the offline strategy cheapest"),
			method("its cost is the least any strategy can pay")}
	}},
	{"covcon-d", 4, func(rs *tourRuns) []claim {
		r := rs.get("covcon-d")
		return []claim{
			said("a cloud at m = " + approx("0.5", r.mean(25, 0), cloudSE)),
			holds("The concept has not changed since 20", !slices.ContainsFunc(every(20, 27, func(int) bool { return true }), func(t int) bool { return r.agrees(t, covconA) < 0.99 }),
				"concept a from 20 to 27"),
			holds("at 27 the cloud jumps back to the corner, m = 0", r.centred(27, 0, 0) && r.centred(26, 0.6, 0.6), "at 0.6 at 26, in the corner at 27"),
		}
	}},
	{"covcon-d", 5, func(rs *tourRuns) []claim {
		r := rs.get("covcon-d")
		flips := every(26, 99, func(t int) bool { return t%10 == 0 })
		jumps := every(26, 99, func(t int) bool { return t%10 != 0 && r.centred(t, 0, 0) && !r.centred(t-1, 0, 0) }) // not at a flip
		taken := slices.DeleteFunc(slices.Clone(jumps), func(t int) bool { return !r.retrainsAt(oracle, t) })
		elsewhere := slices.ContainsFunc(r.retrains(oracle), func(t int) bool { return !slices.Contains(flips, t) && !slices.Contains(jumps, t) })
		return []claim{
			holds("though the concept had not moved", r.agrees(26, covconA) > 0.99 && r.agrees(27, covconA) > 0.99, "concept a at 26 and 27"),
			holds("at every concept flip (every 10 batches)", r.retrainsAt(oracle, flips...) && flipsEvery10(r), "the Oracle retrains at each flip"),
			said(fmt.Sprintf("at %d of the %d other jumps of the cloud back to the corner (every 7): %s", len(taken), len(jumps), prose(taken))),
			holds("", covconCloud(r) && !elsewhere, "the cloud jumps to the corner every 7 batches; the Oracle retrains nowhere else"),
			said("M_40 learned the cloud at m = " + approx("0.6", r.mean(40, 0), cloudSE)),
			batch("At 27 the Oracle"), method("Over the whole online block"), method("So far"),
		}
	}},
	{"covcon-d", 6, func(rs *tourRuns) []claim {
		r := rs.get("covcon-d")
		moves := slices.ContainsFunc(corner(26, 99), func(t int) bool { return t%10 != 0 && r.retrainsAt(adwin, t) && !r.retrainsAt(oracle, t) })
		return []claim{
			holds("the cloud's moves included", moves, "ADWIN retrains at a corner jump where the concept holds and the Oracle keeps"),
			method("each retrain pays R"), method("Never retraining costs"), method("in all"),
		}
	}},
	{"covcon-d", 7, func(rs *tourRuns) []claim {
		w := rs.whatif("covcon-d", 7)
		return []claim{
			paper("The paper's appendix B shows CovCon-D at this R: there CARA-P comes closest to the Oracle, as Markov does, and ADWIN costs about what never retraining does",
				"appendix B, Online Evaluation, at R = 46: \"the CARA-P variant is the closest to the Oracle strategy cost, performing similarly to the Markov baseline\"; \"although ADWIN makes several RETRAIN decisions, it has a strategy cost similar to the Never-retrain baseline\""),
			said(fmt.Sprintf("What if a retrain cost %s?", strconv.FormatFloat(w.s.RetrainCost(99), 'g', 4, 64))),
			method("tuned again"), method("Markov (theta = R)"),
			// The paper's words are the paper's; this run's are held to the run: CARA-T, not
			// CARA-P or Markov, is the closest, and ADWIN costs well under never retraining.
			holds("This run does not bear that out", slices.Equal(closest(w), []algos.Name{algos.NameCaraCT, caraT}) && w.cost(adwin) < 0.75*w.cost(never),
				"CARA-T and CARA-CT closest, ADWIN under 3/4 of never"),
			holds("comes closest, tied with CARA-CT", slices.Equal(closest(w), []algos.Name{algos.NameCaraCT, caraT}), "CARA-T and CARA-CT the cheapest but the Oracle"),
			holds("far under Never-retrain's", w.cost(adwin) < 0.75*w.cost(never), "ADWIN under 3/4 of Never-retrain"),
			holds(fmt.Sprintf("%.1f %% over", 100*(w.cost(caraT)-w.cost(oracle))/w.cost(oracle)), w.cost(caraT) >= w.cost(oracle), "CARA-T over the Oracle"),
		}
	}},

	// covcon-s
	{"covcon-s", 0, func(rs *tourRuns) []claim {
		d, s := rs.get("covcon-d"), rs.get("covcon-s")
		sameData := true
		for t := range 100 {
			sameData = sameData && slices.Equal(d.batch(t).X.V, s.batch(t).X.V)
		}
		return []claim{
			holds("CovCon-S has CovCon-D's data, point for point, and so the same models", sameData && sameErrors(d, s), "the same data, the same errors"),
			holds("Only the queries differ", !slices.Equal(d.batch(3).Q.V, s.batch(3).Q.V), "other queries"),
			file("100 a batch from N((0.5, 0.5), 0.015)"),
			holds("a tight spot at the centre that never moves", math.Abs(s.queryMean(0, 0)-0.5) < 0.01 && math.Abs(s.queryMean(99, 1)-0.5) < 0.01, "queries at the centre at 0 and 99"),
			method("so a model's errors cost only where they come near the centre"),
		}
	}},
	{"covcon-s", 1, func(rs *tourRuns) []claim {
		r := rs.get("covcon-s")
		far := r.C(0, 13) < r.C(0, 11)/10 && r.C(0, 14) < r.C(0, 11)/10
		return []claim{
			holds("the flipped block 10 to 19", r.agrees(10, covconA) < 0.01 && r.agrees(19, covconA) < 0.01 && r.agrees(20, covconA) > 0.99, "flipped from 10 to 19"),
			said(fmt.Sprintf("(m = %s to %s)", approx("0.4", r.mean(10, 0), cloudSE), approx("0.6", r.mean(12, 0), cloudSE))),
			said(fmt.Sprintf("(m = %s and %s)", approx("0", r.mean(13, 0), cloudSE), approx("0.1", r.mean(14, 0), cloudSE))),
			batch("row 0 costs"), batch("of batch 13"),
			holds("M_0 is as wrong there", r.cell(0, 13).ErrorRate > 0.9 && r.cell(0, 11).ErrorRate > 0.9, "M_0 wrong on 90 % of 11 and 13"),
			holds("but far from the queries", far, "C[0, 13] and C[0, 14] a tenth of C[0, 11]"),
			said(fmt.Sprintf("(%s in CovCon-D)", fnum(2, rs.get("covcon-d").res[caraT].Params["theta"]))),
		}
	}},
	{"covcon-s", 2, func(rs *tourRuns) []claim {
		d, s := rs.get("covcon-d"), rs.get("covcon-s")
		jumps := slices.DeleteFunc(slices.Clone(d.retrains(oracle)), func(t int) bool { return t%10 == 0 })
		return []claim{
			holds("In CovCon-D the Oracle retrained here", d.retrainsAt(oracle, 34), "the Oracle retrains at 34 in CovCon-D"),
			holds("the cloud is back in the corner", d.centred(34, 0, 0), "batch 34 in the corner"),
			said("C[30, 34] was " + fnum(1, d.C(30, 34))),
			holds("Same model, same data, the same", d.cell(30, 34).ErrorRate == s.cell(30, 34).ErrorRate, "the same errors"),
			holds("None of CovCon-D's five corner retrains pays in CovCon-S", len(jumps) == 5 && !slices.ContainsFunc(s.retrains(oracle), func(t int) bool { return slices.Contains(jumps, t) }),
				"five corner retrains in CovCon-D, none of them in CovCon-S"),
		}
	}},
	{"covcon-s", 3, func(rs *tourRuns) []claim {
		r := rs.get("covcon-s")
		return []claim{
			holds("The concept flips at 70", r.agrees(69, covconA) > 0.99 && r.agrees(70, covconA) < 0.01, "a at 69, flipped at 70"),
			holds("The model in use is M_60, trained on the other concept", r.inUse(oracle, 69) == 60 && r.agrees(60, covconA) > 0.99, "the Oracle's M_60 at 69, trained on a"),
		}
	}},
	{"covcon-s", 4, func(rs *tourRuns) []claim {
		r := rs.get("covcon-s")
		return []claim{
			said("m = " + approx("0.1", r.mean(70, 0), cloudSE)), holds("far from the queries", r.C(60, 70) < r.s.RetrainCost(70)/5, "C[60, 70] under R/5"),
			method("QDM sees a model's errors only where there are data"),
			holds(" is under R", r.C(60, 71) < r.s.RetrainCost(71), "C[60, 71] under R"), said("at 72"),
			batch("At 70 the Oracle"), batch("on batch 70"),
		}
	}},
	{"covcon-s", 5, func(rs *tourRuns) []claim {
		d, s := rs.get("covcon-d"), rs.get("covcon-s")
		flipsOnly := !slices.ContainsFunc(s.retrains(oracle), func(t int) bool { return t%10 > 1 })
		return []claim{
			said(fmt.Sprintf("against %d times in CovCon-D", len(d.retrains(oracle)))),
			holds("only at the concept flips, or a batch after", flipsOnly, "every Oracle retrain at a flip or one batch after"),
			holds("ADWIN and DDM retrain exactly as in CovCon-D", slices.Equal(s.retrains(adwin), d.retrains(adwin)) && slices.Equal(s.retrains(ddm), d.retrains(ddm)), "ADWIN and DDM as in CovCon-D"),
			method("never retraining"),
		}
	}},
	{"covcon-s", 6, func(rs *tourRuns) []claim {
		w, d := rs.whatif("covcon-s", 6), rs.get("covcon-d")
		same := sameBatches(rs.t, w.s, d.s, true)
		for tp := 0; tp < 100 && same; tp += 3 {
			for t := tp; t < 100; t += 4 {
				same = same && w.C(tp, t) == d.C(tp, t)
			}
		}
		return []claim{
			holds("What if the queries followed the data again, 100 drawn from each batch? That is CovCon-D, cell for cell: the checkerboard is whole again", same,
				"the what-if's queries and cells are CovCon-D's"),
			holds(fmt.Sprintf("back to %d retrains", len(w.retrains(oracle))), slices.Equal(w.retrains(oracle), d.retrains(oracle)), "the Oracle retrains as in CovCon-D"),
		}
	}},

	// scenario1-far and -near
	{"scenario1-far", 0, func(rs *tourRuns) []claim {
		r := rs.get("scenario1-far")
		grows := r.cell(0, 1).ErrorRate < r.cell(0, 2).ErrorRate && r.cell(0, 2).ErrorRate < r.cell(0, 3).ErrorRate
		return []claim{
			paper("The paper's first example (figure 1)", "figure 1, the example scenarios"), file("400 points a batch"),
			file("From t = 1 the true boundary turns toward the horizontal"), holds("a little more every batch, so M_0 errs in two growing wedges", grows, "M_0's error rate grows"),
			file("The 40 queries"), said(fmt.Sprintf("around (%s, %s)", fnum(1, r.queryMean(0, 0)), fnum(1, r.queryMean(0, 1)))),
		}
	}},
	{"scenario1-far", 1, func(rs *tourRuns) []claim {
		r := rs.get("scenario1-far")
		return []claim{said("started at " + strconv.Itoa(r.s.Offline)), method("every strategy trained M_1"), quizModel(r, 2, 1)}
	}},
	{"scenario1-far", 2, func(rs *tourRuns) []claim {
		r := rs.get("scenario1-far")
		return []claim{
			said(fmt.Sprintf("exp(-%g |q - x|^2)", r.m.Gamma)),
			holds("so the errors hardly count", r.C(0, 3) < r.s.RetrainCost(3)/10, "C[0, 3] under R/10"),
			said("R at batch " + strconv.Itoa(r.s.Offline)), method("in all"),
			holds("DDM sees the error rate rise", r.cell(0, 2).ErrorRate > r.cell(0, 1).ErrorRate, "M_0's error rate rises"),
			holds("paying R for nothing the queries notice", len(r.retrains(oracle)) == 0 && len(r.retrains(ddm)) > 0, "the Oracle never retrains, DDM does"),
		}
	}},
	{"scenario1-far", 3, func(rs *tourRuns) []claim {
		w, near := rs.whatif("scenario1-far", 3), rs.get("scenario1-near")
		return []claim{
			said(fmt.Sprintf("around (%s, %s)", approx("0.85", w.queryMean(0, 0), 0.03), approx("0.7", w.queryMean(0, 1), 0.03))),
			holds("That is scenario1-near: the same data, the same models", w.C(0, 3) == near.C(0, 3) && sameErrors(w, near) && slices.Equal(w.retrains(oracle), near.retrains(oracle)),
				"the what-if is scenario1-near"),
			holds("Row 0 now grows every batch", w.rising(0, 1, 3), "row 0 rises"),
		}
	}},
	{"scenario1-near", 0, func(rs *tourRuns) []claim {
		r, far := rs.get("scenario1-near"), rs.get("scenario1-far")
		return []claim{
			paper("Scenario 1 again", "appendix A, scenario 1: the queries far from (b) or near (d) the errors"),
			holds("the same data, drift and models as scenario1-far", sameBatches(rs.t, r.s, far.s, false) && sameErrors(r, far), "the same data and errors"),
			file("40 queries"), said(fmt.Sprintf("around (%s, %s)", fnum(2, r.queryMean(0, 0)), fnum(1, r.queryMean(0, 1)))),
			holds("just where M_0's wedge of errors opens", r.C(0, 1) > 100*far.C(0, 1), "C[0, 1] a hundred times scenario1-far's"),
		}
	}},
	{"scenario1-near", 1, func(rs *tourRuns) []claim {
		r, far := rs.get("scenario1-near"), rs.get("scenario1-far")
		return []claim{
			holds("Already at batch 1", r.C(0, 1) > r.s.RetrainCost(1), "C[0, 1] over R"),
			holds("In scenario1-far the same errors cost under 0.001", far.C(0, 1) < 0.001 && sameErrors(r, far), "far's C[0, 1] under 0.001"),
			method("every strategy trains M_1"),
		}
	}},
	{"scenario1-near", 2, func(rs *tourRuns) []claim { return []claim{quizModel(rs.get("scenario1-near"), 2, 1)} }},
	{"scenario1-near", 3, func(rs *tourRuns) []claim {
		r := rs.get("scenario1-near")
		R := r.s.RetrainCost(3)
		return []claim{
			holds("Row 0 grows every batch", r.rising(0, 1, 3), "row 0 rises"),
			paper("(the paper's figure 7e)", "appendix A, figure 7 (e): the cost matrix of scenario 1 with the queries near the errors"),
			holds("query accuracy falls from", r.cell(0, 1).QueryAccuracy > r.cell(0, 3).QueryAccuracy, "M_0's query accuracy falls"),
			said("at batch 1 to"), method("in all"),
			paper("The paper's Oracle retrains once, at 2", "appendix A: \"The Oracle retraining strategy is to retrain the model at t=2\""),
			holds("here C[2, 3] is just over R", r.C(2, 3) > R && r.C(2, 3) < 1.1*R, "R < C[2, 3] < 1.1 R"),
		}
	}},
	{"scenario1-near", 4, func(rs *tourRuns) []claim {
		r := rs.get("scenario1-near")
		return []claim{
			method("Markov (keep while C < R)"),
			holds("as the Oracle does", slices.Equal(r.retrains(markov), r.retrains(oracle)), "Markov retrains as the Oracle"),
			holds("one offline batch holds no keep decision to learn from", r.s.Offline == 1, "one offline batch"),
			holds("it never retrains", math.IsInf(r.res[caraT].Params["theta"], 1) && len(r.retrains(caraT)) == 0, "CARA-T's theta is infinite, no retrain"),
			method("Offline tuning knows only what the offline block shows"),
			holds("as it does in scenario1-far", slices.Equal(r.retrains(ddm), rs.get("scenario1-far").retrains(ddm)), "DDM as in scenario1-far"),
		}
	}},

	// scenario2
	{"scenario2", 0, func(rs *tourRuns) []claim {
		r := rs.get("scenario2")
		same := true
		for t := 1; t < 4; t++ {
			same = same && slices.Equal(r.batch(t).X.V, r.batch(0).X.V) && slices.Equal(r.batch(t).Y, r.batch(0).Y)
		}
		step0, step1 := r.queryMean(1, 0)-r.queryMean(0, 0), r.queryMean(0, 1)-r.queryMean(1, 1)
		return []claim{
			paper("(figure 2)", "figure 2, the second example"),
			holds("The data never change: every batch reuses batch 0's 400 points and labels", same, "every batch is batch 0"),
			file("x2 = x1 + 0.1 sin(10 x1)"), file("The 40 queries"),
			said(fnum(2, step0) + " a batch"), holds("in each coordinate", math.Abs(step0-step1) < 0.02, "the same step in x1 and x2"),
		}
	}},
	{"scenario2", 1, func(rs *tourRuns) []claim { return []claim{quizModel(rs.get("scenario2"), 2, 1)} }},
	{"scenario2", 2, func(rs *tourRuns) []claim {
		r := rs.get("scenario2")
		grows := r.cell(0, 0).A < r.cell(0, 1).A && r.cell(0, 1).A < r.cell(0, 2).A && r.cell(0, 2).A < r.cell(0, 3).A
		return []claim{
			holds("grows batch by batch", grows, "A[0, t] rises"),
			holds("the same 400 points", slices.Equal(r.batch(3).X.V, r.batch(0).X.V), "batch 3 is batch 0"),
			method("the same queries over the model's own training data"),
			holds("B = A", r.cell(0, 3).B == r.cell(0, 3).A && r.C(0, 3) == 0, "B = A"),
		}
	}},
	{"scenario2", 3, func(rs *tourRuns) []claim {
		r := rs.get("scenario2")
		zero, rate := true, r.cell(1, 1).ErrorRate // M_1 is the model every algorithm keeps
		for tp := range 4 {
			for t := tp + 1; t < 4; t++ {
				zero = zero && r.C(tp, t) == 0 && (tp != 1 || r.cell(tp, t).ErrorRate == rate)
			}
		}
		none, same := true, true
		for _, x := range r.res {
			none = none && len(x.Strategy.Retrains) == 0
			same = same && x.Strategy.Cost() == r.cost(oracle)
		}
		return []claim{
			holds("Every cell off the diagonal is exactly 0: no keep decision costs anything", zero, "every cell 0"),
			holds("No algorithm retrains", none, "no retrain"),
			said("M_1 err on the same " + fmt.Sprintf("%.1f %%", 100*rate) + " of every batch"), holds("", zero, "M_1's error rate the same in every batch"),
			holds("and all cost", same, "every algorithm costs the Oracle's"), said("the R of batch " + strconv.Itoa(r.s.Offline)),
			method("QDM alone would have blamed the model"),
		}
	}},
	{"scenario2", 4, func(rs *tourRuns) []claim {
		r, w := rs.get("scenario2"), rs.whatif("scenario2", 4)
		zero := true
		for tp := range 4 {
			for t := tp + 1; t < 4; t++ {
				zero = zero && w.C(tp, t) == 0
			}
		}
		rise := w.cell(0, 3).A - w.cell(0, 0).A
		return []claim{
			said("(" + fnum(2, r.cell(0, 0).A) + " with the walking queries)"),
			holds("hardly a rise, as the queries no longer move", math.Abs(rise) < 0.1*w.cell(0, 0).A && math.Abs(w.queryMean(3, 0)-w.queryMean(0, 0)) < 0.03, "A rises under a tenth; the queries stay"),
			holds("The models answer them worse", w.res[oracle].QueryAccuracy < r.res[oracle].QueryAccuracy, "query accuracy worse"),
			holds("every cell of C is still 0", zero, "C stays 0"),
			method("without new data there is nothing new to learn, wherever the queries are"),
		}
	}},

	// gauss-d
	{"gauss-d", 0, func(rs *tourRuns) []claim {
		r := rs.get("gauss-d")
		return []claim{
			holds("only the data move", r.agrees(0, gaussLabel) == 1 && r.agrees(99, gaussLabel) == 1, "one concept"),
			file("Each batch is a cloud centred at (c, 0.5 - c), c = ((t+1) % 15)/30"),
			said(fmt.Sprintf("(%s, %s), to the bottom, (%s, %s), and jumps back every 15 batches", approx("0", r.mean(14, 0), cloudSE), approx("0.5", r.mean(14, 1), cloudSE),
				approx("0.47", r.mean(13, 0), cloudSE), approx("0.03", r.mean(13, 1), cloudSE))),
			holds("jumps back every 15 batches", gaussCloud(r), "each batch's cloud at c = ((t+1) % 15)/30"),
			file("The boundary, x2 > 4(x1 - 0.5)^2"),
			holds("never changes: there is no concept drift at all", r.agrees(0, gaussLabel) == 1 && r.agrees(50, gaussLabel) == 1 && r.agrees(99, gaussLabel) == 1, "the labels follow the one boundary"),
			file("The queries are drawn from each batch"),
		}
	}},
	{"gauss-d", 1, func(rs *tourRuns) []claim {
		r := rs.get("gauss-d")
		b := r.batch(12)
		near := 0
		for i := range b.X.Len() {
			if b.X.Row(i)[0] < 0.15 {
				near++
			}
		}
		return []claim{
			said(fmt.Sprintf("cloud at (%s, %s)", approx("0.43", r.mean(12, 0), cloudSE), approx("0.07", r.mean(12, 1), cloudSE))),
			holds("batch 14 is back at the left edge", r.centred(14, 0, 0.5), "batch 14 at (0, 0.5)"),
			holds("on an arm M_12 hardly saw", near < b.X.Len()/100, "under 1 % of batch 12 at x1 < 0.15"),
			holds("The cloud comes back to the left edge every 15 batches: 14, 29, 44", gaussCloud(r), "at the left edge at 14, 29, 44, ..."),
		}
	}},
	{"gauss-d", 2, func(rs *tourRuns) []claim {
		r := rs.get("gauss-d")
		return []claim{
			holds("The cloud is back at the left edge", r.centred(29, 0, 0.5), "batch 29 at (0, 0.5)"),
			said(fmt.Sprintf("learned the cloud at (%s, %s)", approx("0.37", r.mean(25, 0), cloudSE), approx("0.13", r.mean(25, 1), cloudSE))),
			quizModel(r, 29, 25),
		}
	}},
	{"gauss-d", 3, func(rs *tourRuns) []claim {
		r := rs.get("gauss-d")
		return []claim{
			holds("is far under R", r.C(25, 29) < r.s.RetrainCost(29)/2, "C[25, 29] under R/2"),
			holds("by batch 32 M_25's cells climb to", r.rising(25, 30, 32) && r.C(25, 32) > r.C(25, 29), "C[25, 30..32] rising, over C[25, 29]"),
			holds("while M_29's stay under 3", r.rowMax(29, 30, 32) < 3, "C[29, 30..32] under 3"),
			holds("at 33 the Oracle retrains again", r.retrainsAt(oracle, 29, 33) && !r.retrainsAt(oracle, 30) && !r.retrainsAt(oracle, 31) && !r.retrainsAt(oracle, 32),
				"the Oracle keeps M_29 from 30 to 32 and retrains at 33"),
			method("Markov's retrains (theta = R)"), method("in all"),
		}
	}},
	{"gauss-d", 4, func(rs *tourRuns) []claim {
		r := rs.get("gauss-d")
		last := r.retrains(oracle)[len(r.retrains(oracle))-1]
		return []claim{
			holds("The Oracle's last retrain", last == 68 && r.inUse(oracle, 67) == 38, "the Oracle's last retrain at 68, after M_38"),
			said(fmt.Sprintf("both learned the cloud at c = %s", approx("0.3", r.mean(38, 0), cloudSE))), holds("", r.centred(68, r.mean(38, 0)), "M_68 at the same c"),
			said(fmt.Sprintf("stayed under %s from 39 to 67", fnum(1, math.Ceil(r.rowMax(38, 39, 67)*10)/10))),
			said(fmt.Sprintf("stay under %s to the end, %s in all over the %d batches 69 to 99", fnum(1, math.Ceil(r.rowMax(68, 69, 99)*10)/10), fnum(1, r.rowSum(68, 69, 99)), 99-68)),
		}
	}},
	{"gauss-d", 5, func(rs *tourRuns) []claim {
		r := rs.get("gauss-d")
		return []claim{
			method("Never retraining costs"),
			method("covariate drift hurts a model only where the data go somewhere it has not seen"),
			holds("", r.res[never].QueryAccuracy < r.res[oracle].QueryAccuracy, "Never-retrain's accuracy under the Oracle's"),
		}
	}},

	// circle-d
	{"circle-d", 0, func(rs *tourRuns) []claim {
		r := rs.get("circle-d")
		return []claim{
			file("the points stay uniform in the square"), file("Class 1 lies outside a circle, and at 25, 50 and 75 the circle moves right and grows"),
			file("batches 0, 25 and 50 open with half a batch drifting towards the next circle and back"),
			holds("the first drift lies inside the offline block", r.s.Offline == 25, "batch 0 is offline"),
			file("No label is flipped: no noise"),
		}
	}},
	{"circle-d", 1, func(rs *tourRuns) []claim {
		r := rs.get("circle-d")
		return []claim{
			batch("M_0 learned batch 0"), file("whose first half blends in the second circle"), file("M_1 learned the first circle alone"),
			holds("keeping M_1 only", r.C(1, 24) < r.C(0, 24), "M_1 is staler than M_0"),
			method("over the offline block"), batch("retraining once at 1"), method("pays whenever R is below what M_0's extra staleness adds up to"),
		}
	}},
	{"circle-d", 2, func(rs *tourRuns) []claim {
		r := rs.get("circle-d")
		return []claim{
			method("every strategy trains M_25"),
			holds("where leaving M_0 paid: its threshold is finite", !math.IsInf(r.res[caraT].Params["theta"], 1), "CARA-T's theta is finite"),
			method("it retrains whenever a cell of the model in use rises above it"),
		}
	}},
	{"circle-d", 3, func(rs *tourRuns) []claim {
		r := rs.get("circle-d")
		holds49 := !slices.ContainsFunc(every(26, 49, func(int) bool { return true }), func(t int) bool { return r.agrees(t, circle2) < 0.99 }) && r.agrees(50, circle2) < 0.9
		return []claim{batch("M_25 was trained on batch 25"), file("whose first half drifts towards the third circle"),
			holds("The second circle holds from here to 49", holds49, "the second circle's labels from 26 to 49, not at 50"), quizModel(r, 26, 25)}
	}},
	{"circle-d", 4, func(rs *tourRuns) []claim {
		r := rs.get("circle-d")
		mean := func(tp, from, to int) float64 { return r.rowSum(tp, from, to) / float64(to-from+1) }
		a, b := mean(25, 26, 49), mean(26, 27, 49)
		return []claim{
			holds("is far under R", r.C(25, 26) < r.s.RetrainCost(26)/2, "C[25, 26] under R/2"),
			said(fmt.Sprintf("up to batch 49 average %s, those of M_26, a model of the second circle alone, %s", fnum(2, a), fnum(2, b))),
			said(fmt.Sprintf("Paying R once saves about %s a batch for %d batches", fnum(1, a-b), 49-26)),
			method("Over the whole online block"),
			holds("after each blend, and for the last circle", slices.Equal(r.retrains(oracle), []int{26, 51, 75}), "the Oracle retrains after the blends at 25 and 50, and at 75"),
		}
	}},
	{"circle-d", 5, func(rs *tourRuns) []claim {
		r := rs.get("circle-d")
		first := -1
		for t := 26; t < 100 && first < 0; t++ {
			if r.C(25, t) >= r.s.RetrainCost(t) {
				first = t
			}
		}
		return []claim{
			holds("its first cell over R", len(r.retrains(markov)) > 0 && r.retrains(markov)[0] == first, "Markov's first retrain at its first cell over R"),
			method("Fed every error of each batch"), batch("the drift in batch 0"),
		}
	}},
	{"circle-d", 6, func(rs *tourRuns) []claim {
		r, w := rs.get("circle-d"), rs.whatif("circle-d", 6)
		return []claim{
			holds("tuned again on the offline block, finds theta", w.res[caraT].Params["theta"] == r.res[caraT].Params["theta"], "the same theta"),
			holds("% over the Oracle", w.cost(caraT) >= w.cost(oracle), "CARA-T over the Oracle"),
			holds("Markov now retrains", len(w.retrains(markov)) > len(r.retrains(markov)), "Markov now retrains more"),
		}
	}},
}

// circle2 is Circle-D's second circle, from 25 to 49.
func circle2(x []float64) bool { return (x[0]-0.4)*(x[0]-0.4)+(x[1]-0.5)*(x[1]-0.5) > 0.2*0.2 }

// gaussLabel is Gauss-D's one concept.
func gaussLabel(x []float64) bool { return x[1] > 4*(x[0]-0.5)*(x[0]-0.5) }

// quizModel checks a quiz stop: the question is about the model in use at batch t, the Oracle's
// (the path the tour tells), which must be model; the stop names it as M_model.
func quizModel(r *tourRun, t, model int) claim {
	got := r.inUse(oracle, t-1)
	return holds("", got == model, fmt.Sprintf("the quiz at %d asks about M_%d, the Oracle's model in use at %d is M_%d", t, model, t-1, got))
}

// paper is a span that says what the paper reports (where: the place and words it quotes), not
// what the run does; it is checked against the paper by whoever writes it.
func paper(span, where string) claim { return claim{span: span, ok: true} }

// closest are the algorithms but the Oracle whose cost over the run is the least, in name order.
func closest(r *tourRun) []algos.Name {
	var best []algos.Name
	for name, res := range r.res {
		switch c := res.Strategy.Cost(); {
		case name == oracle:
		case len(best) == 0 || c < r.cost(best[0]):
			best = []algos.Name{name}
		case c == r.cost(best[0]):
			best = append(best, name)
		}
	}
	slices.Sort(best)
	return best
}

// raceDetector is set by race_test.go in a -race build.
var raceDetector bool

// TestTourClaims computes the toured scenarios as shipped (the tour's seed, the model, R) and
// checks every claim of their stops. A 100-batch scenario of 100-tree forests takes seconds of
// CPU: by default (and under -short and -race) the 4-batch scenarios are checked; CARA_TOURS=all
// checks every tour, as CI does.
func TestTourClaims(t *testing.T) {
	rs := &tourRuns{t: t, runs: map[string]*tourRun{}}
	skipped := map[string]bool{}
	for _, c := range tourClaims {
		s := mustScenario(t, c.scenario)
		if s.Batches > 10 && (testing.Short() || raceDetector || os.Getenv("CARA_TOURS") != "all") {
			skipped[c.scenario] = true
			continue
		}
		if c.stop >= len(s.Tour) {
			continue // TestTourClaimsCoverEveryStop reports it
		}
		st := s.Tour[c.stop]
		for _, p := range checkStop(t, rs, c, st) {
			t.Errorf("%s, stop %d (at %d): %s", c.scenario, c.stop, st.At, p)
		}
	}
	if len(skipped) > 0 {
		t.Logf("not computed here (CARA_TOURS=all computes them): %s", strings.Join(slices.Sorted(maps.Keys(skipped)), ", "))
	}
}

// checkStop checks stop st of c's scenario (its text as given, which a test may change) against
// the run it plays on and c's claims: what is wrong, one line each.
func checkStop(t *testing.T, rs *tourRuns, c tourClaim, st tour.Stop) []string {
	r := rs.get(c.scenario)
	if len(st.Whatif) > 0 {
		r = rs.get(c.scenario, st.Sets()...)
	}
	pieces := st.Pieces(r.facts(st.At))
	var say strings.Builder
	for _, p := range pieces {
		say.WriteString(p.Text)
	}
	t.Logf("%s, stop %d (at %d): %s", c.scenario, c.stop, st.At, say.String())
	var problems []string
	if strings.Contains(say.String(), "…") {
		problems = append(problems, "a template is not filled from the finished run")
	}
	if st.Quiz {
		// The question is about the Oracle's model in use before the batch (workshop.Model), and
		// the stop's cell is that model's.
		if tp := r.inUse(oracle, st.At-1); st.Focus.Cell != nil && st.Focus.Cell.Model != tp {
			problems = append(problems, fmt.Sprintf("the quiz's cell is C[%d, %d], but the model in use at %d is the Oracle's M_%d", st.Focus.Cell.Model, st.Focus.Cell.Batch, st.At-1, tp))
		}
	}
	return append(problems, check(pieces, c.says(rs), numbers(fileParameters(t, c.scenario), false), st.At, r.m.Batches())...)
}

// Every stop of every embedded tour has its claims listed above: a new stop, or a new tour, comes
// with what it states checked.
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

// The two sentences of seed 0's tours that were false (issue 32), put back: the check fails on
// each, whether nobody claims them (a pattern word and its numbers, unchecked) or the claim their
// words make is written and evaluated (the run says otherwise). covcon-d's Oracle does not retrain
// at every jump of the cloud back to the corner (not at 48, 55, 69, 76 or 97); gauss-d's M_29 does
// not stay under 5 by batch 34 (C[29, 34] = 8.02).
func TestTourClaimsCatchFalseSentences(t *testing.T) {
	rs := &tourRuns{t: t, runs: map[string]*tourRun{}}
	for _, tc := range []struct {
		scenario string
		stop     int
		say      string
		words    []string // the unclaimed words the check must name
		natural  func(r *tourRun) claim
	}{
		{"covcon-d", 5,
			"At 27 the Oracle {decision Oracle 27}: C[25, 27] = {C 25 27}, R = {R 27}, though the concept had not moved. Over the whole online block it retrains {retrains Oracle end} times, at {when Oracle end}: at concept flips (every 10 batches) and when the cloud jumps back to the corner (27, 34, 41, ...: every 7). At 41 it {decision Oracle 41}: M_40 learned the cloud at m = 0.6, and C[40, 41] = {C 40 41}. So far CARA-T has retrained at {when CARA-T}, the Oracle at {when Oracle}.",
			[]string{`"every"`, `"back"`, "the number 7 "},
			func(r *tourRun) claim {
				return holds("when the cloud jumps back to the corner (27, 34, 41, ...: every 7)", r.retrainsAt(oracle, corner(26, 99)...),
					"the Oracle retrains at every jump to the corner, "+prose(corner(26, 99)))
			}},
		{"gauss-d", 3,
			"At 29 the Oracle {decision Oracle 29}, though C[25, 29] = {C 25 29} is far under R = {R}. It pays for the batches after: M_25's cells climb to {C 25 34} by batch 34, while M_29's stay under 5 (the Oracle retrains at {when Oracle end}). One cell cannot show that: Markov's retrains (theta = R): {when Markov end}; CARA-T's, with theta = {theta} learned offline: {when CARA-T end}.",
			[]string{`"stay"`, `"under"`, "the number 5 ", "the number 34 "},
			func(r *tourRun) claim {
				return holds("while M_29's stay under 5", r.rowMax(29, 30, 34) < 5, fmt.Sprintf("C[29, 30..34] under 5 (C[29, 34] = %.2f)", r.C(29, 34)))
			}},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			if big := mustScenario(t, tc.scenario).Batches > 10; big && (testing.Short() || raceDetector || os.Getenv("CARA_TOURS") != "all") {
				t.Skip("computed as TestTourClaims computes it: with CARA_TOURS=all, as CI runs it")
			}
			var c tourClaim
			for _, x := range tourClaims {
				if x.scenario == tc.scenario && x.stop == tc.stop {
					c = x
				}
			}
			st := mustStop(t, tc.scenario, tc.stop)
			if len(checkStop(t, rs, c, st)) > 0 {
				t.Fatal("the stop as shipped does not pass: TestTourClaims says why")
			}
			st.Say = tc.say
			problems := strings.Join(checkStop(t, rs, c, st), "\n")
			for _, w := range tc.words {
				if !strings.Contains(problems, w+"states something about the run that no claim checks") && !strings.Contains(problems, w+" states something") {
					t.Errorf("the false sentence put back: the check does not name %s unchecked:\n%s", w, problems)
				}
			}
			// The claim the sentence's words make, written and evaluated: not so.
			says := c.says
			c.says = func(rs *tourRuns) []claim { return append(says(rs), tc.natural(rs.get(tc.scenario))) }
			problems = strings.Join(checkStop(t, rs, c, st), "\n")
			if !strings.Contains(problems, "is not so:") {
				t.Errorf("the false sentence, claimed as it says: the check does not find it false:\n%s", problems)
			}
			t.Logf("put back, the check says:\n%s", problems)
		})
	}
}
