package tour

// A stop's text may ask the run for its numbers: `{C 0 11}` is the cost-matrix cell C[0, 11] of
// the run the player shows, `{cost Oracle}` the Oracle's cost up to the stop's batch. The player
// fills them in each time it draws the callout, so a tour states the numbers of the R and what-if
// on the screen; it plays on the seed it was written for, whose run its words describe (the claims
// test holds them to it). Read checks every template at load; Stop.Text fills them from Facts.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

// Facts are what a stop's templates read: the run as the player shows it at the stop.
type Facts struct {
	M *sim.Matrix       // the matrix shown (a what-if's under a stop's what-if)
	R algos.RetrainCost // the retraining cost in force
	// Results are every algorithm's results over the whole online block (the Oracle is the
	// paper's, in hindsight); nil while the matrix is still being computed.
	Results []algos.Result
	At      int // the stop's batch: the batch {cost A} and the like count up to
}

// sayFunc is one template function: its arguments' kinds and what it writes.
type sayFunc struct {
	args []argKind // the arguments; those after min are optional
	min  int
	help string
	eval func(f Facts, a []sayArg) (string, bool) // false: not known yet (not computed)
}

type argKind int

const (
	argBatch argKind = iota // a batch, or "end" for the last
	argAlgo                 // an algorithm, as the paper writes it (Oracle, CARA-T) or as files do (cara-t)
)

// sayArg is a checked argument: a batch (end resolved at render time as -1) or an algorithm.
type sayArg struct {
	batch int
	algo  algos.Name
}

// sayFuncs are the template functions. Numbers are written as the player writes them: cells and
// R with up to 4 significant digits (as the cell readout), costs with 2 decimals (as the results
// table), rates and accuracies with 3 decimals, error rates in whole percent.
var sayFuncs = map[string]sayFunc{
	"C":   cellFunc("C[t', t], as the cell readout writes it (R on the diagonal)", true, func(c *sim.Cell) string { return sayNum(c.C()) }),
	"A":   cellFunc("A[t', t] = QDM(Q_t, D_t, M_t')", false, func(c *sim.Cell) string { return sayNum(c.A) }),
	"B":   cellFunc("B[t', t] = QDM(Q_t, D_t', M_t')", false, func(c *sim.Cell) string { return sayNum(c.B) }),
	"err": cellFunc("the share of batch t that M_t' gets wrong, in percent (\"98 %\")", false, func(c *sim.Cell) string { return fmt.Sprintf("%.0f %%", 100*c.ErrorRate) }),
	"qacc": cellFunc("the accuracy of M_t' on the queries of batch t", false, func(c *sim.Cell) string {
		return strconv.FormatFloat(c.QueryAccuracy, 'f', 3, 64)
	}),
	"R": {args: []argKind{argBatch}, min: 0, help: "R at batch t (default: the stop's)", eval: func(f Facts, a []sayArg) (string, bool) {
		t := f.At
		if len(a) > 0 {
			t = f.batch(a[0])
		}
		return sayNum(f.R(t)), true
	}},
	"cost": resultFunc("A's strategy cost up to batch t (default: the stop's)", func(f Facts, s algos.Strategy, r algos.Result) string {
		return strconv.FormatFloat(s.Cost(), 'f', 2, 64)
	}),
	"retrains": resultFunc("how many times A retrained up to batch t", func(f Facts, s algos.Strategy, r algos.Result) string {
		return strconv.Itoa(len(s.Retrains))
	}),
	"when": resultFunc("the batches where A retrained up to batch t (\"29, 33, 38 and 68\", \"none\")", func(f Facts, s algos.Strategy, r algos.Result) string {
		return sayList(s.Retrains)
	}),
	"acc": resultFunc("A's query accuracy up to batch t", func(f Facts, s algos.Strategy, r algos.Result) string {
		return strconv.FormatFloat(algos.QueryAccuracy(f.M, s), 'f', 3, 64)
	}),
	"scpe": resultFunc("A's SCPE against the Oracle up to batch t, in percent with one decimal, negative when A stands under the Oracle's cost so far (\"-\" when undefined)", func(f Facts, s algos.Strategy, r algos.Result) string {
		o, ok := f.result(algos.NameOracle)
		if !ok {
			return "-"
		}
		b := o.Strategy.UpTo(s.End).Cost()
		if b <= 0 {
			return "-"
		}
		return strconv.FormatFloat(100*(s.Cost()-b)/b, 'f', 1, 64)
	}),
	"decision": {args: []argKind{argAlgo, argBatch}, min: 2, help: "what A does at batch t: retrains, keeps, or trains (its first model)",
		eval: func(f Facts, a []sayArg) (string, bool) {
			r, ok := f.result(a[0].algo)
			if !ok {
				return "", false
			}
			t := f.batch(a[1])
			switch {
			case t == r.Strategy.Start:
				return "trains", true
			case slices.Contains(r.Strategy.Retrains, t):
				return "retrains", true
			}
			return "keeps", true
		}},
	"model": {args: []argKind{argAlgo, argBatch}, min: 2, help: "the batch of the model A uses at batch t (after its decision there)",
		eval: func(f Facts, a []sayArg) (string, bool) {
			r, ok := f.result(a[0].algo)
			t := f.batch(a[1])
			if !ok || t < r.Strategy.Start {
				return "", ok
			}
			return strconv.Itoa(r.Strategy.Model[t-r.Strategy.Start]), true
		}},
	"theta":   paramFunc(algos.NameCaraT, "theta", "CARA-T's threshold, tuned on the offline block at the R in force"),
	"theta_c": paramFunc(algos.NameCaraCT, "theta_c", "CARA-CT's threshold"),
	"period":  paramFunc(algos.NameCaraP, "period", "CARA-P's period (\"never\" for none)"),
}

