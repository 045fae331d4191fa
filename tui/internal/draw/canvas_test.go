package draw

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/palette"
)

// screenCell is what a terminal shows in one cell: the rune and the attributes in force.
type screenCell struct {
	r                   rune
	bold, faint         bool
	fg, bg              string // the colour's SGR parameters, "" for the default
	underline, reversed bool
}

// screenOf plays a rendered block as a terminal would (SGR sequences only, every rune one column)
// and returns its cells, one slice per line. Attributes carry over a line's end, as in a terminal,
// so an ink left open shows on the next line. An SGR parameter it does not know fails.
func screenOf(t testing.TB, s string) [][]screenCell {
	t.Helper()
	var out [][]screenCell
	var cur screenCell
	for _, line := range strings.Split(s, "\n") {
		var row []screenCell
		for len(line) > 0 {
			if strings.HasPrefix(line, "\x1b[") {
				end := strings.IndexByte(line, 'm')
				if end < 0 {
					t.Fatalf("unterminated escape in %q", line)
				}
				applySGR(t, &cur, line[2:end])
				line = line[end+1:]
				continue
			}
			r, n := utf8.DecodeRuneInString(line)
			c := cur
			c.r = r
			row = append(row, c)
			line = line[n:]
		}
		out = append(out, row)
	}
	return out
}

// applySGR applies one SGR sequence's parameters to the attributes in force.
func applySGR(t testing.TB, c *screenCell, params string) {
	t.Helper()
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		n, err := strconv.Atoi(ps[i])
		if ps[i] == "" {
			n, err = 0, nil
		}
		if err != nil {
			t.Fatalf("SGR parameter %q in %q", ps[i], params)
		}
		colour := func() string {
			// 38;5;n or 38;2;r;g;b (and 48 for the background).
			if i+1 < len(ps) && ps[i+1] == "5" && i+2 < len(ps) {
				v := "5;" + ps[i+2]
				i += 2
				return v
			}
			if i+1 < len(ps) && ps[i+1] == "2" && i+4 < len(ps) {
				v := "2;" + strings.Join(ps[i+2:i+5], ";")
				i += 4
				return v
			}
			t.Fatalf("extended colour in %q", params)
			return ""
		}
		switch {
		case n == 0:
			*c = screenCell{}
		case n == 1:
			c.bold = true
		case n == 2:
			c.faint = true
		case n == 4:
			c.underline = true
		case n == 7:
			c.reversed = true
		case n == 22:
			c.bold, c.faint = false, false
		case n == 24:
			c.underline = false
		case n == 27:
			c.reversed = false
		case n >= 30 && n <= 37, n >= 90 && n <= 97:
			c.fg = ps[i]
		case n == 38:
			c.fg = colour()
		case n == 39:
			c.fg = ""
		case n >= 40 && n <= 47, n >= 100 && n <= 107:
			c.bg = strconv.Itoa(n - 10) // the colour's number, as for the foreground
		case n == 48:
			c.bg = colour()
		case n == 49:
			c.bg = ""
		default:
			t.Fatalf("SGR parameter %d in %q", n, params)
		}
	}
}

// sameScreen reports the first cell where two rendered blocks differ ("" when none does).
func sameScreen(t testing.TB, got, want string) string {
	t.Helper()
	g, w := screenOf(t, got), screenOf(t, want)
	if len(g) != len(w) {
		return fmt.Sprintf("%d lines, want %d", len(g), len(w))
	}
	for y := range w {
		if len(g[y]) != len(w[y]) {
			return fmt.Sprintf("line %d: %d cells, want %d", y, len(g[y]), len(w[y]))
		}
		for x := range w[y] {
			if g[y][x] != w[y][x] {
				return fmt.Sprintf("line %d column %d: %+v, want %+v", y, x, g[y][x], w[y][x])
			}
		}
	}
	return ""
}

// A canvas renders to the same screen as ntcharts' View, cell for cell, at every colour depth: runs
// of one ink, changes of ink mid-line and at line ends, backgrounds (bold too), faint, default-ink
// cells between coloured ones, one colour with its attributes changing, empty cells and merged
// braille.
func TestCanvasRendersAsNtcharts(t *testing.T) {
	testRendersAsNtcharts(t, NewCanvas)
}

