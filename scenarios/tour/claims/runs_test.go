package claims

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/scenarios/tour"
	"github.com/cara-sim/cara/sim"
)

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
	st, err := r.s.Stream(r.s.TourSeed())
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
		cfg, err := s.Config(s.TourSeed())
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

func (r *tourRun) rowMin(tp, from, to int) float64 {
	m := math.Inf(1)
	for t := from; t <= to; t++ {
		m = min(m, r.C(tp, t))
	}
	return m
}

// rising reports whether C[tp, from..to] rises at every batch.
func (r *tourRun) rising(tp, from, to int) bool {
	for t := from + 1; t <= to; t++ {
		if r.C(tp, t) <= r.C(tp, t-1) {
			return false
		}
	}
	return true
}

// agrees is the share of batch t's points whose label is label(x).
func (r *tourRun) agrees(t int, label func(x []float64) bool) float64 {
	b := r.batch(t)
	n := 0
	for i := range b.X.Len() {
		if label(b.X.Row(i)) == (b.Y[i] == 1) {
			n++
		}
	}
	return float64(n) / float64(b.X.Len())
}

// centred reports whether batch t's data mean lies within cloudSE of (at[0], at[1]).
func (r *tourRun) centred(t int, at ...float64) bool {
	for k, v := range at {
		if math.Abs(r.mean(t, k)-v) > cloudSE {
			return false
		}
	}
	return true
}

// retrainsAt reports whether algorithm a retrains at every batch of ts; retrainsOnly, whether
// it retrains nowhere else.
func (r *tourRun) retrainsAt(a algos.Name, ts ...int) bool {
	for _, t := range ts {
		if !slices.Contains(r.retrains(a), t) {
			return false
		}
	}
	return true
}

// every is the batches from..to where keep(t).
func every(from, to int, keep func(t int) bool) []int {
	var out []int
	for t := from; t <= to; t++ {
		if keep(t) {
			out = append(out, t)
		}
	}
	return out
}

// sameErrors reports whether two runs' models err on the same share of every batch (the same
// data and models).
func sameErrors(a, b *tourRun) bool {
	for tp := 0; tp < a.m.Batches(); tp += 7 {
		for t := tp; t < a.m.Batches(); t += 5 {
			if a.cell(tp, t).ErrorRate != b.cell(tp, t).ErrorRate {
				return false
			}
		}
	}
	return true
}

// sameBatches reports whether two scenarios stream the same data (points and labels) at their
// tours' seeds, batch for batch, and, with queries, the same queries.
func sameBatches(t *testing.T, a, b *scenarios.Scenario, queries bool) bool {
	sa, err := a.Stream(a.TourSeed())
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.Stream(b.TourSeed())
	if err != nil {
		t.Fatal(err)
	}
	for tt := range a.Batches {
		ba, err1 := sa.Batch(tt)
		bb, err2 := sb.Batch(tt)
		if err1 != nil || err2 != nil || !slices.Equal(ba.X.V, bb.X.V) || !slices.Equal(ba.Y, bb.Y) || queries && !slices.Equal(ba.Q.V, bb.Q.V) {
			return false
		}
	}
	return true
}
