package experiment

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/cara-sim/cara/algos"
)

// claim is one of the paper's claims as a test on one scenario's means; the verdict is the
// majority over the scenarios run.
type claim struct {
	text string
	on   func(r *Reproduction, s string) bool
	// tests are the comparisons behind on: the claim holds on a dataset when each holds.
	tests func(r *Reproduction, s string) []comparison
}

// comparison is one inequality a claim rests on, "a < b + margin" in metric, tested over seeds
// as the paired differences a - b - margin (b "" is the constant 0: "a < margin").
type comparison struct {
	metric func(Metrics[PerSeed]) PerSeed
	a, b   algos.Name
	margin float64
}

func scpe(m Metrics[PerSeed]) PerSeed     { return m.SCPE }
func accuracy(m Metrics[PerSeed]) PerSeed { return m.QueryAccuracy }
func retrains(m Metrics[PerSeed]) PerSeed { return m.Retrains }

// below is "a < b" in a metric; a claim about "the lowest" compares with the best of the others
// by mean (best).
func below(metric func(Metrics[PerSeed]) PerSeed, a, b algos.Name) comparison {
	return comparison{metric: metric, a: a, b: b}
}

func without(names []algos.Name, drop ...algos.Name) []algos.Name {
	return slices.DeleteFunc(slices.Clone(names), func(a algos.Name) bool { return slices.Contains(drop, a) })
}

var (
	caraVariants = []algos.Name{algos.NameCaraT, algos.NameCaraCT, algos.NameCaraP}
	allButOracle = []algos.Name{algos.NameCaraT, algos.NameCaraCT, algos.NameCaraP, algos.NameNever, algos.NameMarkov, algos.NameADWIN, algos.NameDDM}
	retrainers   = []algos.Name{algos.NameCaraT, algos.NameCaraCT, algos.NameCaraP, algos.NameOracle, algos.NameMarkov, algos.NameADWIN, algos.NameDDM}
)

// claims are the paper's claims of sections 8.1-8.3 and table 4 that hold per scenario.
var claims = []claim{
	{"A CARA variant has the lowest SCPE of all algorithms on most datasets (8.1)", func(r *Reproduction, s string) bool {
		return slices.Contains(caraVariants, best(r.SCPE[s], allButOracle, true))
	}, func(r *Reproduction, s string) []comparison {
		m := r.SCPE[s]
		return []comparison{below(scpe, best(m, caraVariants, true), best(m, without(allButOracle, caraVariants...), true))}
	}},
	{"CARA-T has the lowest SCPE among the CARA variants on most datasets (8.1)", func(r *Reproduction, s string) bool {
		return best(r.SCPE[s], caraVariants, true) == algos.NameCaraT
	}, func(r *Reproduction, s string) []comparison {
		return []comparison{below(scpe, algos.NameCaraT, best(r.SCPE[s], without(caraVariants, algos.NameCaraT), true))}
	}},
	{"ADWIN and DDM have a higher SCPE than CARA-T (8.1)", func(r *Reproduction, s string) bool {
		m := r.SCPE[s]
		return m[algos.NameADWIN] > m[algos.NameCaraT] && m[algos.NameDDM] > m[algos.NameCaraT]
	}, func(r *Reproduction, s string) []comparison {
		return []comparison{below(scpe, algos.NameCaraT, algos.NameADWIN), below(scpe, algos.NameCaraT, algos.NameDDM)}
	}},
	{"ADWIN retrains most (table 4)", func(r *Reproduction, s string) bool {
		return best(r.Retrains[s], retrainers, false) == algos.NameADWIN
	}, func(r *Reproduction, s string) []comparison {
		return []comparison{below(retrains, best(r.Retrains[s], without(retrainers, algos.NameADWIN), false), algos.NameADWIN)}
	}},
	{"The Oracle's query accuracy is better than or close to (within 0.02) ADWIN's and DDM's (8.2)", func(r *Reproduction, s string) bool {
		m := r.QueryAccuracy[s]
		o := m[algos.NameOracle]
		return o >= m[algos.NameADWIN]-0.02 && o >= m[algos.NameDDM]-0.02
	}, func(r *Reproduction, s string) []comparison {
		return []comparison{{accuracy, algos.NameADWIN, algos.NameOracle, 0.02}, {accuracy, algos.NameDDM, algos.NameOracle, 0.02}}
	}},
	{"The Oracle retrains less than ADWIN and DDM (8.2)", func(r *Reproduction, s string) bool {
		m := r.Retrains[s]
		return m[algos.NameOracle] < m[algos.NameADWIN] && m[algos.NameOracle] < m[algos.NameDDM]
	}, func(r *Reproduction, s string) []comparison {
		return []comparison{below(retrains, algos.NameOracle, algos.NameADWIN), below(retrains, algos.NameOracle, algos.NameDDM)}
	}},
}

