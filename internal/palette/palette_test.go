package palette

import (
	"math"
	"slices"
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

// Algorithms are told apart by colour at 24 bits and at 256 colours (at 16 colours two pairs
// share a colour: there are not enough).
func TestDistinct(t *testing.T) {
	hex, x256 := map[string]algos.Name{}, map[uint8]algos.Name{}
	for name, c := range algo {
		if other, ok := hex[c.Hex]; ok {
			t.Errorf("%s and %s share colour %s", name, other, c.Hex)
		}
		if other, ok := x256[c.X256]; ok {
			t.Errorf("%s and %s share 256-colour index %d", name, other, c.X256)
		}
		hex[c.Hex], x256[c.X256] = name, name
	}
}

// No heat, class or scatter colour is an algorithm's colour at 256 or at 16 colours: a path drawn
// over the heat, or a class beside a legend, can never be mistaken for an algorithm.
func TestScalesAvoidAlgorithms(t *testing.T) {
	used256, used16 := map[uint8]bool{}, map[uint8]bool{}
	for _, c := range Algos() {
		used256[c.X256], used16[c.X16] = true, true
	}
	var others []Colour
	others = append(others, Sequential...)
	others = append(others, Negative...)
	others = append(others, Classes[:]...)
	for _, c := range others {
		if used256[c.X256] {
			t.Errorf("colour %s (256-colour %d) is an algorithm's", c.Hex, c.X256)
		}
		if used16[c.X16] {
			t.Errorf("colour %s (16-colour %d) is an algorithm's", c.Hex, c.X16)
		}
	}
	if Classes[0].X256 == Classes[1].X256 || Classes[0].X16 == Classes[1].X16 {
		t.Error("the two classes share a colour")
	}
}

// The scales' lightness (CIE L*) rises step by step, so a darker cell is always a cheaper one.
func TestScalesRiseInLightness(t *testing.T) {
	for name, scale := range map[string][]Colour{"sequential": Sequential, "negative": Negative} {
		prev := -1.0
		for i, c := range scale {
			l := lightness(c)
			if l <= prev+2 {
				t.Errorf("%s step %d (%s): L* %.1f after %.1f", name, i, c.Hex, l, prev)
			}
			prev = l
		}
	}
}

// The 24-bit entry of a 256-colour scale step is that index's colour: index 60 is (95, 95, 135).
func TestX256(t *testing.T) {
	for _, tc := range []struct {
		i    uint8
		want string
	}{{60, "#5F5F87"}, {231, "#FFFFFF"}, {16, "#000000"}, {236, "#303030"}, {189, "#D7D7FF"}} {
		if got := x256(tc.i, 0).Hex; got != tc.want {
			t.Errorf("x256(%d) = %s, want %s", tc.i, got, tc.want)
		}
	}
}

func lightness(c Colour) float64 {
	r, g, b := c.RGB()
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	y := 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
	if y <= 216.0/24389 {
		return y * 24389 / 27
	}
	return 116*math.Cbrt(y) - 16
}

// At 16 colours every algorithm still has a colour of its own, and none is black or the dim grey
// that vanishes on a black terminal.
func TestAlgorithms16Colours(t *testing.T) {
	seen := map[uint8]algos.Name{}
	for name, c := range algo {
		if other, ok := seen[c.X16]; ok {
			t.Errorf("%s and %s share 16-colour %d", name, other, c.X16)
		}
		if c.X16 == 0 || c.X16 == 8 {
			t.Errorf("%s is 16-colour %d: unreadable on a black terminal", name, c.X16)
		}
		seen[c.X16] = name
	}
}

// At 16 colours each algorithm has an index of its own, none black or the dim grey, and the pairs
// that share a hue (a dark and a bright of one of the six) are exactly SharedHues, as the README
// says: six hues cannot tell nine algorithms apart.
func TestSixteen(t *testing.T) {
	index := map[uint8]algos.Name{}
	hue := map[uint8][]algos.Name{}
	for _, name := range algos.Names {
		c := Algo(name)
		if other, ok := index[c.X16]; ok {
			t.Errorf("%s and %s share 16-colour index %d", name, other, c.X16)
		}
		if c.X16 == 0 || c.X16 == 8 || c.X16 == 7 || c.X16 == 15 {
			t.Errorf("%s is drawn in %d, black or a grey", name, c.X16)
		}
		index[c.X16] = name
		hue[c.X16%8] = append(hue[c.X16%8], name)
	}
	var shared [][2]algos.Name
	for _, names := range hue {
		if len(names) > 2 {
			t.Errorf("%v share one hue", names)
		}
		if len(names) == 2 {
			shared = append(shared, [2]algos.Name{names[0], names[1]})
		}
	}
	if len(shared) != len(SharedHues) {
		t.Fatalf("%d pairs share a hue, %v; SharedHues (and the README) say %v", len(shared), shared, SharedHues)
	}
	for _, p := range SharedHues {
		a, b := Algo(p[0]).X16, Algo(p[1]).X16
		if a%8 != b%8 || a == b {
			t.Errorf("%s (%d) and %s (%d): not a dark and a bright of one hue", p[0], a, p[1], b)
		}
	}
}

// The player's colours for the rows beyond the nine (Screen) are each its own at 24 bits and 256
// colours, apart from every other algorithm colour and from the heat, class and mark colours by at
// least a CIE76 distance of 20 (the nine's closest pair, Markov's sky blue and ADWIN's blue, are
// 26 apart), and light enough (L* >= 50) to read on a dark terminal. At 16 colours each takes an
// algorithm's index, never a heat scale's or a class's: its key tells it apart.
func TestScreenDistinct(t *testing.T) {
	extra := map[algos.Name]Colour{"every-7": ScheduleEvery, "every-7+3": ScheduleOffset, "at": ScheduleAt}
	for n, c := range more {
		extra[n] = c
	}
	var others []Colour
	others = append(others, Sequential...)
	others = append(others, Negative...)
	others = append(others, Classes[:]...)
	others = append(others, Query, Trail, Boundary, Cursor, Hidden, Axis, FocusEdge, Edge, Accent)
	used16 := map[uint8]bool{}
	for _, c := range Algos() {
		used16[c.X16] = true
	}
	for name, c := range extra {
		if got := Screen(name); got != c {
			t.Errorf("Screen(%s) = %v, want %v", name, got, c)
		}
		if c.Hex != x256(c.X256, 0).Hex {
			t.Errorf("%s: %s is not 256-colour %d's", name, c.Hex, c.X256)
		}
		if l := lightness(c); l < 50 {
			t.Errorf("%s: L* %.1f, too dark for a dark terminal", name, l)
		}
		if !used16[c.X16] {
			t.Errorf("%s: 16-colour %d is not one of the nine's (a heat or class colour, or none)", name, c.X16)
		}
		for _, o := range append(slices.Clone(others), Screens()...) {
			if o == c {
				continue
			}
			if o.X256 == c.X256 {
				t.Errorf("%s shares 256-colour %d with %s", name, c.X256, o.Hex)
			}
			if d := deltaE(c, o); d < 20 {
				t.Errorf("%s (%s) is %.1f from %s", name, c.Hex, d, o.Hex)
			}
		}
	}
	// The nine keep their colours: the figures and the terminal agree on them.
	for _, n := range algos.Names {
		if Screen(n) != Algo(n) {
			t.Errorf("Screen(%s) %v is not Algo's %v", n, Screen(n), Algo(n))
		}
	}
	if Screen("no-such") != unknown {
		t.Error("an unknown name is not grey")
	}
}

// deltaE is the CIE76 distance between two colours.
func deltaE(a, b Colour) float64 {
	la, aa, ba := labOf(a)
	lb, ab, bb := labOf(b)
	return math.Sqrt((la-lb)*(la-lb) + (aa-ab)*(aa-ab) + (ba-bb)*(ba-bb))
}

// labOf is a colour in CIE L*a*b* (D65).
func labOf(c Colour) (l, a, b float64) {
	r, g, bl := c.RGB()
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	R, G, B := lin(r), lin(g), lin(bl)
	X := (0.4124*R + 0.3576*G + 0.1805*B) / 0.95047
	Y := 0.2126*R + 0.7152*G + 0.0722*B
	Z := (0.0193*R + 0.1192*G + 0.9505*B) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	return 116*f(Y) - 16, 500 * (f(X) - f(Y)), 200 * (f(Y) - f(Z))
}
