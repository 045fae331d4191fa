package streams

import (
	"math"
	"testing"

	"github.com/cara-sim/cara/scenarios/internal/expr"
	"github.com/cara-sim/cara/scenarios/internal/format"
	"github.com/cara-sim/cara/sim"
)

func newHyper(seed uint64, T, n, d int, spec hyperplaneSpec, noise float64) *hyperData {
	h := &hyperData{seed: seed, T: T, n: n, d: d, spec: spec, noise: noise, resample: true, points: unitCube(d)}
	h.evaluator.New = func() any { return expr.NewEvaluator(d) }
	return h
}

// unitCube is the point generator uniform: {low: 0, high: 1} over d features.
func unitCube(d int) pointGen {
	num := func(v string) *expr.Program {
		p, err := expr.Compile(format.Scalar{Set: true, Text: v}, "data.uniform", d, false, false)
		if err != nil {
			panic(err)
		}
		return p
	}
	c := component{}
	for range d {
		c.a, c.b = append(c.a, num("0")), append(c.b, num("1"))
	}
	return pointGen{comps: []component{c}, field: "data"}
}

// TestHyperplaneDefinition holds the hyperplane to Hulten et al.'s definition: a point is class 1
// when sum w_i x_i >= (sum w_i)/2 for the weights in force at it; after each point each drifting
// weight moves by exactly the magnitude, the others not at all, and its direction reverses with
// the given probability.
func TestHyperplaneDefinition(t *testing.T) {
	const T, n, d, mag, rev = 6, 4000, 5, 0.001, 0.1
	h := newHyper(3, T, n, d, hyperplaneSpec{drift: 2, magnitude: mag, reversal: rev}, 0)
	steps, reversals := 0, 0
	for b := range T {
		x, y, err := h.Data(b)
		if err != nil {
			t.Fatal(err)
		}
		var prev []float64
		prevStep := [2]float64{}
		h.walk(h.Weights(b), append([]float64{}, h.dir[b]...), b, func(i int, w []float64) {
			sum, total := 0.0, 0.0
			for k := range w {
				sum += w[k] * x.Row(i)[k]
				total += w[k]
			}
			if want := sum >= total/2; (y[i] == 1) != want {
				t.Fatalf("batch %d point %d: class %d, the hyperplane says %v", b, i, y[i], want)
			}
			if prev != nil {
				for k := range w {
					step := w[k] - prev[k]
					switch {
					case k >= 2 && step != 0:
						t.Fatalf("weight %d moved by %g; only the first 2 drift", k+1, step)
					case k < 2 && math.Abs(math.Abs(step)-mag) > 1e-12:
						t.Fatalf("weight %d moved by %g, not %g", k+1, step, mag)
					case k < 2:
						if prevStep[k] != 0 {
							steps++
							if step*prevStep[k] < 0 {
								reversals++
							}
						}
						prevStep[k] = step
					}
				}
			}
			prev = append(prev[:0], w...)
		})
		// The next batch starts where this one's walk ends.
		if b+1 < T {
			end := h.Weights(b)
			dir := append([]float64{}, h.dir[b]...)
			h.walk(end, dir, b, nil)
			for k, v := range h.Weights(b + 1) {
				if v != end[k] {
					t.Fatalf("batch %d starts at weight %d = %g, batch %d ended at %g", b+1, k+1, v, b, end[k])
				}
			}
		}
	}
	if share := float64(reversals) / float64(steps); math.Abs(share-rev) > 0.01 {
		t.Errorf("directions reversed at %.4f of %d steps, want %g", share, steps, rev)
	}
	if len(h.Drifts()) != 1 || h.Drifts()[0] != (sim.Drift{From: 1, To: T - 1, Kind: sim.DriftIncremental}) {
		t.Errorf("drifts %+v", h.Drifts())
	}
	if still := newHyper(3, T, n, d, hyperplaneSpec{drift: 2}, 0); len(still.Drifts()) != 0 {
		t.Errorf("a hyperplane that does not move drifts at %+v", still.Drifts())
	}
}

