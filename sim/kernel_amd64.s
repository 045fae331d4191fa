//go:build !purego

#include "textflag.h"

// expSums4 is the staleness kernel's inner loop for four points at once, one per lane of a
// 256-bit register (see kernel_amd64.go). Each lane does, in the same order and with the same
// roundings, what the scalar loop does for its point: dist = (q0-x0)^2 + (q1-x1)^2 + ... (a
// multiply and a separate add per feature, never fused), arg = -gamma*dist, and exp(arg) by the
// method of the standard library's math.Exp on amd64 CPUs with FMA (Shibata's reduction
// x = k*ln2 + r with ln2 in two parts, r/16, a degree-8 Taylor polynomial in Horner form with
// fused multiply-adds, four squarings of e^(r/16) - 1, and a scaling by 2^k), then s += exp(arg).
// Lanes are independent, so the sum of each point runs over the queries in order, as the scalar
// loop's does. A query whose argument is below -708 in some lane (exp would leave the normal
// range) or is NaN stops the loop before that query: the caller takes it the scalar way.

DATA expc8<>+0(SB)/8, $2.4801587301587301587e-5
DATA expc8<>+8(SB)/8, $2.4801587301587301587e-5
DATA expc8<>+16(SB)/8, $2.4801587301587301587e-5
DATA expc8<>+24(SB)/8, $2.4801587301587301587e-5
GLOBL expc8<>(SB), RODATA, $32
DATA expc7<>+0(SB)/8, $1.9841269841269841270e-4
DATA expc7<>+8(SB)/8, $1.9841269841269841270e-4
DATA expc7<>+16(SB)/8, $1.9841269841269841270e-4
DATA expc7<>+24(SB)/8, $1.9841269841269841270e-4
GLOBL expc7<>(SB), RODATA, $32
DATA expc6<>+0(SB)/8, $1.3888888888888888889e-3
DATA expc6<>+8(SB)/8, $1.3888888888888888889e-3
DATA expc6<>+16(SB)/8, $1.3888888888888888889e-3
DATA expc6<>+24(SB)/8, $1.3888888888888888889e-3
GLOBL expc6<>(SB), RODATA, $32
DATA expc5<>+0(SB)/8, $8.3333333333333333333e-3
DATA expc5<>+8(SB)/8, $8.3333333333333333333e-3
DATA expc5<>+16(SB)/8, $8.3333333333333333333e-3
DATA expc5<>+24(SB)/8, $8.3333333333333333333e-3
GLOBL expc5<>(SB), RODATA, $32
DATA expc4<>+0(SB)/8, $4.1666666666666666667e-2
DATA expc4<>+8(SB)/8, $4.1666666666666666667e-2
DATA expc4<>+16(SB)/8, $4.1666666666666666667e-2
DATA expc4<>+24(SB)/8, $4.1666666666666666667e-2
GLOBL expc4<>(SB), RODATA, $32
DATA expc3<>+0(SB)/8, $1.6666666666666666667e-1
DATA expc3<>+8(SB)/8, $1.6666666666666666667e-1
DATA expc3<>+16(SB)/8, $1.6666666666666666667e-1
DATA expc3<>+24(SB)/8, $1.6666666666666666667e-1
GLOBL expc3<>(SB), RODATA, $32
DATA expc2<>+0(SB)/8, $0.5
DATA expc2<>+8(SB)/8, $0.5
DATA expc2<>+16(SB)/8, $0.5
DATA expc2<>+24(SB)/8, $0.5
GLOBL expc2<>(SB), RODATA, $32
DATA expbias<>+0(SB)/4, $1023
DATA expbias<>+4(SB)/4, $1023
DATA expbias<>+8(SB)/4, $1023
DATA expbias<>+12(SB)/4, $1023
GLOBL expbias<>(SB), RODATA, $16

#define LOG2E 1.4426950408889634073599246810018920
#define LN2U 0.69314718055966295651160180568695068359375
#define LN2L 0.28235290563031577122588448175013436025525412068e-12

