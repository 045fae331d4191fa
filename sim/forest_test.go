package sim

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// The acceptance test: 1000 points, fresh test points from the same distribution.
func TestForestAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := circleData(rng, 1000)
	tx, ty := circleData(rng, 10000)
	if acc := accuracyOf(t, RandomForest{}, x, y, tx, ty); acc < 0.97 {
		t.Errorf("forest accuracy %.4f on fresh points, want >= 0.97", acc)
	}
}

// Each tree draws from its own stream, so the trees do not depend on which worker built them.
func TestForestSameForAnyWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x, y := circleData(rng, 500)
	fit := func(cfg RandomForest, seed uint64) *forestModel {
		m, err := cfg.Fit(x, y, seed)
		if err != nil {
			t.Fatal(err)
		}
		return m.(*forestModel)
	}
	same := func(a, b *forestModel) bool { return slices.Equal(a.nodes, b.nodes) && slices.Equal(a.start, b.start) }
	one := fit(RandomForest{Trees: 30, Workers: 1}, 42)
	for _, w := range []int{2, 3, 8, 64} {
		if !same(one, fit(RandomForest{Trees: 30, Workers: w}, 42)) {
			t.Errorf("forest with %d workers differs from 1 worker", w)
		}
	}
	// Workers 0 follows GOMAXPROCS.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(1)
	g1 := fit(RandomForest{Trees: 30}, 42)
	runtime.GOMAXPROCS(8)
	if !same(g1, fit(RandomForest{Trees: 30}, 42)) || !same(g1, one) {
		t.Error("forest with GOMAXPROCS 1 differs from GOMAXPROCS 8")
	}
	if same(fit(RandomForest{Trees: 5}, 1), fit(RandomForest{Trees: 5}, 2)) {
		t.Error("different seeds, identical forests")
	}
}

// fullVote is the forest's answer summing every tree: what Predict's early stop must agree with.
func fullVote(f *forestModel, row []float64) uint8 {
	sum := 0.0
	for k := range f.trees() {
		nodes := f.tree(k)
		j := int32(0)
		for nodes[j].feature >= 0 {
			if row[nodes[j].feature] <= nodes[j].threshold {
				j = nodes[j].left
			} else {
				j = nodes[j].left + 1
			}
		}
		sum += nodes[j].threshold
	}
	if sum > float64(f.trees())/2 {
		return 1
	}
	return 0
}

// Prediction stops visiting trees once the vote is decided; it must agree with the full vote.
func TestForestEarlyStopIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	x, y := circleData(rng, 800)
	// Label noise makes many points close votes, where stopping early matters most.
	for i := range y {
		if rng.Float64() < 0.2 {
			y[i] ^= 1
		}
	}
	tx, _ := circleData(rng, 5000)
	for _, cfg := range []RandomForest{{Trees: 1}, {Trees: 2}, {Trees: 7}, {Trees: 50}, {Trees: 20, MinLeaf: 5}, {Trees: 20, MaxDepth: 2}} {
		m, err := cfg.Fit(x, y, 3)
		if err != nil {
			t.Fatal(err)
		}
		f := m.(*forestModel)
		got := make([]uint8, tx.Len())
		f.Predict(tx, got)
		for i := range tx.Len() {
			if want := fullVote(f, tx.Row(i)); got[i] != want {
				t.Fatalf("%+v, point %d: early stop says %d, full vote %d", cfg, i, got[i], want)
			}
		}
	}
	// Two trees that disagree with certainty: a tie of the mean probability goes to class 0.
	f := flatForest([][]node{
		{{feature: -1, threshold: 1}},
		{{feature: -1, threshold: 0}},
	})
	out := []uint8{9}
	f.Predict(Points{D: 1, V: []float64{0}}, out)
	if out[0] != 0 {
		t.Errorf("a 1-1 vote predicted %d, want 0 (argmax takes the first class)", out[0])
	}
}

