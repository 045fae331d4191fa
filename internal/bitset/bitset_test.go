package bitset

import "testing"

// Bits across word boundaries: each set bit reads back, its neighbours stay clear, and Count is
// the number set.
func TestBits(t *testing.T) {
	for _, tc := range []struct {
		n   int
		set []int
	}{
		{0, nil},
		{1, []int{0}},
		{64, []int{0, 63}},
		{65, []int{63, 64}},
		{130, []int{1, 64, 127, 128, 129}},
	} {
		b := New(tc.n)
		if len(b.Words) != (tc.n+63)/64 || b.N != tc.n {
			t.Errorf("New(%d): %d words, N %d", tc.n, len(b.Words), b.N)
		}
		in := map[int]bool{}
		for _, i := range tc.set {
			b.Set(i)
			in[i] = true
		}
		for i := range tc.n {
			if b.Get(i) != in[i] {
				t.Errorf("n %d: bit %d is %v, want %v", tc.n, i, b.Get(i), in[i])
			}
		}
		if b.Count() != len(tc.set) {
			t.Errorf("n %d: Count %d, want %d", tc.n, b.Count(), len(tc.set))
		}
	}
}
