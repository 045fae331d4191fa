package sim

import (
	"math"
	"slices"
	"sync"
)

// The forest's vote over a batch, compiled for speed and exactly the plain vote's answer.
//
// The plain vote walks each point down each tree: a few dependent loads and a branch per level
// that the CPU mispredicts about half the time. Here each feature's thresholds over the whole
// forest are sorted once per model (the cuts), and a point's value x becomes its rank
// r = #{cuts c : c < x} (NaN ranks after every cut, as it goes right at every node). Since
// x <= c exactly when r <= rank of c, every comparison of the tree is a comparison of ranks, and
// a tree with s_f distinct thresholds on feature f has at most prod (s_f + 1) distinct answers: a
// small table, indexed by the point's rank per feature mapped to the tree's own (local) rank.
// A tree then costs a point one load per used feature, one table load and one addition, with no
// branch, and trees are taken one at a time over the whole batch (tree-major), so one tree's maps
// stay in the first-level cache.
//
// The sum of each point runs over the trees in their order, as the plain vote's, and the early
// stop is the plain vote's, tree for tree, so the answer is bit for bit the same (tested against
// the plain vote kept in forest_test.go). A tree whose table would be too large (many features,
// many thresholds) keeps its nodes and is walked the plain way, still tree-major.

// maxVoteTable bounds a tree's table (cells), and tableCellsPerNode bounds it by the tree's size:
// a table is at most 8 times the tree's own nodes. A noisy tree of 600 nodes has a table of the
// whole 16384 cells, 128 kB against its 10 kB of nodes; walked instead, it costs a forest of such
// trees about half as much time again to predict (covcon-d with data.noise=0.3: 113 MB held while
// computing instead of 1.15 GB), and a clean tree (covcon-d: 3 cells a node) keeps its table.
const (
	maxVoteTable      = 1 << 14
	tableCellsPerNode = 16
)

// votePlan is a forest compiled for prediction.
type votePlan struct {
	features []int32     // the features any tree splits on, ascending
	cuts     [][]float64 // cuts[k]: distinct thresholds on features[k], ascending
	index    []rankIndex // index[k]: a quick way into cuts[k]
	trees    []voteTree
	half     float64 // trees / 2
	slack    float64 // the early stop's rounding margin (see Predict)
	quiet    int     // trees 0..quiet-1 decide no point: the early stop need not look
	mapCells int     // the length of the array every tree's maps are part of
	regions  *voteRegions
}

// voteTree is one tree: a table over its local ranks, or its nodes when the table is too large.
type voteTree struct {
	use    []int32    // indexes into votePlan.features of the features it splits on
	maps   [][]uint16 // maps[u][r]: local rank of global rank r on feature use[u], times its stride
	table  []float64  // the leaf's class-1 fraction per cell of local ranks
	stride []int32    // stride[u]: the table's step for one local rank of feature use[u]
	nodes  []node     // the tree itself when table is nil
}

// compileVote compiles a forest, or returns nil when its ranks would not fit the plan's 16 bits.
func compileVote(f *forestModel) *votePlan {
	n := f.trees()
	p := &votePlan{half: float64(n) / 2, slack: float64(n) * float64(n) * 0x1p-50}
	maxF := int32(-1)
	for _, nd := range f.nodes {
		maxF = max(maxF, nd.feature)
	}
	dense := make([]int32, maxF+1) // feature -> index in p.features, or -1
	for i := range dense {
		dense[i] = -1
	}
	for _, nd := range f.nodes {
		if nd.feature >= 0 && dense[nd.feature] < 0 {
			dense[nd.feature] = 0
		}
	}
	for f := range dense {
		if dense[f] == 0 {
			dense[f] = int32(len(p.features))
			p.features = append(p.features, int32(f))
		}
	}
	p.cuts = make([][]float64, len(p.features))
	for _, nd := range f.nodes {
		if nd.feature >= 0 {
			k := dense[nd.feature]
			p.cuts[k] = append(p.cuts[k], nd.threshold)
		}
	}
	for k := range p.cuts {
		slices.Sort(p.cuts[k])
		p.cuts[k] = slices.Compact(p.cuts[k]) // -0 and +0 compare equal to every x alike
		if len(p.cuts[k]) > 1<<16-1 {
			return nil
		}
		p.index = append(p.index, newRankIndex(p.cuts[k]))
	}
	for p.quiet < n && float64(p.quiet+1) <= p.half && float64(n-p.quiet-1)+p.slack > p.half {
		p.quiet++
	}
	p.trees = make([]voteTree, n)
	b := &voteBuilder{p: p, dense: dense, slot: make([]int32, len(p.features))}
	// Every tree's maps in one array, sized beforehand: a tree's maps take the ranks of each feature
	// it splits on (a tree whose table is too large takes none, and leaves its share unused).
	seen := make([]int, len(p.features)) // the tree that last counted each feature, plus one
	total := 0
	for i := range n {
		for _, nd := range f.tree(i) {
			if nd.feature >= 0 {
				if k := dense[nd.feature]; seen[k] != i+1 {
					seen[k] = i + 1
					total += len(p.cuts[k]) + 1
				}
			}
		}
	}
	b.slab = make([]uint16, total)
	p.mapCells = total
	for i := range n {
		p.trees[i] = b.tree(f.tree(i))
	}
	p.regions = newVoteRegions(p)
	return p
}

