package sim

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// Issue 26, item 3: with features near 300 and 1013, gamma scale is about 1/(2 x 356.5^2) = 3.9e-6
// (the pooled variance is the gap between the means), every similarity of a query and a data
// point is about 1, and the engine says so; features on one scale raise no warning.
func TestKernelWarning(t *testing.T) {
	batches := func(means, sds [2]float64) []*Batch {
		rng := rand.New(rand.NewPCG(1, 2))
		var out []*Batch
		for bt := range 6 {
			b := &Batch{T: bt, X: Points{D: 2}, Q: Points{D: 2}}
			for i := range 60 {
				row := []float64{means[0] + sds[0]*rng.NormFloat64(), means[1] + sds[1]*rng.NormFloat64()}
				b.X.V = append(b.X.V, row...)
				b.Y = append(b.Y, uint8(i%2))
				if i%6 == 0 {
					b.Q.V = append(b.Q.V, row...)
				}
			}
			out = append(out, b)
		}
		return out
	}
	far := batches([2]float64{300, 1013}, [2]float64{3, 3})
	gamma, err := ResolveGamma(GammaSpec{Mode: GammaScale}, far[:3])
	if err != nil {
		t.Fatal(err)
	}
	if gamma < 3.8e-6 || gamma > 4.0e-6 {
		t.Errorf("gamma %.3g, want about 1/(2 x 356.5^2) = 3.9e-6", gamma)
	}
	w := kernelWarning(GammaSpec{Mode: GammaScale}, gamma, far, 3, false)
	for _, part := range []string{"the kernel hardly tells the queries apart: the median similarity", "(gamma = 3.94e-06, from kernel.gamma scale", "around 300.1 (feature 1)", "around 1013 (feature 2)"} {
		if !strings.Contains(w, part) {
			t.Errorf("warning %q lacks %q", w, part)
		}
	}
	same := batches([2]float64{0.5, 0.5}, [2]float64{0.2, 0.2})
	gamma, _ = ResolveGamma(GammaSpec{Mode: GammaScale}, same[:3])
	if w := kernelWarning(GammaSpec{Mode: GammaScale}, gamma, same, 3, false); w != "" {
		t.Errorf("one scale: %q", w)
	}
	if med := KernelSpread(same, gamma); !(med > 0.2 && med < 0.8) {
		t.Errorf("median similarity on one scale %.3f, want well inside (0, 1)", med)
	}
	// The other way: a gamma so large that no data point is near any query (every C about 0).
	if w := kernelWarning(GammaSpec{Mode: GammaValue, Value: 1e6}, 1e6, same, 3, false); !strings.HasPrefix(w, "the kernel is so narrow that no data point is near any query: 99 % of the similarities") || !strings.Contains(w, "(gamma = 1e+06, from kernel.gamma;") {
		t.Errorf("narrow: %q", w)
	}
	// Through the engine: the matrix carries it.
	m, err := Run(t.Context(), Config{Stream: fixedStream(far), Trainer: NearestCentroid{}, Offline: 3, Gamma: GammaSpec{Mode: GammaScale}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Warnings()) != 1 || !strings.HasPrefix(m.Warnings()[0], "the kernel hardly tells") {
		t.Errorf("matrix warnings %q", m.Warnings())
	}
}

// fixedStream serves batches made beforehand.
type fixedStream []*Batch

func (f fixedStream) Len() int                    { return len(f) }
func (f fixedStream) Features() int               { return f[0].X.D }
func (f fixedStream) Batch(t int) (*Batch, error) { return f[t], nil }
func (f fixedStream) Drifts() []Drift             { return nil }

// A what-if's matrix (Requery) carries the warning of its own gamma, not the run's.
func TestRequeryKernelWarning(t *testing.T) {
	s := testStream{T: 8, n: 200, nq: 20, drift: 4}
	m, err := Run(t.Context(), Config{Scenario: "rq", Stream: s, Trainer: NearestCentroid{}, Seed: 2, Offline: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Warnings()) != 0 {
		t.Fatalf("the run warns: %q", m.Warnings())
	}
	data, queries := streamPoints(t, s)
	for _, tc := range []struct {
		gamma float64
		want  string
	}{{m.Gamma, ""}, {1e9, "the kernel is so narrow"}, {1e-9, "the kernel hardly tells the queries apart"}} {
		w, err := Requery(m, data, queries, tc.gamma, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(w.Warnings(), "; "); tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) {
			t.Errorf("gamma %g: warnings %q, want %q", tc.gamma, got, tc.want)
		}
	}
}

func BenchmarkKernelWarning(b *testing.B) {
	s := testStream{T: 100, n: 1000, nq: 100, drift: 50}
	var bs []*Batch
	for t := range 100 {
		bt, _ := s.Batch(t)
		bs = append(bs, bt)
	}
	for b.Loop() {
		kernelWarning(GammaSpec{}, 10, bs, 25, false)
	}
}

// namedStream is a fixedStream whose features have names, as a CSV's do.
type namedStream struct {
	fixedStream
	names []string
}

func (s namedStream) FeatureNames() []string { return s.names }

// practitioner is a fleet's data: engine hours in the thousands beside a temperature in kelvin
// and a vibration in mm/s, the label set by vibration; the queries are a sixth of the points.
// constant, when not nil, gives feature 2 a constant value in the first offline batches.
func practitioner(offline int, constant *float64) []*Batch {
	rng := rand.New(rand.NewPCG(3, 4))
	var out []*Batch
	for bt := range 6 {
		b := &Batch{T: bt, X: Points{D: 3}, Q: Points{D: 3}}
		for i := range 60 {
			row := []float64{rng.Float64() * 6000, 318 + 4*rng.NormFloat64(), 2 + rng.NormFloat64()}
			if constant != nil && bt < offline {
				row[1] = *constant
			}
			b.X.V = append(b.X.V, row...)
			b.Y = append(b.Y, uint8(min(max(int(row[2]-1.5), 0), 1)))
			if i%6 == 0 {
				b.Q.V = append(b.Q.V, row...)
			}
		}
		out = append(out, b)
	}
	return out
}

// Issue 38: one feature carrying 99 % or more of the squared distances between queries and data
// points (hours in the thousands beside kelvin and mm/s) is named in a warning that points at
// kernel.standardize; the median rule does not see it (the median similarity is fine), and
// standardised features raise no such warning.
func TestDominantFeatureWarning(t *testing.T) {
	st := namedStream{fixedStream(practitioner(3, nil)), []string{"hours", "temp_k", "vibration_mm_s"}}
	run := func(standardize bool) []string {
		m, err := Run(t.Context(), Config{Stream: st, Trainer: NearestCentroid{}, Offline: 3, Gamma: GammaSpec{Mode: GammaScale}, Standardize: standardize}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return m.Warnings()
	}
	w := strings.Join(run(false), "\n")
	for _, part := range []string{`feature "hours" (1) carries 100.0 % of the squared distances between queries and data points`, "kernel: {standardize: true}"} {
		if !strings.Contains(w, part) {
			t.Errorf("warnings %q lack %q", w, part)
		}
	}
	if strings.Contains(w, "hardly tells") {
		t.Errorf("the median rule fired too: %q", w)
	}
	if w := run(true); len(w) != 0 {
		t.Errorf("standardised: %q", w)
	}
}

// Issue 38: under kernel.standardize, a feature constant over the offline block cannot be scaled;
// the run says so, naming it (it counts online in its own units). Every feature constant there is
// an error that names kernel.standardize (it was "the offline data have zero variance").
func TestStandardizeConstantFeatures(t *testing.T) {
	c := 318.0
	st := namedStream{fixedStream(practitioner(3, &c)), []string{"hours", "temp_k", "vibration_mm_s"}}
	m, err := Run(t.Context(), Config{Stream: st, Trainer: NearestCentroid{}, Offline: 3, Gamma: GammaSpec{Mode: GammaScale}, Standardize: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `kernel.standardize: feature "temp_k" (2) = 318 is constant over the offline block (batches 0..2), so not scaled, only centred`
	if w := strings.Join(m.Warnings(), "\n"); !strings.Contains(w, want) {
		t.Errorf("warnings %q lack %q", w, want)
	}
	flat := fixedStream(practitioner(3, &c))
	for _, b := range flat[:3] {
		for i := range b.X.V {
			b.X.V[i] = 1
		}
	}
	for _, g := range []GammaSpec{{Mode: GammaScale}, {Mode: GammaValue, Value: 0.5}} {
		_, err = Run(t.Context(), Config{Stream: flat, Trainer: NearestCentroid{}, Offline: 3, Gamma: g, Standardize: true}, nil)
		if err == nil || !strings.HasPrefix(err.Error(), "kernel.standardize: every feature is constant over the offline block (batches 0..2)") {
			t.Errorf("gamma %v: every feature constant: %v", g, err)
		}
	}
}
