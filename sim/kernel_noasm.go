//go:build !amd64 || purego

package sim

func expSums4(x *float64, d int, q *float64, nq int, negGamma float64, s *[4]float64) int {
	panic("unreachable: vectorExp is false")
}

var vectorExp = false
