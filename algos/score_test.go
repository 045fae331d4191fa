package algos

import (
	"math"
	"slices"
	"testing"
)

func TestScore(t *testing.T) {
	tests := []struct {
		name        string
		alarms      []int
		drifts      []Drift
		window      int
		hits        []DriftHit
		falseAlarms []int
		missed      int
		meanDelay   float64
	}{
		// Online block 25..99, drifts every 10 from 30 (covcon-d's). 30 and 41 detect theirs at
		// once and a batch late; 32 repeats 30's; 45 is past 40's window (40 + 2); 25, the call
		// at T_start, has no drift before it; 50 goes undetected, 60 is found 2 late.
		{"covcon-like", []int{25, 30, 32, 41, 45, 62}, []Drift{{10, 10}, {20, 20}, {30, 30}, {40, 40}, {50, 50}, {60, 60}}, 2,
			[]DriftHit{{30, 30, 30, 0, 7}, {40, 40, 41, 1, 107}, {50, 50, -1, -1, -1}, {60, 60, 62, 2, 207}}, []int{25, 45}, 1, 1},
		// A window of 0: only the drift's own batches detect it.
		{"window 0", []int{31, 40}, []Drift{{30, 30}, {40, 40}}, 0,
			[]DriftHit{{30, 30, -1, -1, -1}, {40, 40, 40, 0, 7}}, []int{31}, 1, 0},
		// A gradual drift over 50..59: an alarm anywhere in it, or two batches after, detects it;
		// a drift in progress at T_start counts from the batch after.
		{"gradual and in progress", []int{27, 58, 61, 62}, []Drift{{20, 28}, {50, 59}}, 2,
			[]DriftHit{{26, 28, 27, 1, 107}, {50, 59, 58, 8, 807}}, []int{62}, 0, 4.5},
		// A stream that knows it has no drift: every alarm is false, nothing is missed.
		{"no drift", []int{30, 31}, nil, 2, []DriftHit{}, []int{30, 31}, 0, math.NaN()},
		// A drift that ended by T_start is in the first model's data: not scored.
		{"over before the block", nil, []Drift{{20, 25}}, 2, []DriftHit{}, []int{}, 0, math.NaN()},
	}
	for _, tc := range tests {
		// Every alarm at point 7 of a batch of 100: a delay of d batches is 100 d + 7 points.
		points := make([]int, len(tc.alarms))
		for i := range points {
			points[i] = 7
		}
		got := Score(tc.alarms, points, tc.drifts, 25, 99, tc.window, func(int) int { return 100 })
		if !slices.Equal(got.Drifts, tc.hits) || !slices.Equal(got.FalseAlarms, tc.falseAlarms) || got.Missed != tc.missed || got.Window != tc.window {
			t.Errorf("%s: %+v\nwant hits %+v, false %v, missed %d", tc.name, got, tc.hits, tc.falseAlarms, tc.missed)
		}
		if !(got.MeanDelay == tc.meanDelay || math.IsNaN(got.MeanDelay) && math.IsNaN(tc.meanDelay)) {
			t.Errorf("%s: mean delay %v, want %v", tc.name, got.MeanDelay, tc.meanDelay)
		}
		if want := 100*tc.meanDelay + 7; !(got.MeanPoints == want || math.IsNaN(got.MeanPoints) && math.IsNaN(want)) {
			t.Errorf("%s: mean delay %v points, want %v", tc.name, got.MeanPoints, want)
		}
		if got.Detected()+got.Missed != len(got.Drifts) {
			t.Errorf("%s: %d detected and %d missed of %d", tc.name, got.Detected(), got.Missed, len(got.Drifts))
		}
	}
}

// knowing is a matrix that tells its drifts (sim.Matrix's methods) and its seed.
type knowing struct {
	*fakeMatrix
	drifts [][2]int
	known  bool
	seed   uint64
}

func (k knowing) DriftBatches() ([][2]int, bool) { return k.drifts, k.known }
func (k knowing) RunSeed() uint64                { return k.seed }

