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
	if p, o, _ := TunePeriodic(Costs{M: f, R: Constant(1)}, 0, 19); p != 5 || o != 2 {
		t.Errorf("tuned p=%d o=%d, want p=5 o=2", p, o)
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
	if _, err := Evaluate(m, Constant(1), []string{"cara-t", "nope"}, 9); err == nil || !strings.Contains(err.Error(), `unknown algorithm "nope"`) {
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
		rmax := RMax(m)
		at := func(r float64) int {
			return len(OracleRetrains(Costs{M: m, R: Constant(r)}, 0, m.off-1))
		}
		if n := at(rmax); n != 0 {
			t.Errorf("trial %d: at R_max = %v the offline Oracle still retrains %d times", trial, rmax, n)
		}
		if rmax > 0 && at(rmax*0.999) == 0 {
			t.Errorf("trial %d: just below R_max = %v the Oracle already never retrains", trial, rmax)
		}
	}
}

func TestDetectorPolicyResetsOnRetrain(t *testing.T) {
	// Model 0 errs on every point of batch 1 after a clean batch 0: DDM fires in batch 1; the new
	// model 1 is clean, so DDM (reset) stays quiet afterwards.
	f := &fakeMatrix{t: 4, off: 1, s: make([][]float64, 4), errs: make([][]Bits, 4)}
	for tp := range 4 {
		f.s[tp] = make([]float64, 4)
		f.errs[tp] = make([]Bits, 4)
		for t := range 4 {
			b := NewBits(100)
			if tp == 0 && t >= 2 {
				for i := range 100 {
					b.Set(i)
				}
			}
			f.errs[tp][t] = b
		}
	}
	s := Replay(Costs{M: f, R: Constant(1)}, 1, 3, NewDetectorPolicy("DDM", NewDDM()))
	// Batch 1 is fed to DDM via the model of 1 itself? No: the model of 1 is trained at 1 (start);
	// batches 2 and 3 feed errors of M_1, which are clean: no drift.
	if len(s.Retrains) != 0 {
		t.Errorf("clean model retrained at %v", s.Retrains)
	}
	s = Replay(Costs{M: f, R: Constant(1)}, 0, 3, NewDetectorPolicy("DDM", NewDDM()))
	// From start 0: batch 1 clean (100 zeros), batch 2 all errors: DDM fires in batch 2, then
	// M_2 is clean on batch 3.
	if !slices.Equal(s.Retrains, []int{2}) {
		t.Errorf("retrains %v, want [2]", s.Retrains)
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
