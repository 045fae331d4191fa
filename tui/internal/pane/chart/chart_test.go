package chart

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/synth"
	"github.com/charmbracelet/x/exp/golden"
)

// The gap view puts the Oracle on zero and every other line at its cost minus the Oracle's.
func TestChartGapView(t *testing.T) {
	f := synth.RandomFrame(t, draw.ForProfile(termenv.Ascii), 60, 15)
	cp := &Pane{keys: NewKeyMap(), gap: true}
	or, _ := f.Result(algos.NameOracle)
	for _, s := range cp.chartSeries(f) {
		r, _ := f.Result(s.name)
		for i, v := range s.v {
			if want := r.Strategy.Cumulative[i] - or.Strategy.Cumulative[i]; v != want {
				t.Fatalf("%s at %d: %v, want %v", s.name, i, v, want)
			}
		}
	}
	// Without colours the labels are the keys the lines carry: the Oracle's is O.
	if v := ansi.Strip(cp.View(f, 76, 20)); !strings.Contains(v, " O 0") {
		t.Errorf("gap view without the Oracle on zero:\n%s", v)
	}
	if cp.Title(f) == (&Pane{}).Title(f) {
		t.Error("the gap view has the cost view's title")
	}
}

// A line that ends more than twice as high as every other runs off the top of the chart, marked ↑
// in its label, rather than flattening the others against zero.
func TestChartClipsTheOutlier(t *testing.T) {
	mk := func(never float64) []series {
		return []series{{name: "oracle", v: []float64{1, 10}}, {name: "cara-t", v: []float64{1, 40}},
			{name: "never", v: []float64{1, 30, never}}}
	}
	if got := fitted(mk(150)); len(got) != 2 || got[0].name != "oracle" || got[1].name != "cara-t" {
		t.Errorf("Never-retrain at 150 against 40: fitted to %v", got)
	}
	if got := fitted(mk(70)); len(got) != 3 {
		t.Errorf("Never-retrain at 70 against 40: fitted to %d series, want all", len(got))
	}
	ss := mk(150)
	a := valueAxis(fitted(ss), 10)
	ls := endLabels(ss, a.lo, a.hi, 10, 40, false)
	if ls[0].names[0] != "never" || !ls[0].over || ls[0].row != 0 || !strings.HasPrefix(ls[0].rows[0][len(ls[0].rows[0])-1].text, "↑") {
		t.Errorf("the outlier's label %+v, want ↑ on the top row", ls[0])
	}
}

// Lines that end at the same value share one label, in the order of the table; labels never
// overlap and keep the order of their values.
func TestEndLabels(t *testing.T) {
	ss := []series{
		{name: "never", v: []float64{1, 5, 9}},
		{name: "cara-t", v: []float64{1, 2, 3}},
		{name: "oracle", v: []float64{1, 2, 3}},
		{name: "adwin", v: []float64{1, 2, 3.01}},
	}
	ls := endLabels(ss, 0, 10, 10, 40, false)
	if len(ls) != 3 {
		t.Fatalf("%d labels, want 3 (Oracle and CARA-T merged)", len(ls))
	}
	if ls[2].names[0] != "oracle" || ls[2].names[1] != "cara-t" {
		t.Errorf("merged label %v, want oracle then cara-t", ls[2].names)
	}
	for i := 1; i < len(ls); i++ {
		if ls[i].row < ls[i-1].row+len(ls[i-1].rows) {
			t.Errorf("labels %d and %d overlap: rows %d and %d", i-1, i, ls[i-1].row, ls[i].row)
		}
	}
	if ls[0].names[0] != "never" || ls[0].row != 1 {
		// 9 of 10 on 10 rows of 4 dots: dot row 39 - round(0.9*39) = 4, text row 1.
		t.Errorf("top label %v at row %d, want never at row 1", ls[0].names, ls[0].row)
	}
	// Narrow: short keys, wrapped.
	ls = endLabels(ss[1:3], 0, 10, 10, 6, false)
	if got := ls[0].rows; len(got) != 2 || got[0][0].text != "O" {
		t.Errorf("narrow label rows %v, want [O=T] then the value", got)
	}
}

