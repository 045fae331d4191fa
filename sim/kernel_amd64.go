//go:build !purego

package sim

import "golang.org/x/sys/cpu"

// expSums8 adds to s[l], for each of the eight points x_l (x holds them feature by feature:
// x[8*k+l] is feature k of point l), exp(negGamma * ||q - x_l||^2) for the queries q of
// q[:nq*d] in order, bit for bit as the scalar loop does. It stops at the first query where some
// lane's argument is below -708 or NaN and returns the number of queries it added.
//
//go:noescape
func expSums8(x *float64, d int, q *float64, nq int, negGamma float64, s *[8]float64) int

// expSums16 is expSums8 for sixteen points (x[16*k+l] is feature k of point l), in 512-bit
// registers.
//
//go:noescape
func expSums16(x *float64, d int, q *float64, nq int, negGamma float64, s *[16]float64) int

// vectorExp says whether expSums8 can run here: it needs AVX2 and FMA, and it reproduces the
// FMA path of math.Exp, which the standard library takes exactly when the CPU has AVX and FMA.
var vectorExp = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// vector512 says whether expSums16 can run here too.
var vector512 = vectorExp && cpu.X86.HasAVX512F
