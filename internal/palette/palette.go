// Package palette owns the colours of cara: the colour that stands for each algorithm (so the
// terminal UI and the figures agree), the player's heat-map scales, the batch scatter's class
// colours and the few marks beside them. Every colour is given at the three depths a terminal may
// have (24-bit, the xterm 256-colour palette, the 16 ANSI colours), chosen by hand rather than by
// nearest match, so that no heat colour quantises onto an algorithm's colour at any depth (the
// tests hold the palette to that).
//
// The algorithm colours are Okabe & Ito's colour-blind-safe set (plus one brown), in the order of
// algos.Names; the player has colours of its own for the rows beyond them, which the figures draw
// in grey with dashes (Screen: the four more detectors, the fixed schedules by kind). The heat scales run from dark to light in greys and violets, a hue no algorithm uses,
// so paths drawn over the heat stay visible.
package palette

import (
	"strings"

	"github.com/cara-sim/cara/algos"
)

// Colour is one colour at the three depths a terminal may have.
type Colour struct {
	Hex  string // "#RRGGBB", for 24-bit terminals and the figures
	X256 uint8  // xterm 256-colour index
	X16  uint8  // ANSI colour 0-15
}

// algo maps an algorithm name to its colour. The 256-colour entries are the nearest the terminal
// libraries would pick, written down so that the heat scales can be kept clear of them. The 16
// ANSI colours are too few for nine algorithms: besides black and the greys the heat map and the
// axes use (7, 8, 15) they have six hues, each dark and bright, and many terminal themes draw the
// two alike. Each algorithm has an index of its own, none the dim grey (8) that vanishes on a
// black background, but three pairs share a hue (Sixteen): CARA-T and Page-Hinkley red, CARA-CT
// and CARA-P yellow, Never-retrain and DDM green. The panes name every line and row (the chart's
// keys T, PH, CT, P, N, D; the decisions' and the table's names), so none is told by colour alone.
var algo = map[algos.Name]Colour{
	"oracle":       {"#CC79A7", 175, 13}, // reddish purple
	"cara-t":       {"#D55E00", 166, 9},  // vermillion: the paper draws CARA-T in red
	"cara-ct":      {"#E69F00", 178, 3},  // orange
	"cara-p":       {"#F0E442", 221, 11}, // yellow
	"never":        {"#999999", 102, 10}, // grey (bright green at 16 colours, where grey is the heat's)
	"markov":       {"#56B4E9", 74, 6},   // sky blue
	"adwin":        {"#0072B2", 25, 12},  // blue
	"ddm":          {"#009E73", 36, 2},   // bluish green
	"page-hinkley": {"#A6761D", 136, 1},  // brown (red at 16 colours)
}

var unknown = Colour{"#777777", 243, 7}

// SharedHues are the pairs of algorithms that share a hue at 16 colours, one dark and one bright:
// six hues for nine algorithms (algo).
var SharedHues = [][2]algos.Name{{"cara-t", "page-hinkley"}, {"cara-ct", "cara-p"}, {"never", "ddm"}}

// Algo returns the colour of an algorithm (a grey for an unknown name).
func Algo(name algos.Name) Colour {
	if c, ok := algo[name]; ok {
		return c
	}
	return unknown
}

// Algos returns every algorithm colour (for checks that other colours stay clear of them).
func Algos() []Colour {
	out := make([]Colour, 0, len(algo))
	for _, c := range algo {
		out = append(out, c)
	}
	return out
}

// more are the player's colours of the rows beyond the nine, which the figures draw in grey with a
// dash pattern each (figures/dashes.go): a terminal has no dashes, so each has a colour of its own
// at 24 bits and 256 colours, chosen (as xterm-256 entries, exact at both depths) as far as could
// be, in CIE L*a*b*, from every other algorithm's, heat, class and mark colour, and light enough
// for a dark terminal (TestScreenDistinct holds them to that). At 16 colours there is no index
// left (the nine and the heat scales take them all): each shares one with an algorithm of the
// nine, and the player tells them apart by their keys (pane.AlgoKey), as it does the three pairs
// of SharedHues. Fixed schedules have a colour per kind: every-K, every-K+O and at.
var more = map[algos.Name]Colour{
	"eddm":   x256(70, 2),   // lime (DDM's green at 16 colours)
	"hddm-a": x256(197, 9),  // rose (CARA-T's red)
	"hddm-w": x256(201, 13), // magenta (the Oracle's)
	"kswin":  x256(46, 10),  // green (Never-retrain's)
}

