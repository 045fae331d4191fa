//go:build !purego

#include "textflag.h"

// expSums8 is the staleness kernel's inner loop for eight points at once, one per lane of two
// 256-bit registers (see kernel_amd64.go). Each lane does, in the same order and with the same
// roundings, what the scalar loop does for its point: dist = (q0-x0)^2 + (q1-x1)^2 + ... (a
// multiply and a separate add per feature, never fused), arg = -gamma*dist, and exp(arg) by the
// method of the standard library's math.Exp on amd64 CPUs with FMA (Shibata's reduction
// x = k*ln2 + r with ln2 in two parts, r/16, a degree-8 Taylor polynomial in Horner form with
// fused multiply-adds, four squarings of e^(r/16) - 1, and a scaling by 2^k), then s += exp(arg).
// Lanes are independent, so the sum of each point runs over the queries in order, as the scalar
// loop's does. A query whose argument is below -708 in some lane (exp would leave the normal
// range) or is NaN stops the loop before that query: the caller takes it the scalar way.



// The constants, eight of each: the 512-bit loop loads them whole, the 256-bit loop the first four.
DATA expc8<>+0(SB)/8, $2.4801587301587301587e-5
DATA expc8<>+8(SB)/8, $2.4801587301587301587e-5
DATA expc8<>+16(SB)/8, $2.4801587301587301587e-5
DATA expc8<>+24(SB)/8, $2.4801587301587301587e-5
DATA expc8<>+32(SB)/8, $2.4801587301587301587e-5
DATA expc8<>+40(SB)/8, $2.4801587301587301587e-5
DATA expc8<>+48(SB)/8, $2.4801587301587301587e-5
DATA expc8<>+56(SB)/8, $2.4801587301587301587e-5
GLOBL expc8<>(SB), RODATA, $64
DATA expc7<>+0(SB)/8, $1.9841269841269841270e-4
DATA expc7<>+8(SB)/8, $1.9841269841269841270e-4
DATA expc7<>+16(SB)/8, $1.9841269841269841270e-4
DATA expc7<>+24(SB)/8, $1.9841269841269841270e-4
DATA expc7<>+32(SB)/8, $1.9841269841269841270e-4
DATA expc7<>+40(SB)/8, $1.9841269841269841270e-4
DATA expc7<>+48(SB)/8, $1.9841269841269841270e-4
DATA expc7<>+56(SB)/8, $1.9841269841269841270e-4
GLOBL expc7<>(SB), RODATA, $64
DATA expc6<>+0(SB)/8, $1.3888888888888888889e-3
DATA expc6<>+8(SB)/8, $1.3888888888888888889e-3
DATA expc6<>+16(SB)/8, $1.3888888888888888889e-3
DATA expc6<>+24(SB)/8, $1.3888888888888888889e-3
DATA expc6<>+32(SB)/8, $1.3888888888888888889e-3
DATA expc6<>+40(SB)/8, $1.3888888888888888889e-3
DATA expc6<>+48(SB)/8, $1.3888888888888888889e-3
DATA expc6<>+56(SB)/8, $1.3888888888888888889e-3
GLOBL expc6<>(SB), RODATA, $64
DATA expc5<>+0(SB)/8, $8.3333333333333333333e-3
DATA expc5<>+8(SB)/8, $8.3333333333333333333e-3
DATA expc5<>+16(SB)/8, $8.3333333333333333333e-3
DATA expc5<>+24(SB)/8, $8.3333333333333333333e-3
DATA expc5<>+32(SB)/8, $8.3333333333333333333e-3
DATA expc5<>+40(SB)/8, $8.3333333333333333333e-3
DATA expc5<>+48(SB)/8, $8.3333333333333333333e-3
DATA expc5<>+56(SB)/8, $8.3333333333333333333e-3
GLOBL expc5<>(SB), RODATA, $64
DATA expc4<>+0(SB)/8, $4.1666666666666666667e-2
DATA expc4<>+8(SB)/8, $4.1666666666666666667e-2
DATA expc4<>+16(SB)/8, $4.1666666666666666667e-2
DATA expc4<>+24(SB)/8, $4.1666666666666666667e-2
DATA expc4<>+32(SB)/8, $4.1666666666666666667e-2
DATA expc4<>+40(SB)/8, $4.1666666666666666667e-2
DATA expc4<>+48(SB)/8, $4.1666666666666666667e-2
DATA expc4<>+56(SB)/8, $4.1666666666666666667e-2
GLOBL expc4<>(SB), RODATA, $64
DATA expc3<>+0(SB)/8, $1.6666666666666666667e-1
DATA expc3<>+8(SB)/8, $1.6666666666666666667e-1
DATA expc3<>+16(SB)/8, $1.6666666666666666667e-1
DATA expc3<>+24(SB)/8, $1.6666666666666666667e-1
DATA expc3<>+32(SB)/8, $1.6666666666666666667e-1
DATA expc3<>+40(SB)/8, $1.6666666666666666667e-1
DATA expc3<>+48(SB)/8, $1.6666666666666666667e-1
DATA expc3<>+56(SB)/8, $1.6666666666666666667e-1
GLOBL expc3<>(SB), RODATA, $64
DATA expc2<>+0(SB)/8, $0.5
DATA expc2<>+8(SB)/8, $0.5
DATA expc2<>+16(SB)/8, $0.5
DATA expc2<>+24(SB)/8, $0.5
DATA expc2<>+32(SB)/8, $0.5
DATA expc2<>+40(SB)/8, $0.5
DATA expc2<>+48(SB)/8, $0.5
DATA expc2<>+56(SB)/8, $0.5
GLOBL expc2<>(SB), RODATA, $64
DATA exp16<>+0(SB)/8, $0.0625
DATA exp16<>+8(SB)/8, $0.0625
DATA exp16<>+16(SB)/8, $0.0625
DATA exp16<>+24(SB)/8, $0.0625
DATA exp16<>+32(SB)/8, $0.0625
DATA exp16<>+40(SB)/8, $0.0625
DATA exp16<>+48(SB)/8, $0.0625
DATA exp16<>+56(SB)/8, $0.0625
GLOBL exp16<>(SB), RODATA, $64
DATA expmin<>+0(SB)/8, $-708.0
DATA expmin<>+8(SB)/8, $-708.0
DATA expmin<>+16(SB)/8, $-708.0
DATA expmin<>+24(SB)/8, $-708.0
DATA expmin<>+32(SB)/8, $-708.0
DATA expmin<>+40(SB)/8, $-708.0
DATA expmin<>+48(SB)/8, $-708.0
DATA expmin<>+56(SB)/8, $-708.0
GLOBL expmin<>(SB), RODATA, $64
DATA expbias<>+0(SB)/4, $1023
DATA expbias<>+4(SB)/4, $1023
DATA expbias<>+8(SB)/4, $1023
DATA expbias<>+12(SB)/4, $1023
DATA expbias<>+16(SB)/4, $1023
DATA expbias<>+20(SB)/4, $1023
DATA expbias<>+24(SB)/4, $1023
DATA expbias<>+28(SB)/4, $1023
GLOBL expbias<>(SB), RODATA, $32