// func expSums4(x *float64, d int, q *float64, nq int, negGamma float64, s *[4]float64) int
TEXT ·expSums4(SB), NOSPLIT, $0-56
	MOVQ x+0(FP), SI
	MOVQ d+8(FP), CX
	MOVQ q+16(FP), DI
	MOVQ nq+24(FP), DX
	VBROADCASTSD negGamma+32(FP), Y15
	MOVQ s+40(FP), R8
	VMOVUPD (R8), Y14

	MOVSD $LOG2E, X13
	VBROADCASTSD X13, Y13
	MOVSD $LN2U, X12
	VBROADCASTSD X12, Y12
	MOVSD $LN2L, X11
	VBROADCASTSD X11, Y11
	MOVSD $0.0625, X10
	VBROADCASTSD X10, Y10
	MOVSD $2.0, X9
	VBROADCASTSD X9, Y9
	MOVSD $1.0, X8
	VBROADCASTSD X8, Y8
	MOVSD $-708.0, X7
	VBROADCASTSD X7, Y7

	XORQ R9, R9 // queries done

loop:
	CMPQ R9, DX
	JGE  done
	MOVQ DI, R12 // this query's first feature
	MOVQ SI, R11
	MOVQ CX, R10

	// dist = (q0 - x0)^2, then dist += (qk - xk)^2 for each further feature.
	VBROADCASTSD (R12), Y0
	VSUBPD       (R11), Y0, Y0
	VMULPD       Y0, Y0, Y1
	ADDQ         $8, R12
	ADDQ         $32, R11
	DECQ         R10

features:
	JZ           arg
	VBROADCASTSD (R12), Y0
	VSUBPD       (R11), Y0, Y0
	VMULPD       Y0, Y0, Y0
	VADDPD       Y0, Y1, Y1
	ADDQ         $8, R12
	ADDQ         $32, R11
	DECQ         R10
	JMP          features

arg:
	VMULPD    Y1, Y15, Y1     // arg = -gamma * dist
	VCMPPD    $0x1d, Y7, Y1, Y2 // arg >= -708 (false for NaN)
	VMOVMSKPD Y2, AX
	CMPL      AX, $15
	JNE       done

	// k = round(arg * log2e); kf = float64(k)
	VMULPD     Y13, Y1, Y2
	VCVTPD2DQY Y2, X3
	VCVTDQ2PD  X3, Y2

	// r = (arg - kf*ln2u - kf*ln2l) / 16, each step fused as in math.Exp
	VFNMADD231PD Y12, Y2, Y1
	VFNMADD231PD Y11, Y2, Y1
	VMULPD       Y10, Y1, Y1

	// p = ((((((c8*r + c7)*r + c6)*r + c5)*r + c4)*r + c3)*r + 1/2)*r + 1, fused
	VMOVUPD     expc8<>(SB), Y0
	VFMADD213PD expc7<>(SB), Y1, Y0
	VFMADD213PD expc6<>(SB), Y1, Y0
	VFMADD213PD expc5<>(SB), Y1, Y0
	VFMADD213PD expc4<>(SB), Y1, Y0
	VFMADD213PD expc3<>(SB), Y1, Y0
	VFMADD213PD expc2<>(SB), Y1, Y0
	VFMADD213PD Y8, Y1, Y0

	// y = r*p = e^(r/16) - 1; y = y*(y+2) three times; then y*(y+2) + 1, fused
	VMULPD      Y0, Y1, Y0
	VADDPD      Y9, Y0, Y2
	VMULPD      Y2, Y0, Y0
	VADDPD      Y9, Y0, Y2
	VMULPD      Y2, Y0, Y0
	VADDPD      Y9, Y0, Y2
	VMULPD      Y2, Y0, Y0
	VADDPD      Y9, Y0, Y2
	VFMADD213PD Y8, Y2, Y0

	// times 2^k
	VPADDD    expbias<>(SB), X3, X3
	VPMOVZXDQ X3, Y2
	VPSLLQ    $52, Y2, Y2
	VMULPD    Y2, Y0, Y0

	VADDPD Y0, Y14, Y14 // s += exp(arg)

	MOVQ R12, DI
	INCQ R9
	JMP  loop

done:
	VMOVUPD    Y14, (R8)
	MOVQ       R9, ret+48(FP)
	VZEROUPPER
	RET
