package streams

// The two classic streams whose drift is a process that runs point by point, which a point
// generator and a concept timeline (expressions of t and x) cannot write: the rotating
// hyperplane of Hulten, Spencer & Domingos (2001), whose weights drift by a random walk, and the
// random RBF generator with moving centroids of Bifet et al. (2009), whose labels are those of
// the centroid that drew the point. Each walks its process once per seed, from batch 0, keeping
// the state at the start of every batch, so that any batch is then drawn alone (and in parallel)
// exactly as a walk through every point would draw it.

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/cara-sim/cara/scenarios/internal/expr"
	"github.com/cara-sim/cara/scenarios/internal/format"
	"github.com/cara-sim/cara/sim"
)

// hyperplaneSpec is data.hyperplane: a point x of d features is of class 1 when
// sum_i w_i x_i >= w_0, with w_0 = (sum_i w_i) / 2 (so that about half the points of the unit cube
// are). The weights start uniform in [0, 1); after each point each of the first drift weights
// moves by magnitude in its direction (+1 at first), which reverses with probability reversal.
type hyperplaneSpec struct {
	drift     int
	magnitude float64
	reversal  float64
}

// hyperData labels points drawn by a point generator with the rotating hyperplane.
type hyperData struct {
	seed      uint64
	T, n, d   int
	points    pointGen
	spec      hyperplaneSpec
	noise     float64
	resample  bool
	evaluator sync.Pool

	once       sync.Once
	start, dir [][]float64 // the weights and the drifting weights' directions at each batch's first point
}

func (h *hyperData) Len() int      { return h.T }
func (h *hyperData) Features() int { return h.d }

// walk goes through batch t's points from the state at its start: at(i, w) sees the weights that
// label point i, then the drifting weights move. The reversals draw from stream (seed, 7, t).
func (h *hyperData) walk(w, dir []float64, t int, at func(i int, w []float64)) {
	rng := sim.NewRand(h.seed, 7, uint64(t))
	for i := range h.n {
		if at != nil {
			at(i, w)
		}
		for k := range dir {
			w[k] += dir[k] * h.spec.magnitude
			if rng.Float64() < h.spec.reversal {
				dir[k] = -dir[k]
			}
		}
	}
}

// states walks every batch once (the first time any is asked for) to know each one's start.
func (h *hyperData) states() {
	h.once.Do(func() {
		rng := sim.NewRand(h.seed, 6)
		w, dir := make([]float64, h.d), make([]float64, h.spec.drift)
		for k := range w {
			w[k] = rng.Float64()
		}
		for k := range dir {
			dir[k] = 1
		}
		h.start, h.dir = make([][]float64, h.T), make([][]float64, h.T)
		for t := range h.T {
			h.start[t], h.dir[t] = slices.Clone(w), slices.Clone(dir)
			if t+1 < h.T {
				h.walk(w, dir, t, nil)
			}
		}
	})
}

// Weights are the hyperplane's weights at the first point of batch t.
func (h *hyperData) Weights(t int) []float64 {
	h.states()
	return slices.Clone(h.start[t])
}

func hyperplaneClass(w, x []float64) uint8 {
	sum, total := 0.0, 0.0
	for k, wk := range w {
		sum += wk * x[k]
		total += wk
	}
	if sum >= total/2 {
		return 1
	}
	return 0
}

// Data implements dataSource: points as genData draws them (stream (seed, 2, t)), each labelled
// by the weights in force at it, then noise flips a label with its probability (stream (seed, 4, t)).
func (h *hyperData) Data(t int) (sim.Points, []uint8, error) {
	h.states()
	ev := h.evaluator.Get().(*expr.Evaluator)
	defer h.evaluator.Put(ev)
	pt := t
	if !h.resample {
		pt = 0
	}
	x, err := h.points.draw(ev, pt, h.n, h.d, sim.NewRand(h.seed, 2, uint64(pt)))
	if err != nil {
		return sim.Points{}, nil, err
	}
	y := make([]uint8, x.Len())
	h.walk(slices.Clone(h.start[t]), slices.Clone(h.dir[t]), t, func(i int, w []float64) { y[i] = hyperplaneClass(w, x.Row(i)) })
	flip(y, h.noise, sim.NewRand(h.seed, 4, uint64(t)))
	return x, y, nil
}

// Label implements dataSource: the hyperplane at the start of batch t, without noise.
func (h *hyperData) Label(t int, x sim.Points) ([]uint8, bool, error) {
	w := h.Weights(t)
	y := make([]uint8, x.Len())
	for i := range y {
		y[i] = hyperplaneClass(w, x.Row(i))
	}
	return y, true, nil
}

// Drifts implements dataSource: weights that move at every point are one incremental drift over
// the whole stream; none when nothing moves.
func (h *hyperData) Drifts() []sim.Drift {
	if h.spec.drift == 0 || h.spec.magnitude == 0 || h.T < 2 {
		return []sim.Drift{}
	}
	return []sim.Drift{{From: 1, To: h.T - 1, Kind: sim.DriftIncremental}}
}

