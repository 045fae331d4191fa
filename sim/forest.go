package sim

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"golang.org/x/sync/errgroup"
)

// RandomForest is a random forest of CART trees after scikit-learn's RandomForestClassifier
// defaults: each tree grown on a bootstrap sample, splits chosen by Gini impurity among
// max(1, floor(sqrt(d))) features drawn at random per node, trees fully grown unless MaxDepth or
// MinLeaf stop them. It predicts class 1 where the mean over trees of the leaves' class-1
// fractions is above one half (predict_proba's argmax).
type RandomForest struct {
	Trees       int    // number of trees (100)
	MaxDepth    int    // 0: unlimited
	MinLeaf     int    // minimum samples per leaf (1)
	MaxFeatures string // "sqrt" (default), "log2", "all", or a whole number
	Workers     int    // trees fitted at once; 0 means GOMAXPROCS (the forest is the same for any value)
}

// Name implements Trainer.
func (f RandomForest) Name() string { return "random_forest" }

// WithDefaults fills zero fields with scikit-learn's defaults.
func (f RandomForest) WithDefaults() RandomForest {
	if f.Trees == 0 {
		f.Trees = 100
	}
	if f.MinLeaf == 0 {
		f.MinLeaf = 1
	}
	if f.MaxFeatures == "" {
		f.MaxFeatures = "sqrt"
	}
	return f
}

// Validate reports a configuration error in the words of a scenario file.
func (f RandomForest) Validate() error {
	switch {
	case f.Trees < 1:
		return fmt.Errorf("random_forest.trees must be >= 1, got %d", f.Trees)
	case f.MaxDepth < 0:
		return fmt.Errorf("random_forest.max_depth must be >= 0 (0: unlimited), got %d", f.MaxDepth)
	case f.MinLeaf < 1:
		return fmt.Errorf("random_forest.min_leaf must be >= 1, got %d", f.MinLeaf)
	}
	_, err := f.features(1)
	return err
}

// features is the number of features tried per split for d features.
func (f RandomForest) features(d int) (int, error) {
	switch f.MaxFeatures {
	case "", "sqrt":
		return max(1, int(math.Sqrt(float64(d)))), nil
	case "log2":
		return max(1, int(math.Log2(float64(d)))), nil
	case "all":
		return d, nil
	}
	n, err := strconv.Atoi(f.MaxFeatures)
	if err != nil || n < 1 {
		return 0, fmt.Errorf(`random_forest.max_features must be "sqrt", "log2", "all" or a whole number >= 1, got %q`, f.MaxFeatures)
	}
	return min(n, d), nil
}

// Fit implements Trainer. Tree i draws from NewRand(seed, i), so the forest is bit-identical for any
// number of workers.
func (f RandomForest) Fit(x Points, y []uint8, seed uint64) (Model, error) {
	f = f.WithDefaults()
	if m, done, err := prepare("random forest", f.Validate, x, y); done {
		return m, err
	}
	mtry, _ := f.features(x.D)
	trees := make([][]node, f.Trees)
	workers := f.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	base := presort(x)
	// One builder (its buffers) per worker; tree i draws from its own stream, so which worker
	// builds it does not matter.
	builders := make(chan *treeBuilder, workers)
	var g errgroup.Group
	g.SetLimit(workers)
	for i := range trees {
		g.Go(func() error {
			var b *treeBuilder
			select {
			case b = <-builders:
			default:
				b = newTreeBuilder(x, y, base, mtry, f.MaxDepth, f.MinLeaf)
			}
			trees[i] = b.build(NewRand(seed, uint64(i)))
			builders <- b
			return nil
		})
	}
	_ = g.Wait() // building a tree cannot fail
	return flatForest(trees), nil
}

// flatForest lays trees out one after another in one array.
func flatForest(trees [][]node) *forestModel {
	n := 0
	for _, t := range trees {
		n += len(t)
	}
	f := &forestModel{nodes: make([]node, 0, n), start: make([]int32, 0, len(trees)+1)}
	for _, t := range trees {
		f.start = append(f.start, int32(len(f.nodes)))
		f.nodes = append(f.nodes, t...)
	}
	f.start = append(f.start, int32(len(f.nodes)))
	return f
}

// tree is a fitted CART tree in flat arrays: node i splits on feature[i] at threshold[i] (left when
// x <= threshold, children at left[i] and left[i]+1), or is a leaf (feature -1) whose value is the
// fraction of class 1 among its training samples.
type tree struct {
	feature   []int32
	threshold []float64
	left      []int32
	value     []float64
}

