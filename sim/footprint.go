package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"unsafe"
)

// What a run holds in memory, estimated before it starts, so that a server can admit it against
// its budget, queue it, or refuse it saying what would fit.

// Footprint is a run's memory: what it holds at its most while computing, and what it keeps once
// finished.
type Footprint struct {
	// Peak is the most the run holds while it computes: its batches and kernel sums, every model
	// (a forest with its compiled vote: in column order each model serves every later column), the
	// engine's matrix, and the columns it has recorded (Held).
	Peak int64
	// Held is what a finished run keeps: its matrix's cells with their error bits, as recorded.
	Held int64
	// Trees is the forest's number of trees (0 for models that are not forests).
	Trees int
	// Data is what the run's batches hold (data and queries), Model what one of its models holds at
	// its most (a forest with its compiled vote), and Kept what one holds without its compiled vote:
	// a what-if generates the batches again, fits the models again a few at a time, and keeps them.
	Data, Model, Kept int64

	fixed  int64       // Peak less the models
	models float64     // models held at once
	forest *forestCost // nil for models that are not forests
}

// TreesWithin is the most trees with which the run's peak stays within bytes (0 when even one
// tree does not fit, or the model is not a forest).
func (f Footprint) TreesWithin(bytes int64) int {
	if f.forest == nil {
		return 0
	}
	lo, hi := 0, 1
	for f.peakWith(hi) <= bytes && hi < 1<<24 {
		lo, hi = hi, 2*hi
	}
	for hi-lo > 1 { // peakWith(lo) fits, peakWith(hi) does not
		mid := (lo + hi) / 2
		if f.peakWith(mid) <= bytes {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// peakWith is the peak with a forest of trees trees.
func (f Footprint) peakWith(trees int) int64 {
	return f.fixed + int64(math.Ceil(f.models*f.forest.bytes(trees)*estimateMargin))
}

// forestCost prices a forest by its number of trees, from probes: each tree's nodes and table, and
// its maps, one rank a distinct threshold of each feature it splits on over the whole forest. A
// forest of more trees has more distinct thresholds, but no more than one between each two
// neighbouring values of a feature: drawn from d places about m times a tree, N trees have about
// d(1 - exp(-mN/d)) of them.
type forestCost struct {
	tree  float64 // a tree's nodes, table and bookkeeping
	nodes float64 // of tree, its nodes: what a forest without its compiled vote keeps
	feats []featCost
}

type featCost struct {
	places float64 // distinct values of the feature less one: the thresholds there can be
	splits float64 // splits on it a tree
	trees  float64 // the share of trees that split on it
}

func (c *forestCost) bytes(trees int) float64 {
	n := float64(trees)
	b := n * c.tree
	for _, f := range c.feats {
		cuts := f.places * -math.Expm1(-f.splits*n/max(f.places, 1))
		// every tree using the feature maps its ranks; the forest keeps the cuts, their index and
		// the regions' maps
		b += n*f.trees*(cuts+1)*2 + (cuts+1)*(8+8+2*2+1+2)
	}
	return b
}

// probeTrees is the number of trees a forest is probed with: enough to see a tree's size and
// the spread of thresholds, few enough to cost a few milliseconds.
const probeTrees = 8

// estimateMargin covers what the probes do not see: batches between the ones probed, whose
// trees may be larger (covcon-d's vary threefold over its batches), and the allocator's rounding.
const estimateMargin = 1.25

// Estimate returns the footprint of the run cfg describes, by probing it: a few of its batches
// generated (the first, the last and three between), and its model fitted on each with a few
// trees and compiled, their bytes counted and scaled to the whole run. It fits no more than
// 5 x probeTrees trees however large the forest, and stops when ctx ends.
func Estimate(ctx context.Context, cfg Config) (Footprint, error) {
	if cfg.Stream == nil || (cfg.Trainer == nil) == (cfg.Outside == nil) {
		return Footprint{}, errors.New("estimate: a stream and one model (a Trainer or an Outside) are required")
	}
	T := cfg.Stream.Len()
	if T < 1 {
		return Footprint{}, errors.New("estimate: no batches")
	}
	probes := slices.Compact([]int{0, T / 4, T / 2, 3 * T / 4, T - 1})
	var n, q, d int      // the largest batch probed: points, queries, features
	var batchBytes int64 // the mean batch's bytes
	var model modelProbe
	for _, t := range probes {
		if err := ctx.Err(); err != nil {
			return Footprint{}, err
		}
		b, err := cfg.Stream.Batch(t)
		if err != nil {
			return Footprint{}, fmt.Errorf("batch %d: %w", t, err)
		}
		n, q, d = max(n, b.X.Len()), max(q, b.Q.Len()), max(d, b.X.D)
		batchBytes += int64(cap(b.X.V))*8 + int64(cap(b.Y)) + int64(cap(b.Q.V))*8 + int64(cap(b.QY)) + int64(unsafe.Sizeof(*b))
		if b.X.Len() == 0 {
			continue
		}
		if cfg.Window > 1 && t > 0 { // M_t is fitted to a window of batches: probe it on them
			window := []*Batch{b}
			for w := t - 1; w >= max(0, t-cfg.Window+1); w-- {
				bw, err := cfg.Stream.Batch(w)
				if err != nil {
					return Footprint{}, fmt.Errorf("batch %d: %w", w, err)
				}
				window = append([]*Batch{bw}, window...)
			}
			x, y := trainingSet(window, len(window)-1, cfg.Window)
			b = &Batch{T: t, X: x, Y: y}
		}
		if err := model.probe(cfg.Trainer, b, cfg.Seed); err != nil {
			return Footprint{}, fmt.Errorf("batch %d: %w", t, err)
		}
	}
	batchBytes /= int64(len(probes))
	cells := int64(T) * int64(T+1) / 2
	cellBytes := int64(unsafe.Sizeof(Cell{}))
	bits := int64((n+63)/64) * 8
	// The recorded columns: each cell once more (the events a registry keeps), the error bits shared.
	held := cells * (cellBytes + bits)
	perBatch := batchBytes + int64(n)*8 + int64(q)*4 // data and queries, kernel sums, shared queries
	f := Footprint{Held: held, models: float64(T)}
	if cfg.Order == RowOrder {
		f.models = 1 // one model in memory at a time
	}
	workers := int64(max(cfg.Workers, 1))
	// A worker's buffers: a tree builder's columns and orders over the training set (a window of
	// batches copied together), predictions.
	train := int64(n) * int64(max(cfg.Window, 1))
	scratch := workers*train*(int64(d)*12+48) + train*(int64(d)*8+1)
	f.fixed = int64(T)*perBatch + cells*cellBytes + held + scratch
	f.fixed += int64(math.Ceil(f.models * model.other() * estimateMargin))
	f.Data = int64(T) * batchBytes
	f.Model = int64(math.Ceil(model.other() * estimateMargin))
	f.Kept = f.Model
	if c := model.forest(); c != nil {
		f.forest, f.Trees = c, model.trees
		f.Peak = f.peakWith(model.trees)
		f.Model += int64(math.Ceil(c.bytes(model.trees) * estimateMargin))
		f.Kept += int64(math.Ceil(c.nodes * float64(model.trees) * estimateMargin))
	} else {
		f.Peak = f.fixed
	}
	return f, nil
}

// modelProbe is what the probes measured of a model, summed over the batches probed.
type modelProbe struct {
	probes int
	trees  int        // the forest's trees (0: not a forest)
	sum    forestCost // a forest's costs, summed over the probes (feature by feature)
	others int64      // bytes of models that are not forests (or a batch's constant model)
}

// other is the mean bytes of the models that are not forests.
func (p *modelProbe) other() float64 { return float64(p.others) / float64(max(p.probes, 1)) }

// forest is the mean forest's cost, or nil when the model is not a forest.
func (p *modelProbe) forest() *forestCost {
	if p.trees == 0 {
		return nil
	}
	k := float64(p.probes)
	c := &forestCost{tree: p.sum.tree / k, nodes: p.sum.nodes / k}
	for _, f := range p.sum.feats {
		c.feats = append(c.feats, featCost{places: f.places / k, splits: f.splits / k, trees: f.trees / k})
	}
	return c
}

// probe records what the trainer's model of b holds: a forest fitted with probeTrees trees and
// compiled for asking, measured; the other models computed from their size (a kNN keeps its
// training points, a linear or centroid model a vector or two). A trainer it does not know (a
// test's wrapper), and a model from outside (nil: its answers are held once for every run, or by
// another process), count as small.
func (p *modelProbe) probe(tr Trainer, b *Batch, seed uint64) error {
	p.probes++
	n, d := int64(b.X.Len()), int64(b.X.D)
	var rf RandomForest
	switch tr := tr.(type) {
	case RandomForest:
		rf = tr.WithDefaults()
	case KNN:
		p.others += n*(d*8+1) + 64
		return nil
	case Logistic, NearestCentroid:
		p.others += 2*d*8 + 64
		return nil
	default:
		p.others += 1 << 10
		return nil
	}
	p.trees = rf.Trees
	rf.Trees, rf.Workers = min(rf.Trees, probeTrees), 1
	m, err := rf.Fit(b.X, b.Y, seed)
	if err != nil {
		return err
	}
	probe := Points{D: b.X.D, V: b.X.V[:b.X.D]}
	m.Predict(probe, make([]uint8, 1)) // compiles the vote
	kept, compiled := ModelBytes(m)
	f, ok := m.(*forestModel)
	if !ok {
		// A batch of a single class: a constant model, measured as it is.
		p.others += kept + compiled
		return nil
	}
	k := float64(f.trees())
	tree := float64(kept) / k
	if len(p.sum.feats) < b.X.D {
		p.sum.feats = append(p.sum.feats, make([]featCost, b.X.D-len(p.sum.feats))...)
	}
	if pl := f.plan; pl != nil {
		// The vote less its maps and what grows with the thresholds, per tree.
		fixed := float64(pl.mapCells) * 2
		for k := range pl.cuts {
			fixed += float64(len(pl.cuts[k])+1) * (8 + 8 + 2*2 + 1 + 2)
		}
		tree += max(float64(compiled)-fixed, 0) / k
		uses := make([]float64, b.X.D)
		for i := range pl.trees {
			for _, u := range pl.trees[i].use {
				uses[pl.features[u]]++
			}
		}
		for j := range uses {
			p.sum.feats[j].trees += uses[j] / k
		}
	}
	splits := make([]float64, b.X.D)
	for _, nd := range f.nodes {
		if nd.feature >= 0 {
			splits[nd.feature]++
		}
	}
	for j := range splits {
		p.sum.feats[j].splits += splits[j] / k
		if splits[j] > 0 {
			p.sum.feats[j].places += float64(distinct(b.X, j) - 1)
		}
	}
	p.sum.tree += tree
	p.sum.nodes += float64(kept) / k
	return nil
}

// distinct counts the distinct values of feature j in x.
func distinct(x Points, j int) int {
	v := make([]float64, x.Len())
	for i := range v {
		v[i] = x.V[i*x.D+j]
	}
	slices.Sort(v)
	return len(slices.Compact(v))
}