// voteBuilder holds the buffers of compiling one forest's trees.
type voteBuilder struct {
	p      *votePlan
	dense  []int32
	slot   []int32   // dense feature index -> u, or -1
	local  [][]int32 // local[u]: global ranks of the tree's distinct thresholds on feature use[u]
	rank   []int32   // per node: the local rank of its threshold (its index in local[u])
	lo, hi []int32   // the box of local ranks of the node being filled
	stride []int32   // the tree's strides
	slab   []uint16  // the maps of the trees, allocated at once (what is left of it)
}

func (b *voteBuilder) tree(nodes []node) voteTree {
	p := b.p
	for i := range b.slot {
		b.slot[i] = -1
	}
	var t voteTree
	b.rank = slices.Grow(b.rank[:0], len(nodes))[:len(nodes)]
	for j, nd := range nodes {
		if nd.feature < 0 {
			continue
		}
		k := b.dense[nd.feature]
		u := b.slot[k]
		if u < 0 {
			u = int32(len(t.use))
			b.slot[k] = u
			t.use = append(t.use, k)
			if len(b.local) <= int(u) {
				b.local = append(b.local, nil)
			}
			b.local[u] = b.local[u][:0]
		}
		g, _ := slices.BinarySearch(p.cuts[k], nd.threshold)
		b.rank[j] = int32(g) // the global rank for now
		b.local[u] = append(b.local[u], int32(g))
	}
	size, most := 1, min(maxVoteTable, tableCellsPerNode*len(nodes))
	for u := range t.use {
		slices.Sort(b.local[u])
		b.local[u] = slices.Compact(b.local[u])
		size *= len(b.local[u]) + 1
		if size > most {
			break
		}
	}
	if size > most {
		return voteTree{nodes: nodes}
	}
	for j, nd := range nodes {
		if nd.feature >= 0 {
			loc := b.local[b.slot[b.dense[nd.feature]]]
			l, _ := slices.BinarySearch(loc, b.rank[j])
			b.rank[j] = int32(l)
		}
	}
	t.stride = make([]int32, len(t.use))
	b.stride = t.stride
	s := int32(1)
	for u := len(t.use) - 1; u >= 0; u-- {
		b.stride[u] = s
		s *= int32(len(b.local[u]) + 1)
	}
	t.maps = make([][]uint16, len(t.use))
	for u, k := range t.use {
		m := b.alloc(len(p.cuts[k]) + 1)
		loc, stride := b.local[u], b.stride[u]
		// Global ranks r in (loc[l-1], loc[l]] have local rank l.
		r := 0
		for l, g := range loc {
			for ; r <= int(g); r++ {
				m[r] = uint16(int32(l) * stride)
			}
		}
		for ; r < len(m); r++ {
			m[r] = uint16(int32(len(loc)) * stride)
		}
		t.maps[u] = m
	}
	t.table = make([]float64, size)
	b.lo = append(b.lo[:0], make([]int32, len(t.use))...)
	b.hi = b.hi[:0]
	for u := range t.use {
		b.hi = append(b.hi, int32(len(b.local[u])))
	}
	b.fill(&t, nodes, 0)
	return t
}

// alloc returns n uint16s from the slab.
func (b *voteBuilder) alloc(n int) []uint16 {
	m := b.slab[:n:n]
	b.slab = b.slab[n:]
	return m
}