// node is a tree node packed for prediction: one 16-byte record per visit. A leaf has feature -1
// and its class-1 fraction in threshold.
type node struct {
	threshold float64
	feature   int32
	left      int32
}

// A forest keeps its trees in one array, tree after tree, and where each starts: one allocation
// rather than one a tree, and 4 bytes a tree rather than a 24-byte slice header and the
// allocator's rounding (measured on covcon-d's forests: 1023 bytes a tree on the heap before,
// see BenchmarkForestBytes for now). A node stays 16 bytes: its threshold and a leaf's fraction
// must be the float64 they were computed as for the vote to be the same bit for bit, and the
// feature and child indexes in 4 bytes each keep it aligned (narrower, a node would still take 16).
type forestModel struct {
	nodes []node  // every tree's nodes, tree after tree (a tree's children index into its own part)
	start []int32 // tree i is nodes[start[i]:start[i+1]]

	compile sync.Once
	plan    *votePlan // the trees compiled for prediction (forest_vote.go); nil when they cannot be
}

// trees is the number of trees.
func (f *forestModel) trees() int { return len(f.start) - 1 }

// tree is tree i's nodes.
func (f *forestModel) tree(i int) []node {
	a, b := f.start[i], f.start[i+1]
	return f.nodes[a:b:b]
}

func pack(t tree) []node {
	out := make([]node, len(t.feature))
	for i := range out {
		out[i] = node{threshold: t.threshold[i], feature: t.feature[i], left: t.left[i]}
		if t.feature[i] < 0 {
			out[i].threshold = t.value[i]
		}
	}
	return out
}

// Predict implements Model: the mean over trees of the leaves' class-1 fraction, class 1 when it
// is above one half, as scikit-learn's predict (the argmax of the mean probability; a tie goes to
// class 0). It compares the sum of the fractions with half the number of trees (exact in floating
// point), which spares a division.
//
// Each point stops visiting trees once its vote is decided, and this is exact too, the same answer
// as summing every tree, because:
//   - a leaf adds a fraction >= 0, and rounding is monotone, so once the running sum is above
//     half it stays above;
//   - the m trees left add at most 1 each; in floating point the running sum then ends at most at
//     sum + m plus the rounding of m additions, each at most half an ulp of a number <= the
//     number of trees T, so below sum + m + T*T*2^-53. Stopping at class 0 requires
//     sum + m + slack <= half with slack = T*T*2^-50, which covers that rounding and the
//     test's own with room to spare. Near a tie it merely visits every tree.
//
// It runs the compiled vote of forest_vote.go, which gives the same answers faster; the plain
// vote below serves the forests it cannot compile and points with fewer features than the trees.
func (f *forestModel) Predict(x Points, out []uint8) {
	f.compile.Do(func() { f.plan = compileVote(f) })
	if f.plan != nil && (len(f.plan.features) == 0 || int(f.plan.features[len(f.plan.features)-1]) < x.D) {
		f.plan.predict(x, out)
		return
	}
	f.plainVote(x, out)
}

// plainVote walks each point down the trees in order until its vote is decided.
func (f *forestModel) plainVote(x Points, out []uint8) {
	n, d := x.Len(), x.D
	total := f.trees()
	half := float64(total) / 2
	slack := float64(total) * float64(total) * 0x1p-50
	for i := 0; i < n; i++ {
		row := x.V[i*d : (i+1)*d : (i+1)*d]
		sum := 0.0
		out[i] = 0
		for k := range total {
			nodes := f.tree(k)
			j := int32(0)
			for {
				nd := &nodes[j]
				if nd.feature < 0 {
					sum += nd.threshold
					break
				}
				if row[nd.feature] <= nd.threshold {
					j = nd.left
				} else {
					j = nd.left + 1
				}
			}
			if sum > half {
				out[i] = 1
				break
			}
			if sum+float64(total-k-1)+slack <= half {
				break
			}
		}
	}
}