// A tree grown on unit weights (no bootstrap) over one feature, checked split by split.
// x = 0..5 with labels 0,0,1,0,1,1. With (c0, c1) the class counts of a side, a split's score is
// c0^2/n + c1^2/n summed over both sides (the larger, the lower the weighted Gini):
//
//	after x=0: (1,0)|(2,3): 1 + 13/5 = 3.6     after x=1: (2,0)|(1,3): 2 + 10/4 = 4.5
//	after x=2: (2,1)|(1,2): 5/3 + 5/3 = 3.33   after x=3: (3,1)|(0,2): 10/4 + 2 = 4.5
//	after x=4: (3,2)|(0,1): 13/5 + 1 = 3.6
//
// x=1 and x=3 tie; the first found wins, as in scikit-learn (a strictly better score replaces),
// so the root splits at 1.5. The right side 2..5 (labels 1,0,1,1) scores 1 + 5/3, 1 + 2 = 3 and
// 5/3 + 1: it splits at 3.5, and its left side {2, 3} at 2.5. Nodes are numbered as created,
// children in pairs: 0 root, 1-2 its children, 3-4 the children of 2, 5-6 those of 3.
func TestTreeByHand(t *testing.T) {
	x := Points{D: 1, V: []float64{0, 1, 2, 3, 4, 5}}
	y := []uint8{0, 0, 1, 0, 1, 1}
	tests := []struct {
		name      string
		maxDepth  int
		minLeaf   int
		feature   []int32
		threshold []float64 // of split nodes
		value     []float64 // class-1 fraction, of every node
	}{
		{"full", 0, 1,
			[]int32{0, -1, 0, 0, -1, -1, -1},
			[]float64{1.5, 0, 3.5, 2.5, 0, 0, 0},
			[]float64{0.5, 0, 0.75, 0.5, 1, 1, 0}},
		// Depth 1: the root's split only.
		{"max depth 1", 1, 1, []int32{0, -1, -1}, []float64{1.5, 0, 0}, []float64{0.5, 0, 0.75}},
		// Leaves of at least 3 points: only the split after x=2 (3.33) is allowed.
		{"min leaf 3", 0, 3, []int32{0, -1, -1}, []float64{2.5, 0, 0}, []float64{0.5, 1.0 / 3, 2.0 / 3}},
		// No split leaves 4 points on each side.
		{"min leaf 4", 0, 4, []int32{-1}, []float64{0}, []float64{0.5}},
	}
	for _, tc := range tests {
		b := newTreeBuilder(x, y, presort(x), 1, tc.maxDepth, tc.minLeaf)
		for i := range b.weight {
			b.weight[i] = 1
		}
		b.grown(rand.New(rand.NewPCG(1, 1)))
		tr := b.t
		if !slices.Equal(tr.feature, tc.feature) || !slices.Equal(tr.threshold, tc.threshold) || !slices.Equal(tr.value, tc.value) {
			t.Errorf("%s: features %v thresholds %v values %v;\nwant %v %v %v", tc.name,
				tr.feature, tr.threshold, tr.value, tc.feature, tc.threshold, tc.value)
		}
	}
}

// Bootstrap counts weigh in the impurity: with point 0 (class 0) drawn three times and the others
// once, over x = 0,1,2 labelled 0,1,1, the root's class-1 fraction is 2/5 and it splits at 0.5
// into pure leaves.
func TestTreeWeights(t *testing.T) {
	x := Points{D: 1, V: []float64{0, 1, 2}}
	b := newTreeBuilder(x, []uint8{0, 1, 1}, presort(x), 1, 0, 1)
	copy(b.weight, []float64{3, 1, 1})
	b.grown(rand.New(rand.NewPCG(1, 1)))
	tr := b.t
	if !slices.Equal(tr.threshold, []float64{0.5, 0, 0}) || !slices.Equal(tr.value, []float64{0.4, 0, 1}) {
		t.Errorf("thresholds %v values %v, want [0.5 0 0] [0.4 0 1]", tr.threshold, tr.value)
	}
}