// fill writes the leaf id of every cell of the box (lo, hi) under node j.
func (b *voteBuilder) fill(t *voteTree, nodes []node, j int32) {
	nd := nodes[j]
	if nd.feature < 0 {
		b.fillBox(t, 0, 0, nd.threshold)
		return
	}
	u := b.slot[b.dense[nd.feature]]
	local := b.rank[j]
	// x <= threshold exactly when the local rank is <= the threshold's local rank.
	lo, hi := b.lo[u], b.hi[u]
	b.hi[u] = min(hi, local)
	if lo <= b.hi[u] {
		b.fill(t, nodes, nd.left)
	}
	b.hi[u] = hi
	b.lo[u] = max(lo, local+1)
	if b.lo[u] <= hi {
		b.fill(t, nodes, nd.left+1)
	}
	b.lo[u] = lo
}

func (b *voteBuilder) fillBox(t *voteTree, u int, off int32, v float64) {
	if u == len(t.use) {
		t.table[off] = v
		return
	}
	for r := b.lo[u]; r <= b.hi[u]; r++ {
		b.fillBox(t, u+1, off+r*b.stride[u], v)
	}
}

// voteScratch is one Predict call's working memory, pooled.
type voteScratch struct {
	ranks  [][]uint16 // per feature: the points' ranks, then the ranks of the points left to vote
	idx    []int32
	sums   []float64
	active []int32
}

var votePool = sync.Pool{New: func() any { return new(voteScratch) }}

// predict writes the forest's vote for every point of x into out.
func (p *votePlan) predict(x Points, out []uint8) {
	n, d := x.Len(), x.D
	if n == 0 {
		return
	}
	sc := votePool.Get().(*voteScratch)
	defer votePool.Put(sc)
	for len(sc.ranks) < 2*len(p.features) {
		sc.ranks = append(sc.ranks, nil)
	}
	ranks := sc.ranks[:len(p.features)]
	for k, f := range p.features {
		r := slices.Grow(ranks[k][:0], n)[:n]
		ix := &p.index[k]
		for i := range n {
			r[i] = uint16(ix.rank(x.V[i*d+int(f)]))
		}
		ranks[k] = r
	}
	clear(out[:n])
	idx := slices.Grow(sc.idx[:0], n)[:n]
	for i := range idx {
		idx[i] = int32(i)
	}
	if p.regions != nil {
		// Points in a region the forest decides take its answer; the others go on, their ranks
		// gathered so the trees' loops run over consecutive memory.
		w := 0
		g := p.regions
		var r1 []uint16
		if g.two {
			r1 = ranks[1]
		}
		for i, r := range ranks[0] {
			f1 := 0
			if g.two {
				f1 = int(g.fine[1][r1[i]])
			}
			switch g.decide(p, int(g.fine[0][r]), f1) {
			case regionClass0:
			case regionClass1:
				out[i] = 1
			default:
				idx[w] = int32(i)
				w++
			}
		}
		idx = idx[:w]
		if w < n {
			packed := sc.ranks[len(p.features):]
			for k := range ranks {
				r := slices.Grow(packed[k][:0], w)[:w]
				for j, i := range idx {
					r[j] = ranks[k][i]
				}
				packed[k] = r
			}
			ranks = packed
		}
	}
	sc.idx = idx
	p.vote(x, ranks, idx, out, sc)
}

// vote runs the trees in order over the points idx[j] of x, whose ranks are ranks[k][j], and
// writes the votes into out[idx[j]].
func (p *votePlan) vote(x Points, ranks [][]uint16, idx []int32, out []uint8, sc *voteScratch) {
	n := len(idx)
	if n == 0 {
		return
	}
	sums := slices.Grow(sc.sums[:0], n)[:n]
	clear(sums)
	active := slices.Grow(sc.active[:0], n)[:n]
	for j := range active {
		active[j] = int32(j)
	}
	total := len(p.trees)
	all := true // active holds every point in order: the loops may index directly
	for k := range p.trees {
		t := &p.trees[k]
		if all {
			p.addAll(t, x, ranks, idx, sums)
		} else {
			p.addSome(t, x, ranks, idx, sums, active)
		}
		// No point can be decided yet: its sum is at most k+1 (leaves add at most 1, and rounding
		// is monotone), and at least 0. The plain vote tests the same two conditions.
		if k < p.quiet {
			continue
		}
		rest := float64(total - k - 1)
		w := 0
		for _, j := range active {
			s := sums[j]
			if s > p.half {
				out[idx[j]] = 1
				continue
			}
			if s+rest+p.slack <= p.half {
				continue
			}
			active[w] = j
			w++
		}
		all = all && w == len(active)
		active = active[:w]
		if w == 0 {
			break
		}
	}
	sc.sums, sc.active = sums, active[:0]
}