// A grid (the heat map's) draws and renders as an ntcharts canvas does, braille merged alike, in a
// tenth of the memory.
func TestGridRendersAsNtcharts(t *testing.T) {
	testRendersAsNtcharts(t, NewGrid)
	st := ForProfile(termenv.TrueColor)
	for _, r := range []rune{'⠁', 'x', 0} { // a braille dot over another, a rune, nothing: as DrawBrailleRune
		g, c := NewGrid(2, 1), NewCanvas(2, 1)
		for _, cv := range []*Canvas{g, c} {
			cv.braille(0, 0, '⢀', InkOf(palette.Axis))
			cv.braille(0, 0, r, InkOf(palette.Axis))
			cv.braille(1, 0, r, InkOf(palette.Axis))
		}
		if got, want := g.String(st), c.String(st); got != want {
			t.Errorf("braille %q over ⢀: grid %q, ntcharts canvas %q", r, got, want)
		}
	}
	var slot atomic.Pointer[Canvas]
	g := BlankGrid(&slot, 4, 1)
	g.Text(0, 0, "ab", AlgoInk(algos.NameOracle))
	g.Render(st, &slot)
	if again := BlankGrid(&slot, 4, 1); again != g || again.m != nil || again.String(st) != NewGrid(4, 1).String(st) {
		t.Errorf("a reused grid: the same %v, a grid %v, blank %q", again == g, again.m == nil, again.String(st))
	}
	if g, c := canvasBytes(NewGrid(100, 30)), canvasBytes(NewCanvas(100, 30)); g*8 > c {
		t.Errorf("a 100x30 grid holds %d bytes, an ntcharts canvas %d: not the saving it is for", g, c)
	}
}

func testRendersAsNtcharts(t *testing.T, fresh func(w, h int) *Canvas) {
	t.Helper()
	draw := func() *Canvas {
		cv := fresh(12, 4)
		cv.Text(0, 0, "abc", AlgoInk(algos.NameOracle))
		cv.Text(3, 0, "de", Ink{FG: palette.Axis, Bold: true})
		cv.Text(8, 0, "xyz", Ink{})
		cv.Set(11, 0, '!', Ink{FG: palette.Query, Bold: true})
		cv.Text(0, 1, "XX", Ink{FG: palette.Algo(algos.NameNever), BG: palette.Boundary})
		cv.Text(2, 1, "ff", Ink{FG: palette.Algo(algos.NameOracle), Faint: true})
		cv.braille(5, 1, '⠁', InkOf(palette.Axis))
		cv.braille(5, 1, '⢀', AlgoInk(algos.NameOracle)) // merges, in the last ink
		cv.Set(11, 1, '·', InkOf(palette.Axis))
		// One colour, the attributes changing.
		o := AlgoInk(algos.NameOracle)
		cv.Text(0, 2, "ab", o)
		cv.Text(2, 2, "cd", Ink{FG: o.FG, Bold: true})
		cv.Text(4, 2, "ef", Ink{FG: o.FG, Faint: true})
		cv.Text(6, 2, "gh", Ink{FG: o.FG, BG: palette.Boundary})
		cv.Text(8, 2, "ij", o)
		cv.Set(0, 3, '│', InkOf(palette.Axis))
		cv.Set(1, 3, ' ', InkOf(palette.Axis)) // a space in an ink
		return cv
	}
	for _, p := range []termenv.Profile{termenv.Ascii, termenv.ANSI, termenv.ANSI256, termenv.TrueColor} {
		st := ForProfile(p)
		got, want := draw().String(st), NtchartsView(draw(), st)
		if d := sameScreen(t, got, want); d != "" {
			t.Errorf("profile %v: %s\ngot  %q\nwant %q", p, d, got, want)
		}
		if p == termenv.Ascii && strings.Contains(got, "\x1b") {
			t.Errorf("no colours, yet escapes: %q", got)
		}
		if p != termenv.Ascii && len(got) >= len(want) {
			t.Errorf("profile %v: %d bytes, ntcharts' View %d: no run shares its escape", p, len(got), len(want))
		}
	}
}

