package algos

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestOracleEqualsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for trial := range 200 {
		T := 2 + trial%11 // 2..12 batches
		m := randomMatrix(rng, T, 1)
		r := Constant(rng.Float64() * 3)
		c := Costs{M: m, R: r}
		got := Oracle(c, 0, T-1)
		want := bruteForce(c, 0, T-1)
		if math.Abs(got.Cost()-want) > 1e-9 {
			t.Fatalf("T=%d trial %d: Oracle cost %v, brute force %v", T, trial, got.Cost(), want)
		}
		// The strategy it reports costs what it says.
		if re := Replay(c, 0, T-1, oraclePolicy(got.Retrains)); re.Cost() != got.Cost() {
			t.Fatalf("Oracle strategy replays to %v, reported %v", re.Cost(), got.Cost())
		}
	}
}

func TestOracleIsALowerBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for trial := range 30 {
		m := randomMatrix(rng, 30, 10)
		r := Constant(0.5 + rng.Float64()*5)
		res, err := Evaluate(m, r, Names, m.t-1)
		if err != nil {
			t.Fatal(err)
		}
		oracle := res[0].Strategy.Cost()
		for _, x := range res {
			if x.Strategy.Cost() < oracle-1e-9 {
				t.Errorf("trial %d: %s costs %v below the Oracle's %v", trial, x.Algorithm, x.Strategy.Cost(), oracle)
			}
			if x.Gap < -1e-9 {
				t.Errorf("trial %d: %s has negative gap %v", trial, x.Algorithm, x.Gap)
			}
		}
	}
}

// The tuned threshold must reach the least offline cost over any threshold, found here by brute
// force over a fine grid spanning every candidate, and satisfy the tie rule.
func TestTuneThresholdExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for trial := range 25 {
		m := randomMatrix(rng, 12, 12)
		c := Costs{M: m, R: Constant(0.2 + rng.Float64()*4)}
		for _, cum := range []bool{false, true} {
			tu := TuneThreshold(c, 0, 11, cum)
			replay := func(theta float64) Strategy {
				if cum {
					return Replay(c, 0, 11, &Cumulative{Theta: theta})
				}
				return Replay(c, 0, 11, Threshold{Theta: theta})
			}
			best := math.Inf(1)
			for theta := -15.0; theta <= 40; theta += 0.001 {
				var p Policy = Threshold{Theta: theta}
				if cum {
					p = &Cumulative{Theta: theta}
				}
				cost, _ := replayCost(c, 0, 11, p)
				best = min(best, cost)
			}
			if tu.Cost > best+1e-12 {
				t.Fatalf("trial %d cumulative=%v: tuned cost %v, grid finds %v", trial, cum, tu.Cost, best)
			}
			if s := replay(tu.Value); s.Cost() != tu.Cost || len(s.Retrains) != tu.Retrains {
				t.Fatalf("trial %d: theta %v replays to cost %v (%d retrains), tuning said %v (%d)",
					trial, tu.Value, s.Cost(), len(s.Retrains), tu.Cost, tu.Retrains)
			}
			// Tie rule: the chosen value lies in the highest maximal run of optimal thresholds, so
			// once a larger threshold is not optimal, no still larger one may be.
			if !math.IsInf(tu.Value, 1) {
				left := false
				for theta := tu.Value; theta <= 60; theta += 0.02 {
					s := replay(theta)
					optimal := s.Cost() == tu.Cost && len(s.Retrains) <= tu.Retrains
					if !optimal {
						left = true
					} else if left {
						t.Fatalf("trial %d: theta %v is optimal again above the chosen run ending before it (chose %v)", trial, theta, tu.Value)
					}
				}
			}
		}
	}
}