// rankIndex finds ranks in a few steps: the span of the cuts is cut into equal buckets, and
// start[b] counts the cuts in the buckets before b. The bucket of a value is a monotone function
// of it, so the cuts of earlier buckets are below it and those of later buckets above, and its
// rank is start[b] plus the cuts of its own bucket below it: usually none or one to look at.
type rankIndex struct {
	cuts      []float64 // the cuts and +Inf after them, so a scan up from any start stops
	lo, scale float64
	start     []uint16 // len buckets+1
}

func newRankIndex(cuts []float64) rankIndex {
	ix := rankIndex{cuts: append(slices.Clip(cuts), math.Inf(1))}
	buckets := 2*len(cuts) + 1
	if len(cuts) > 0 {
		ix.lo = cuts[0]
		if span := cuts[len(cuts)-1] - cuts[0]; span > 0 {
			ix.scale = float64(buckets) / span
		}
	}
	ix.start = make([]uint16, buckets+1)
	for _, c := range cuts {
		ix.start[ix.bucket(c)+1]++
	}
	for b := 1; b < len(ix.start); b++ {
		ix.start[b] += ix.start[b-1]
	}
	return ix
}

// bucket is monotone in v (a subtraction, a multiplication and a truncation, all monotone); any
// value, infinite ones too, falls in one of the buckets.
func (ix *rankIndex) bucket(v float64) int {
	f := (v - ix.lo) * ix.scale
	switch {
	case !(f >= 0): // below the first cut, or NaN from an infinite value times a zero scale
		return 0
	case f >= float64(len(ix.start)-1):
		return len(ix.start) - 2
	}
	return int(f)
}

// rank is the number of cuts below v (len(cuts) for NaN, which goes right at every node). The cuts
// of later buckets are above v, so the scan may run past its bucket: it stops at the first cut not
// below v, at the latest at the +Inf after them. The first two steps take no branch.
func (ix *rankIndex) rank(v float64) int {
	if v != v {
		return len(ix.cuts) - 1
	}
	c := ix.cuts
	r := int(ix.start[ix.bucket(v)])
	if c[r] < v {
		r++
	}
	if c[r] < v {
		r++
	}
	for c[r] < v {
		r++
	}
	return r
}

// addAll adds tree t's leaf value to every point's sum.
func (p *votePlan) addAll(t *voteTree, x Points, ranks [][]uint16, idx []int32, sums []float64) {
	tab := t.table
	switch {
	case t.table == nil:
		for j := range sums {
			sums[j] += walk(t.nodes, x.Row(int(idx[j])))
		}
	case len(t.use) == 1:
		m0, r0 := t.maps[0], ranks[t.use[0]][:len(sums)]
		for i, r := range r0 {
			sums[i] += tab[m0[r]]
		}
	case len(t.use) == 2:
		m0, m1 := t.maps[0], t.maps[1]
		r0, r1 := ranks[t.use[0]][:len(sums)], ranks[t.use[1]][:len(sums)]
		for i := range sums {
			sums[i] += tab[int(m0[r0[i]])+int(m1[r1[i]])]
		}
	default:
		for i := range sums {
			off := 0
			for u, m := range t.maps {
				off += int(m[ranks[t.use[u]][i]])
			}
			sums[i] += tab[off]
		}
	}
}

// addSome adds tree t's leaf value to the sums of the active points.
func (p *votePlan) addSome(t *voteTree, x Points, ranks [][]uint16, idx []int32, sums []float64, active []int32) {
	tab := t.table
	switch {
	case t.table == nil:
		for _, j := range active {
			sums[j] += walk(t.nodes, x.Row(int(idx[j])))
		}
	case len(t.use) == 1:
		m0, r0 := t.maps[0], ranks[t.use[0]]
		for _, i := range active {
			sums[i] += tab[m0[r0[i]]]
		}
	case len(t.use) == 2:
		m0, m1 := t.maps[0], t.maps[1]
		r0, r1 := ranks[t.use[0]], ranks[t.use[1]]
		for _, i := range active {
			sums[i] += tab[int(m0[r0[i]])+int(m1[r1[i]])]
		}
	default:
		for _, i := range active {
			off := 0
			for u, m := range t.maps {
				off += int(m[ranks[t.use[u]][i]])
			}
			sums[i] += tab[off]
		}
	}
}

// walk is the plain descent of one tree: the class-1 fraction of the leaf row falls in.
func walk(nodes []node, row []float64) float64 {
	j := int32(0)
	for {
		nd := &nodes[j]
		if nd.feature < 0 {
			return nd.threshold
		}
		if row[nd.feature] <= nd.threshold {
			j = nd.left
		} else {
			j = nd.left + 1
		}
	}
}