// Features constant on a node do not end the search: with three constant features and one
// informative, mtry 1 must still find the informative one at every split, as scikit-learn's
// splitter does (it draws on until it has met a non-constant feature).
func TestForestSkipsConstantFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	n := 300
	x := Points{D: 4, V: make([]float64, 4*n)}
	y := make([]uint8, n)
	for i := range n {
		v := rng.Float64()
		x.V[4*i], x.V[4*i+1], x.V[4*i+2], x.V[4*i+3] = 7, v, -1, 3
		if v > 0.3 {
			y[i] = 1
		}
	}
	m, err := RandomForest{Trees: 10, MaxFeatures: "1"}.Fit(x, y, 1)
	if err != nil {
		t.Fatal(err)
	}
	f := m.(*forestModel)
	for k := range f.trees() {
		if nodes := f.tree(k); nodes[0].feature != 1 || len(nodes) != 3 {
			t.Errorf("tree %d: root on feature %d with %d nodes, want feature 1 and one split", k, nodes[0].feature, len(nodes))
		}
	}
}

// Visits of constant features count towards mtry, as in scikit-learn: with feature 0 constant,
// feature 1 deciding the label and feature 2 noise, and mtry 2, a root whose first two draws are
// {0, 2} (2 orders of the 6) scans feature 2 alone and must split on it. Drawing on until two
// non-constant features were scanned would always find feature 1.
func TestForestConstantVisitsCount(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	n := 200
	x := Points{D: 3, V: make([]float64, 3*n)}
	y := make([]uint8, n)
	for i := range n {
		v := rng.Float64()
		x.V[3*i], x.V[3*i+1], x.V[3*i+2] = 1, v, rng.Float64()
		if v > 0.5 {
			y[i] = 1
		}
	}
	m, err := RandomForest{Trees: 60, MaxFeatures: "2"}.Fit(x, y, 1)
	if err != nil {
		t.Fatal(err)
	}
	roots := [3]int{}
	f := m.(*forestModel)
	for k := range f.trees() {
		roots[f.tree(k)[0].feature]++
	}
	// Binomial(60, 1/3): mean 20, and fewer than 8 has probability below 1e-3.
	if roots[0] != 0 || roots[2] < 8 || roots[2] > 35 {
		t.Errorf("roots split on features %v (counts of 0, 1, 2); want none on 0 and about a third on 2", roots)
	}
}

func TestMaxFeatures(t *testing.T) {
	tests := []struct {
		spec string
		d    int
		want int
	}{
		{"sqrt", 1, 1}, {"sqrt", 2, 1}, {"sqrt", 4, 2}, {"sqrt", 10, 3}, {"", 16, 4},
		{"log2", 2, 1}, {"log2", 8, 3}, {"log2", 1, 1},
		{"all", 5, 5}, {"3", 5, 3}, {"9", 5, 5},
	}
	for _, tc := range tests {
		got, err := RandomForest{MaxFeatures: tc.spec}.features(tc.d)
		if err != nil || got != tc.want {
			t.Errorf("max_features %q with %d features: %d, %v; want %d", tc.spec, tc.d, got, err, tc.want)
		}
	}
}

func BenchmarkForestFit(b *testing.B) {
	x, y := circleData(rand.New(rand.NewPCG(1, 1)), 1000)
	b.Logf("GOMAXPROCS %d", runtime.GOMAXPROCS(0))
	for b.Loop() {
		if _, err := (RandomForest{Trees: 100}).Fit(x, y, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkForestPredict(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, y := circleData(rng, 1000)
	tx, _ := circleData(rng, 1100)
	m, err := RandomForest{Trees: 100}.Fit(x, y, 1)
	if err != nil {
		b.Fatal(err)
	}
	out := make([]uint8, tx.Len())
	for b.Loop() {
		m.Predict(tx, out)
	}
}