// Pane 2 is drawn in braille, and a series whose cost only grows is drawn as a line that never
// goes down.
func TestChartBrailleMonotone(t *testing.T) {
	f := synth.RandomFrame(t, draw.ForProfile(termenv.Ascii), 60, 15)
	cp := &Pane{keys: NewKeyMap()}
	for _, size := range [][2]int{{40, 10}, {56, 14}, {76, 20}} {
		v := cp.View(f, size[0], size[1])
		if !hasBraille(v) {
			t.Fatalf("%dx%d: no braille:\n%s", size[0], size[1], v)
		}
		for id, dots := range cp.plot.Dots {
			if len(dots) == 0 {
				continue
			}
			lowest := map[int]int{} // per dot column, the lowest dot (the largest y)
			for _, d := range dots {
				lowest[d[0]] = max(lowest[d[0]], d[1])
			}
			xs := slices.Sorted(func(yield func(int) bool) {
				for x := range lowest {
					if !yield(x) {
						return
					}
				}
			})
			for i := 1; i < len(xs); i++ {
				if lowest[xs[i]] > lowest[xs[i-1]] {
					t.Errorf("%dx%d: series %d goes down at dot column %d", size[0], size[1], id, xs[i])
					break
				}
			}
		}
	}
}

// hasBraille reports whether s holds a braille character.
func hasBraille(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r > 0x2800 && r <= 0x28FF })
}

// At every size the screen gives it, in both colour profiles, the chart draws its lines in braille.
func TestBrailleAtEverySize(t *testing.T) {
	s := synth.Session(t)
	for _, p := range []termenv.Profile{termenv.Ascii, termenv.ANSI256} {
		f := synth.Frame(t, draw.ForProfile(p), s, 50)
		cp := New()
		for k, box := range synth.BoxSizes[pane.Chart] {
			if v := cp.View(f, box[0]-4, box[1]-2); !strings.ContainsFunc(v, func(r rune) bool { return r > 0x2800 && r <= 0x28FF }) {
				t.Errorf("profile %v at %v: no braille:\n%s", p, synth.Sizes[k], v)
			}
		}
	}
}

// The cumulative cost chart at three sizes in two profiles (synth.Goldens).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, g := range synth.Goldens(t, pane.Chart, func() pane.Pane { return New() }, nil) {
		t.Run(g.Name, func(t *testing.T) { golden.RequireEqual(t, []byte(g.Box+"\n")) })
	}
}

// keyTokens are the words of a drawing as keys are written: letters, digits and "+".
func keyTokens(s string) map[string]int {
	out := map[string]int{}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '+')
	}) {
		out[w]++
	}
	return out
}

// At 16 colours and without colours, where sixteen rows cannot each have a colour, every row of a
// run with all of them (synth.EverySession: the four more detectors and three schedules) is told by
// its key: on its line and again in the legend (twice at least), the same key the decisions and
// the results write.
func TestEveryRowHasItsKey(t *testing.T) {
	s := synth.EverySession(t)
	for _, prof := range []termenv.Profile{termenv.ANSI, termenv.Ascii} {
		f := synth.Frame(t, draw.ForProfile(prof), s, synth.GoldenAt)
		if len(f.Visible) != 16 {
			t.Fatalf("%d rows shown, want 16", len(f.Visible))
		}
		w, h := synth.BoxSizes[pane.Chart][2][0]-4, synth.BoxSizes[pane.Chart][2][1]-2
		tokens := keyTokens(ansi.Strip(New().View(f, w, h)))
		for _, a := range f.Visible {
			if k := pane.AlgoKey(a, false); tokens[k] < 2 {
				t.Errorf("profile %v: %s's key %q written %d times, want on its line and in the legend", prof, a, k, tokens[k])
			}
		}
	}
}

// The chart of every row at 16 colours and without (synth.EveryGoldens).
func TestEveryGolden(t *testing.T) {
	for _, g := range synth.EveryGoldens(t, pane.Chart, func() pane.Pane { return New() }) {
		t.Run(g.Name, func(t *testing.T) { golden.RequireEqual(t, []byte(g.Box+"\n")) })
	}
}
