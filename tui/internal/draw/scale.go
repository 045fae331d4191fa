package draw

import (
	"math"

	"github.com/cara-sim/cara/internal/palette"
)

// Scale is the heat map's colour scale. It is taken from every computed cell (and the
// scenario's R), not from the revealed ones, so a cell keeps its colour while you step; it grows
// only while the engine is still computing, and the colour bar says so.
type Scale struct {
	Lo, Hi float64 // lo <= 0 < hi
	Final  bool    // the whole matrix is in: the scale will not change again
}

func NewScale() Scale { return Scale{Hi: 0} }

// Add widens the scale to v (the diagonal's R).
func (h *Scale) Add(v float64) {
	if !math.IsNaN(v) && !math.IsInf(v, 0) {
		h.Lo, h.Hi = min(h.Lo, v), max(h.Hi, v)
	}
}

func (h Scale) Top() float64 {
	if h.Hi > 0 {
		return h.Hi
	}
	return 1
}

// Step places a value on the scale: negative steps -1..-5 (toward the most negative), 0..8 for
// values from zero to the top. Values beyond the scale take its end step.
func (h Scale) Step(v float64) int {
	if v < 0 && h.Lo < 0 {
		k := int(v / h.Lo * float64(len(palette.Negative)))
		return -1 - min(max(k, 0), len(palette.Negative)-1)
	}
	n := len(palette.Sequential)
	k := int(math.Max(v, 0) / h.Top() * float64(n))
	return min(max(k, 0), n-1)
}

// colour is a step's colour.
func StepColour(s int) palette.Colour {
	if s < 0 {
		return palette.Negative[-1-s]
	}
	return palette.Sequential[s]
}

// Shade glyphs stand for the steps where colours cannot (16 colours, none): five levels up, and
// three down for negative values.
var (
	shades    = []rune{'·', '·', '░', '░', '▒', '▒', '▓', '▓', '█'}
	negShades = []rune{'-', '-', '=', '=', '≡'}
)

func StepGlyph(s int) rune {
	if s < 0 {
		return negShades[-1-s]
	}
	return shades[s]
}
