package figures

import (
	"slices"
	"testing"
)

// Round ticks: 0, 20, 40 ... over (2, 95], not gonum's 10, 60, 110; decimals only as fine as the
// step; minor ticks unlabelled halfway.
func TestRoundTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []string
	}{
		{0, 95.4, []string{"0", "20", "40", "60", "80"}},
		{3.8, 95.4, []string{"20", "40", "60", "80"}},
		{0, 25, []string{"0", "5", "10", "15", "20", "25"}},
		{0.9, 1, []string{"0.90", "0.92", "0.94", "0.96", "0.98", "1.00"}},
		{-12, 30, []string{"-10", "0", "10", "20", "30"}},
	} {
		var got []string
		for _, tk := range (roundTicks{}).Ticks(tc.lo, tc.hi) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("ticks over [%v, %v]: %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
}
