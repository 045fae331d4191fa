package sim

import (
	"fmt"
	"math"
)

// NearestCentroid predicts the class whose training mean is closest (ties to class 0).
type NearestCentroid struct{}

// Name implements Trainer.
func (NearestCentroid) Name() string { return "nearest_centroid" }

// Fit implements Trainer.
func (NearestCentroid) Fit(x Points, y []uint8, seed uint64) (Model, error) {
	n := x.Len()
	if n == 0 || len(y) != n {
		return nil, fmt.Errorf("nearest centroid: %d points and %d labels", n, len(y))
	}
	if c, ok := singleClass(y); ok {
		return constModel(c), nil
	}
	m := &centroidModel{c: [2][]float64{make([]float64, x.D), make([]float64, x.D)}}
	var count [2]float64
	for i := range n {
		c := y[i]
		count[c]++
		for k, v := range x.Row(i) {
			m.c[c][k] += v
		}
	}
	for c := range m.c {
		for k := range m.c[c] {
			m.c[c][k] /= count[c]
		}
	}
	return m, nil
}

type centroidModel struct{ c [2][]float64 }

func (m *centroidModel) Predict(x Points, out []uint8) {
	for i := range x.Len() {
		row := x.Row(i)
		var d [2]float64
		for c := range d {
			for k, v := range row {
				diff := v - m.c[c][k]
				d[c] += diff * diff
			}
		}
		out[i] = 0
		if d[1] < d[0] {
			out[i] = 1
		}
	}
}

// KNN is k-nearest-neighbours classification by majority vote (Euclidean distance; among equal
// distances the earlier training point counts as nearer; a tied vote goes to the nearest
// neighbour's class).
type KNN struct{ K int }

// Name implements Trainer.
func (k KNN) Name() string { return "knn" }

// WithDefaults sets K to 5 when zero, scikit-learn's default.
func (k KNN) WithDefaults() KNN {
	if k.K == 0 {
		k.K = 5
	}
	return k
}

// Validate reports a configuration error.
func (k KNN) Validate() error {
	if k.K < 1 {
		return fmt.Errorf("knn.k must be >= 1, got %d", k.K)
	}
	return nil
}

// Fit implements Trainer: it keeps the training data.
func (k KNN) Fit(x Points, y []uint8, seed uint64) (Model, error) {
	k = k.WithDefaults()
	if err := k.Validate(); err != nil {
		return nil, err
	}
	if x.Len() == 0 || len(y) != x.Len() {
		return nil, fmt.Errorf("knn: %d points and %d labels", x.Len(), len(y))
	}
	return &knnModel{k: min(k.K, x.Len()), x: x, y: y}, nil
}

type knnModel struct {
	k int
	x Points
	y []uint8
}

func (m *knnModel) Predict(x Points, out []uint8) {
	dist := make([]float64, m.k)
	idx := make([]int, m.k)
	for i := range x.Len() {
		q := x.Row(i)
		n := 0
		for j := range m.x.Len() {
			d := 0.0
			for f, v := range m.x.Row(j) {
				diff := v - q[f]
				d += diff * diff
			}
			if n == m.k && d >= dist[n-1] {
				continue
			}
			// Insert keeping dist ascending; an equal distance goes after (earlier points win).
			p := min(n, m.k-1)
			for p > 0 && dist[p-1] > d {
				if p < m.k {
					dist[p], idx[p] = dist[p-1], idx[p-1]
				}
				p--
			}
			dist[p], idx[p] = d, j
			if n < m.k {
				n++
			}
		}
		votes := 0
		for _, j := range idx[:n] {
			votes += int(m.y[j])
		}
		switch {
		case 2*votes > n:
			out[i] = 1
		case 2*votes < n:
			out[i] = 0
		default:
			out[i] = m.y[idx[0]]
		}
	}
}

