// Package palette owns the colours that stand for each algorithm, so the terminal UI and the
// figures agree. The colours are Okabe & Ito's colour-blind-safe set (plus one brown), in the order
// of algos.Names.
package palette

// hex maps an algorithm name to its colour.
var hex = map[string]string{
	"oracle":       "#CC79A7", // reddish purple
	"cara-t":       "#D55E00", // vermillion: the paper draws CARA-T in red
	"cara-ct":      "#E69F00", // orange
	"cara-p":       "#F0E442", // yellow
	"never":        "#999999", // grey
	"markov":       "#56B4E9", // sky blue
	"adwin":        "#0072B2", // blue
	"ddm":          "#009E73", // bluish green
	"page-hinkley": "#A6761D", // brown
}

// Hex returns the colour of an algorithm as "#RRGGBB" ("#777777" for an unknown name).
func Hex(name string) string {
	if h, ok := hex[name]; ok {
		return h
	}
	return "#777777"
}

// RGB returns the colour of an algorithm as 8-bit components.
func RGB(name string) (r, g, b uint8) {
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
