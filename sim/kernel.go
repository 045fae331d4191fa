package sim

import (
	"math"

	"github.com/cara-sim/cara/algos"
)

// The staleness kernel. With sim(q, x) = exp(-gamma ||q-x||^2) and 0-1 loss,
//
//	QDM(Q, D, M) = (1/|D|) sum over x in D with M(x) != y of K_Q(x),  K_Q(x) = sum over q in Q of sim(q, x).
//
// Two facts make it cheap and exact: only misclassified points contribute, and K_{Q_t}(x) for x in
// D_t does not depend on the model, so it is computed once per batch (QuerySums) and every cell's A
// is then one pass over an error bitset. B sums K_{Q_t} over the training points the model itself
// gets wrong, which for most models are few.

// QuerySums returns K(x) = sum over q in Q of exp(-gamma ||q - x||^2) for each point x of X, each
// summed over Q in order (so the result is the same on any machine and worker count).
func QuerySums(X, Q Points, gamma float64) []float64 {
	out := make([]float64, X.Len())
	for i := range out {
		out[i] = querySum(X.Row(i), Q, gamma)
	}
	return out
}

func querySum(x []float64, Q Points, gamma float64) float64 {
	s := 0.0
	d := Q.D
	v := Q.V
	if d == 2 { // the common case of the paper's synthetic data, unrolled
		x0, x1 := x[0], x[1]
		for j := 0; j+1 < len(v); j += 2 {
			a, b := v[j]-x0, v[j+1]-x1
			s += math.Exp(-gamma * (a*a + b*b))
		}
		return s
	}
	for j := 0; j+d <= len(v); j += d {
		dist := 0.0
		for k, xk := range x {
			diff := v[j+k] - xk
			dist += diff * diff
		}
		s += math.Exp(-gamma * dist)
	}
	return s
}

// maskedMean returns (1/n) * the sum of k[i] over the set bits i of errs, n = errs.N.
func maskedMean(k []float64, errs algos.Bits) float64 {
	if errs.N == 0 {
		return 0
	}
	s := 0.0
	for w, word := range errs.Words {
		for word != 0 {
			b := bitsTrailing(word)
			s += k[w*64+b]
			word &= word - 1
		}
	}
	return s / float64(errs.N)
}

// QDM is the staleness of a model on data X given queries Q, from the model's error bitset on X:
// (1/|X|) sum over misclassified x of sum over q of sim(q, x). It is the naive definition, for tests
// and for B terms where few points are misclassified.
func QDM(Q, X Points, errs algos.Bits, gamma float64) float64 {
	if errs.N == 0 {
		return 0
	}
	s := 0.0
	for w, word := range errs.Words {
		for word != 0 {
			i := w*64 + bitsTrailing(word)
			s += querySum(X.Row(i), Q, gamma)
			word &= word - 1
		}
	}
	return s / float64(errs.N)
}

// errorBits compares predictions with labels.
func errorBits(pred, y []uint8) algos.Bits {
	b := algos.NewBits(len(y))
	for i, p := range pred {
		if p != y[i] {
			b.Set(i)
		}
	}
	return b
}

// accuracy is the fraction of predictions equal to the labels; NaN without labels.
func accuracy(pred, y []uint8) float64 {
	if len(y) == 0 {
		return math.NaN()
	}
	n := 0
	for i, p := range pred {
		if p == y[i] {
			n++
		}
	}
	return float64(n) / float64(len(y))
}
