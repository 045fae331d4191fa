package pane

import (
	"fmt"
	"strings"

	"github.com/cara-sim/cara/algos"
)

// OnlineNote stands in for what starts with the online block.
func OnlineNote(f *Frame) string {
	return fmt.Sprintf("starts with the online block (batch %d)", f.Scen.Offline)
}

// shortNames are the keys of the algorithms: one or two letters each, unique, that every pane
// writes beside or instead of the name (the chart on its lines and in its legend, the decisions'
// rows, the results' table), so that at 16 colours, where some algorithms share a colour, and
// without colours, each is told apart by its key alone. Fixed schedules have keys of their own
// rule (shortName).
var shortNames = map[algos.Name]string{
	"oracle": "O", "cara-t": "T", "cara-ct": "CT", "cara-p": "P", "never": "N", "markov": "M",
	"adwin": "A", "ddm": "D", "page-hinkley": "PH", "eddm": "ED", "hddm-a": "HA", "hddm-w": "HW", "kswin": "KS",
}

// BestSoFar names the optimum over the batches seen so far, which the panes show in the Oracle's
// place while the matrix is still being computed: it is not the paper's Oracle, whose decisions
// depend on batches not computed yet.
const BestSoFar = "best so far"

// AlgoLabel is algorithm a's name on the screen: "best so far" for the Oracle's row of a
// provisional replay (replay.provisional), else the name as the paper writes it.
func AlgoLabel(a algos.Name, provisional bool) string {
	if provisional && a == algos.NameOracle {
		return BestSoFar
	}
	return a.Display()
}

// AlgoKey is AlgoLabel's short form, for labels where names do not fit ("b", drawn faint, for the
// best so far).
func AlgoKey(a algos.Name, provisional bool) string {
	if provisional && a == algos.NameOracle {
		return "b"
	}
	return shortName(a)
}

// shortName is a's key: shortNames', or a fixed schedule's lower-case "e7" (every-7), "e7+3"
// (every-7+3) and "at", which no letter key can be.
func shortName(a algos.Name) string {
	if s, ok := shortNames[a]; ok {
		return s
	}
	if k, ok := strings.CutPrefix(string(a), "every-"); ok && a.IsSchedule() {
		return "e" + k
	}
	return string(a)
}

// KeyedLabel is a's key and name as a row of a table or a strip writes them, the key padded to
// width w: "T  CARA-T" (the Oracle's row of a provisional replay "b  best so far"). A key that is
// the name itself (a schedule's "at") is written once.
func KeyedLabel(a algos.Name, provisional bool, w int) string {
	k, name := AlgoKey(a, provisional), AlgoLabel(a, provisional)
	if k == name {
		return fmt.Sprintf("%-*s %s", w, "", name)
	}
	return fmt.Sprintf("%-*s %s", w, k, name)
}

// KeyWidth is the widest key of the algorithms as.
func KeyWidth(as []algos.Name, provisional bool) int {
	w := 0
	for _, a := range as {
		if k := AlgoKey(a, provisional); k != AlgoLabel(a, provisional) {
			w = max(w, len(k))
		}
	}
	return w
}

// Explain says why the selected algorithm did what it did at the current batch, or, before the
// online block, what the offline block is for.
func Explain(f *Frame) string {
	r, ok := f.Result(f.Selected)
	if !ok {
		if off := f.Scen.Offline; f.Pos >= 0 && f.Pos < off {
			return fmt.Sprintf("offline block 0..%d: each batch trains a model and adds a column to C; the algorithms are tuned on this block, then run from batch %d", off-1, off)
		}
		return ""
	}
	i := f.Pos - r.Strategy.Start
	if i < 0 || i >= len(r.Strategy.Reasons) {
		return ""
	}
	why := r.Strategy.Reasons[i]
	if i > 0 {
		// The algorithms say QDMdiff; the player calls it C, the cell of the model in use.
		tp := r.Strategy.Model[i-1]
		why = strings.Replace(why, "cumulative QDMdiff ", fmt.Sprintf("C[%d, %d..%d] summed = ", tp, tp+1, f.Pos), 1)
		why = strings.Replace(why, "QDMdiff ", fmt.Sprintf("C[%d, %d] = ", tp, f.Pos), 1)
	}
	name := f.Label(r.Algorithm)
	verb, rest, found := strings.Cut(why, ": ")
	switch {
	case found && verb == "retrain":
		return fmt.Sprintf("%s retrained at %d: %s", name, f.Pos, rest)
	case found && verb == "keep":
		return fmt.Sprintf("%s kept M_%d at %d: %s", name, r.Strategy.Model[i], f.Pos, rest)
	}
	return fmt.Sprintf("%s at %d: %s", name, f.Pos, why)
}

// YouName names the player's own strategy (the guess round's answers) among the results.
const YouName algos.Name = "you"
