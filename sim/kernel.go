package sim

import (
	"math"
	"sync"

	"github.com/cara-sim/cara/internal/bitset"
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
// is nil, each bit for bit querySum's value. Where the CPU allows it takes eight or sixteen points at a time
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
	width := vectorWidth()
	if width == 0 || nq == 0 || d == 0 || n == 0 {
		for i := range n {
			out[i] = querySum(row(i), Q, gamma)
		}
		return
	}
	var small [16 * 8]float64
	lanes := small[:]
	if width*d > len(small) {
		lanes = make([]float64, width*d)
	}
	for i := 0; i < n; i += width {
		var pts [16][]float64
		for l := range width {
			pts[l] = row(min(i+l, n-1)) // the last block repeats its last point
			for k, v := range pts[l] {
				lanes[width*k+l] = v
			}
		}
		var s [16]float64
		for j := 0; j < nq; {
			j += expSums(width, lanes, d, Q.V[j*d:], nq-j, -gamma, &s)
			if j < nq { // a term outside the vector code's range: the scalar way, lane by lane
				for l, p := range pts[:width] {
					s[l] += simTerm(Q.Row(j), p, gamma)
				}
				j++
			}
		}
		copy(out[i:min(i+width, n)], s[:width])
	}
}

// expSums runs the vector loop of the given width (kernel_amd64.s) over the points in lanes.
func expSums(width int, lanes []float64, d int, q []float64, nq int, negGamma float64, s *[16]float64) int {
	if width == 16 {
		return expSums16(&lanes[0], d, &q[0], nq, negGamma, s)
	}
	return expSums8(&lanes[0], d, &q[0], nq, negGamma, (*[8]float64)(s[:8]))
}

// vectorWidths are the widths of vector loop this CPU can run, widest first, each checked once
// against math.Exp: a last guard against a CPU or emulator whose math.Exp takes another path.
var vectorWidths = sync.OnceValue(func() []int {
	var ok []int
	for _, w := range []int{16, 8} {
		if (w == 16 && vector512) || (w == 8 && vectorExp) {
			if matchesExp(w) {
				ok = append(ok, w)
			}
		}
	}
	return ok
})

// matchesExp compares the vector loop of width w with math.Exp over a spread of arguments.
func matchesExp(w int) bool {
	x := make([]float64, w)
	for i := range 2000 {
		arg := -700 * float64(i) / 1999
		if i%3 == 1 {
			arg = -float64(i) / 1999
		}
		var s [16]float64
		x[0] = math.Sqrt(-arg) // gamma 1, one feature, query at 0
		for l := 1; l < w; l++ {
			x[l] = x[0] / float64(l+1)
		}
		x[w-1] = 0
		if expSums(w, x, 1, []float64{0}, 1, -1, &s) != 1 {
			return false
		}
		for l := range w {
			if s[l] != math.Exp(-(x[l] * x[l])) {
				return false
			}
		}
	}
	return true
}

// vectorWidth is the width kernelSums uses: the widest that passed its check, or kernelWidth
// when a test asks for one; 0 for the scalar way.
func vectorWidth() int {
	ws := vectorWidths()
	if kernelWidth < 0 || len(ws) == 0 {
		return 0
	}
	if kernelWidth == 0 {
		return ws[0]
	}
	for _, w := range ws {
		if w == kernelWidth {
			return w
		}
	}
	return 0
}

// kernelWidth chooses the vector loop (tests compare them): 0 the widest, 8 or 16 that one
// (scalar when the CPU lacks it), -1 the scalar way.
var kernelWidth int

// maskedMean returns (1/n) * the sum of k[i] over the set bits i of errs, n = errs.N.
func maskedMean(k []float64, errs bitset.Bits) float64 {
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
func QDM(Q, X Points, errs bitset.Bits, gamma float64) float64 {
	return weightedQDM(Q, X, nil, errs, gamma, nil)
}

// errorIndices are the points the bitset marks, ascending.
func errorIndices(errs bitset.Bits) []int32 {
	idx := make([]int32, 0, errs.Count())
	for w, word := range errs.Words {
		for word != 0 {
			idx = append(idx, int32(w*64+bitsTrailing(word)))
			word &= word - 1
		}
	}
	return idx
}

// errorBits compares predictions with labels.
func errorBits(pred, y []uint8) bitset.Bits {
	b := bitset.New(len(y))
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
