package sim

// NearestCentroid predicts the class whose training mean is nearest in Euclidean distance; a point
// as near to both means goes to class 0.
type NearestCentroid struct{}

// Name implements Trainer.
func (NearestCentroid) Name() string { return "nearest_centroid" }

// WithDefaults returns the configuration unchanged: it has nothing to set.
func (c NearestCentroid) WithDefaults() NearestCentroid { return c }

// Validate reports a configuration error; there is nothing to get wrong.
func (NearestCentroid) Validate() error { return nil }

// Fit implements Trainer. It draws no randomness.
func (nc NearestCentroid) Fit(x Points, y []uint8, _ uint64) (Model, error) {
	if m, done, err := prepare("nearest centroid", nc.Validate, x, y); done {
		return m, err
	}
	m := &centroidModel{c: [2][]float64{make([]float64, x.D), make([]float64, x.D)}}
	var count [2]float64
	for i := range x.Len() {
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

// Predict implements Model. Squared distances order the same as distances.
func (m *centroidModel) Predict(x Points, out []uint8) {
	c0, c1 := m.c[0], m.c[1]
	for i := range x.Len() {
		row := x.Row(i)
		var d0, d1 float64
		for k, v := range row {
			a, b := v-c0[k], v-c1[k]
			d0 += a * a
			d1 += b * b
		}
		out[i] = 0
		if d1 < d0 {
			out[i] = 1
		}
	}
}