// lrClaims are the claims of the paper's appendix on logistic regression (its LR tables).
var lrClaims = []claim{
	{"CARA variants make far fewer RETRAIN decisions than ADWIN and DDM (appendix, LR)", func(r *Reproduction, s string) bool {
		m := r.Retrains[s]
		most := max(m[algos.NameCaraT], m[algos.NameCaraCT], m[algos.NameCaraP])
		return most < m[algos.NameADWIN] && most < m[algos.NameDDM]
	}, func(r *Reproduction, s string) []comparison {
		most := best(r.Retrains[s], caraVariants, false)
		return []comparison{below(retrains, most, algos.NameADWIN), below(retrains, most, algos.NameDDM)}
	}},
	{"CARA-T or CARA-CT has a lower SCPE than ADWIN and DDM (appendix, LR: \"low strategy cost\")", func(r *Reproduction, s string) bool {
		b := best(r.SCPE[s], []algos.Name{algos.NameCaraT, algos.NameCaraCT, algos.NameADWIN, algos.NameDDM}, true)
		return b == algos.NameCaraT || b == algos.NameCaraCT
	}, func(r *Reproduction, s string) []comparison {
		m := r.SCPE[s]
		return []comparison{below(scpe, best(m, []algos.Name{algos.NameCaraT, algos.NameCaraCT}, true), best(m, []algos.Name{algos.NameADWIN, algos.NameDDM}, true))}
	}},
	{"CARA-T's and CARA-CT's query accuracy is comparable to (within 0.05 of) the Oracle's (appendix, LR)", func(r *Reproduction, s string) bool {
		m := r.QueryAccuracy[s]
		o := float64(m[algos.NameOracle])
		return math.Abs(float64(m[algos.NameCaraT])-o) <= 0.05 && math.Abs(float64(m[algos.NameCaraCT])-o) <= 0.05
	}, func(r *Reproduction, s string) []comparison {
		var out []comparison // within 0.05 on both sides: two one-sided tests each
		for _, a := range []algos.Name{algos.NameCaraT, algos.NameCaraCT} {
			out = append(out, comparison{accuracy, a, algos.NameOracle, 0.05}, comparison{accuracy, algos.NameOracle, a, 0.05})
		}
		return out
	}},
}

// lrCircleS is the appendix's example: LR cannot answer Circle-S's static queries (0.09 for every
// algorithm), whose centre lies inside the circle for most of the stream, where a linear model
// answers the majority class outside it. Below 0.5, worse than a coin, counts as agreeing.
func lrCircleS(r *Reproduction) (Verdict, bool) {
	m, ok := r.QueryAccuracy["circle-s"]
	if !ok {
		return Verdict{}, false
	}
	worst, agrees := 0.0, true
	for _, a := range reproAlgos {
		v := float64(m[a])
		worst = max(worst, v)
		agrees = agrees && v < 0.5
	}
	t := r.test(claim{tests: func(*Reproduction, string) []comparison {
		var out []comparison
		for _, a := range reproAlgos {
			out = append(out, comparison{accuracy, a, "", 0.5})
		}
		return out
	}}, "circle-s")
	return Verdict{"LR cannot model Circle-S: every algorithm's query accuracy is poor (the paper: 0.09 for all; here below 0.5)",
		agrees, fmt.Sprintf("Circle-S query accuracy at most %.2f over the algorithms (Oracle %.2f); paired test: %s (%s: mean %s, %s)",
			worst, float64(m[algos.NameOracle]), t.Outcome, t.Compared, FormatNum(float64(t.Mean), 3), t.words())}, true
}

// best is the algorithm among among with the lowest (or highest) defined value, "" if none.
func best(m map[algos.Name]Num, among []algos.Name, lower bool) algos.Name {
	var b algos.Name
	for _, a := range among {
		v, ok := m[a]
		if !ok || math.IsNaN(float64(v)) {
			continue
		}
		if b == "" || (lower && v < m[b]) || (!lower && v > m[b]) {
			b = a
		}
	}
	return b
}

// modelClaims are the claims set beside the reproduction's model: the paper's, or its appendix's
// on logistic regression.
func (r *Reproduction) modelClaims() []claim {
	if r.Model == ModelLogistic {
		return lrClaims
	}
	return claims
}

// DatasetClaims are one claim checked on each dataset alone: on our means (Holds) and on the
// paper's own table (PaperHolds), so that a claim our run contradicts where the paper's numbers
// satisfy it stands out.
type DatasetClaims struct {
	Claim      string               `json:"claim"`
	Holds      map[string]bool      `json:"holds"`
	PaperHolds map[string]bool      `json:"paper_holds"`
	Tests      map[string]ClaimTest `json:"tests"` // the paired test over seeds behind Holds
}