// cellFunc reads cell (t', t); on the diagonal C is R, when diagonalR.
func cellFunc(help string, diagonalR bool, write func(*sim.Cell) string) sayFunc {
	return sayFunc{args: []argKind{argBatch, argBatch}, min: 2, help: help, eval: func(f Facts, a []sayArg) (string, bool) {
		tp, t := f.batch(a[0]), f.batch(a[1])
		if tp == t && diagonalR {
			return sayNum(f.R(t)), true // C[t, t] is R_t
		}
		c := f.M.Cell(tp, t)
		if !c.Done {
			return "", false
		}
		return write(c), true
	}}
}

func resultFunc(help string, write func(f Facts, s algos.Strategy, r algos.Result) string) sayFunc {
	return sayFunc{args: []argKind{argAlgo, argBatch}, min: 1, help: help, eval: func(f Facts, a []sayArg) (string, bool) {
		r, ok := f.result(a[0].algo)
		if !ok {
			return "", false
		}
		t := f.At
		if len(a) > 1 {
			t = f.batch(a[1])
		}
		if t < r.Strategy.Start {
			return "", false
		}
		return write(f, r.Strategy.UpTo(t), r), true
	}}
}

func paramFunc(a algos.Name, param, help string) sayFunc {
	return sayFunc{help: help, eval: func(f Facts, _ []sayArg) (string, bool) {
		r, ok := f.result(a)
		if !ok {
			return "", false
		}
		v := r.Params[param]
		if math.IsInf(v, 1) && param == "period" {
			return "never", true
		}
		return sayNum(v), true
	}}
}

func (f Facts) batch(a sayArg) int {
	if a.batch < 0 {
		return f.M.Batches() - 1
	}
	return a.batch
}

func (f Facts) result(a algos.Name) (algos.Result, bool) {
	for _, r := range f.Results {
		if r.Algorithm == a {
			return r, true
		}
	}
	return algos.Result{}, false
}

