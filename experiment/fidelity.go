package experiment

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/cara-sim/cara/algos"
)

// FidelityFactor is how far a number may be from the paper's and still count as close: within
// a factor 1.5 either way.
const FidelityFactor = 1.5

// Score is how close one table (or several) comes to the paper's: of Of numbers compared, Within
// are within a factor FidelityFactor of the paper's; MeanAbsLogRatio is the mean of
// |ln(ours/paper)| over the numbers where both are > 0 (NoRatio counts the others, which are
// never within).
type Score struct {
	Table           string  `json:"table"`
	Within          int     `json:"within"`
	Of              int     `json:"of"`
	MeanAbsLogRatio float64 `json:"mean_abs_log_ratio"`
	NoRatio         int     `json:"no_ratio"`
}

// Fidelity is a reproduction's score per table, and overall over tables 2 and 4 (SCPE and
// retrains: the numbers that the protocol moves). Table 3's accuracies all lie near 1, where a
// factor 1.5 says little (0.6 against 0.9 is within it): Accuracy scores them on an absolute
// tolerance instead.
type Fidelity struct {
	Tables   []Score  `json:"tables"`
	Overall  Score    `json:"overall"`
	Accuracy AbsScore `json:"accuracy_abs"`
}

// AccuracyTolerance is how far a query accuracy may be from the paper's and still count as close.
const AccuracyTolerance = 0.02

// AbsScore is a table scored on an absolute tolerance: of Of numbers, Within are within Tolerance
// of the paper's, ours rounded to two decimals as the paper prints them; MeanAbsDiff is the mean
// of those differences. Every algorithm counts, Never-retrain included (its accuracy measures
// something).
type AbsScore struct {
	Table       string  `json:"table"`
	Tolerance   float64 `json:"tolerance"`
	Within      int     `json:"within"`
	Of          int     `json:"of"`
	MeanAbsDiff float64 `json:"mean_abs_diff"`
}

// scoreAbs compares ours with the paper's within tol over the scenarios and algorithms given;
// a number of ours that is undefined counts as not within, and not in the mean.
func scoreAbs(name string, tol float64, ours Means, paper map[string]map[algos.Name]float64, scenarios []string, among []algos.Name) AbsScore {
	sc := AbsScore{Table: name, Tolerance: tol}
	sum, n := 0.0, 0
	for _, s := range scenarios {
		for _, a := range among {
			p, ok := paper[s][a]
			if !ok || math.IsNaN(p) {
				continue
			}
			sc.Of++
			o, ok := ours[s][a]
			if !ok || math.IsNaN(float64(o)) {
				continue
			}
			// Ours rounded as the paper prints its accuracies (two decimals): the difference a
			// reader sees in the table; 1e-9 absorbs the decimals' binary representation.
			d := math.Abs(math.Round(float64(o)*100)/100 - p)
			sum += d
			n++
			if d <= tol+1e-9 {
				sc.Within++
			}
		}
	}
	sc.MeanAbsDiff = math.NaN()
	if n > 0 {
		sc.MeanAbsDiff = sum / float64(n)
	}
	return sc
}

// scoreTable compares ours with the paper's over the scenarios and algorithms given, leaving out
// Never-retrain (its SCPE measures no decision, its retrains are 0) and the paper's zero entries,
// whose ratio is undefined.
func scoreTable(name string, ours Means, paper map[string]map[algos.Name]float64, scenarios []string, among []algos.Name) Score {
	sc := Score{Table: name}
	sum, n := 0.0, 0
	for _, s := range scenarios {
		for _, a := range among {
			p, ok := paper[s][a]
			if a == algos.NameNever || !ok || p == 0 || math.IsNaN(p) {
				continue
			}
			sc.Of++
			o, ok := ours[s][a]
			if !ok || !(float64(o) > 0) || !(p > 0) {
				sc.NoRatio++
				continue
			}
			lr := math.Abs(math.Log(float64(o) / p))
			sum += lr
			n++
			if lr <= math.Log(FidelityFactor)+1e-12 {
				sc.Within++
			}
		}
	}
	sc.MeanAbsLogRatio = math.NaN()
	if n > 0 {
		sc.MeanAbsLogRatio = sum / float64(n)
	}
	return sc
}

// merge adds up scores: the mean of log ratios weighted by how many each has.
func merge(name string, scores ...Score) Score {
	out := Score{Table: name}
	sum, n := 0.0, 0
	for _, s := range scores {
		out.Within += s.Within
		out.Of += s.Of
		out.NoRatio += s.NoRatio
		if k := s.Of - s.NoRatio; k > 0 {
			sum += s.MeanAbsLogRatio * float64(k)
			n += k
		}
	}
	out.MeanAbsLogRatio = math.NaN()
	if n > 0 {
		out.MeanAbsLogRatio = sum / float64(n)
	}
	return out
}

// score scores the reproduction's three tables against the paper's.
func (r *Reproduction) score() Fidelity {
	noOracle := slices.DeleteFunc(slices.Clone(reproAlgos), func(a algos.Name) bool { return a == algos.NameOracle })
	scpe := scoreTable("Table 2: SCPE", r.SCPE, r.Paper.SCPE, r.order, noOracle)
	acc := scoreTable("Table 3: query accuracy", r.QueryAccuracy, r.Paper.QueryAccuracy, r.order, reproAlgos)
	ret := scoreTable("Table 4: RETRAIN decisions", r.Retrains, r.Paper.Retrains, r.order, reproAlgos)
	abs := scoreAbs("Table 3: query accuracy", AccuracyTolerance, r.QueryAccuracy, r.Paper.QueryAccuracy, r.order, reproAlgos)
	return Fidelity{Tables: []Score{scpe, acc, ret}, Overall: merge("Overall (tables 2 and 4)", scpe, ret), Accuracy: abs}
}

// write prints the score under the tables.
func (f Fidelity) write(w io.Writer) {
	if len(f.Tables) == 0 {
		return
	}
	fmt.Fprintf(w, "\nFidelity: numbers within x%g of the paper's (Never-retrain and the paper's zeros left out), mean |ln(ours/paper)|:\n", FidelityFactor)
	for _, s := range append(slices.Clone(f.Tables), f.Overall) {
		extra := ""
		if s.NoRatio > 0 {
			extra = fmt.Sprintf(" (%d of ours 0 or undefined: no ratio)", s.NoRatio)
		}
		fmt.Fprintf(w, "  %-28s %3d of %3d within x%g, mean |log ratio| %.3f (x%.2f)%s\n", s.Table, s.Within, s.Of, FidelityFactor, s.MeanAbsLogRatio, math.Exp(s.MeanAbsLogRatio), extra)
	}
	if a := f.Accuracy; a.Of > 0 {
		fmt.Fprintf(w, "Table 3 on an absolute tolerance (accuracies lie near 1, where x%g says little; every algorithm, Never-retrain included):\n", FidelityFactor)
		fmt.Fprintf(w, "  %-28s %3d of %3d within %g, mean |ours - paper| %.3f\n", a.Table, a.Within, a.Of, a.Tolerance, a.MeanAbsDiff)
	}
}