// ClaimTest is a claim's paired test over seeds on one dataset: of the comparisons the claim rests
// on, the one that decides it (the weakest when all hold, the firmest against when one does not
// hold), its per-seed differences a - b - margin, t and p, and the outcome: "holds", "does not
// hold" or "not significant at N seeds" (95 %, two-sided).
type ClaimTest struct {
	Outcome  string `json:"outcome"`
	Compared string `json:"compared"`
	Paired
}

// test runs a claim's comparisons on dataset s over the seeds.
func (r *Reproduction) test(c claim, s string) ClaimTest {
	if c.tests == nil {
		return ClaimTest{Outcome: NoTest, Paired: PairedTest(nil, nil)}
	}
	var all []ClaimTest
	for _, cmp := range c.tests(r, s) {
		if cmp.a == "" || cmp.b == "" && cmp.margin == 0 { // no algorithm of a side has a defined mean
			all = append(all, ClaimTest{Outcome: NoTest, Paired: PairedTest(nil, nil)})
			continue
		}
		ps := cmp.metric(r.SeedMeans)[s]
		a, b := toFloats(ps[cmp.a]), make([]float64, len(ps[cmp.a]))
		if cmp.b != "" {
			b = toFloats(ps[cmp.b])
		}
		for i := range b {
			b[i] += cmp.margin
		}
		p := PairedTest(a, b)
		words := cmp.a.Display() + " - " + cmp.b.Display()
		switch {
		case cmp.b == "":
			words = fmt.Sprintf("%s - %g", cmp.a.Display(), cmp.margin)
		case cmp.margin != 0:
			words += fmt.Sprintf(" - %g", cmp.margin)
		}
		all = append(all, ClaimTest{Outcome: p.outcome(float64(p.Mean) < 0), Compared: words + " < 0", Paired: p})
	}
	if len(all) == 0 {
		return ClaimTest{Outcome: NoTest, Paired: PairedTest(nil, nil)}
	}
	var against *ClaimTest // the firmest comparison against the claim
	weakest, allHold := &all[0], true
	for i := range all {
		t := &all[i]
		if t.Outcome == DoesNotHold && (against == nil || t.P < against.P) {
			against = t
		}
		allHold = allHold && t.Outcome == Holds
		if !(t.P <= weakest.P) { // NaN (no test) is the weakest of all
			weakest = t
		}
	}
	if against != nil {
		return *against
	}
	if !allHold && weakest.Outcome == Holds {
		for i := range all {
			if all[i].Outcome != Holds {
				return all[i]
			}
		}
	}
	return *weakest
}

func toFloats(xs []Num) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// claimsByDataset checks every claim on every dataset run, on our means and on the paper's.
func (r *Reproduction) claimsByDataset() []DatasetClaims {
	paper := &Reproduction{Model: r.Model, SCPE: asMeans(r.Paper.SCPE), QueryAccuracy: asMeans(r.Paper.QueryAccuracy),
		Retrains: asMeans(r.Paper.Retrains)}
	var out []DatasetClaims
	for _, c := range r.modelClaims() {
		dc := DatasetClaims{Claim: c.text, Holds: map[string]bool{}, PaperHolds: map[string]bool{}, Tests: map[string]ClaimTest{}}
		for _, s := range r.order {
			dc.Holds[s], dc.PaperHolds[s] = c.on(r, s), c.on(paper, s)
			dc.Tests[s] = r.test(c, s)
		}
		out = append(out, dc)
	}
	return out
}

// asMeans is a table of the paper's as Means.
func asMeans(t map[string]map[algos.Name]float64) Means {
	out := Means{}
	for s, row := range t {
		out[s] = map[algos.Name]Num{}
		for a, v := range row {
			out[s][a] = Num(v)
		}
	}
	return out
}