#define LOG2E 1.4426950408889634073599246810018920
#define LN2U 0.69314718055966295651160180568695068359375
#define LN2L 0.28235290563031577122588448175013436025525412068e-12

// func expSums8(x *float64, d int, q *float64, nq int, negGamma float64, s *[8]float64) int
//
// The eight lanes run as two independent chains of four, so the CPU has twice the work in flight.
TEXT ·expSums8(SB), NOSPLIT, $0-56
	MOVQ x+0(FP), SI
	MOVQ d+8(FP), CX
	MOVQ q+16(FP), DI
	MOVQ nq+24(FP), DX
	VBROADCASTSD negGamma+32(FP), Y15
	MOVQ s+40(FP), R8
	VMOVUPD (R8), Y14
	VMOVUPD 32(R8), Y13

	MOVSD $LOG2E, X12
	VBROADCASTSD X12, Y12
	MOVSD $LN2U, X11
	VBROADCASTSD X11, Y11
	MOVSD $2.0, X10
	VBROADCASTSD X10, Y10
	MOVSD $1.0, X9
	VBROADCASTSD X9, Y9
	MOVSD $LN2L, X8
	VBROADCASTSD X8, Y8

	XORQ R9, R9

loop8:
	CMPQ R9, DX
	JGE  done8
	MOVQ DI, R12
	MOVQ SI, R11
	MOVQ CX, R10

	VBROADCASTSD (R12), Y0
	VSUBPD       (R11), Y0, Y2
	VSUBPD       32(R11), Y0, Y6
	VMULPD       Y2, Y2, Y1
	VMULPD       Y6, Y6, Y5
	ADDQ         $8, R12
	ADDQ         $64, R11
	DECQ         R10

features8:
	JZ           arg8
	VBROADCASTSD (R12), Y0
	VSUBPD       (R11), Y0, Y2
	VSUBPD       32(R11), Y0, Y6
	VMULPD       Y2, Y2, Y2
	VMULPD       Y6, Y6, Y6
	VADDPD       Y2, Y1, Y1
	VADDPD       Y6, Y5, Y5
	ADDQ         $8, R12
	ADDQ         $64, R11
	DECQ         R10
	JMP          features8