// Schedule colours, by kind.
var (
	ScheduleEvery  = x256(229, 11) // every-K: pale yellow (CARA-P's yellow at 16 colours)
	ScheduleOffset = x256(150, 3)  // every-K+O: sage (CARA-CT's)
	ScheduleAt     = x256(196, 1)  // at: red (Page-Hinkley's)
)

// Screen returns the colour the player draws an algorithm in: Algo's for the nine, a colour of its
// own for each detector beyond them (more) and each kind of fixed schedule, a grey for an unknown
// name.
func Screen(name algos.Name) Colour {
	if c, ok := algo[name]; ok {
		return c
	}
	if c, ok := more[name]; ok {
		return c
	}
	switch {
	case name == "at":
		return ScheduleAt
	case name.IsSchedule() && strings.Contains(string(name), "+"):
		return ScheduleOffset
	case name.IsSchedule():
		return ScheduleEvery
	}
	return unknown
}

// Screens returns every colour Screen gives an algorithm (for checks that other colours stay clear
// of them).
func Screens() []Colour {
	out := Algos()
	for _, c := range more {
		out = append(out, c)
	}
	return append(out, ScheduleEvery, ScheduleOffset, ScheduleAt)
}

// Hex returns the colour of an algorithm as "#RRGGBB" ("#777777" for an unknown name).
func Hex(name algos.Name) string { return Algo(name).Hex }

// RGB returns the colour of an algorithm as 8-bit components.
func RGB(name algos.Name) (r, g, b uint8) { return Algo(name).RGB() }

// RGB returns the colour as 8-bit components.
func (c Colour) RGB() (r, g, b uint8) {
	var v [3]uint8
	for i := range v {
		v[i] = unhex(c.Hex[1+2*i])<<4 | unhex(c.Hex[2+2*i])
	}
	return v[0], v[1], v[2]
}

func unhex(c byte) uint8 {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return 0
}

// x256 is the colour of an xterm-256 index as the terminal shows it, so the 24-bit entry of a
// scale colour is the very colour a 256-colour terminal shows.
func x256(i uint8, x16 uint8) Colour {
	var hex string
	switch {
	case i >= 232:
		v := 8 + 10*int(i-232)
		hex = rgbHex(v, v, v)
	case i >= 16:
		lv := [6]int{0, 95, 135, 175, 215, 255}
		j := int(i - 16)
		hex = rgbHex(lv[j/36], lv[j/6%6], lv[j%6])
	default:
		hex = "#000000"
	}
	return Colour{hex, i, x16}
}

func rgbHex(r, g, b int) string {
	const digits = "0123456789ABCDEF"
	out := []byte{'#', 0, 0, 0, 0, 0, 0}
	for k, v := range []int{r, g, b} {
		out[1+2*k], out[2+2*k] = digits[v>>4], digits[v&15]
	}
	return string(out)
}

// Sequential is the heat scale for a matrix whose cells are all >= 0: nine steps from dark grey
// (cheap) through indigo and violet to pale lavender (dear), lightness rising at every step. At 16
// colours a terminal has no such ramp; the player draws shade glyphs in the two greys instead.
var Sequential = []Colour{
	x256(236, 7), x256(238, 7), x256(60, 7), x256(97, 7), x256(134, 7),
	x256(141, 15), x256(147, 15), x256(183, 15), x256(189, 15),
}

// Negative is the other half of the diverging scale, used only when some cell is < 0: five steps
// of grey-teal from near zero (dark) to most negative (light), so that on a dark terminal both
// extremes are bright and zero is dark.
var Negative = []Colour{
	x256(237, 4), x256(23, 4), x256(66, 4), x256(109, 4), x256(152, 4),
}

// Classes are the batch scatter's class colours (class 0, class 1): violet and peach,
// apart on the blue-orange axis that colour-blind viewers keep, and clear of the algorithm colours.
var Classes = [2]Colour{x256(141, 14), x256(216, 5)}

// Marks are the colours of the scatter's and the heat map's other marks.
var (
	Query     = x256(231, 15) // the batch's queries
	Trail     = x256(240, 8)  // earlier batches, faint
	Boundary  = x256(237, 8)  // behind the scatter's cells that the true decision boundary crosses
	WrongBg   = x256(52, 1)   // background behind a misclassified point
	Cursor    = x256(231, 15) // the heat map's cursor
	Hidden    = x256(240, 8)  // cells of batches not revealed yet (dots)
	Axis      = x256(244, 7)  // axes, ticks and their labels
	FocusEdge = x256(255, 15) // the border of the focused pane
	Edge      = x256(240, 8)  // other borders
	Accent    = x256(183, 13) // the picker's selection
)
