package sim

import (
	"math"
	"sync"

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
	kernelSums(X, nil, Q, gamma, out)
	return out
}

// querySum is K(x) for one point, the scalar way: the definition of every kernel sum's bits.
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
		s += simTerm(v[j:j+d], x, gamma)
	}
	return s
}

// simTerm is exp(-gamma ||q - x||^2), the squared distance summed from 0 over the features in
// order (for two features that is a*a + b*b, the unrolled loop's value).
func simTerm(q, x []float64, gamma float64) float64 {
	dist := 0.0
	for k, xk := range x {
		diff := q[k] - xk
		dist += diff * diff
	}
	return math.Exp(-gamma * dist)
}

// kernelSums sets out[i] = K(x_i) for the points x_i = X.Row(idx[i]), or every point of X when idx
// is nil, each bit for bit querySum's value. Where the CPU allows it takes eight points at a time
// in vector lanes (kernel_amd64.s), each lane summing its point's terms in querySum's order with
// querySum's roundings, which makes it exact and several times faster.
func kernelSums(X Points, idx []int32, Q Points, gamma float64, out []float64) {
	n := X.Len()
	if idx != nil {
		n = len(idx)
	}
	row := func(i int) []float64 {
		if idx != nil {
			return X.Row(int(idx[i]))
		}
		return X.Row(i)
	}
	d, nq := X.D, Q.Len()
	if !useVectorExp() || nq == 0 || d == 0 || n == 0 {
		for i := range n {
			out[i] = querySum(row(i), Q, gamma)
		}
		return
	}
	var small [8 * 8]float64
	lanes := small[:]
	if 8*d > len(small) {
		lanes = make([]float64, 8*d)
	}
	for i := 0; i < n; i += 8 {
		var pts [8][]float64
		for l := range pts {
			pts[l] = row(min(i+l, n-1)) // the last block repeats its last point
			for k, v := range pts[l] {
				lanes[8*k+l] = v
			}
		}
		var s [8]float64
		for j := 0; j < nq; {
			j += expSums8(&lanes[0], d, &Q.V[j*d], nq-j, -gamma, &s)
			if j < nq { // a term outside the vector code's range: the scalar way, lane by lane
				for l, p := range pts {
					s[l] += simTerm(Q.Row(j), p, gamma)
				}
				j++
			}
		}
		copy(out[i:min(i+8, n)], s[:])
	}
}

var vectorExpChecked = sync.OnceValue(func() bool {
	if !vectorExp {
		return false
	}
	// A last guard against a CPU or emulator whose math.Exp takes another path: compare a spread
	// of arguments, one lane each, with math.Exp.
	x := make([]float64, 8)
	for i := range 2000 {
		arg := -700 * float64(i) / 1999
		if i%3 == 1 {
			arg = -float64(i) / 1999
		}
		var s [8]float64
		x[0] = math.Sqrt(-arg) // gamma 1, one feature, query at 0
		for l := 1; l < len(x); l++ {
			x[l] = x[0] / float64(l+1)
		}
		x[7] = 0
		if expSums8(&x[0], 1, &[]float64{0}[0], 1, -1, &s) != 1 {
			return false
		}
		for l := range s {
			if s[l] != math.Exp(-(x[l] * x[l])) {
				return false
			}
		}
	}
	return true
})

// useVectorExp reports whether kernelSums may use the vector code.
func useVectorExp() bool { return vectorExpChecked() && !forceScalarKernel }

// forceScalarKernel makes kernelSums take the scalar way (tests compare the two).
var forceScalarKernel bool

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
// (1/|X|) sum over misclassified x of sum over q of sim(q, x), summed over x in order.
func QDM(Q, X Points, errs algos.Bits, gamma float64) float64 {
	if errs.N == 0 {
		return 0
	}
	idx := make([]int32, 0, errs.Count())
	for w, word := range errs.Words {
		for word != 0 {
			idx = append(idx, int32(w*64+bitsTrailing(word)))
			word &= word - 1
		}
	}
	k := make([]float64, len(idx))
	kernelSums(X, idx, Q, gamma, k)
	s := 0.0
	for _, v := range k {
		s += v
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
