package sim

import "sync/atomic"

// Regions where a forest's vote is decided. A point's vote needs at least half the trees, however
// sure the forest is, because the early stop knows nothing of the trees it has not visited. But
// over a box of ranks, each tree's leaves have a least and a greatest value, and if the sum of the
// least values (in tree order) is above half the trees, every point of the box votes 1; if the sum
// of the greatest is at most half, every point votes 0. Both are exact: a point's sum runs over
// the same trees in the same order, each term between the two bounds, and rounded addition is
// monotone. Away from the forest's boundary most boxes are decided, and a point there costs one
// lookup instead of fifty trees.
//
// The rank space of a forest on one or two features is cut into grids of boxes, from regionGrids[0]
// boxes per feature to the last, each twice as fine as the one before. A point looks at the box it
// falls in on the coarsest grid, then, while the box is mixed, on the next; a box is decided the
// first time a point falls in it, and remembered (several goroutines may predict with the same
// model: a box's answer is the same whoever computes it, and is stored atomically). Deciding a box
// stops, like a point's vote, as soon as the rest of the trees cannot change its answer.

var regionGrids = [...]int{16, 32, 64, 128}

// regionLog[l] is log2(regionGrids[l]); regionFine is the finest grid.
var regionLog = [len(regionGrids)]int{4, 5, 6, 7}

const regionFine = 128

const (
	regionUnknown = iota
	regionClass0
	regionClass1
	regionMixed
)

type voteRegions struct {
	n    [2]int     // ranks per feature (cuts + 1); 1 for a missing second feature
	two  bool       // a forest on two features: boxes are squares of the grid, else intervals
	fine [2][]uint8 // fine[k][r]: the box of rank r of feature k on the finest grid
	// state[l] holds the boxes of grid l, 2 bits each, 16 to a word: 5.4 kB a forest on two
	// features rather than the 87 kB of a word a box (a box only ever goes from unknown to its one
	// answer, so setting its bits with an atomic or is safe).
	state [len(regionGrids)][]atomic.Uint32
	trees []regionTree
}

// boxesPerWord is how many boxes' states a word of voteRegions.state holds.
const boxesPerWord = 16

// load returns the state of box at of grid l.
func (g *voteRegions) load(l, at int) uint32 {
	return g.state[l][at/boxesPerWord].Load() >> (2 * (at % boxesPerWord)) & 3
}

// store sets the state of box at of grid l (from unknown: every computation of a box gives the
// same answer).
func (g *voteRegions) store(l, at int, v uint32) {
	g.state[l][at/boxesPerWord].Or(v << (2 * (at % boxesPerWord)))
}

// regionTree is a tree's table seen through both features of the forest, in their order: a
// feature the tree does not split on has a map of zeros, so every tree takes the same steps.
type regionTree struct {
	maps  [2][]uint16
	step  [2]int32
	table []float64
}

// newVoteRegions returns the grids of a forest on one or two features whose trees all have
// tables, or nil.
func newVoteRegions(p *votePlan) *voteRegions {
	if len(p.features) == 0 || len(p.features) > 2 {
		return nil
	}
	for i := range p.trees {
		if p.trees[i].table == nil {
			return nil
		}
	}
	r := &voteRegions{n: [2]int{len(p.cuts[0]) + 1, 1}, two: len(p.features) == 2}
	if r.two {
		r.n[1] = len(p.cuts[1]) + 1
	}
	for k := range r.fine {
		r.fine[k] = make([]uint8, r.n[k]) // a missing second feature: one rank, in box 0
		for rank := range r.fine[k] {
			r.fine[k][rank] = uint8(rank * regionFine / r.n[k])
		}
	}
	for l, g := range regionGrids {
		if r.two {
			g *= g
		}
		r.state[l] = make([]atomic.Uint32, (g+boxesPerWord-1)/boxesPerWord)
	}
	zeros := [2][]uint16{make([]uint16, r.n[0]), make([]uint16, r.n[1])}
	r.trees = make([]regionTree, len(p.trees))
	for i := range p.trees {
		t := &p.trees[i]
		rt := regionTree{maps: zeros, step: [2]int32{1, 1}, table: t.table}
		for u, k := range t.use {
			rt.maps[k], rt.step[k] = t.maps[u], t.stride[u]
		}
		r.trees[i] = rt
	}
	return r
}

