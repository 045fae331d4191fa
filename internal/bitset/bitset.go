// Package bitset owns the fixed-length bitset a model's 0-1 errors are kept in: the engine (sim)
// writes them, the algorithms (algos) and the kernel read them. It is its own package so that sim
// needs nothing of algos.
package bitset

import "math/bits"

// Bits is a fixed-length bitset: bit i is set when the model got point i wrong.
type Bits struct {
	Words []uint64
	N     int
}

// New returns a bitset of n zero bits.
func New(n int) Bits { return Bits{Words: make([]uint64, (n+63)/64), N: n} }

// Get reports bit i.
func (b Bits) Get(i int) bool { return b.Words[i>>6]&(1<<(uint(i)&63)) != 0 }

// Set sets bit i.
func (b Bits) Set(i int) { b.Words[i>>6] |= 1 << (uint(i) & 63) }

// Count returns the number of set bits.
func (b Bits) Count() int {
	n := 0
	for _, w := range b.Words {
		n += bits.OnesCount64(w)
	}
	return n
}