// TestHyperplaneNoise: the noise flips labels with its probability, the rest are the hyperplane's.
func TestHyperplaneNoise(t *testing.T) {
	clean := newHyper(5, 2, 20000, 4, hyperplaneSpec{drift: 2, magnitude: 0.0001, reversal: 0.1}, 0)
	noisy := newHyper(5, 2, 20000, 4, hyperplaneSpec{drift: 2, magnitude: 0.0001, reversal: 0.1}, 0.05)
	_, a, _ := clean.Data(1)
	_, b, _ := noisy.Data(1)
	flipped := 0
	for i := range a {
		if a[i] != b[i] {
			flipped++
		}
	}
	if share := float64(flipped) / float64(len(a)); math.Abs(share-0.05) > 0.005 {
		t.Errorf("%.4f of the labels flipped, want 0.05", share)
	}
}

// TestRBFDefinition holds the random RBF generator to Bifet et al.'s definition: a point lies at a
// normal distance of its centroid's spread (mean |N(0, s)| = s sqrt(2/pi)) and takes its class;
// a moving centroid goes exactly speed a point along its direction, inside the unit cube.
func TestRBFDefinition(t *testing.T) {
	const n, d = 20000, 4
	one := newRBF(7, 3, n, d, rbfSpec{centroids: 1, drift: 0}, 0)
	x, y, err := one.Data(0)
	if err != nil {
		t.Fatal(err)
	}
	c := one.Centres(0)
	sum := 0.0
	for i := range n {
		if y[i] != one.class[0] {
			t.Fatalf("point %d of class %d, its centroid's is %d", i, y[i], one.class[0])
		}
		r := 0.0
		for k, v := range x.Row(i) {
			r += (v - c[k]) * (v - c[k])
		}
		sum += math.Sqrt(r)
	}
	if want := one.std[0] * math.Sqrt(2/math.Pi); math.Abs(sum/n-want) > 0.02*want {
		t.Errorf("mean distance %g from the centre, want %g (spread %g)", sum/n, want, one.std[0])
	}
	if len(one.Drifts()) != 0 {
		t.Errorf("still centroids drift at %+v", one.Drifts())
	}

	const speed = 0.001
	moving := newRBF(7, 40, 100, d, rbfSpec{centroids: 6, drift: 3, speed: speed}, 0)
	for b := 0; b+1 < 40; b++ {
		from, to := moving.Centres(b), moving.Centres(b+1)
		for ci := range 6 {
			dist := 0.0
			for k := range d {
				v := to[ci*d+k]
				if v < 0 || v > 1 {
					t.Fatalf("batch %d: centroid %d at %g, outside the cube", b+1, ci, v)
				}
				dist += (v - from[ci*d+k]) * (v - from[ci*d+k])
			}
			dist = math.Sqrt(dist)
			switch {
			case ci >= 3 && dist != 0:
				t.Fatalf("batch %d: centroid %d moved %g; only the first 3 move", b, ci, dist)
			case ci < 3 && dist > 100*speed+1e-12:
				t.Fatalf("batch %d: centroid %d moved %g in 100 points, more than %g", b, ci, dist, 100*speed)
			}
		}
	}
	// Away from the faces a moving centroid goes speed a point in a straight line.
	free := newRBF(11, 2, 10, d, rbfSpec{centroids: 1, drift: 1, speed: 1e-6}, 0)
	from, to := free.Centres(0), free.Centres(1)
	dist := 0.0
	for k := range d {
		dist += (to[k] - from[k]) * (to[k] - from[k])
	}
	if math.Abs(math.Sqrt(dist)-10e-6) > 1e-12 {
		t.Errorf("a free centroid moved %g in 10 points at speed 1e-6", math.Sqrt(dist))
	}
	if got := moving.Drifts(); len(got) != 1 || got[0] != (sim.Drift{From: 1, To: 39, Kind: sim.DriftIncremental}) {
		t.Errorf("drifts %+v", got)
	}
}

// TestRBFLabel: the class the generator's label names is, far more often than not, the class of
// the centroid that drew the point.
func TestRBFLabel(t *testing.T) {
	r := newRBF(2, 1, 5000, 3, rbfSpec{centroids: 10}, 0)
	x, y, _ := r.Data(0)
	got, _, _ := r.Label(0, x)
	agree := 0
	for i := range y {
		if got[i] == y[i] {
			agree++
		}
	}
	if share := float64(agree) / float64(len(y)); share < 0.7 {
		t.Errorf("the label agrees with the drawing centroid's class on %.2f of the points", share)
	}
}