// screenOf sees what a terminal sees: a change of attributes shows, a different split of the same
// attributes into sequences does not.
func TestScreenOf(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"\x1b[1;38;5;9mab\x1b[0m", "\x1b[1m\x1b[38;5;9ma\x1b[0m\x1b[1;38;5;9mb\x1b[0m", true},
		{"\x1b[38;5;9mab\x1b[0m", "\x1b[38;5;9ma\x1b[0mb", false},
		{"\x1b[2;31ma\x1b[0m", "\x1b[31ma\x1b[0m", false},
		{"\x1b[41ma\x1b[0m", "\x1b[31ma\x1b[0m", false},
		{"a\nb", "a\nb", true},
		{"ab", "a", false},
	} {
		if got := sameScreen(t, tc.a, tc.b) == ""; got != tc.same {
			t.Errorf("%q vs %q: same %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}

// A reused canvas is blank: what the last drawing left (runes, braille dots, inks) is gone, and a
// canvas of another size is a new one. The canvases kept between drawings are bounded in all: the
// least recently drawn go first.
func TestBlankCanvas(t *testing.T) {
	st := ForProfile(termenv.TrueColor)
	draw := func(cv *Canvas, s string) string {
		cv.Text(1, 1, s, AlgoInk(algos.NameOracle))
		cv.braille(0, 0, '⢀', InkOf(palette.Axis))
		return cv.String(st)
	}
	var slot atomic.Pointer[Canvas]
	first := Blank(&slot, 8, 3)
	draw(first, "long text")
	first.Set(7, 2, 'x', Ink{FG: palette.Query, Bold: true})
	first.Render(st, &slot)
	second := Blank(&slot, 8, 3)
	if second != first {
		t.Fatal("a canvas of the same size was not reused")
	}
	if got, want := draw(second, "ab"), draw(NewCanvas(8, 3), "ab"); got != want {
		t.Errorf("reused canvas:\n%q\nwant, as a new one:\n%q", got, want)
	}
	second.Render(st, &slot)
	if third := Blank(&slot, 9, 3); third == first || third.w != 9 {
		t.Errorf("a canvas of another size: reused %v, width %d", third == first, third.w)
	}
	// Panes past the bound: the first drawn is let go, the last kept.
	n := canvasKeep/canvasBytes(NewCanvas(100, 30)) + 2
	slots := make([]atomic.Pointer[Canvas], n)
	for i := range slots {
		Blank(&slots[i], 100, 30).Render(st, &slots[i])
	}
	if slots[0].Load() != nil || slots[n-1].Load() == nil {
		t.Errorf("over the bound: the least recently drawn kept %v, the last %v", slots[0].Load() != nil, slots[n-1].Load() != nil)
	}
	if CanvasesKept() > canvasKeep {
		t.Errorf("%d bytes of canvases kept, bound %d", CanvasesKept(), canvasKeep)
	}
}

// A step line holds each value until the next batch, then jumps: the dots of a rising series
// never go down.
func TestStepLine(t *testing.T) {
	g := NewBraille(10, 2) // 20 x 8 dots
	g.StepLine(1, 0, []float64{0, 0, 7}, 0, 4, 0, 7)
	// Batches 0..3 over 20 dot columns: batch t from column 5t. Values 0 and 7 at dot rows 7 and 0.
	want := map[[2]int]bool{}
	for x := 0; x <= 9; x++ {
		want[[2]int{x, 7}] = true
	}
	for y := 0; y <= 7; y++ {
		want[[2]int{10, y}] = true
	}
	for x := 10; x <= 14; x++ {
		want[[2]int{x, 0}] = true
	}
	got := map[[2]int]bool{}
	for _, d := range g.Dots[1] {
		got[d] = true
	}
	if len(got) != len(want) {
		t.Errorf("%d dots, want %d: %v", len(got), len(want), g.Dots[1])
	}
	for d := range want {
		if !got[d] {
			t.Errorf("dot %v missing", d)
		}
	}
	// Cell (0, 1) holds dots x 0..1, y 4..7: the line at y 7 is its two bottom dots, drawn on the
	// canvas as the braille pattern of dots 7 and 8.
	cv := NewCanvas(10, 2)
	g.Draw(cv, 0, 0, []Ink{{}, InkOf(palette.Axis)})
	if c := cv.At(0, 1); c.Rune != 0x2800|0x40|0x80 || c.Ink != InkOf(palette.Axis) {
		t.Errorf("cell (0, 1) %q %+v, want the two bottom dots in the series' ink", c.Rune, c.Ink)
	}
}
