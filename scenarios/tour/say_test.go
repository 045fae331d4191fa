package tour

import (
	"testing"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

// handRun is a run small enough to work out by hand: 4 batches, batch 0 offline, R = 5, every
// cell C = A (B = 0):
//
//	t' \ t   1   2   3
//	  0      1   2  10
//	  1      R   1   9
//	  2          R   2
//
// Over the online block 1..3 every strategy trains M_1 at 1 (5). Keeping to the end costs
// 5+1+9 = 15 (Never-retrain); retraining at 3 costs 5+1+5 = 11, at 2 then keeping 5+5+2 = 12,
// at both 15: the Oracle retrains at 3 only, for 11.
func handRun(t *testing.T) Facts {
	m := sim.NewMatrix(4, 1)
	for tp, row := range [][]float64{{0, 1, 2, 10}, {0, 0, 1, 9}, {0, 0, 0, 2}, {0, 0, 0, 0}} {
		for t := tp; t < 4; t++ {
			m.Set(tp, t, sim.Cell{A: row[t], ErrorRate: 0.25, QueryAccuracy: 0.5})
		}
	}
	r := algos.Constant(5)
	res, err := algos.Evaluate(m, r, []algos.Name{algos.NameOracle, algos.NameNever}, 3)
	if err != nil {
		t.Fatal(err)
	}
	return Facts{M: m, R: r, Results: res, At: 3}
}

func TestSayByHand(t *testing.T) {
	f := handRun(t)
	for _, c := range []struct{ say, want string }{
		{"{C 0 3} and {C 2 2}", "10 and 5"}, // the diagonal is R
		{"{A 1 3} {B 1 3}", "9 0"},
		{"{err 0 1}, {qacc 0 1}", "25 %, 0.500"},
		{"{cost Oracle}, {cost Oracle 2}, {cost Never-retrain end}", "11.00, 6.00, 15.00"},
		{"{retrains oracle} {when Oracle} {when Never-retrain}", "1 3 none"},
		{"{decision Oracle 1} {decision Oracle 2} {decision Oracle 3}", "trains keeps retrains"},
		{"{model Oracle 2} {model Oracle 3}", "1 3"},
		{"{scpe Never-retrain}", "36.4"}, // 100 * |15 - 11| / 11
		{"a {{brace}}", "a {brace}"},
	} {
		if got := (Stop{At: 3, Say: c.say}).Text(f); got != c.want {
			t.Errorf("%s = %q, want %q", c.say, got, c.want)
		}
	}
	// What is not known yet reads "…": the results while the matrix computes, a cell not computed.
	f.Results = nil
	f.M = sim.NewMatrix(4, 1)
	f.M.Set(0, 1, sim.Cell{A: 1})
	if got := (Stop{At: 3, Say: "{cost Oracle}, {C 0 1}, {C 0 3}"}).Text(f); got != "…, 1, …" {
		t.Errorf("while the matrix computes: %q", got)
	}
	if got := (Stop{Say: "C is {C 0 3}, {{C}}"}).Literal(); got != "C is {}, {C}" {
		t.Errorf("Literal: %q", got)
	}
}

// parseSay refuses what a run cannot fill, with what it takes.
func TestSayErrors(t *testing.T) {
	for say, want := range map[string]string{
		"{C 3 1}":           "{C 3 1}: cell [3, 1] is not in the cost matrix above the diagonal (t' <= t)",
		"{C 0 9}":           `{C 0 9}: "9" is not a batch (0..3, or end)`,
		"{cost}":            "{cost}: cost takes ALGORITHM [t]",
		"{cost DDM}":        "{cost DDM}: DDM is not among the scenario's algorithms",
		"{nope}":            `{nope}: unknown template "nope"; give one of A, B, C, R, acc, cost, decision, err, model, period, qacc, retrains, scpe, theta, theta_c, when`,
		"a } b":             "a } with no { before it (write }} for a brace)",
		"{C 0 1":            `"{C 0 1" is not closed by }`,
		"{decision Oracle}": "{decision Oracle}: decision takes ALGORITHM t",
	} {
		_, err := parseSay(say, 4, []algos.Name{algos.NameOracle, algos.NameNever})
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got  %v\n want %s", say, err, want)
		}
	}
	if _, err := parseSay("{theta} {R 3} {cost Oracle end}", 4, nil); err != nil {
		t.Errorf("the Oracle is always there, R and theta take no algorithm: %v", err)
	}
}
