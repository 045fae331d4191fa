package palette

import (
	"testing"

	"github.com/cara-sim/cara/algos"
)

func TestRGB(t *testing.T) {
	tests := []struct {
		name    algos.Name
		r, g, b uint8
	}{
		{"cara-t", 0xD5, 0x5E, 0x00},
		{"adwin", 0x00, 0x72, 0xB2},
		{"no-such", 0x77, 0x77, 0x77},
	}
	for _, tc := range tests {
		r, g, b := RGB(tc.name)
		if r != tc.r || g != tc.g || b != tc.b {
			t.Errorf("RGB(%q) = %02x%02x%02x, want %02x%02x%02x", tc.name, r, g, b, tc.r, tc.g, tc.b)
		}
	}
}

func TestDistinct(t *testing.T) {
	seen := map[string]algos.Name{}
	for name, h := range hex {
		if other, ok := seen[h]; ok {
			t.Errorf("%s and %s share colour %s", name, other, h)
		}
		seen[h] = name
	}
}
