package sim

import (
	"fmt"
	"slices"
)

// KNN is k-nearest-neighbours classification by majority vote, by brute force. Distances are
// Euclidean; among equal distances the training point with the smaller index counts as nearer; a
// tied vote (possible when K is even) goes to the class of the nearest neighbour.
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

// Validate reports a configuration error in the words of a scenario file.
func (k KNN) Validate() error {
	if k.K < 1 {
		return fmt.Errorf("knn.k must be >= 1, got %d", k.K)
	}
	return nil
}

// Fit implements Trainer: it keeps a copy of the training data (the caller may reuse its
// buffers). With fewer points than K, every point votes. It draws no randomness.
func (k KNN) Fit(x Points, y []uint8, _ uint64) (Model, error) {
	k = k.WithDefaults()
	if m, done, err := prepare("knn", k.Validate, x, y); done {
		return m, err
	}
	return &knnModel{k: min(k.K, x.Len()), x: Points{D: x.D, V: slices.Clone(x.V)}, y: slices.Clone(y)}, nil
}

type knnModel struct {
	k int
	x Points
	y []uint8
}

// Predict implements Model. It keeps the k nearest so far in a sorted array: k is small.
func (m *knnModel) Predict(x Points, out []uint8) {
	dist := make([]float64, m.k)
	idx := make([]int, m.k)
	d := x.D
	train := m.x.V
	for i := range x.Len() {
		q := x.Row(i)
		n := 0
		for j := range m.x.Len() {
			row := train[j*d : (j+1)*d : (j+1)*d]
			s := 0.0
			for f, v := range row {
				diff := v - q[f]
				s += diff * diff
			}
			if n == m.k && s >= dist[n-1] {
				continue // not nearer than the k-th (an equal distance loses: it has a larger index)
			}
			// Insert keeping dist ascending; an equal distance goes after the earlier point.
			p := min(n, m.k-1)
			for p > 0 && dist[p-1] > s {
				dist[p], idx[p] = dist[p-1], idx[p-1]
				p--
			}
			dist[p], idx[p] = s, j
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