func TestTieRule(t *testing.T) {
	// Offline block of 3 with staleness 1 at (0,1), 2 at (0,2) and (1,2), R = 10: retraining never
	// pays, so every theta above the largest cell (2) is optimal with 0 retrains: the interval
	// (2, +Inf) is unbounded above and theta is +Inf.
	m := &fakeMatrix{t: 4, off: 3, s: [][]float64{{0, 1, 2, 0}, {0, 0, 2, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}}
	tu := TuneThreshold(Costs{M: m, R: Constant(10)}, 0, 2, false)
	if !math.IsInf(tu.Value, 1) || tu.Cost != 13 || tu.Retrains != 0 {
		t.Errorf("R=10: got %+v, want theta +Inf, cost 10+1+2 = 13, 0 retrains", tu)
	}
	// With R = 0.5, retraining at 1 and 2 costs 0.5*3 = 1.5 < keeping (1+2 = 3, or 1+0.5+... ).
	// Strategies: keep,keep = 0.5+1+2 = 3.5; keep,retrain = 0.5+1+0.5 = 2; retrain,keep = 0.5+0.5+2 = 3;
	// retrain,retrain = 1.5 (best). Retrain at both needs theta <= 1 (cell (0,1) = 1 >= theta) and
	// theta <= 2: the optimal interval is (-Inf, 1], unbounded below, so theta = its end, 1.
	tu = TuneThreshold(Costs{M: m, R: Constant(0.5)}, 0, 2, false)
	if tu.Value != 1 || tu.Cost != 1.5 || tu.Retrains != 2 {
		t.Errorf("R=0.5: got %+v, want theta 1, cost 1.5, 2 retrains", tu)
	}
	// With R = 1.2: keep,retrain = 1.2+1+1.2 = 3.4 beats retrain,retrain = 3.6 and keep,keep = 4.2.
	// It needs 1 < theta <= 2: the interval (1, 2] has midpoint 1.5.
	tu = TuneThreshold(Costs{M: m, R: Constant(1.2)}, 0, 2, false)
	if tu.Value != 1.5 || math.Abs(tu.Cost-3.4) > 1e-12 || tu.Retrains != 1 {
		t.Errorf("R=1.2: got %+v, want theta 1.5, cost 3.4, 1 retrain", tu)
	}
}

func TestPeriodicPhase(t *testing.T) {
	m := randomMatrix(rand.New(rand.NewPCG(4, 4)), 30, 10)
	s := Replay(Costs{M: m, R: Constant(1)}, 10, 29, Periodic{P: 4, O: 3})
	// Absolute index: t mod 4 == 3 for t in 11..29.
	want := []int{11, 15, 19, 23, 27}
	if !slices.Equal(s.Retrains, want) {
		t.Errorf("retrains %v, want %v", s.Retrains, want)
	}
	// The tuned offset is an absolute phase too: a matrix whose staleness is high exactly at
	// t mod 5 == 2 makes the offline search choose p = 5, o = 2 when retraining is cheap.
	f := &fakeMatrix{t: 20, off: 20, s: make([][]float64, 20)}
	for tp := range f.s {
		f.s[tp] = make([]float64, 20)
		for t := tp + 1; t < 20; t++ {
			if t%5 == 2 {
				f.s[tp][t] = 10
			}
		}
	}
	if p, _ := TunePeriodic(Costs{M: f, R: Constant(1)}, 0, 19); p.P != 5 || p.O != 2 {
		t.Errorf("tuned %+v, want p=5 o=2", p)
	}
}

// CARA-P may choose never (p = +Inf). Offline staleness 1 per kept batch over 0..19 costs
// R + 19 = 39 at R = 20 without a retrain; a period that retrains k times costs at least 20k more
// and saves at most 19, so never is optimal. Period 20 with offset 0 also never retrains offline
// (no t in 1..19 has t mod 20 == 0) at the same cost 39: the tie goes to never, which then keeps
// online too, where period 20 would retrain at 20, 40 and 60.
func TestPeriodicMayChooseNever(t *testing.T) {
	f := &fakeMatrix{t: 70, off: 20, s: make([][]float64, 70), errs: make([][]Bits, 70), acc: make([][]float64, 70)}
	for tp := range f.s {
		f.s[tp] = make([]float64, 70)
		f.acc[tp] = make([]float64, 70)
		for t := tp + 1; t < 70; t++ {
			f.s[tp][t] = 1
		}
	}
	c := Costs{M: f, R: Constant(20)}
	p, cost := TunePeriodic(c, 0, 19)
	if p.P != 0 || cost != 39 {
		t.Fatalf("tuned %+v at cost %v, want never (P 0) at 39", p, cost)
	}
	if got := p.Params(); !math.IsInf(got["period"], 1) || !math.IsNaN(got["offset"]) {
		t.Errorf("params %v, want period +Inf, offset NaN", got)
	}
	if s := Replay(c, 20, 69, p); len(s.Retrains) != 0 {
		t.Errorf("never retrained online at %v", s.Retrains)
	}
	// A cheap retrain makes a finite period win again.
	if p, _ := TunePeriodic(Costs{M: f, R: Constant(0.5)}, 0, 19); p.P == 0 {
		t.Errorf("at R = 0.5 tuning chose never")
	}
}

func TestMarkovIsThresholdAtR(t *testing.T) {
	m := randomMatrix(rand.New(rand.NewPCG(5, 5)), 25, 5)
	c := Costs{M: m, R: Constant(1.3)}
	a := Replay(c, 5, 24, Markov{})
	b := Replay(c, 5, 24, Threshold{Theta: 1.3})
	if !slices.Equal(a.Model, b.Model) || a.Cost() != b.Cost() {
		t.Errorf("Markov %v (%v) differs from CARA-T at theta=R %v (%v)", a.Model, a.Cost(), b.Model, b.Cost())
	}
}

func TestQueryAccuracyStagger(t *testing.T) {
	// Accuracy of model tp on batch t is 10*tp + t (scaled) so every lookup is identifiable.
	f := &fakeMatrix{t: 5, off: 2, acc: make([][]float64, 5)}
	for tp := range f.acc {
		f.acc[tp] = make([]float64, 5)
		for t := range f.acc[tp] {
			f.acc[tp][t] = float64(10*tp + t)
		}
	}
	// Online 2..4, retrain at 3: models in use after decisions are 2, 3, 3. The queries of batch 2
	// are answered by M_1 (T_start-1), of 3 by M_2 (before the retrain at 3), of 4 by M_3.
	s := Strategy{Start: 2, End: 4, Model: []int{2, 3, 3}}
	want := (float64(12) + 23 + 34) / 3
	if got := QueryAccuracy(f, s); got != want {
		t.Errorf("query accuracy %v, want (acc(1,2)+acc(2,3)+acc(3,4))/3 = %v", got, want)
	}
}

func TestEvaluateErrorsAndSCPE(t *testing.T) {
	m := randomMatrix(rand.New(rand.NewPCG(6, 6)), 10, 4)
	if _, err := Evaluate(m, Constant(1), []Name{"cara-t", "nope"}, 9); err == nil || !strings.Contains(err.Error(), `unknown algorithm "nope"`) {
		t.Errorf("unknown name: error %v", err)
	}
	if _, err := Evaluate(m, Constant(1), Names, 3); err == nil {
		t.Error("end inside the offline block: no error")
	}
	// All staleness zero and R = 0: every strategy costs 0, and SCPE is undefined.
	z := &fakeMatrix{t: 6, off: 2, s: make([][]float64, 6), errs: make([][]Bits, 6), acc: make([][]float64, 6)}
	for tp := range 6 {
		z.s[tp] = make([]float64, 6)
		z.errs[tp] = make([]Bits, 6)
		z.acc[tp] = make([]float64, 6)
		for t := range 6 {
			z.errs[tp][t] = NewBits(10)
			z.acc[tp][t] = math.NaN()
		}
	}
	res, err := Evaluate(z, Constant(0), Names, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if !math.IsNaN(r.SCPE) || r.Gap != 0 || !math.IsNaN(r.QueryAccuracy) {
			t.Errorf("%s: SCPE %v gap %v accuracy %v, want NaN, 0, NaN", r.Algorithm, r.SCPE, r.Gap, r.QueryAccuracy)
		}
	}
}

func TestRMax(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := range 20 {
		m := randomMatrix(rng, 14, 9)
		// Round two's offline block 0..T_off-1, and the paper's 0..T_off inclusive.
		for _, n := range []int{m.off, m.off + 1} {
			rmax := RMax(m, n)
			at := func(r float64) int {
				return len(OracleRetrains(Costs{M: m, R: Constant(r)}, 0, n-1))
			}
			if k := at(rmax); k != 0 {
				t.Errorf("trial %d, %d batches: at R_max = %v the offline Oracle still retrains %d times", trial, n, rmax, k)
			}
			if rmax > 0 && at(rmax*0.999) == 0 {
				t.Errorf("trial %d, %d batches: just below R_max = %v the Oracle already never retrains", trial, n, rmax)
			}
		}
	}
}

// errorMatrix is an n-batch matrix (offline block 1) of 100-point error sets: M_bad errs on every
// point of batches from..n-1, every other cell is clean.
func errorMatrix(n, bad, from int) *fakeMatrix {
	f := &fakeMatrix{t: n, off: 1, s: make([][]float64, n), errs: make([][]Bits, n), acc: make([][]float64, n)}
	for tp := range n {
		f.s[tp] = make([]float64, n)
		f.acc[tp] = make([]float64, n)
		f.errs[tp] = make([]Bits, n)
		for t := range n {
			b := NewBits(100)
			if tp == bad && t >= from {
				for i := range 100 {
					b.Set(i)
				}
			}
			f.errs[tp][t] = b
		}
	}
	return f
}

func TestDetectorPolicyResetsOnRetrain(t *testing.T) {
	f := errorMatrix(4, 0, 2)
	// From start 1, batches 2 and 3 feed the errors of M_1, which are clean: no drift.
	s := Replay(Costs{M: f, R: Constant(1)}, 1, 3, NewDetectorPolicy("DDM", NewDDM(), ResetOnRetrain, FeedFirstDrift))
	if len(s.Retrains) != 0 {
		t.Errorf("clean model retrained at %v", s.Retrains)
	}
	// From start 0: batch 1 clean (100 zeros), batch 2 all errors: DDM fires in batch 2, then
	// M_2 is clean on batch 3.
	s = Replay(Costs{M: f, R: Constant(1)}, 0, 3, NewDetectorPolicy("DDM", NewDDM(), ResetOnRetrain, FeedFirstDrift))
	if !slices.Equal(s.Retrains, []int{2}) {
		t.Errorf("retrains %v, want [2]", s.Retrains)
	}
}

// Without a reset, the detector keeps what it saw before the retrain. ADWIN is two-sided: after
// 100 zeros and a run of ones that made it fire in batch 2, the clean errors of M_2 on batch 3 are
// a drop in the mean that it detects again; reset on the retrain, it starts empty on batch 3 and
// sees only zeros. The stream fed is the same up to the first drift either way.
func TestDetectorPolicyNeverReset(t *testing.T) {
	f := errorMatrix(4, 0, 2)
	c := Costs{M: f, R: Constant(1)}
	never := Replay(c, 0, 3, NewDetectorPolicy("ADWIN", NewADWIN(0.002), ResetNever, FeedFirstDrift))
	reset := Replay(c, 0, 3, NewDetectorPolicy("ADWIN", NewADWIN(0.002), ResetOnRetrain, FeedFirstDrift))
	if !slices.Equal(reset.Retrains, []int{2}) {
		t.Errorf("reset on retrain: retrains %v, want [2]", reset.Retrains)
	}
	if !slices.Equal(never.Retrains, []int{2, 3}) {
		t.Errorf("never reset: retrains %v, want [2 3]", never.Retrains)
	}
	// Evaluate's default is the never-reset protocol; Options select the other. The online block
	// 1..4 feeds M_1's clean batch 2, its all-wrong batch 3 (a drift: retrain), then M_3's clean
	// batch 4, which only a detector that was not reset takes for a drift.
	g := errorMatrix(5, 1, 3)
	def, err := Evaluate(g, Constant(1), []Name{NameADWIN}, 4)
	if err != nil {
		t.Fatal(err)
	}
	opt, err := Options{DetectorReset: ResetOnRetrain}.Evaluate(g, Constant(1), []Name{NameADWIN}, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(def[0].Strategy.Retrains, []int{3, 4}) || !slices.Equal(opt[0].Strategy.Retrains, []int{3}) {
		t.Errorf("default retrains %v (want [3 4]), on_retrain %v (want [3])", def[0].Strategy.Retrains, opt[0].Strategy.Retrains)
	}
}

func TestParseDetectorReset(t *testing.T) {
	for _, r := range []DetectorReset{ResetNever, ResetOnRetrain} {
		if got, err := ParseDetectorReset(r.String()); err != nil || got != r {
			t.Errorf("%v: parsed %v, %v", r, got, err)
		}
	}
	if _, err := ParseDetectorReset("always"); err == nil || !strings.Contains(err.Error(), "never or on_retrain") {
		t.Errorf("always: %v", err)
	}
}

func BenchmarkEvaluate(b *testing.B) {
	m := randomMatrix(rand.New(rand.NewPCG(8, 8)), 100, 25)
	for i := range m.errs {
		for j := range m.errs[i] {
			if j >= i {
				bits := NewBits(1000)
				for k := range 1000 {
					if (k*7+i+j)%9 == 0 {
						bits.Set(k)
					}
				}
				m.errs[i][j] = bits
			}
		}
	}
	for b.Loop() {
		if _, err := Evaluate(m, Constant(1), Names, 99); err != nil {
			b.Fatal(err)
		}
	}
}

// constMatrix is a T-batch matrix (offline 2) whose off-diagonal cells are all v, with clean
// 10-point error sets.
func constMatrix(T int, v float64) *fakeMatrix {
	f := &fakeMatrix{t: T, off: 2, s: make([][]float64, T), errs: make([][]Bits, T), acc: make([][]float64, T)}
	for tp := range T {
		f.s[tp] = make([]float64, T)
		f.errs[tp] = make([]Bits, T)
		f.acc[tp] = make([]float64, T)
		for t := range T {
			if t > tp {
				f.s[tp][t] = v
			}
			f.errs[tp][t] = NewBits(10)
		}
	}
	return f
}

func TestWarningsAndUndefinedSCPE(t *testing.T) {
	// Every cell -1, R = 1: the Oracle pays R at 2 and keeps M_2 over 3..5 (-1 each): cost -2.
	// SCPE is undefined for everyone, the gap is not; 100 % of the cells are negative.
	m := constMatrix(6, -1)
	res, err := Evaluate(m, Constant(1), Names, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if !math.IsNaN(r.SCPE) || math.IsNaN(r.Gap) {
			t.Errorf("%s: SCPE %v gap %v, want NaN and a number", r.Algorithm, r.SCPE, r.Gap)
		}
	}
	// Keeping costs -1 and retraining 1: no retrain pays on the offline block, and the tuned
	// variants learn nothing there (issue 33).
	w := Warnings(m, 5, res)
	if len(w) != 3 || !strings.HasPrefix(w[0], "100 % of the off-diagonal cells of C (within the offline block and within the online block) are negative") ||
		!strings.HasPrefix(w[1], "the Oracle's cost is -2 (<= 0): SCPE is undefined") ||
		w[2] != "CARA-T, CARA-CT, CARA-P learned nothing from the offline block: no retrain pays there at this retraining cost, so they never retrain online, as Never-retrain does" {
		t.Errorf("warnings %q", w)
	}
	// Positive cells, retraining (0.5) cheaper than keeping (1): no warning, SCPE defined.
	m = constMatrix(6, 1)
	m.off = 4
	res, _ = Evaluate(m, Constant(0.5), Names, 5)
	if w := Warnings(m, 5, res); w != nil {
		t.Errorf("warnings %q on a healthy matrix", w)
	}
	// The share is counted over columns up to end, over the cells the algorithms read (offline 2):
	// (0,1), (1,2), (2,3), (2,4), (3,4) in columns 1..4. Three of them negative (60 %) flag; the
	// cells across the blocks, (0,2), (0,3), (1,3), (0,4), (1,4), do not count (issue 26, item 5:
	// the player and cara matrix compute them, a headless run does not).
	m = constMatrix(6, 1)
	m.s[0][1], m.s[1][2], m.s[2][4] = -1, -1, -1
	if w := MatrixWarnings(m, 4); len(w) != 1 || !strings.HasPrefix(w[0], "60 %") {
		t.Errorf("60 %% negative: %q", w)
	}
	m = constMatrix(6, 1)
	m.s[0][2], m.s[0][3], m.s[1][3], m.s[0][4], m.s[1][4] = -1, -1, -1, -1, -1
	if w := MatrixWarnings(m, 4); w != nil {
		t.Errorf("only cells across the blocks negative: %q", w)
	}
	m = constMatrix(6, 1)
	m.s[0][1] = -1
	if w := MatrixWarnings(m, 4); w != nil {
		t.Errorf("1 of 5 negative: %q", w)
	}
}

// A fixed strategy replays to the cost of its own path, summed by hand, and its SCPE against the
// Oracle is what Evaluate would report for an algorithm with that path.
func TestFixedAgainstOracle(t *testing.T) {
	m := randomMatrix(rand.New(rand.NewPCG(8, 8)), 12, 4)
	c := Costs{M: m, R: Constant(1.5)}
	retrains := []int{6, 9}
	s := Replay(c, 4, 11, Fixed(retrains))
	want, tp := c.At(4, 4), 4
	for b := 5; b <= 11; b++ {
		if b == 6 || b == 9 {
			tp = b
		}
		want += c.At(tp, b)
	}
	if !slices.Equal(s.Retrains, retrains) || s.Cost() != want {
		t.Fatalf("fixed: retrains %v cost %v, want %v %v", s.Retrains, s.Cost(), retrains, want)
	}
	oracle := Oracle(c, 4, 11).Cost()
	r := Against(m, "you", s, oracle)
	if oracle > 0 && r.SCPE != 100*math.Abs(want-oracle)/oracle || r.Gap != want-oracle {
		t.Errorf("SCPE %v gap %v, want %v %v", r.SCPE, r.Gap, 100*math.Abs(want-oracle)/oracle, want-oracle)
	}
	// The Oracle's own path, fixed, is the Oracle.
	or := Replay(c, 4, 11, Fixed(OracleRetrains(c, 4, 11)))
	if or.Cost() != oracle {
		t.Errorf("the Oracle's retrains fixed cost %v, the Oracle %v", or.Cost(), oracle)
	}
}

// UpTo cuts a strategy at a batch: its models, costs and reasons up to it, its retrains at or
// before it; nothing appended to the cut reaches the whole.
func TestStrategyUpTo(t *testing.T) {
	s := Strategy{Start: 5, End: 9, Model: []int{5, 5, 7, 7, 9}, Retrains: []int{7, 9},
		Cumulative: []float64{1, 2, 4, 5, 7}, Reasons: []string{"a", "b", "c", "d", "e"}}
	for _, c := range []struct {
		t, end   int
		retrains []int
		cost     float64
	}{{5, 5, nil, 1}, {6, 6, nil, 2}, {7, 7, []int{7}, 4}, {8, 8, []int{7}, 5}, {9, 9, []int{7, 9}, 7}, {20, 9, []int{7, 9}, 7}} {
		u := s.UpTo(c.t)
		if u.End != c.end || len(u.Model) != c.end-4 || !slices.Equal(u.Retrains, c.retrains) || u.Cost() != c.cost {
			t.Errorf("UpTo(%d): end %d, %d models, retrains %v, cost %v", c.t, u.End, len(u.Model), u.Retrains, u.Cost())
		}
	}
	u := s.UpTo(7)
	_ = append(u.Retrains, 100)
	_ = append(u.Model, 100)
	if s.Retrains[1] != 9 || s.Model[3] != 7 {
		t.Error("appending to a cut changed the whole")
	}
}

// Issue 33: a warning when the offline block gives the tuned variants nothing to learn from. On
// the offline block 0..5, keeping a model of batches 0..2 costs 10 at batches 3..5 and every
// other keep costs 0, R = 1: the optimum retrains once, at 3. CARA-T and CARA-CT learn from that
// one retrain (a threshold between 0 and 10) and raise nothing; CARA-P retrains at 3 alone with
// period 3, offset 0 (the smallest period with 3 as its only offline retrain), an extrapolation.
// With the offline block a single batch, none of them has a decision to learn from.
func TestTuningWarnings(t *testing.T) {
	m := constMatrix(9, 0)
	m.off = 6
	for tp := range 3 {
		for tt := 3; tt < 9; tt++ {
			m.s[tp][tt] = 10
		}
	}
	res, err := Evaluate(m, Constant(1), Names, 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		switch r.Algorithm {
		case NameCaraT, NameCaraCT, NameCaraP:
			if len(r.OfflineRetrains) != 1 || r.OfflineRetrains[0] != 3 {
				t.Errorf("%s: offline retrains %v, want [3]", r.Algorithm, r.OfflineRetrains)
			}
		default:
			if r.OfflineRetrains != nil {
				t.Errorf("%s (not tuned): offline retrains %v", r.Algorithm, r.OfflineRetrains)
			}
		}
	}
	want := "CARA-P's period 3 (offset 0) rests on one offline retrain, at batch 3: any period that retrains there alone costs the same offline, so the period is a guess; a longer offline block or a lower retraining cost would show whether the data repeat"
	if w := ResultWarnings(res); len(w) != 1 || w[0] != want {
		t.Errorf("warnings %q\nwant [%q]", w, want)
	}
	// R = 40: keeping M_0 over 3..5 costs 30, less than a retrain: no retrain pays offline, and
	// all three learn nothing.
	res, _ = Evaluate(m, Constant(40), Names, 8)
	if w := ResultWarnings(res); len(w) != 1 || !strings.HasPrefix(w[0], "CARA-T, CARA-CT, CARA-P learned nothing from the offline block: no retrain pays there") {
		t.Errorf("R = 40: warnings %q", w)
	}
	m.off = 1
	res, _ = Evaluate(m, Constant(1), []Name{NameCaraT}, 8)
	if w := ResultWarnings(res); len(w) != 1 || w[0] != "CARA-T learned nothing from the offline block: it is batch 0 alone, with no decision in it, so it never retrains online, as Never-retrain does" {
		t.Errorf("one offline batch: warnings %q", w)
	}
}
