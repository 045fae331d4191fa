package sim

import (
	"fmt"
	"math"
)

// Logistic is logistic regression fitted by SGD on the log loss with an L2 penalty, after
// scikit-learn's SGDClassifier(loss="log_loss") defaults: learning rate "optimal"
// (eta = 1/(alpha (t0 + t - 1)), t counting updates from 1, with Bottou's t0), the samples
// shuffled every epoch, an intercept (not penalised), and stopping when an epoch's summed loss has
// not beaten the best so far by Tol*n for 5 epochs in a row (n_iter_no_change), or after MaxIter
// epochs. The shuffles come from the seed, not from NumPy, so the weights are not scikit-learn's
// bit for bit; the rule is.
//
// With Standardize, each feature is scaled to mean 0 and standard deviation 1 over the batch the
// model is trained on (scikit-learn's StandardScaler before the SGDClassifier; a constant feature
// keeps scale 1), and the scaling is folded into the weights, so the model predicts raw points.
// Off by default, as in the paper; raw features far from 0 (SEA's lie in [0, 10]) slow SGD's
// intercept so much that the model can do worse than the majority class.
type Logistic struct {
	Alpha       float64 // L2 strength (0.0001)
	MaxIter     int     // epochs at most (1000)
	Tol         float64 // stopping tolerance (0.001)
	Standardize bool    // scale the features on the training batch first
}

// noChangeEpochs is scikit-learn's n_iter_no_change default.
const noChangeEpochs = 5

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

// Validate reports a configuration error in the words of a scenario file.
func (l Logistic) Validate() error {
	switch {
	case !(l.Alpha > 0):
		return fmt.Errorf("logistic.alpha must be > 0, got %v", l.Alpha)
	case math.IsInf(l.Alpha, 1):
		return fmt.Errorf("logistic.alpha must be finite, got %v", l.Alpha)
	case l.MaxIter < 1:
		return fmt.Errorf("logistic.max_iter must be >= 1, got %d", l.MaxIter)
	case !(l.Tol >= 0):
		return fmt.Errorf("logistic.tol must be >= 0, got %v", l.Tol)
	}
	return nil
}

// Fit implements Trainer. The weight vector is kept as w*wscale, as scikit-learn's WeightVector
// does, so the L2 shrink of every step costs one multiplication.
func (l Logistic) Fit(x Points, y []uint8, seed uint64) (Model, error) {
	l = l.WithDefaults()
	if m, done, err := prepare("logistic", l.Validate, x, y); done {
		return m, err
	}
	var mean, scale []float64
	if l.Standardize {
		x, mean, scale = standardize(x)
	}
	n, d := x.Len(), x.D
	rng := NewRand(seed)
	w := make([]float64, d)
	wscale, b := 1.0, 0.0
	// The "optimal" schedule's start: typw = sqrt(1/sqrt(alpha)) is a typical weight,
	// eta0 = typw / max(1, dloss(-typw, y=1)); the log loss's dloss is negative, so eta0 = typw,
	// and t0 = 1/(eta0 alpha) makes the first step's eta equal eta0.
	typw := math.Sqrt(1 / math.Sqrt(l.Alpha))
	t0 := 1 / (typw * l.Alpha)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	best, stale := math.Inf(1), 0
	t := 1.0
	epochs := 0
	for epoch := range l.MaxIter {
		epochs = epoch + 1
		rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		sumLoss := 0.0
		for _, i := range order {
			row := x.V[i*d : (i+1)*d : (i+1)*d]
			target := -1.0
			if y[i] == 1 {
				target = 1
			}
			dot := 0.0
			for k, v := range row {
				dot += w[k] * v
			}
			p := dot*wscale + b
			eta := 1 / (l.Alpha * (t0 + t - 1))
			sumLoss += logLoss(target, p)
			update := -eta * logLossGrad(target, p)
			// Shrink for the L2 penalty; never to a negative scale when eta*alpha exceeds 1.
			wscale *= max(0, 1-eta*l.Alpha)
			if wscale < 1e-9 { // fold the scale into w before it underflows
				for k := range w {
					w[k] *= wscale
				}
				wscale = 1
			}
			if update != 0 {
				step := update / wscale
				for k, v := range row {
					w[k] += v * step
				}
				b += update
			}
			t++
		}
		if math.IsInf(b, 0) || math.IsNaN(b) || !finite(w) {
			return nil, fmt.Errorf("logistic: the weights overflowed at epoch %d; scale the features or raise logistic.alpha", epoch+1)
		}
		if sumLoss > best-l.Tol*float64(n) {
			stale++
		} else {
			stale = 0
		}
		best = min(best, sumLoss)
		if stale >= noChangeEpochs {
			break
		}
	}
	for k := range w {
		w[k] *= wscale
	}
	if l.Standardize {
		// w . (x - mean)/scale + b = (w/scale) . x + (b - sum of w mean/scale)
		for k := range w {
			w[k] /= scale[k]
			b -= w[k] * mean[k]
		}
	}
	return &linearModel{w: w, b: b, epochs: epochs}, nil
}

// standardize returns x scaled to mean 0 and standard deviation 1 per feature (a copy), with the
// means and scales used; a feature with no spread keeps scale 1, as scikit-learn's StandardScaler.
func standardize(x Points) (Points, []float64, []float64) {
	n, d := x.Len(), x.D
	mean, scale := make([]float64, d), make([]float64, d)
	for i := range n {
		for k, v := range x.Row(i) {
			mean[k] += v
		}
	}
	for k := range mean {
		mean[k] /= float64(n)
	}
	for i := range n {
		for k, v := range x.Row(i) {
			scale[k] += (v - mean[k]) * (v - mean[k])
		}
	}
	out := Points{D: d, V: make([]float64, len(x.V))}
	for k := range scale {
		scale[k] = math.Sqrt(scale[k] / float64(n))
		if scale[k] == 0 {
			scale[k] = 1
		}
	}
	for j, v := range x.V {
		out.V[j] = (v - mean[j%d]) / scale[j%d]
	}
	return out, mean, scale
}

func finite(w []float64) bool {
	for _, v := range w {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return false
		}
	}
	return true
}

// logLoss is log(1 + exp(-y p)) for y in {-1, 1}, with scikit-learn's cut-offs at |z| > 18,
// where the asymptotes are as good and cheaper.
func logLoss(y, p float64) float64 {
	z := y * p
	switch {
	case z > 18:
		return math.Exp(-z)
	case z < -18:
		return -z
	}
	return math.Log(1 + math.Exp(-z))
}

// logLossGrad is the derivative of logLoss with respect to p.
func logLossGrad(y, p float64) float64 {
	z := y * p
	switch {
	case z > 18:
		return -y * math.Exp(-z)
	case z < -18:
		return -y
	}
	return -y / (math.Exp(z) + 1)
}

type linearModel struct {
	w      []float64
	b      float64
	epochs int // epochs run, as SGDClassifier's n_iter_
}

// Predict implements Model: class 1 where the decision function is positive, as
// SGDClassifier.predict.
func (m *linearModel) Predict(x Points, out []uint8) {
	d := x.D
	for i := range x.Len() {
		p := 0.0
		for k, v := range x.V[i*d : (i+1)*d : (i+1)*d] {
			p += m.w[k] * v
		}
		p += m.b
		out[i] = 0
		if p > 0 {
			out[i] = 1
		}
	}
}
