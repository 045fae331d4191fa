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
// retrains: the numbers that the protocol moves; table 3's accuracies all lie near 1).
type Fidelity struct {
	Tables  []Score `json:"tables"`
	Overall Score   `json:"overall"`
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
	return Fidelity{Tables: []Score{scpe, acc, ret}, Overall: merge("Overall (tables 2 and 4)", scpe, ret)}
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
}
