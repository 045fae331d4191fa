package figures

import (
	"image/color"
	"testing"

	"github.com/cara-sim/cara/algos"
)

func luma(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return 0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)
}

// The figure's heat scale: sequential from zero when no cell is negative, dearer cells darker, a
// negative half only when needed, and no step equal to an algorithm's path colour.
func TestHeatScale(t *testing.T) {
	pos := newHeatScale(0, 70)
	if pos.Min() != 0 || pos.Max() != 70 {
		t.Fatalf("all >= 0: range [%g, %g], want [0, 70]", pos.Min(), pos.Max())
	}
	prev := 1e18
	for v := 0.0; v <= 70; v += 0.5 {
		c, err := pos.At(v)
		if err != nil {
			t.Fatal(err)
		}
		if l := luma(c); l > prev+1e-9 {
			t.Fatalf("at %g the scale gets lighter (%g after %g): dearer cells must be darker", v, l, prev)
		} else {
			prev = l
		}
		for _, name := range algos.Names {
			if sameRGB(c, algoColor(name)) {
				t.Errorf("at %g the heat equals %s's path colour", v, name)
			}
		}
	}
	if _, err := pos.At(-1); err == nil {
		t.Error("a value below the scale must be an error")
	}
	neg := newHeatScale(-5, 10)
	if neg.Min() != -5 || neg.Max() != 10 {
		t.Fatalf("with negatives: range [%g, %g], want [-5, 10]", neg.Min(), neg.Max())
	}
	a, _ := neg.At(-5)
	z, _ := neg.At(0)
	if luma(a) >= luma(z) {
		t.Error("the most negative cell should be darker than zero")
	}
	if len(pos.Palette(255).Colors()) != 255 {
		t.Error("palette size")
	}
}

func sameRGB(a, b color.Color) bool {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	return ar>>8 == br>>8 && ag>>8 == bg>>8 && ab>>8 == bb>>8
}
