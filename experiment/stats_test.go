package experiment

import (
	"math"
	"testing"
)

// The interval and the paired test against scipy.stats (ttest_1samp, ttest_rel, t.ppf) on the
// same numbers: t = mean / (s / sqrt(n)) with the sample standard deviation, p two-sided with
// n-1 degrees of freedom.
func TestIntervalAndPairedTest(t *testing.T) {
	t.Parallel()
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	if h := HalfWidth95([]float64{1, 2, 3, 4, 5, math.NaN()}); !close(h, 1.9632431614775607) {
		t.Errorf("half-width %v, want scipy's 1.9632431614775607 (the NaN left out)", h)
	}
	if h := HalfWidth95([]float64{7}); !math.IsNaN(h) {
		t.Errorf("one value: half-width %v, want NaN", h)
	}
	for _, tc := range []struct {
		a, b       []float64
		t, p, mean float64
		diffs      int
	}{
		{[]float64{1, 2, 3, 4, 5}, []float64{0, 0, 0, 0, 0}, 4.242640687119285, 0.013235599563682695, 3, 5},
		{[]float64{0.81, 0.79, 0.83}, []float64{0.84, 0.85, 0.86}, -3.999999999999999, 0.05719095841793666, -0.04, 3},
		{[]float64{0.81, math.NaN(), 0.79, 0.83}, []float64{0.84, 0.1, 0.85, 0.86}, -3.999999999999999, 0.05719095841793666, -0.04, 3},
		{[]float64{2, 2}, []float64{1, 1}, math.Inf(1), 0, 1, 2},
		{[]float64{1, 1}, []float64{1, 1}, 0, 1, 0, 2},
	} {
		p := PairedTest(tc.a, tc.b)
		if len(p.Diffs) != tc.diffs || !close(float64(p.Mean), tc.mean) || !(close(float64(p.T), tc.t) || p.T == Num(tc.t)) || !close(float64(p.P), tc.p) {
			t.Errorf("PairedTest(%v, %v) = %+v, want t %v, p %v, mean %v over %d", tc.a, tc.b, p, tc.t, tc.p, tc.mean, tc.diffs)
		}
	}
	if p := PairedTest([]float64{1}, []float64{0}); !math.IsNaN(float64(p.T)) || p.outcome(true) != "not significant at 1 seed" {
		t.Errorf("one seed: %+v, %q", p, p.outcome(true))
	}
	if got := (Paired{P: 0.01, Diffs: make([]Num, 5)}).outcome(false); got != DoesNotHold {
		t.Errorf("a firm difference on the wrong side: %q", got)
	}
	if got := (Paired{P: 0.2, Diffs: make([]Num, 5)}).outcome(true); got != "not significant at 5 seeds" {
		t.Errorf("a weak difference: %q", got)
	}
}

// A comparison with no seed where both sides are defined has no test, and says so.
func TestNoTest(t *testing.T) {
	nan := math.NaN()
	if got := PairedTest([]float64{nan, nan}, []float64{1, 2}).outcome(true); got != NoTest {
		t.Errorf("all undefined: %q, want %q", got, NoTest)
	}
	if got := tallyWords(map[string]int{Holds: 2, NoTest: 1, "not significant at 5 seeds": 3}, 5); got != "2 hold, 0 do not hold, 3 not significant at 5 seeds, 1 with no test (undefined on every seed)" {
		t.Errorf("tally: %q", got)
	}
}