// treeBuilder holds one worker's buffers, reused across the trees it builds.
type treeBuilder struct {
	x                 Points
	y                 []uint8
	mtry              int
	maxDepth, minLeaf int
	weight            []float64   // bootstrap counts
	byClass           []float64   // byClass[2i+c]: the count of sample i in class c (the other is 0)
	drawn             []uint8     // 1 when the sample is in the bootstrap
	base              [][]int32   // base[f]: all sample indices ordered by feature f
	cols              [][]float64 // cols[f][i]: feature f of sample i
	sorted            [][]int32   // sorted[f]: the tree's sample indices ordered by feature f, per node range
	goLeft            []uint8     // 1 when the sample goes left at the node being split
	scratch, right    []int32
	order             []int
	t                 tree
}

// presort returns, for each feature, the indices of all points ordered by that feature's value
// (equal values by index). It is done once per forest and shared, read-only, by the workers; each
// tree keeps the order of its bootstrap sample by filtering these lists.
func presort(x Points) [][]int32 {
	n := x.Len()
	base := make([][]int32, x.D)
	type entry struct {
		v float64
		i int32
	}
	e := make([]entry, n)
	for f := range base {
		for i := range e {
			e[i] = entry{x.V[i*x.D+f], int32(i)}
		}
		// Equal values by index: the order of a stable sort, from a faster unstable one.
		slices.SortFunc(e, func(a, c entry) int {
			switch {
			case a.v < c.v:
				return -1
			case a.v > c.v:
				return 1
			}
			return int(a.i - c.i)
		})
		idx := make([]int32, n)
		for k := range e {
			idx[k] = e[k].i
		}
		base[f] = idx
	}
	return base
}

func newTreeBuilder(x Points, y []uint8, base [][]int32, mtry, maxDepth, minLeaf int) *treeBuilder {
	n := x.Len()
	b := &treeBuilder{x: x, y: y, base: base, mtry: mtry, maxDepth: maxDepth, minLeaf: minLeaf,
		weight: make([]float64, n), byClass: make([]float64, 2*n), drawn: make([]uint8, n), goLeft: make([]uint8, n), scratch: make([]int32, n+1), right: make([]int32, n+1),
		order: make([]int, x.D)}
	b.sorted = make([][]int32, x.D)
	b.cols = make([][]float64, x.D)
	for f := range b.sorted {
		b.sorted[f] = make([]int32, 0, n+1)
		b.cols[f] = make([]float64, n)
		for i := range n {
			b.cols[f][i] = x.V[i*x.D+f]
		}
	}
	return b
}

// build grows one tree on a bootstrap sample (n draws with replacement from the n points) and
// returns it packed.
func (b *treeBuilder) build(rng interface{ IntN(int) int }) []node {
	n := b.x.Len()
	clear(b.weight)
	for range n {
		b.weight[rng.IntN(n)]++
	}
	b.grown(rng)
	return pack(b.t)
}

// grown grows a tree into b.t over the samples of weight > 0 in b.weight (a bootstrap's counts),
// as scikit-learn does: a sample drawn twice counts twice in the impurities but once in MinLeaf.
func (b *treeBuilder) grown(rng interface{ IntN(int) int }) {
	clear(b.byClass)
	for i, w := range b.weight {
		b.byClass[2*i+int(b.y[i])] = w
		var drawn uint8
		if w > 0 {
			drawn = 1
		}
		b.drawn[i] = drawn
	}
	for f := range b.sorted {
		// Keep the drawn samples in order, with no branch on which were drawn (a third are not).
		s := b.sorted[f][:len(b.base[f])+1]
		k := 0
		for _, i := range b.base[f] {
			s[k] = i
			k += int(b.drawn[i])
		}
		b.sorted[f] = s[:k]
	}
	var w0, w1 float64
	for _, i := range b.sorted[0] {
		w0 += b.byClass[2*i]
		w1 += b.byClass[2*i+1]
	}
	b.t = tree{feature: b.t.feature[:0], threshold: b.t.threshold[:0], left: b.t.left[:0], value: b.t.value[:0]}
	b.grow(rng, 0, len(b.sorted[0]), 0, b.newNode(), w0, w1)
}

func (b *treeBuilder) newNode() int32 {
	b.t.feature = append(b.t.feature, -1)
	b.t.threshold = append(b.t.threshold, 0)
	b.t.left = append(b.t.left, 0)
	b.t.value = append(b.t.value, 0)
	return int32(len(b.t.feature) - 1)
}

