package scenarios

import (
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cara-sim/cara/sim"
)

func TestExpressionsAndGenerators(t *testing.T) {
	src := strings.Replace(with(`  label: "x2 > x1"`, `  label: "sqrt(x1^2) + abs(-x2) > min(1, max(0, floor(2.5)/2)) + 0*exp(log(e))*sin(pi)*cos(0)"`),
		"  uniform: {low: 0, high: 1}", "  mixture:\n    - {weight: \"t % 2\", gaussian: {mean: [0, 0.5], std: 0}}\n    - {weight: 1, uniform: {low: 5, high: 5}}", 1)
	s, err := Parse("ok.yaml", []byte(src), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Stream(7)
	if err != nil {
		t.Fatal(err)
	}
	// At even t the Gaussian's weight (t % 2) is 0: every point is the uniform's (5, 5). At odd t
	// both components have weight 1.
	b0, _ := st.Batch(0)
	for i := range b0.X.Len() {
		if r := b0.X.Row(i); r[0] != 5 || r[1] != 5 {
			t.Fatalf("t=0 point %v, want (5,5)", r)
		}
	}
	b1, _ := st.Batch(1)
	gauss := 0
	for i := range b1.X.Len() {
		if r := b1.X.Row(i); r[0] == 0 && r[1] == 0.5 {
			gauss++
		}
	}
	if gauss < 10 || gauss > 40 {
		t.Errorf("t=1: %d of 50 points from the Gaussian, want about half", gauss)
	}
	// Label: sqrt(x1^2) + |x2| > 1 for (5,5) -> 10 > 1, class 1; (0,0.5) -> 0.5 > 1, class 0.
	for i, y := range b1.Y {
		want := uint8(0)
		if b1.X.Row(i)[0] == 5 {
			want = 1
		}
		if y != want {
			t.Fatalf("point %d %v labelled %d, want %d", i, b1.X.Row(i), y, want)
		}
	}
	// Same seed, same batch; another seed, another batch.
	again, _ := st.Batch(1)
	if again.X.V[0] != b1.X.V[0] {
		t.Error("Batch(1) differs between calls")
	}
}

// Every embedded scenario yields the same batches, bit for bit, from a fresh stream of the same
// seed, whether batches are asked for in order or all at once from many goroutines; another seed
// gives other data.
func TestEmbeddedDeterministic(t *testing.T) {
	for _, info := range Embedded() {
		s, err := Load(info.Name, Options{})
		if err != nil {
			if strings.Contains(err.Error(), "not found") {
				continue // a real stream whose CSV is not beside this checkout
			}
			t.Fatalf("%s: %v", info.Name, err)
		}
		T := min(s.Batches, 12)
		a, _ := s.Stream(s.Seed)
		b, _ := s.Stream(s.Seed)
		other, _ := s.Stream(s.Seed + 1)
		seq := make([]*sim.Batch, T)
		for tt := range T {
			if seq[tt], err = a.Batch(tt); err != nil {
				t.Fatalf("%s: %v", info.Name, err)
			}
		}
		par := make([]*sim.Batch, T)
		var wg sync.WaitGroup
		for tt := T - 1; tt >= 0; tt-- {
			wg.Go(func() { par[tt], _ = b.Batch(tt) })
			wg.Go(func() { b.Batch(tt) }) // the same batch twice at once
		}
		wg.Wait()
		for tt := range T {
			x, y := seq[tt], par[tt]
			if y == nil || !slices.Equal(x.X.V, y.X.V) || !slices.Equal(x.Y, y.Y) || !slices.Equal(x.Q.V, y.Q.V) || !slices.Equal(x.QY, y.QY) {
				t.Fatalf("%s: batch %d differs between two streams of seed %d", info.Name, tt, s.Seed)
			}
			if x.X.Len() == 0 || x.Q.Len() == 0 || x.X.D != s.Features {
				t.Fatalf("%s: batch %d has %d points, %d queries of dimension %d", info.Name, tt, x.X.Len(), x.Q.Len(), x.X.D)
			}
		}
		if o, _ := other.Batch(0); s.Path == "" && !strings.Contains(info.Name, "electricity") && !strings.Contains(info.Name, "weather") && slices.Equal(o.X.V, seq[0].X.V) {
			t.Errorf("%s: seeds %d and %d give the same data", info.Name, s.Seed, s.Seed+1)
		}
	}
}

// Scenario 2's QDMdiff is exactly 0, checked without the engine: C[t', t] = QDM(Q_t, D_t, M) -
// QDM(Q_t, D_t', M) for M = M_t', and D_t equals D_t' bit for bit (points and labels), so for any
// model the two sums add the same terms in the same order and B == A exactly. The queries still
// move toward the boundary, so A itself (the absolute staleness of M_0) grows.
func TestScenario2ExactZeros(t *testing.T) {
	s, err := Load("scenario2", Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := s.Stream(s.Seed)
	batches := make([]*sim.Batch, s.Batches)
	for tt := range batches {
		batches[tt], _ = st.Batch(tt)
	}
	d0 := batches[0]
	m0, err := s.Model.Fit(d0.X, d0.Y, 1)
	if err != nil {
		t.Fatal(err)
	}
	gamma := 20.0
	qdm := func(q, x sim.Points, y []uint8) float64 {
		pred := make([]uint8, x.Len())
		m0.Predict(x, pred)
		sum := 0.0
		for i := range q.Len() {
			for j := range x.Len() {
				if pred[j] != y[j] {
					d := 0.0
					for k, v := range q.Row(i) {
						d += (v - x.Row(j)[k]) * (v - x.Row(j)[k])
					}
					sum += math.Exp(-gamma*d) / float64(x.Len())
				}
			}
		}
		return sum
	}
	prevA := -1.0
	for tt, b := range batches {
		if !slices.Equal(b.X.V, d0.X.V) || !slices.Equal(b.Y, d0.Y) {
			t.Fatalf("D_%d differs from D_0", tt)
		}
		a, bb := qdm(b.Q, b.X, b.Y), qdm(b.Q, d0.X, d0.Y)
		if a-bb != 0 {
			t.Errorf("QDMdiff(0, %d) = %v, want exactly 0", tt, a-bb)
		}
		if a <= prevA {
			t.Errorf("QDM of M_0 at %d is %v, not above %v: the queries should approach the errors", tt, a, prevA)
		}
		prevA = a
		if tt > 0 && slices.Equal(b.Q.V, batches[tt-1].Q.V) {
			t.Errorf("queries of %d equal those of %d", tt, tt-1)
		}
	}
}

// Label noise flips about the stated share of labels: circle-d's batch 5 (first circle, no
// transition) with 10 % noise against the concept computed here. 1000 coins of p = 0.1: standard
// deviation 9.5.
func TestLabelNoise(t *testing.T) {
	s, _ := Load("circle-d", Options{Set: []string{"data.noise=0.1"}})
	st, _ := s.Stream(0)
	b, _ := st.Batch(5)
	flipped := 0
	for i := range b.X.Len() {
		r := b.X.Row(i)
		want := uint8(0)
		if (r[0]-0.2)*(r[0]-0.2)+(r[1]-0.5)*(r[1]-0.5) > 0.15*0.15 {
			want = 1
		}
		if b.Y[i] != want {
			flipped++
		}
	}
	if flipped < 70 || flipped > 130 {
		t.Errorf("%d of 1000 labels flipped, want about 100", flipped)
	}
}

// Queries from data are distinct points of the batch with the batch's labels; generated queries
// carry the concept's labels without noise; a generator parameter undefined at some t fails that
// batch with the expression and t.
func TestQueries(t *testing.T) {
	s, _ := Parse("q.yaml", []byte(base), "", Options{})
	st, _ := s.Stream(2)
	b, _ := st.Batch(4)
	seen := map[int]bool{}
	for i := range b.Q.Len() {
		j := -1
		for k := range b.X.Len() {
			if slices.Equal(b.X.Row(k), b.Q.Row(i)) {
				j = k
			}
		}
		if j < 0 || seen[j] || b.QY[i] != b.Y[j] {
			t.Fatalf("query %d is not a fresh data point with its label (index %d)", i, j)
		}
		seen[j] = true
	}
	if len(seen) != 5 {
		t.Errorf("%d queries, want 5", len(seen))
	}

	// Data labels are half noise; query labels are the concept's, x2 > x1.
	gen := with("  size: 50", "  size: 50\n  noise: 0.5")
	gen = strings.Replace(gen, "queries: {from: data, size: 5}", "queries: {size: 30, uniform: {low: 0, high: 1}}", 1)
	s, err := Parse("g.yaml", []byte(gen), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, _ = s.Stream(2)
	b, _ = st.Batch(1)
	for i := range b.Q.Len() {
		r := b.Q.Row(i)
		if want := r[1] > r[0]; (b.QY[i] == 1) != want {
			t.Fatalf("query %v labelled %d", r, b.QY[i])
		}
	}

	// A parameter out of range at a batch the load probes (the last) is a load error...
	bad := with("  uniform: {low: 0, high: 1}", `  gaussian: {mean: 0, std: "2 - t"}`)
	if _, err = Parse("bad.yaml", []byte(bad), "", Options{}); err == nil || err.Error() != `bad.yaml:8:28: data.gaussian.std: is -7 at t=9; a standard deviation must be >= 0` {
		t.Errorf("load: %v", err)
	}
	// ... and at another batch, an error of that batch, with the same place.
	bad = with("  uniform: {low: 0, high: 1}", `  gaussian: {mean: 0, std: "abs(t - 5) - 0.5"}`)
	s, err = Parse("bad.yaml", []byte(bad), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, _ = s.Stream(1)
	if _, err := st.Batch(4); err != nil {
		t.Errorf("batch 4: %v", err)
	}
	if _, err := st.Batch(5); err == nil || err.Error() != `bad.yaml:8:28: data.gaussian.std: is -0.5 at t=5; a standard deviation must be >= 0` {
		t.Errorf("batch 5: %v", err)
	}
}

// One batch of covcon-d: 1000 Gaussian points labelled by an expression, 100 queries sampled.
func BenchmarkBatch(b *testing.B) {
	s, _ := Load("covcon-d", Options{})
	st, _ := s.Stream(0)
	for i := 0; b.Loop(); i++ {
		if _, err := st.Batch(i % 100); err != nil {
			b.Fatal(err)
		}
	}
}

// Loading covcon-d: YAML, ten label expressions and a retraining cost, compiled once.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := Load("covcon-d", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