arg8:
	VMULPD    Y1, Y15, Y1
	VMULPD    Y5, Y15, Y5
	VCMPPD    $0x1d, expmin<>(SB), Y1, Y2
	VCMPPD    $0x1d, expmin<>(SB), Y5, Y6
	VANDPD    Y2, Y6, Y2
	VMOVMSKPD Y2, AX
	CMPL      AX, $15
	JNE       done8

	VMULPD     Y12, Y1, Y2
	VMULPD     Y12, Y5, Y6
	VCVTPD2DQY Y2, X4
	VCVTPD2DQY Y6, X0
	VCVTDQ2PD  X4, Y2
	VCVTDQ2PD  X0, Y6

	VFNMADD231PD Y11, Y2, Y1
	VFNMADD231PD Y11, Y6, Y5
	VFNMADD231PD Y8, Y2, Y1
	VFNMADD231PD Y8, Y6, Y5
	VMULPD       exp16<>(SB), Y1, Y1
	VMULPD       exp16<>(SB), Y5, Y5

	VMOVUPD     expc8<>(SB), Y3
	VMOVUPD     expc8<>(SB), Y7
	VFMADD213PD expc7<>(SB), Y1, Y3
	VFMADD213PD expc7<>(SB), Y5, Y7
	VFMADD213PD expc6<>(SB), Y1, Y3
	VFMADD213PD expc6<>(SB), Y5, Y7
	VFMADD213PD expc5<>(SB), Y1, Y3
	VFMADD213PD expc5<>(SB), Y5, Y7
	VFMADD213PD expc4<>(SB), Y1, Y3
	VFMADD213PD expc4<>(SB), Y5, Y7
	VFMADD213PD expc3<>(SB), Y1, Y3
	VFMADD213PD expc3<>(SB), Y5, Y7
	VFMADD213PD expc2<>(SB), Y1, Y3
	VFMADD213PD expc2<>(SB), Y5, Y7
	VFMADD213PD Y9, Y1, Y3
	VFMADD213PD Y9, Y5, Y7

	VMULPD      Y3, Y1, Y3
	VMULPD      Y7, Y5, Y7
	VADDPD      Y10, Y3, Y2
	VADDPD      Y10, Y7, Y6
	VMULPD      Y2, Y3, Y3
	VMULPD      Y6, Y7, Y7
	VADDPD      Y10, Y3, Y2
	VADDPD      Y10, Y7, Y6
	VMULPD      Y2, Y3, Y3
	VMULPD      Y6, Y7, Y7
	VADDPD      Y10, Y3, Y2
	VADDPD      Y10, Y7, Y6
	VMULPD      Y2, Y3, Y3
	VMULPD      Y6, Y7, Y7
	VADDPD      Y10, Y3, Y2
	VADDPD      Y10, Y7, Y6
	VFMADD213PD Y9, Y2, Y3
	VFMADD213PD Y9, Y6, Y7

	VPADDD    expbias<>(SB), X4, X4
	VPADDD    expbias<>(SB), X0, X0
	VPMOVZXDQ X4, Y2
	VPMOVZXDQ X0, Y6
	VPSLLQ    $52, Y2, Y2
	VPSLLQ    $52, Y6, Y6
	VMULPD    Y2, Y3, Y3
	VMULPD    Y6, Y7, Y7

	VADDPD Y3, Y14, Y14
	VADDPD Y7, Y13, Y13

	MOVQ R12, DI
	INCQ R9
	JMP  loop8

done8:
	VMOVUPD    Y14, (R8)
	VMOVUPD    Y13, 32(R8)
	MOVQ       R9, ret+48(FP)
	VZEROUPPER
	RET

// The same for sixteen points in two chains of eight lanes of 512-bit registers, where the CPU has
// AVX-512: x[16*k+l] is feature k of point l.

// func expSums16(x *float64, d int, q *float64, nq int, negGamma float64, s *[16]float64) int
TEXT ·expSums16(SB), NOSPLIT, $0-56
	MOVQ x+0(FP), SI
	MOVQ d+8(FP), CX
	MOVQ q+16(FP), DI
	MOVQ nq+24(FP), DX
	VBROADCASTSD negGamma+32(FP), Z15
	MOVQ s+40(FP), R8
	VMOVUPD (R8), Z14
	VMOVUPD 64(R8), Z13

	MOVSD $LOG2E, X12
	VBROADCASTSD X12, Z12
	MOVSD $LN2U, X11
	VBROADCASTSD X11, Z11
	MOVSD $2.0, X10
	VBROADCASTSD X10, Z10
	MOVSD $1.0, X9
	VBROADCASTSD X9, Z9
	MOVSD $LN2L, X8
	VBROADCASTSD X8, Z8
	VMOVUPD exp16<>(SB), Z16
	VMOVUPD expmin<>(SB), Z17
	VMOVUPD expc8<>(SB), Z18
	VMOVUPD expc7<>(SB), Z19
	VMOVUPD expc6<>(SB), Z20
	VMOVUPD expc5<>(SB), Z21
	VMOVUPD expc4<>(SB), Z22
	VMOVUPD expc3<>(SB), Z23
	VMOVUPD expc2<>(SB), Z24

	XORQ R9, R9

