package sim

import (
	"math"
	"strings"
	"sync"
	"testing"
)

// Issue 33: features near 1e300 overflowed the pooled variance, gamma scale became 0 and every
// cell NaN without a word. Now ResolveGamma, and so a run, refuses with a message that names
// gamma, the features' scales and what to do.
func TestHugeFeaturesGammaError(t *testing.T) {
	huge := []*Batch{{X: Points{D: 2, V: []float64{1e300, 0.1, -1e300, 0.2, 3e300, 0.3, 2e300, 0.4}}, Y: []uint8{0, 1, 0, 1}, Q: Points{D: 2, V: []float64{1e300, 0.1}}}}
	_, err := ResolveGamma(GammaSpec{Mode: GammaScale}, huge)
	if err == nil {
		t.Fatal("gamma scale over features near 1e300: no error")
	}
	for _, part := range []string{"kernel gamma scale", "leaves the range of a 64-bit float",
		"features range from standard deviation 0.112 around 0.25 (feature 2) to 1.48e+300 around 1.25e+300 (feature 1)",
		"kernel: {standardize: true}", "kernel: {gamma: NUMBER}"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q lacks %q", err, part)
		}
	}
	// Tiny features: their variance underflows, but they are not constant.
	tiny := []*Batch{{X: Points{D: 1, V: []float64{1e-300, 2e-300, 3e-300}}}}
	if _, err := ResolveGamma(GammaSpec{Mode: GammaScale}, tiny); err == nil || strings.Contains(err.Error(), "zero variance") {
		t.Errorf("features near 1e-300: %v", err)
	}
	// Through the engine, a run fails at once (it used to give a matrix of NaN).
	st := fixedStream{huge[0], huge[0], huge[0]}
	if _, err := Run(t.Context(), Config{Stream: st, Trainer: NearestCentroid{}, Offline: 1}, nil); err == nil || !strings.Contains(err.Error(), "kernel gamma scale") {
		t.Errorf("run: %v", err)
	}
	// Standardised, the same features give a finite gamma and finite cells.
	m, err := Run(t.Context(), Config{Stream: st, Trainer: NearestCentroid{}, Offline: 1, Standardize: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for tp := range 3 {
		for tt := tp; tt < 3; tt++ {
			if v := m.Staleness(tp, tt); math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("standardised: C[%d][%d] = %v", tp, tt, v)
			}
		}
	}
}

// byHandStream is a 1-feature stream worked by hand: batch 0 is x = 0, 1, 0.2 with labels 0, 1, 1
// (nearest centroid: class 0 at 0, class 1 at 0.6, boundary 0.3, so 0.2 is a training error);
// batch 1 has the labels flipped at 0 and 1 (1, 0, 1), so M_0 gets all three wrong; the one query
// of batch 1 is at 0.
func byHandStream() fixedStream {
	x := Points{D: 1, V: []float64{0, 1, 0.2}}
	q := Points{D: 1, V: []float64{0}}
	return fixedStream{
		{T: 0, X: x, Y: []uint8{0, 1, 1}, Q: q},
		{T: 1, X: x, Y: []uint8{1, 0, 1}, Q: q},
	}
}