// span returns the first and last rank of box b of a grid of g boxes over n ranks: the ranks r
// with r*g/n == b.
func span(b, n, g int) (lo, hi int) {
	return (b*n + g - 1) / g, ((b+1)*n+g-1)/g - 1
}

// decide returns the state of the finest box a point in fine box (f0, f1) of the finest grid falls
// in that is decided (regionClass0 or regionClass1), or regionMixed when even the finest is not.
// The grids are powers of two: floor(floor(r*F/n) / (F/g)) = floor(r*g/n), so the box on grid g
// is the fine box shifted right.
func (g *voteRegions) decide(p *votePlan, f0, f1 int) uint32 {
	for l, lg := range regionLog {
		sh := regionLog[len(regionLog)-1] - lg
		b0, b1 := f0>>sh, f1>>sh
		at := b0
		if g.two {
			at = b0<<lg | b1
		}
		v := g.load(l, at)
		if v == regionUnknown {
			grid := regionGrids[l]
			var lo, hi [2]int
			lo[0], hi[0] = span(b0, g.n[0], grid)
			lo[1], hi[1] = span(b1, g.n[1], grid) // 0, 0 for a forest on one feature (n 1)
			v = g.boxVote(p, lo, hi)
			g.store(l, at, v)
		}
		if v != regionMixed {
			return v
		}
	}
	return regionMixed
}

// boxVote decides the box of ranks lo[k]..hi[k] of each feature k: regionClass1 when the sum of
// the trees' least leaf values in it is above half the trees, regionClass0 when the sum of their
// greatest is at most half, regionMixed otherwise. Like a point's vote it stops when the trees
// left cannot change the answer (they add between 0 and 1 to either sum; see Predict).
func (g *voteRegions) boxVote(p *votePlan, lo, hi [2]int) uint32 {
	low, high := 0.0, 0.0
	total := len(g.trees)
	for k := range g.trees {
		mn, mx := g.trees[k].leafRange(lo, hi)
		low += mn
		high += mx
		rest := float64(total - k - 1)
		switch {
		case low > p.half:
			return regionClass1
		case high+rest+p.slack <= p.half:
			return regionClass0
		case high > p.half && low+rest+p.slack <= p.half:
			return regionMixed
		}
	}
	return regionMixed
}

// leafRange is the least and greatest leaf value of the tree over the ranks lo[k]..hi[k] of each
// feature k.
func (t *regionTree) leafRange(lo, hi [2]int) (float64, float64) {
	m0, m1 := t.maps[0], t.maps[1]
	a0, z0, a1, z1 := int32(m0[lo[0]]), int32(m0[hi[0]]), int32(m1[lo[1]]), int32(m1[hi[1]])
	tab := t.table
	if z0-a0 <= t.step[0] && z1-a1 <= t.step[1] {
		// At most two cells each way, the usual case: the corners are every cell (some twice).
		c00, c01, c10, c11 := tab[a0+a1], tab[a0+z1], tab[z0+a1], tab[z0+z1]
		return min(c00, c01, c10, c11), max(c00, c01, c10, c11)
	}
	mn := tab[a0+a1]
	mx := mn
	for o0 := a0; o0 <= z0; o0 += t.step[0] {
		for o1 := a1; o1 <= z1; o1 += t.step[1] {
			v := tab[o0+o1]
			mn, mx = min(mn, v), max(mx, v)
		}
	}
	return mn, mx
}