// flip flips each label with probability noise, drawing from rng in order.
func flip(y []uint8, noise float64, rng *rand.Rand) {
	if noise <= 0 {
		return
	}
	for i := range y {
		if rng.Float64() < noise {
			y[i] ^= 1
		}
	}
}

// rbfSpec is data.rbf: centroids, each with a centre uniform in the unit cube, a class (0 or 1
// with equal chance), a standard deviation and a weight, both uniform in [0, 1). A point picks a
// centroid with probability proportional to its weight and lies in a random direction from its
// centre (each coordinate uniform in [-1, 1], the vector scaled to length 1) at a distance drawn
// from a normal of the centroid's standard deviation; its label is the centroid's class. After
// each point each of the first drift centroids moves by speed along its own random direction,
// bouncing off the faces of the unit cube (the coordinate is put back on the face and its
// direction reversed).
type rbfSpec struct {
	centroids, drift int
	speed            float64
}

// rbfData draws points and labels from the random RBF generator.
type rbfData struct {
	seed    uint64
	T, n, d int
	spec    rbfSpec
	noise   float64

	class       []uint8
	std, weight []float64 // weight: the cumulative weights, for the draw

	once        sync.Once
	centre, vel [][]float64 // centres (centroids x d) and the moving ones' velocities at each batch's start
}

// newRBF draws the centroids of a seed (stream (seed, 8)).
func newRBF(seed uint64, T, n, d int, spec rbfSpec, noise float64) *rbfData {
	r := &rbfData{seed: seed, T: T, n: n, d: d, spec: spec, noise: noise,
		class: make([]uint8, spec.centroids), std: make([]float64, spec.centroids), weight: make([]float64, spec.centroids)}
	rng := sim.NewRand(seed, 8)
	centre, vel := make([]float64, spec.centroids*d), make([]float64, spec.drift*d)
	total := 0.0
	for c := range spec.centroids {
		for k := range d {
			centre[c*d+k] = rng.Float64()
		}
		r.class[c] = uint8(rng.IntN(2))
		r.std[c] = rng.Float64()
		total += rng.Float64()
		r.weight[c] = total
	}
	for c := range spec.drift {
		unit(vel[c*d:(c+1)*d], rng)
		for k := range d {
			vel[c*d+k] *= spec.speed
		}
	}
	r.centre, r.vel = [][]float64{centre}, [][]float64{vel}
	return r
}

// unit fills v with a random direction: coordinates uniform in [-1, 1], scaled to length 1.
func unit(v []float64, rng *rand.Rand) {
	norm := 0.0
	for k := range v {
		v[k] = 2*rng.Float64() - 1
		norm += v[k] * v[k]
	}
	norm = math.Sqrt(norm)
	for k := range v {
		v[k] /= norm
	}
}

func (r *rbfData) Len() int      { return r.T }
func (r *rbfData) Features() int { return r.d }

// move takes every moving centroid one step, bouncing off the unit cube.
func (r *rbfData) move(centre, vel []float64) {
	for j := range vel {
		centre[j] += vel[j]
		if centre[j] > 1 || centre[j] < 0 {
			centre[j] = min(1, max(0, centre[j]))
			vel[j] = -vel[j]
		}
	}
}

func (r *rbfData) states() {
	r.once.Do(func() {
		centre, vel := r.centre[0], r.vel[0]
		r.centre, r.vel = make([][]float64, r.T), make([][]float64, r.T)
		for t := range r.T {
			r.centre[t], r.vel[t] = slices.Clone(centre), slices.Clone(vel)
			for range r.n {
				r.move(centre, vel)
			}
		}
	})
}

// Centres are the centroids' centres at the first point of batch t (centroid c at c*d..c*d+d-1).
func (r *rbfData) Centres(t int) []float64 {
	r.states()
	return slices.Clone(r.centre[t])
}

// Data implements dataSource: the points of batch t and their centroids' classes (stream
// (seed, 2, t)), noise flipping labels (stream (seed, 4, t)).
func (r *rbfData) Data(t int) (sim.Points, []uint8, error) {
	r.states()
	centre, vel := slices.Clone(r.centre[t]), slices.Clone(r.vel[t])
	rng := sim.NewRand(r.seed, 2, uint64(t))
	x := sim.Points{D: r.d, V: make([]float64, r.n*r.d)}
	y := make([]uint8, r.n)
	total := r.weight[len(r.weight)-1]
	for i := range r.n {
		c, _ := slices.BinarySearch(r.weight, rng.Float64()*total)
		c = min(c, len(r.weight)-1)
		row := x.Row(i)
		unit(row, rng)
		dist := rng.NormFloat64() * r.std[c]
		for k := range row {
			row[k] = centre[c*r.d+k] + row[k]*dist
		}
		y[i] = r.class[c]
		r.move(centre, vel)
	}
	flip(y, r.noise, sim.NewRand(r.seed, 4, uint64(t)))
	return x, y, nil
}