// Logistic is logistic regression fitted by SGD on log loss with an L2 penalty, after
// scikit-learn's SGDClassifier defaults: learning rate "optimal" (eta = 1/(alpha (t0 + t)) with
// Bottou's t0), the samples shuffled every epoch, an intercept, and stopping when an epoch's loss
// has not improved by Tol for 5 epochs in a row, or after MaxIter epochs.
type Logistic struct {
	Alpha   float64 // L2 strength (0.0001)
	MaxIter int     // epochs at most (1000)
	Tol     float64 // stopping tolerance (0.001)
}

// Name implements Trainer.
func (l Logistic) Name() string { return "logistic" }

// WithDefaults fills zero fields with SGDClassifier's defaults.
func (l Logistic) WithDefaults() Logistic {
	if l.Alpha == 0 {
		l.Alpha = 1e-4
	}
	if l.MaxIter == 0 {
		l.MaxIter = 1000
	}
	if l.Tol == 0 {
		l.Tol = 1e-3
	}
	return l
}

// Validate reports a configuration error.
func (l Logistic) Validate() error {
	switch {
	case !(l.Alpha > 0):
		return fmt.Errorf("logistic.alpha must be > 0, got %v", l.Alpha)
	case l.MaxIter < 1:
		return fmt.Errorf("logistic.max_iter must be >= 1, got %d", l.MaxIter)
	case l.Tol < 0:
		return fmt.Errorf("logistic.tol must be >= 0, got %v", l.Tol)
	}
	return nil
}

// Fit implements Trainer.
func (l Logistic) Fit(x Points, y []uint8, seed uint64) (Model, error) {
	l = l.WithDefaults()
	if err := l.Validate(); err != nil {
		return nil, err
	}
	n := x.Len()
	if n == 0 || len(y) != n {
		return nil, fmt.Errorf("logistic: %d points and %d labels", n, len(y))
	}
	if c, ok := singleClass(y); ok {
		return constModel(c), nil
	}
	rng := NewRand(seed)
	w := make([]float64, x.D)
	wscale, b := 1.0, 0.0
	// scikit-learn's "optimal" schedule: typw = sqrt(1/sqrt(alpha)), eta0 = typw / max(1, dloss(-typw, 1))
	// where dloss of the log loss is negative, so eta0 = typw and t0 = 1/(eta0 alpha).
	typw := math.Sqrt(1 / math.Sqrt(l.Alpha))
	t0 := 1 / (typw * l.Alpha)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	best, stale := math.Inf(1), 0
	t := 1.0
	for range l.MaxIter {
		rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		loss := 0.0
		for _, i := range order {
			row := x.Row(i)
			target := -1.0
			if y[i] == 1 {
				target = 1
			}
			p := b
			for k, v := range row {
				p += wscale * w[k] * v
			}
			z := target * p
			loss += logLoss(z)
			eta := 1 / (l.Alpha * (t0 + t - 1))
			g := -target / (math.Exp(z) + 1) // d loss / d p
			if z > 18 {
				g = -target * math.Exp(-z)
			} else if z < -18 {
				g = -target
			}
			wscale *= 1 - eta*l.Alpha
			if wscale < 1e-9 { // fold the scale back in before it underflows
				for k := range w {
					w[k] *= wscale
				}
				wscale = 1
			}
			for k, v := range row {
				w[k] -= eta * g * v / wscale
			}
			b -= eta * g
			t++
		}
		if loss > best-l.Tol*float64(n) {
			stale++
		} else {
			stale = 0
		}
		best = min(best, loss)
		if stale >= 5 {
			break
		}
	}
	for k := range w {
		w[k] *= wscale
	}
	return &linearModel{w: w, b: b}, nil
}

func logLoss(z float64) float64 {
	switch {
	case z > 18:
		return math.Exp(-z)
	case z < -18:
		return -z
	}
	return math.Log1p(math.Exp(-z))
}

type linearModel struct {
	w []float64
	b float64
}

func (m *linearModel) Predict(x Points, out []uint8) {
	for i := range x.Len() {
		p := m.b
		for k, v := range x.Row(i) {
			p += m.w[k] * v
		}
		out[i] = 0
		if p > 0 {
			out[i] = 1
		}
	}
}
