//go:build !amd64 || purego

package sim

func expSums8(x *float64, d int, q *float64, nq int, negGamma float64, s *[8]float64) int {
	panic("unreachable: vectorExp is false")
}

func expSums16(x *float64, d int, q *float64, nq int, negGamma float64, s *[16]float64) int {
	panic("unreachable: vector512 is false")
}

var vectorExp, vector512 = false, false