// grow splits node over the samples sorted[f][lo:hi], whose class weights are w0 and w1. Weights
// are whole numbers (bootstrap counts), so their sums are exact in any order: a child's weights
// are its parent's split sums.
func (b *treeBuilder) grow(rng interface{ IntN(int) int }, lo, hi, depth int, node int32, w0, w1 float64) {
	b.t.value[node] = w1 / (w0 + w1)
	count := hi - lo
	if w0 == 0 || w1 == 0 || (b.maxDepth > 0 && depth >= b.maxDepth) || count < 2*b.minLeaf {
		return
	}
	feature, threshold, l0, l1, ok := b.bestSplit(rng, lo, hi, w0, w1)
	if !ok {
		return
	}
	// Mark the side of each sample, then partition every feature's list stably, writing each
	// sample to both sides' next slots and moving on only on its own (no branch on the side).
	nLeft := 0
	col := b.cols[feature]
	for _, i := range b.sorted[feature][lo:hi] {
		var left uint8
		if col[i] <= threshold {
			left = 1
		}
		b.goLeft[i] = left
		nLeft += int(left)
	}
	for f := range b.sorted {
		if f == feature {
			continue // sorted by the split's feature, its left side is already the first nLeft
		}
		s := b.sorted[f][lo:hi]
		l, r := 0, 0
		for _, i := range s {
			left := int(b.goLeft[i])
			b.scratch[l] = i
			b.right[r] = i
			l += left
			r += 1 - left
		}
		copy(s, b.scratch[:nLeft])
		copy(s[nLeft:], b.right[:count-nLeft])
	}
	b.t.feature[node] = int32(feature)
	b.t.threshold[node] = threshold
	left := b.newNode()
	b.newNode()
	b.t.left[node] = left
	b.grow(rng, lo, lo+nLeft, depth+1, left, l0, l1)
	b.grow(rng, lo+nLeft, hi, depth+1, left+1, w0-l0, w1-l1)
}

// bestSplit draws features at random without replacement, as scikit-learn's splitter does: it
// visits at least mtry of them, and goes on past mtry only while every feature visited so far was
// constant on the node (visits of constant features count towards mtry). It returns the split
// with the least weighted Gini impurity of the children, the first found among equals; the
// threshold is the midpoint of two neighbouring values. Unlike scikit-learn, values are equal only
// when they are equal (it treats values within 1e-7 as equal).
//
// It also returns the class weights of the left side of the split.
func (b *treeBuilder) bestSplit(rng interface{ IntN(int) int }, lo, hi int, w0, w1 float64) (int, float64, float64, float64, bool) {
	d := b.x.D
	for i := range b.order {
		b.order[i] = i
	}
	best, bestF, bestT := math.Inf(-1), -1, 0.0
	var bestL0, bestL1 float64
	nonConstant := 0
	for k := 0; k < d && (k < b.mtry || nonConstant == 0); k++ {
		j := k + rng.IntN(d-k)
		b.order[k], b.order[j] = b.order[j], b.order[k]
		f := b.order[k]
		s := b.sorted[f][lo:hi]
		col := b.cols[f]
		first, last := col[s[0]], col[s[len(s)-1]]
		if first == last {
			continue
		}
		nonConstant++
		var l0, l1 float64
		total := w0 + w1
		byClass, n := b.byClass, len(s)
		// A split after position p leaves p+1 samples on the left: at least minLeaf on each side
		// means p in [minLeaf-1, n-minLeaf-1]. Before that the sums only accumulate; after it
		// nothing is needed.
		from, to := b.minLeaf-1, min(n-2, n-b.minLeaf-1)
		for _, i := range s[:max(from, 0)] {
			l0 += byClass[2*i] // adding 0 to the other class is exact: no branch on the label
			l1 += byClass[2*i+1]
		}
		if from > to {
			continue
		}
		v := col[s[from]]
		for p := from; p <= to; p++ {
			i := s[p]
			l0 += byClass[2*i]
			l1 += byClass[2*i+1]
			next := col[s[p+1]]
			if v != next {
				nl := l0 + l1 // whole numbers: exact
				r0, r1, nr := w0-l0, w1-l1, total-nl
				// Maximising sum over children of (c0^2 + c1^2)/n minimises the weighted Gini.
				score := (l0*l0+l1*l1)/nl + (r0*r0+r1*r1)/nr
				if score > best {
					best, bestF, bestT = score, f, v/2+next/2
					bestL0, bestL1 = l0, l1
					if bestT == next { // the midpoint rounded up to the right value
						bestT = v
					}
				}
			}
			v = next
		}
	}
	return bestF, bestT, bestL0, bestL1, bestF >= 0
}