// sayNum writes a value with up to 4 significant digits, as the player's cell readout does.
func sayNum(v float64) string {
	if math.IsInf(v, 1) {
		return "+inf"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// sayList writes batches as prose: "29", "29 and 33", "29, 33, 38 and 68"; "none" for none.
func sayList(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	switch len(s) {
	case 0:
		return "none"
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// sayPart is a piece of a stop's text: literal text, or a template (fn set).
type sayPart struct {
	text string
	fn   string
	args []sayArg
}

// parseSay splits a stop's text into literal text and checked templates. `{{` writes a brace.
func parseSay(say string, batches int, algorithms []algos.Name) ([]sayPart, error) {
	var out []sayPart
	var lit strings.Builder
	for i := 0; i < len(say); i++ {
		c := say[i]
		switch {
		case c == '{' && strings.HasPrefix(say[i:], "{{"):
			lit.WriteByte('{')
			i++
			continue
		case c == '}' && strings.HasPrefix(say[i:], "}}"):
			lit.WriteByte('}')
			i++
			continue
		case c == '}':
			return nil, fmt.Errorf("a } with no { before it (write }} for a brace)")
		case c != '{':
			lit.WriteByte(c)
			continue
		}
		end := strings.IndexByte(say[i:], '}')
		if end < 0 {
			return nil, fmt.Errorf("%q is not closed by }", say[i:min(len(say), i+20)])
		}
		p, err := parseTemplate(say[i+1:i+end], batches, algorithms)
		if err != nil {
			return nil, fmt.Errorf("{%s}: %w", say[i+1:i+end], err)
		}
		if lit.Len() > 0 {
			out = append(out, sayPart{text: lit.String()})
			lit.Reset()
		}
		out = append(out, p)
		i += end
	}
	if lit.Len() > 0 {
		out = append(out, sayPart{text: lit.String()})
	}
	return out, nil
}

func parseTemplate(s string, batches int, algorithms []algos.Name) (sayPart, error) {
	words := strings.Fields(s)
	if len(words) == 0 {
		return sayPart{}, fmt.Errorf("empty template; give one of %s", funcNames())
	}
	fn, ok := sayFuncs[words[0]]
	if !ok {
		return sayPart{}, fmt.Errorf("unknown template %q; give one of %s", words[0], funcNames())
	}
	args := words[1:]
	if len(args) < fn.min || len(args) > len(fn.args) {
		return sayPart{}, fmt.Errorf("%s takes %s", words[0], usage(words[0], fn))
	}
	p := sayPart{fn: words[0]}
	for k, a := range args {
		switch fn.args[k] {
		case argBatch:
			n, err := strconv.Atoi(a)
			switch {
			case a == "end":
				n = -1
			case err != nil || n < 0 || n >= batches:
				return sayPart{}, fmt.Errorf("%q is not a batch (0..%d, or end)", a, batches-1)
			}
			p.args = append(p.args, sayArg{batch: n})
		case argAlgo:
			n, err := algoName(a)
			if err != nil {
				return sayPart{}, err
			}
			if n != algos.NameOracle && !slices.Contains(algorithms, n) {
				return sayPart{}, fmt.Errorf("%s is not among the scenario's algorithms", a)
			}
			p.args = append(p.args, sayArg{algo: n, batch: -1})
		}
	}
	if len(fn.args) == 2 && fn.args[0] == argBatch && len(p.args) == 2 {
		tp, t := p.args[0].batch, p.args[1].batch
		if tp > t && t >= 0 || tp < 0 && t >= 0 {
			return sayPart{}, fmt.Errorf("cell [%s, %s] is not in the cost matrix above the diagonal (t' <= t)", args[0], args[1])
		}
	}
	return p, nil
}

// algoName reads an algorithm as the paper writes it (Oracle, CARA-T, Never-retrain) or as files do.
func algoName(s string) (algos.Name, error) {
	for _, n := range algos.Names {
		if strings.EqualFold(s, n.Display()) || s == string(n) {
			return n, nil
		}
	}
	_, err := algos.ParseName(strings.ToLower(s))
	return "", err
}

func funcNames() string {
	names := make([]string, 0, len(sayFuncs))
	for n := range sayFuncs {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func usage(name string, fn sayFunc) string {
	var parts []string
	for k, a := range fn.args {
		w := "t"
		if a == argAlgo {
			w = "ALGORITHM"
		}
		if name != "R" && len(fn.args) == 2 && fn.args[0] == argBatch && k == 0 {
			w = "t'"
		}
		if k >= fn.min {
			w = "[" + w + "]"
		}
		parts = append(parts, w)
	}
	if len(parts) == 0 {
		return "no arguments"
	}
	return strings.Join(parts, " ")
}

// Text is the stop's text with its templates filled from the run f; a number not known yet (a
// column not computed, the results before the matrix is in) is written "…".
func (s Stop) Text(f Facts) string {
	var b strings.Builder
	for _, p := range s.Pieces(f) {
		b.WriteString(p.Text)
	}
	return b.String()
}

// Piece is a piece of a stop's text as the player shows it: the author's words, or a template
// filled from the run (Filled).
type Piece struct {
	Text   string
	Filled bool
}

// Pieces are the stop's text in pieces, its templates filled from the run f as Text fills them:
// what the claims test reads to tell the author's words from the run's numbers.
func (s Stop) Pieces(f Facts) []Piece {
	parts, err := parseSay(s.Say, max(f.M.Batches(), s.At+1), algos.Names)
	if err != nil {
		return []Piece{{Text: s.Say}} // checked at load: only a Stop built by hand gets here
	}
	out := make([]Piece, 0, len(parts))
	for _, p := range parts {
		if p.fn == "" {
			out = append(out, Piece{Text: p.text})
			continue
		}
		v, ok := sayFuncs[p.fn].eval(f, p.args)
		if !ok {
			v = "…"
		}
		out = append(out, Piece{Text: v, Filled: true})
	}
	return out
}

// Literal is the stop's text without its templates: what the author wrote in words and numbers.
func (s Stop) Literal() string {
	parts, err := parseSay(s.Say, math.MaxInt, algos.Names)
	if err != nil {
		return s.Say
	}
	var b strings.Builder
	for _, p := range parts {
		if p.fn == "" {
			b.WriteString(p.text)
		} else {
			b.WriteString("{}")
		}
	}
	return b.String()
}
