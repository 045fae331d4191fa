package figures

import (
	"image/color"
	"slices"

	"gonum.org/v1/plot/vg"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/palette"
)

// dashPatterns tell apart the lines of rows the palette has no colour for, which it draws in one
// grey: the detectors beyond the default set, one pattern each (the first four), and the fixed
// schedules (drawn near-black, scheduleInk), by their order among the rows drawn (the others).
var dashPatterns = [][]vg.Length{
	{vg.Points(6), vg.Points(3)},
	{vg.Points(2), vg.Points(2)},
	{vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)},
	{vg.Points(1), vg.Points(3)},
	{vg.Points(10), vg.Points(4)},
	{vg.Points(6), vg.Points(2), vg.Points(1), vg.Points(2)},
	{vg.Points(3), vg.Points(3)},
	{vg.Points(12), vg.Points(3), vg.Points(3), vg.Points(3), vg.Points(3), vg.Points(3)},
}

// scheduleInk is the colour of a fixed schedule's line: darker than the palette's grey.
var scheduleInk = color.Gray{Y: 0x30}

// dashesOf is the dash pattern of name's line among the rows drawn: none for one with a colour
// of its own.
func dashesOf(name algos.Name, drawn []algos.Name) []vg.Length {
	if palette.Algo(name) != palette.Algo("") {
		return nil
	}
	if i := slices.Index(algos.MoreDetectors, name); i >= 0 {
		return dashPatterns[i]
	}
	k := 0
	for _, n := range drawn {
		if n == name {
			break
		}
		if n.IsSchedule() {
			k++
		}
	}
	return dashPatterns[4+k%(len(dashPatterns)-4)]
}
