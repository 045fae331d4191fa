package claims

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/cara-sim/cara/scenarios/tour"
)

// A stop's templates are filled from the run: every function against the number computed
// directly, as the player writes it; what is not known yet (the results while the matrix
// computes, a cell not computed) reads "…".
func TestSayTemplates(t *testing.T) {
	rs := &tourRuns{t: t, runs: map[string]*tourRun{}}
	r := rs.get("scenario1-near")
	o := r.res[oracle].Strategy
	cases := []struct{ say, want string }{
		{"{C 0 3}", strconv.FormatFloat(r.C(0, 3), 'g', 4, 64)},
		{"{C 2 2}", "1"}, // the diagonal is R
		{"{A 0 3} {B 0 3}", strconv.FormatFloat(r.cell(0, 3).A, 'g', 4, 64) + " " + strconv.FormatFloat(r.cell(0, 3).B, 'g', 4, 64)},
		{"{err 0 3}", fmt.Sprintf("%.0f %%", 100*r.cell(0, 3).ErrorRate)},
		{"{qacc 0 1}", strconv.FormatFloat(r.cell(0, 1).QueryAccuracy, 'f', 3, 64)},
		{"{R} {R 2}", "1 1"},
		{"{cost Oracle}", strconv.FormatFloat(o.Cost(), 'f', 2, 64)},
		{"{cost Oracle 2}", strconv.FormatFloat(o.Cumulative[1], 'f', 2, 64)},
		{"{retrains oracle end} {retrains Oracle 2}", "2 1"},
		{"{when Oracle} {when CARA-T}", "2 and 3 none"},
		{"{decision Oracle 1} {decision Oracle 2} {decision Never-retrain 3}", "trains retrains keeps"},
		{"{model Oracle 3} {model Never-retrain 3}", "3 1"},
		{"{theta} {period}", "+inf never"},
		{"{scpe Never-retrain}", strconv.FormatFloat(100*(r.cost(never)-r.cost(oracle))/r.cost(oracle), 'f', 1, 64)},
		{"{acc Oracle}", strconv.FormatFloat(r.res[oracle].QueryAccuracy, 'f', 3, 64)},
		{"a {{brace}}", "a {brace}"},
	}
	for _, c := range cases {
		if got := (tour.Stop{At: 3, Say: c.say}).Text(r.facts(3)); got != c.want {
			t.Errorf("%s = %q, want %q", c.say, got, c.want)
		}
	}
	f := r.facts(3)
	f.Results = nil
	if got := (tour.Stop{At: 3, Say: "{cost Oracle}, {C 0 3}"}).Text(f); got != "…, "+strconv.FormatFloat(r.C(0, 3), 'g', 4, 64) {
		t.Errorf("while the matrix computes: %q", got)
	}
}