// writeClaimsByDataset prints the claims per dataset: "yes" or "no" on our means, starred where
// the paper's own table says otherwise, and the counts.
func (r *Reproduction) writeClaimsByDataset(w io.Writer) {
	if len(r.ClaimsByDataset) == 0 {
		return
	}
	fmt.Fprintln(w, "\nThe claims per dataset, on our means (* where the paper's own table says otherwise):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  claim\t"+strings.Join(r.order, "\t"))
	holds, paperHolds, all := 0, 0, 0
	var against []string // datasets where ours fails a claim the paper's table satisfies
	for i, dc := range r.ClaimsByDataset {
		row := []string{fmt.Sprintf("  %d. %s", i+1, shortClaim(dc.Claim))}
		for _, s := range r.order {
			mark := map[bool]string{true: "yes", false: "no"}[dc.Holds[s]]
			if dc.Holds[s] != dc.PaperHolds[s] {
				mark += "*"
			}
			if !dc.Holds[s] && dc.PaperHolds[s] {
				against = append(against, s)
			}
			row = append(row, mark)
			all++
			holds += b2i(dc.Holds[s])
			paperHolds += b2i(dc.PaperHolds[s])
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
	fmt.Fprintf(w, "  %d of %d (claim, dataset) pairs hold on our means, %d of %d on the paper's own tables; ours contradict %d that the paper's tables satisfy%s\n",
		holds, all, paperHolds, all, len(against), countBy(against))
	fmt.Fprintf(w, "\nThe paired test behind each (claim, dataset) over the %d seeds (each seed's mean over its costs; Student's t, 95 %%, two-sided):\n", r.Seeds)
	tally := map[string]int{}
	for i, dc := range r.ClaimsByDataset {
		fmt.Fprintf(w, "  %d. %s\n", i+1, shortClaim(dc.Claim))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, s := range r.order {
			t := dc.Tests[s]
			tally[t.Outcome]++
			if t.Outcome == NoTest {
				fmt.Fprintf(tw, "     %s\t%s\n", s, t.Outcome)
				continue
			}
			fmt.Fprintf(tw, "     %s\t%s\t%s: mean %s, %s\t%s\n", s, t.Outcome, t.Compared, FormatNum(float64(t.Mean), 3), t.words(), diffWords(t.Diffs))
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "  %s\n", tallyWords(tally, r.Seeds))
}

// diffWords lists the per-seed differences: "[-1.2 -0.8 ...]".
func diffWords(d []Num) string {
	parts := make([]string, len(d))
	for i, x := range d {
		parts[i] = strconv.FormatFloat(float64(x), 'g', 3, 64)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// tallyWords counts the outcomes: "21 hold, 3 do not hold, 18 not significant at 5 seeds", and
// the comparisons with no test, if any.
func tallyWords(tally map[string]int, seeds int) string {
	out := fmt.Sprintf("%d hold, %d do not hold, %d %s", tally[Holds], tally[DoesNotHold],
		sum(tally)-tally[Holds]-tally[DoesNotHold]-tally[NoTest], notSignificant(seeds))
	if n := tally[NoTest]; n > 0 {
		out += fmt.Sprintf(", %d with no test (undefined on every seed)", n)
	}
	return out
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// shortClaim is a claim without its parentheses (its reference, its tolerance) and "on most
// datasets" (the table is per dataset), cut for a table's first column.
func shortClaim(c string) string {
	c = parenthesis.ReplaceAllString(c, "")
	return shortText(strings.TrimSuffix(c, " on most datasets"), 74)
}

var parenthesis = regexp.MustCompile(` \([^)]*\)`)

// shortText is s cut to n runes with "..." after it when it was longer.
func shortText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-3]) + "..."
	}
	return s
}

// countBy says how many times each name occurs, in order of first occurrence: " (circle-d 4, ...)".
func countBy(names []string) string {
	var order []string
	n := map[string]int{}
	for _, s := range names {
		if n[s] == 0 {
			order = append(order, s)
		}
		n[s]++
	}
	if len(order) == 0 {
		return ""
	}
	parts := make([]string, len(order))
	for i, s := range order {
		parts[i] = fmt.Sprintf("%s %d", s, n[s])
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// verdicts checks the paper's claims against the means: each holds when it holds on most
// scenarios; CARA-P against CARA-T is checked on CovCon-S alone, where the paper makes it.
func (r *Reproduction) verdicts() []Verdict {
	var out []Verdict
	for _, c := range r.modelClaims() {
		var which []string
		tally := map[string]int{}
		for _, s := range r.order {
			if c.on(r, s) {
				which = append(which, s)
			}
			tally[r.test(c, s).Outcome]++
		}
		out = append(out, Verdict{c.text, 2*len(which) > len(r.order),
			fmt.Sprintf("on %d of %d: %s; paired tests: %s", len(which), len(r.order), strings.Join(which, ", "), tallyWords(tally, r.Seeds))})
	}
	if r.Model == ModelLogistic {
		if v, ok := lrCircleS(r); ok {
			out = append(out, v)
		}
		return out
	}
	if slices.Contains(r.order, "covcon-s") {
		m := r.SCPE["covcon-s"]
		t := r.test(claim{tests: func(*Reproduction, string) []comparison {
			return []comparison{below(scpe, algos.NameCaraT, algos.NameCaraP)}
		}}, "covcon-s")
		out = append(out, Verdict{"Periodic CARA-P does worse than CARA-T where the queries are static (CovCon-S, 8.1)",
			m[algos.NameCaraP] > m[algos.NameCaraT],
			fmt.Sprintf("CovCon-S SCPE: CARA-P %.1f, CARA-T %.1f; paired test: %s (%s: mean %s, %s)", float64(m[algos.NameCaraP]), float64(m[algos.NameCaraT]),
				t.Outcome, t.Compared, FormatNum(float64(t.Mean), 3), t.words())})
	}
	return out
}