// Label implements dataSource: the class more likely to have drawn x at the start of batch t,
// each centroid taken for a normal of its standard deviation about its centre (the generator's
// own density, a normal distance in a direction that is not quite uniform, has no closed form).
func (r *rbfData) Label(t int, x sim.Points) ([]uint8, bool, error) {
	r.states()
	centre := r.centre[t]
	y := make([]uint8, x.Len())
	logw := make([]float64, len(r.weight))
	prev := 0.0
	for c, w := range r.weight {
		logw[c], prev = math.Log(w-prev), w
	}
	for i := range y {
		row := x.Row(i)
		best := [2]float64{math.Inf(-1), math.Inf(-1)}
		for c := range r.class {
			sd := max(r.std[c], 1e-9)
			d2 := 0.0
			for k, v := range row {
				dv := v - centre[c*r.d+k]
				d2 += dv * dv
			}
			lp := logw[c] - d2/(2*sd*sd) - float64(r.d)*math.Log(sd)
			k := r.class[c]
			m := max(best[k], lp) // log(exp(a) + exp(b)), kept finite
			best[k] = m + math.Log(math.Exp(best[k]-m)+math.Exp(lp-m))
		}
		if best[1] > best[0] {
			y[i] = 1
		}
	}
	return y, true, nil
}

// Drifts implements dataSource: centroids that move at every point are one incremental drift over
// the whole stream; none when none moves.
func (r *rbfData) Drifts() []sim.Drift {
	if r.spec.drift == 0 || r.spec.speed == 0 || r.T < 2 {
		return []sim.Drift{}
	}
	return []sim.Drift{{From: 1, To: r.T - 1, Kind: sim.DriftIncremental}}
}

// hyperplane reads data.hyperplane (the label) with its defaults, River's and MOA's: 2 drifting
// weights, a reversal probability of 0.1, magnitude 0 (no drift unless given).
func (r *reader) hyperplane(h *format.Hyperplane, d int) (hyperplaneSpec, error) {
	spec := hyperplaneSpec{drift: min(2, d), reversal: 0.1}
	var err error
	if h.DriftFeatures.Set {
		if spec.drift, err = h.DriftFeatures.Int("data.hyperplane.drift_features", 0, d); err != nil {
			return spec, err
		}
	}
	if h.Magnitude.Set {
		if spec.magnitude, err = h.Magnitude.Float("data.hyperplane.magnitude", 0, 1); err != nil {
			return spec, err
		}
	}
	if h.Reversal.Set {
		if spec.reversal, err = h.Reversal.Float("data.hyperplane.reversal", 0, 1); err != nil {
			return spec, err
		}
	}
	return spec, nil
}

// rbf reads data.rbf with its defaults, River's: 50 centroids, all of them moving, speed 0.
func (r *reader) rbf(b *format.RBF) (rbfSpec, error) {
	spec := rbfSpec{centroids: 50}
	var err error
	if b.Centroids.Set {
		if spec.centroids, err = b.Centroids.Int("data.rbf.centroids", 1, 100_000); err != nil {
			return spec, err
		}
	}
	spec.drift = spec.centroids
	if b.DriftCentroids.Set {
		if spec.drift, err = b.DriftCentroids.Int("data.rbf.drift_centroids", 0, spec.centroids); err != nil {
			return spec, err
		}
	}
	if b.Speed.Set {
		if spec.speed, err = b.Speed.Float("data.rbf.speed", 0, 1); err != nil {
			return spec, err
		}
	}
	return spec, nil
}

// classicSpec reads data.hyperplane or data.rbf in the place of what they replace: a hyperplane
// labels the points of a point generator (no label or concepts); rbf draws the points and their
// labels (no generator, label, concepts or resample).
func (r *reader) classicSpec(rd *format.Data, g genSpec) (genSpec, error) {
	var err error
	switch {
	case rd.Hyperplane != nil && rd.RBF != nil:
		return g, r.doc.At("$.data.rbf").Errorf("data.rbf", "give one of hyperplane (the label of a point generator's points) or rbf (points and labels)")
	case rd.Label.Set || rd.Concepts != nil:
		which := "hyperplane"
		if rd.RBF != nil {
			which = "rbf"
		}
		return g, r.doc.At("$.data").Errorf("data", "%s labels the points itself: leave out label and concepts", which)
	case rd.RBF != nil:
		if rd.Points.Given() {
			return g, r.doc.At("$.data").Errorf("data", "rbf draws the points itself: leave out gaussian, uniform, discrete and mixture")
		}
		if rd.Resample.Set {
			return g, rd.Resample.Errorf("data.resample", "goes with a point generator; rbf's points move with its centroids")
		}
		spec, err := r.rbf(rd.RBF)
		g.rbf = &spec
		return g, err
	}
	if g.points, err = r.generator("$.data", "data", rd.Points, g.d); err != nil {
		return g, err
	}
	spec, err := r.hyperplane(rd.Hyperplane, g.d)
	g.hyperplane = &spec
	return g, err
}