loop16:
	CMPQ R9, DX
	JGE  done16
	MOVQ DI, R12
	MOVQ SI, R11
	MOVQ CX, R10

	VBROADCASTSD (R12), Z0
	VSUBPD       (R11), Z0, Z2
	VSUBPD       64(R11), Z0, Z6
	VMULPD       Z2, Z2, Z1
	VMULPD       Z6, Z6, Z5
	ADDQ         $8, R12
	ADDQ         $128, R11
	DECQ         R10

features16:
	JZ           arg16
	VBROADCASTSD (R12), Z0
	VSUBPD       (R11), Z0, Z2
	VSUBPD       64(R11), Z0, Z6
	VMULPD       Z2, Z2, Z2
	VMULPD       Z6, Z6, Z6
	VADDPD       Z2, Z1, Z1
	VADDPD       Z6, Z5, Z5
	ADDQ         $8, R12
	ADDQ         $128, R11
	DECQ         R10
	JMP          features16

arg16:
	VMULPD Z1, Z15, Z1
	VMULPD Z5, Z15, Z5
	VCMPPD $0x1d, Z17, Z1, K1
	VCMPPD $0x1d, Z17, Z5, K2
	KANDB  K1, K2, K1
	KMOVB  K1, AX
	CMPL   AX, $0xff
	JNE    done16

	VMULPD    Z12, Z1, Z2
	VMULPD    Z12, Z5, Z6
	VCVTPD2DQ Z2, Y4
	VCVTPD2DQ Z6, Y0
	VCVTDQ2PD Y4, Z2
	VCVTDQ2PD Y0, Z6

	VFNMADD231PD Z11, Z2, Z1
	VFNMADD231PD Z11, Z6, Z5
	VFNMADD231PD Z8, Z2, Z1
	VFNMADD231PD Z8, Z6, Z5
	VMULPD       Z16, Z1, Z1
	VMULPD       Z16, Z5, Z5

	VMOVAPD     Z18, Z3
	VMOVAPD     Z18, Z7
	VFMADD213PD Z19, Z1, Z3
	VFMADD213PD Z19, Z5, Z7
	VFMADD213PD Z20, Z1, Z3
	VFMADD213PD Z20, Z5, Z7
	VFMADD213PD Z21, Z1, Z3
	VFMADD213PD Z21, Z5, Z7
	VFMADD213PD Z22, Z1, Z3
	VFMADD213PD Z22, Z5, Z7
	VFMADD213PD Z23, Z1, Z3
	VFMADD213PD Z23, Z5, Z7
	VFMADD213PD Z24, Z1, Z3
	VFMADD213PD Z24, Z5, Z7
	VFMADD213PD Z9, Z1, Z3
	VFMADD213PD Z9, Z5, Z7

	VMULPD      Z3, Z1, Z3
	VMULPD      Z7, Z5, Z7
	VADDPD      Z10, Z3, Z2
	VADDPD      Z10, Z7, Z6
	VMULPD      Z2, Z3, Z3
	VMULPD      Z6, Z7, Z7
	VADDPD      Z10, Z3, Z2
	VADDPD      Z10, Z7, Z6
	VMULPD      Z2, Z3, Z3
	VMULPD      Z6, Z7, Z7
	VADDPD      Z10, Z3, Z2
	VADDPD      Z10, Z7, Z6
	VMULPD      Z2, Z3, Z3
	VMULPD      Z6, Z7, Z7
	VADDPD      Z10, Z3, Z2
	VADDPD      Z10, Z7, Z6
	VFMADD213PD Z9, Z2, Z3
	VFMADD213PD Z9, Z6, Z7

	VPADDD    expbias<>(SB), Y4, Y4
	VPADDD    expbias<>(SB), Y0, Y0
	VPMOVZXDQ Y4, Z2
	VPMOVZXDQ Y0, Z6
	VPSLLQ    $52, Z2, Z2
	VPSLLQ    $52, Z6, Z6
	VMULPD    Z2, Z3, Z3
	VMULPD    Z6, Z7, Z7

	VADDPD Z3, Z14, Z14
	VADDPD Z7, Z13, Z13

	MOVQ R12, DI
	INCQ R9
	JMP  loop16

done16:
	VMOVUPD    Z14, (R8)
	VMOVUPD    Z13, 64(R8)
	MOVQ       R9, ret+48(FP)
	VZEROUPPER
	RET