// errors.weights, by hand: with gamma 1 and weights (1, 10),
//
//	A(0, 1) = (1/3) (10 exp(0) + 1 exp(-1) + 10 exp(-0.04))   (all three points wrong)
//	B(0, 1) = (1/3) (10 exp(-0.04))                           (M_0 wrong on its own 0.2, class 1)
//
// and weights (1, 1) give the unweighted matrix bit for bit.
func TestWeightsByHand(t *testing.T) {
	run := func(w []float64) *Matrix {
		m, err := Run(t.Context(), Config{Stream: byHandStream(), Trainer: NearestCentroid{}, Offline: 1,
			Gamma: GammaSpec{Mode: GammaValue, Value: 1}, Weights: w}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	c := run([]float64{1, 10}).Cell(0, 1)
	wantA := (10*math.Exp(0) + math.Exp(-1) + 10*math.Exp(-0.04)) / 3
	wantB := 10 * math.Exp(-0.04) / 3
	if math.Abs(c.A-wantA) > 1e-15 || math.Abs(c.B-wantB) > 1e-15 {
		t.Errorf("weighted A %.17g B %.17g, want %.17g %.17g", c.A, c.B, wantA, wantB)
	}
	if got, want := c.C(), (10+math.Exp(-1))/3; math.Abs(got-want) > 1e-15 {
		t.Errorf("weighted C %.17g, want %.17g", got, want)
	}
	plain, ones := run(nil), run([]float64{1, 1})
	for tt := range 2 {
		for tp := 0; tp <= tt; tp++ {
			if a, b := plain.Cell(tp, tt), ones.Cell(tp, tt); a.A != b.A || a.B != b.B || a.QueryAccuracy != b.QueryAccuracy && !math.IsNaN(a.QueryAccuracy) {
				t.Errorf("weights (1, 1) cell (%d, %d): %v %v against %v %v", tp, tt, b.A, b.B, a.A, a.B)
			}
		}
	}
	if got, want := plain.Cell(0, 1).C(), (1+math.Exp(-1))/3; math.Abs(got-want) > 1e-15 {
		t.Errorf("unweighted C %.17g, want %.17g", got, want)
	}
	for _, bad := range [][]float64{{1}, {1, -1}, {math.Inf(1), 1}, {math.NaN(), 1}} {
		if _, err := Run(t.Context(), Config{Stream: byHandStream(), Trainer: NearestCentroid{}, Offline: 1, Weights: bad}, nil); err == nil {
			t.Errorf("weights %v accepted", bad)
		}
	}
}

// kernel.standardize, by hand: offline feature 1 is 0, 2 (mean 1, sd 1), feature 2 is 0, 2000
// (mean 1000, sd 1000). Standardised, the query (0, 0) and the point (2, 2000) are (-1, -1) and
// (1, 1), 8 apart squared: similarity exp(-8) at gamma 1, where the raw points (4 000 004 apart)
// give exp(-4e6) = 0. gamma scale on standardised features is 1/(2 x 1) (each feature's values
// are -1 and 1: pooled variance 1).
func TestStandardizeByHand(t *testing.T) {
	b0 := &Batch{T: 0, X: Points{D: 2, V: []float64{0, 0, 2, 2000}}, Y: []uint8{0, 1}, Q: Points{D: 2, V: []float64{0, 0}}}
	// Batch 1 flips the labels: M_0 gets both points wrong, M_0 none of its own.
	b1 := &Batch{T: 1, X: b0.X, Y: []uint8{1, 0}, Q: b0.Q}
	st := fixedStream{b0, b1}
	cfg := Config{Stream: st, Trainer: NearestCentroid{}, Offline: 1, Gamma: GammaSpec{Mode: GammaValue, Value: 1}, Standardize: true}
	m, err := Run(t.Context(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A(0, 1) = (1/2)(exp(-0) + exp(-8)): the query sits on the first point.
	if got, want := m.Cell(0, 1).A, (1+math.Exp(-8))/2; got != want {
		t.Errorf("standardised A %.17g, want %.17g", got, want)
	}
	cfg.Standardize = false
	raw, err := Run(t.Context(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := raw.Cell(0, 1).A, 0.5; got != want {
		t.Errorf("raw A %.17g, want %.17g (exp(-4000004) is 0)", got, want)
	}
	cfg.Standardize, cfg.Gamma = true, GammaSpec{Mode: GammaScale}
	if m, err = Run(t.Context(), cfg, nil); err != nil || m.Gamma != 0.5 {
		t.Errorf("gamma scale on standardised features %v (%v), want 0.5", m.Gamma, err)
	}
}

// kernel.standardize against an independent formula: on a random stream, every A of the matrix is
// (1/n) sum over its errors of sum over q of exp(-gamma ||s(q) - s(x)||^2), s(x) = (x - mean)/sd
// with mean and sd computed here by two passes over the offline data, gamma 1/(d x the pooled
// variance of s over the offline data).
func TestStandardizeFormula(t *testing.T) {
	s := testStream{T: 6, n: 60, nq: 6, drift: 3}
	var bs []*Batch
	for tt := range s.T {
		b, _ := s.Batch(tt)
		for i := 1; i < len(b.X.V); i += 2 { // feature 2 in thousands: another scale
			b.X.V[i] *= 1000
		}
		bs = append(bs, b)
	}
	const off = 2
	m, err := Run(t.Context(), Config{Stream: fixedStream(bs), Trainer: NearestCentroid{}, Offline: off, Standardize: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mean, sd [2]float64
	n := 0.0
	for _, b := range bs[:off] {
		for i, v := range b.X.V {
			mean[i%2] += v
		}
		n += float64(b.X.Len())
	}
	mean[0], mean[1] = mean[0]/n, mean[1]/n
	for _, b := range bs[:off] {
		for i, v := range b.X.V {
			sd[i%2] += (v - mean[i%2]) * (v - mean[i%2])
		}
	}
	sd[0], sd[1] = math.Sqrt(sd[0]/n), math.Sqrt(sd[1]/n)
	std := func(p []float64) [2]float64 { return [2]float64{(p[0] - mean[0]) / sd[0], (p[1] - mean[1]) / sd[1]} }
	pooled := 0.0 // the standardised values have mean 0: the variance is the mean square
	for _, b := range bs[:off] {
		for i := range b.X.Len() {
			z := std(b.X.Row(i))
			pooled += z[0]*z[0] + z[1]*z[1]
		}
	}
	gamma := 1 / (2 * pooled / (2 * n))
	if math.Abs(m.Gamma-gamma) > 1e-12*gamma {
		t.Errorf("gamma %.17g, want %.17g", m.Gamma, gamma)
	}
	for tt := range s.T {
		for tp := 0; tp <= tt; tp++ {
			c := m.Cell(tp, tt)
			want := 0.0
			for i := range bs[tt].X.Len() {
				if !c.Errors.Get(i) {
					continue
				}
				x := std(bs[tt].X.Row(i))
				for j := range bs[tt].Q.Len() {
					q := std(bs[tt].Q.Row(j))
					want += math.Exp(-gamma * ((q[0]-x[0])*(q[0]-x[0]) + (q[1]-x[1])*(q[1]-x[1])))
				}
			}
			want /= float64(bs[tt].X.Len())
			if math.Abs(c.A-want) > 1e-9*max(1, want) {
				t.Errorf("A(%d, %d) = %.17g, want %.17g", tp, tt, c.A, want)
			}
		}
	}
}

// recordTrainer fits a constant model and records what each fit was given: the first feature of
// its first point and its number of points.
type recordTrainer struct {
	mu   *sync.Mutex
	seen *[][2]float64
}

func (r recordTrainer) Name() string { return "record" }
func (r recordTrainer) Fit(x Points, y []uint8, seed uint64) (Model, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	*r.seen = append(*r.seen, [2]float64{x.V[0], float64(x.Len())})
	return constModel(0), nil
}

// model.window: with a window of 3, M_t is fitted to batches t-2..t, the oldest first (so its
// first point is batch t-2's, and it has 3 x 10 points), fewer at the start; a window of 1 is
// the paper's, bit for bit the run without one.
func TestWindow(t *testing.T) {
	var bs []*Batch
	for tt := range 6 {
		b := &Batch{T: tt, X: Points{D: 1}, Q: Points{D: 1, V: []float64{0.5}}}
		for i := range 10 {
			b.X.V = append(b.X.V, float64(100*tt+i))
			b.Y = append(b.Y, uint8(i%2))
		}
		bs = append(bs, b)
	}
	var seen [][2]float64
	rec := recordTrainer{mu: &sync.Mutex{}, seen: &seen}
	if _, err := Run(t.Context(), Config{Stream: fixedStream(bs), Trainer: rec, Offline: 2, Window: 3, Gamma: GammaSpec{Mode: GammaValue, Value: 1}}, nil); err != nil {
		t.Fatal(err)
	}
	// Fits come in batch order: M_0 on batch 0, M_1 on 0..1, then M_t on t-2..t.
	want := [][2]float64{{0, 10}, {0, 20}, {0, 30}, {100, 30}, {200, 30}, {300, 30}}
	if len(seen) != len(want) {
		t.Fatalf("fits %v, want %v", seen, want)
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Errorf("fit %d: first point %v, %v points; want %v, %v", i, seen[i][0], seen[i][1], want[i][0], want[i][1])
		}
	}
	x, y := trainingSet(bs, 1, 3)
	if x.Len() != 20 || x.V[0] != 0 || x.V[10] != 100 || len(y) != 20 {
		t.Errorf("M_1's training set: %d points from %v", x.Len(), x.V[:1])
	}
	s := testStream{T: 6, n: 80, nq: 8, drift: 3}
	one, err := Run(t.Context(), Config{Stream: s, Trainer: RandomForest{Trees: 5}.WithDefaults(), Offline: 2, Window: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	none, _ := Run(t.Context(), Config{Stream: s, Trainer: RandomForest{Trees: 5}.WithDefaults(), Offline: 2}, nil)
	three, _ := Run(t.Context(), Config{Stream: s, Trainer: RandomForest{Trees: 5}.WithDefaults(), Offline: 2, Window: 3}, nil)
	same, differ := true, false
	for tt := range 6 {
		for tp := 0; tp <= tt; tp++ {
			same = same && one.Cell(tp, tt).A == none.Cell(tp, tt).A && one.Cell(tp, tt).B == none.Cell(tp, tt).B
			differ = differ || three.Cell(tp, tt).A != none.Cell(tp, tt).A
		}
	}
	if !same || !differ {
		t.Errorf("window 1 is the paper's matrix: %v; window 3 changes it: %v", same, differ)
	}
}
