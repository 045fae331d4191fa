// Package palette owns the colours that stand for each algorithm, so the terminal UI and the
// figures agree. The colours are Okabe & Ito's colour-blind-safe set (plus one brown), in the order
// of algos.Names.
package palette

import "github.com/cara-sim/cara/algos"

// hex maps an algorithm to its colour.
var hex = map[algos.Name]string{
	algos.NameOracle:      "#CC79A7", // reddish purple
	algos.NameCaraT:       "#D55E00", // vermillion: the paper draws CARA-T in red
	algos.NameCaraCT:      "#E69F00", // orange
	algos.NameCaraP:       "#F0E442", // yellow
	algos.NameNever:       "#999999", // grey
	algos.NameMarkov:      "#56B4E9", // sky blue
	algos.NameADWIN:       "#0072B2", // blue
	algos.NameDDM:         "#009E73", // bluish green
	algos.NamePageHinkley: "#A6761D", // brown
}

// Hex returns the colour of an algorithm as "#RRGGBB" ("#777777" for an unknown name).
func Hex(name algos.Name) string {
	if h, ok := hex[name]; ok {
		return h
	}
	return "#777777"
}

// RGB returns the colour of an algorithm as 8-bit components.
func RGB(name algos.Name) (r, g, b uint8) {
	var v [3]uint8
	h := Hex(name)
	for i := range v {
		v[i] = unhex(h[1+2*i])<<4 | unhex(h[2+2*i])
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
