package tui

import (
	"math"

	"github.com/cara-sim/cara/internal/palette"
)

// heatScale is the heat map's colour scale. It is taken from every computed cell (and the
// scenario's R), not from the revealed ones, so a cell keeps its colour while you step; it grows
// only while the engine is still computing, and the colour bar says so.
type heatScale struct {
	lo, hi float64 // lo <= 0 < hi
	final  bool    // the whole matrix is in: the scale will not change again
}

func newHeatScale() heatScale { return heatScale{hi: 0} }

// addValue widens the scale to v (the diagonal's R).
func (h *heatScale) addValue(v float64) {
	if !math.IsNaN(v) && !math.IsInf(v, 0) {
		h.lo, h.hi = min(h.lo, v), max(h.hi, v)
	}
}

func (h heatScale) top() float64 {
	if h.hi > 0 {
		return h.hi
	}
	return 1
}

// step places a value on the scale: negative steps -1..-5 (toward the most negative), 0..8 for
// values from zero to the top. Values beyond the scale take its end step.
func (h heatScale) step(v float64) int {
	if v < 0 && h.lo < 0 {
		k := int(v / h.lo * float64(len(palette.Negative)))
		return -1 - min(max(k, 0), len(palette.Negative)-1)
	}
	n := len(palette.Sequential)
	k := int(math.Max(v, 0) / h.top() * float64(n))
	return min(max(k, 0), n-1)
}

// colour is a step's colour.
func stepColour(s int) palette.Colour {
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

func stepGlyph(s int) rune {
	if s < 0 {
		return negShades[-1-s]
	}
	return shades[s]
}