// TestEvaluateScoresDetectors: every detector's row carries its alarms, and a score when the
// matrix knows its drifts; other rows carry neither; an unknown stream leaves the score out.
func TestEvaluateScoresDetectors(t *testing.T) {
	// The concept changes at batch 6: every model trained before it is wrong on every point of
	// batches 6 on, every other cell is clean.
	m := errorMatrix(12, -1, 0)
	for tp := range 6 {
		for tt := 6; tt < 12; tt++ {
			m.errs[tp][tt] = bitsOf(t, "100x1")
		}
	}
	names := append([]Name{NameOracle, NameCaraT, NameNever}, Detectors...)
	for _, known := range []bool{true, false} {
		res, err := Evaluate(knowing{fakeMatrix: m, drifts: [][2]int{{6, 6}}, known: known}, Constant(1), names, 11)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if !r.Algorithm.IsDetector() {
				if r.Strategy.Alarms != nil || r.Detection != nil {
					t.Errorf("%s: alarms %v, detection %+v", r.Algorithm, r.Strategy.Alarms, r.Detection)
				}
				continue
			}
			if r.Strategy.Alarms == nil {
				t.Errorf("%s: no alarms list", r.Algorithm)
			}
			for _, tt := range r.Strategy.Retrains {
				if !slices.Contains(r.Strategy.Alarms, tt) {
					t.Errorf("%s: retrain at %d is not among its alarms %v", r.Algorithm, tt, r.Strategy.Alarms)
				}
			}
			if !known {
				if r.Detection != nil {
					t.Errorf("%s: scored against unknown drifts: %+v", r.Algorithm, r.Detection)
				}
				continue
			}
			if r.Detection == nil || len(r.Detection.Drifts) != 1 || r.Detection.Window != DefaultDriftWindow {
				t.Fatalf("%s: detection %+v", r.Algorithm, r.Detection)
			}
			// Cut before the drift, the strategy has no drift to score yet, only false alarms.
			if early := (Options{}).Score(knowing{fakeMatrix: m, drifts: [][2]int{{6, 6}}, known: true}, r.Strategy.UpTo(5)); early == nil ||
				len(early.Drifts) != 0 || early.Missed != 0 || len(early.FalseAlarms) != len(r.Strategy.UpTo(5).Alarms) {
				t.Errorf("%s: score up to batch 5: %+v", r.Algorithm, early)
			}
			want := Score(r.Strategy.Alarms, r.Strategy.AlarmPoints, []Drift{{6, 6}}, m.Offline(), 11, DefaultDriftWindow, func(int) int { return 100 })
			if !slices.Equal(r.Detection.Drifts, want.Drifts) || !slices.Equal(r.Detection.FalseAlarms, want.FalseAlarms) {
				t.Errorf("%s: detection %+v, Score gives %+v", r.Algorithm, r.Detection, want)
			}
			// DDM: p_min = s_min = 0 after 500 clean points, so the first error is a drift.
			if r.Algorithm == NameDDM && (r.Detection.Drifts[0] != DriftHit{6, 6, 6, 0, 0} || r.Detection.Missed != 0) {
				t.Errorf("DDM meets 100 errors after 500 clean points at batch 6 and scores %+v", r.Detection)
			}
		}
	}
}

// TestKSWINFollowsTheRunSeed: KSWIN draws from the matrix's seed, so two runs of one seed agree
// and the replay does not depend on anything else.
func TestKSWINFollowsTheRunSeed(t *testing.T) {
	u := loadMoreUpstream(t)
	stream := append(slices.Clone(u.Abrupt), u.Step...)
	T := 40
	m := &fakeMatrix{t: T, off: 2, s: make([][]float64, T), errs: make([][]Bits, T), acc: make([][]float64, T)}
	for tp := range T {
		m.s[tp], m.errs[tp], m.acc[tp] = make([]float64, T), make([]Bits, T), make([]float64, T)
		for tt := tp; tt < T; tt++ {
			b := NewBits(100)
			for i := range 100 {
				if stream[tt*100+i] == 1 {
					b.Set(i)
				}
			}
			m.errs[tp][tt] = b
		}
	}
	alarms := func(seed uint64) []int {
		res, err := Evaluate(knowing{fakeMatrix: m, known: true, seed: seed}, Constant(1), []Name{NameKSWIN}, T-1)
		if err != nil {
			t.Fatal(err)
		}
		return res[0].Strategy.Alarms
	}
	a := alarms(1)
	if !slices.Equal(a, alarms(1)) {
		t.Errorf("seed 1 twice: %v and %v", a, alarms(1))
	}
	if len(a) == 0 {
		t.Errorf("KSWIN never fired on the upstream streams fed 100 a batch")
	}
}

func TestUpToClipsAlarms(t *testing.T) {
	s := Strategy{Start: 5, End: 9, Model: []int{5, 5, 7, 7, 7}, Retrains: []int{7}, Alarms: []int{5, 7, 9}, AlarmPoints: []int{1, 2, 3},
		Cumulative: make([]float64, 5), Reasons: make([]string, 5)}
	if got := s.UpTo(8); !slices.Equal(got.Alarms, []int{5, 7}) || !slices.Equal(got.AlarmPoints, []int{1, 2}) {
		t.Errorf("alarms up to 8: %v at %v", got.Alarms, got.AlarmPoints)
	}
	if got := (Strategy{Model: []int{0}, Cumulative: []float64{0}, Reasons: []string{""}}).UpTo(0).Alarms; got != nil {
		t.Errorf("a policy without alarms has %v up to 0", got)
	}
}
