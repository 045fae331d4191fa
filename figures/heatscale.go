package figures

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot/palette"

	cpal "github.com/cara-sim/cara/internal/palette"
)

// heatScale is the cost matrix's colour map in the figures: the player's scale (greys and violets,
// a hue no algorithm's path uses) turned for a white page, so cheap cells are pale and dear ones
// dark. It is sequential from 0 when no cell is negative; a grey-teal half below 0 appears only when
// some cell is, so no colour is spent on values that do not occur. Colours between the stops are
// interpolated linearly in RGB.
type heatScale struct {
	vals  []float64
	cols  []color.NRGBA
	alpha float64
}

// newHeatScale returns the scale for cells in [lo, hi] (lo < 0 adds the negative half).
func newHeatScale(lo, hi float64) *heatScale {
	h := &heatScale{alpha: 1}
	if lo < 0 {
		// Most negative first: dark teal to pale, then zero.
		neg := []cpal.Colour{cpal.Negative[2], cpal.Negative[3], cpal.Negative[4]}
		for i, c := range neg {
			h.add(lo*(1-float64(i)/float64(len(neg))), c)
		}
	}
	seq := cpal.Sequential
	for i := range seq {
		c := seq[len(seq)-1-i] // pale lavender at zero, dark grey at the top
		h.add(hi*float64(i)/float64(len(seq)-1), c)
	}
	return h
}

func (h *heatScale) add(v float64, c cpal.Colour) {
	r, g, b := c.RGB()
	h.vals = append(h.vals, v)
	h.cols = append(h.cols, color.NRGBA{r, g, b, 255})
}

// At implements palette.ColorMap.
func (h *heatScale) At(v float64) (color.Color, error) {
	lo, hi := h.Min(), h.Max()
	if v < lo || v > hi {
		return nil, fmt.Errorf("heat scale: %g is outside [%g, %g]", v, lo, hi)
	}
	i := 1
	for i < len(h.vals)-1 && v > h.vals[i] {
		i++
	}
	a, b := h.cols[i-1], h.cols[i]
	f := 0.0
	if d := h.vals[i] - h.vals[i-1]; d > 0 {
		f = (v - h.vals[i-1]) / d
	}
	mix := func(x, y uint8) uint8 { return uint8(float64(x) + f*(float64(y)-float64(x)) + 0.5) }
	return color.NRGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), uint8(255 * h.alpha)}, nil
}

func (h *heatScale) Min() float64       { return h.vals[0] }
func (h *heatScale) Max() float64       { return h.vals[len(h.vals)-1] }
func (h *heatScale) SetMin(float64)     {} // fixed by the matrix it was made for
func (h *heatScale) SetMax(float64)     {}
func (h *heatScale) Alpha() float64     { return h.alpha }
func (h *heatScale) SetAlpha(a float64) { h.alpha = a }

// Palette implements palette.ColorMap: n colours evenly over [Min, Max].
func (h *heatScale) Palette(n int) palette.Palette {
	cs := make([]color.Color, n)
	for i := range cs {
		v := h.Min() + (h.Max()-h.Min())*float64(i)/float64(max(n-1, 1))
		cs[i], _ = h.At(min(v, h.Max()))
	}
	return plainPalette(cs)
}

type plainPalette []color.Color

func (p plainPalette) Colors() []color.Color { return p }
