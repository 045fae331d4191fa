package matrix

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/run"
	"github.com/cara-sim/cara/tui/internal/synth"
	"github.com/charmbracelet/x/exp/golden"
)

// synthFrame is the synthetic run at batch pos as the player draws it, the heat map's scale the
// player's (the run's cells and R).
func synthFrame(t *testing.T, st *draw.Styles, s *run.Session, pos int) *pane.Frame {
	f := synth.Frame(t, st, s, pos)
	f.Heat = new(Colours).Of(s, s.Scenario)
	return f
}

// At every size the screen gives it, the heat map marks the Oracle's retrains on the diagonal at
// their batches (○, or ◉ where the selected algorithm's pass too), and the selected algorithm's
// (● or ◉); batch labels are on both axes. The synthetic Oracle retrains at 19, 24, 30, 36, 42 and
// 48 up to batch 52 (synth's story), CARA-T at 24, 36 and 48.
func TestMarksAndTicks(t *testing.T) {
	s := synth.Session(t)
	f := synthFrame(t, draw.ForProfile(termenv.Ascii), s, synth.GoldenAt)
	p := New()
	for k, box := range synth.BoxSizes[pane.Matrix] {
		w, h := box[0]-4, box[1]-2
		var c [][]rune
		for _, l := range strings.Split(ansi.Strip(p.View(f, w, h)), "\n") {
			c = append(c, []rune(l))
		}
		l := p.Where(f, w, h)
		at := func(t int) rune { return c[l.HeatY+l.Y(t)][l.Gutter+l.X(t)] }
		size := synth.Sizes[k]
		for _, tc := range []struct {
			algo  algos.Name
			marks []rune
		}{{algos.NameOracle, []rune{'○', '◉'}}, {algos.NameCaraT, []rune{'●', '◉'}}} {
			res, _ := f.Result(tc.algo)
			if len(res.Strategy.Retrains) < 3 {
				t.Fatalf("%s retrains at %v only", tc.algo, res.Strategy.Retrains)
			}
			for _, t0 := range append([]int{res.Strategy.Start}, res.Strategy.Retrains...) {
				if got := at(t0); !slices.Contains(tc.marks, got) {
					t.Errorf("%dx%d: %s retrains at %d, the diagonal shows %q", size[0], size[1], tc.algo, t0, got)
				}
			}
		}
		var gutter []string
		for _, line := range c[l.HeatY : l.HeatY+l.Rows] {
			gutter = append(gutter, string(line[:l.Gutter]))
		}
		if labels := string(c[l.LabelsY]); !strings.Contains(labels, "20") || !strings.Contains(labels, "40") {
			t.Errorf("%dx%d: column labels %q lack 20 and 40", size[0], size[1], labels)
		}
		if g := strings.Join(gutter, "|"); !strings.Contains(g, "20┤") || !strings.Contains(g, "40┤") {
			t.Errorf("%dx%d: row labels %q lack 20 and 40", size[0], size[1], g)
		}
	}
}

// The colour of a cell does not change while the player steps: the scale is the whole run's, and
// final once every column is in.
func TestScaleFixed(t *testing.T) {
	s := synth.Session(t)
	st := draw.ForProfile(termenv.ANSI256)
	box := synth.BoxSizes[pane.Matrix][1] // at 120x36
	w, h := box[0]-4, box[1]-2
	p := New()
	inkAt := func(pos int) (draw.Scale, draw.Ink, rune) {
		f := synthFrame(t, st, s, pos)
		p.View(f, w, h)
		l := p.Where(f, w, h)
		c := p.Canvas().At(l.Gutter+l.X(20), l.HeatY+l.Y(5))
		return f.Heat, c.Ink, c.Rune
	}
	h30, k30, r30 := inkAt(30)
	h59, k59, r59 := inkAt(synth.Batches - 1)
	if h30 != h59 || !h30.Final {
		t.Errorf("scale at 30 %+v, at 59 %+v: want the same, final", h30, h59)
	}
	if k30 != k59 || r30 != r59 {
		t.Errorf("cell (5, 20) drawn %q %+v at batch 30 and %q %+v at 59", r30, k30, r59, k59)
	}
	if k30.FG.Hex == "" && k30.BG.Hex == "" {
		t.Error("cell (5, 20) has no colour")
	}
}

// The cursor on the diagonal reads out R in force (the cost of retraining there), not the cell's
// QDM terms: the synthetic R of 4 under a scale of 1.25 is 5.
func TestCursorOnDiagonalShowsR(t *testing.T) {
	s := synth.Session(t)
	f := synthFrame(t, draw.ForProfile(termenv.Ascii), s, synth.GoldenAt)
	f.RScale, f.R = 1.25, s.RetrainCostOf(nil, 1.25)
	f.Cursor = room.Cursor{On: true, At: [2]int{20, 20}}
	if r := New().Readout(f); !strings.Contains(r, "t'=t=20  R 5") {
		t.Errorf("readout on the diagonal %q, want R 5", r)
	}
}

// The pane's keys and clicks ask the player to move the cursor (effect.Cursor), which is the
// player's view: m turns it on at the batch shown, the arrows move it within the revealed upper
// triangle, a click puts it on the cell under the mouse; a click off the heat asks nothing.
func TestCursorByEffects(t *testing.T) {
	s := synth.Session(t)
	f := synthFrame(t, draw.ForProfile(termenv.Ascii), s, synth.GoldenAt)
	p := New()
	press := func(k string, focused bool) (effect.Effects, bool) {
		return p.Key(keys.Msg(k), f, focused)
	}
	e, ok := press("m", true)
	want := effect.Effects{effect.Cursor(CursorOn(f))}
	if !ok || !slices.Equal(e, want) || !CursorOn(f).On {
		t.Fatalf("m: %v %v, want %v", e, ok, want)
	}
	f.Cursor = room.Cursor(want[0].(effect.Cursor))
	for _, tc := range []struct {
		key  string
		want [2]int
	}{{"up", [2]int{f.Cursor.At[0] - 1, f.Cursor.At[1]}}, {"left", [2]int{f.Cursor.At[0], f.Cursor.At[1] - 1}}, {"right", f.Cursor.At}} {
		e, ok := press(tc.key, true)
		if c, _ := e[0].(effect.Cursor); !ok || len(e) != 1 || c.At != tc.want {
			t.Errorf("%s from %v: %v, want the cursor at %v", tc.key, f.Cursor.At, e, tc.want)
		}
	}
	if e, ok := press("up", false); ok || e != nil {
		t.Errorf("up unfocused: %v %v", e, ok)
	}
	w, h := synth.BoxSizes[pane.Matrix][2][0]-4, synth.BoxSizes[pane.Matrix][2][1]-2 // at 160x48, a batch a column
	l := p.Where(f, w, h)
	if e := p.Click(f, l.Gutter+l.X(40), l.HeatY+l.Y(30), w, h); len(e) != 1 || e[0] != effect.Cursor(room.Cursor{On: true, At: [2]int{30, 40}}) {
		t.Errorf("a click on cell (30, 40): %v", e)
	}
	if e := p.Click(f, 0, 0, w, h); e != nil {
		t.Errorf("a click on the labels: %v", e)
	}
}

// The cost matrix at three sizes in two profiles (synth.Goldens).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, g := range synth.Goldens(t, pane.Matrix, func() pane.Pane { return New() }, func(f *pane.Frame, s *run.Session) { f.Heat = new(Colours).Of(s, s.Scenario) }) {
		t.Run(g.Name, func(t *testing.T) { golden.RequireEqual(t, []byte(g.Box+"\n")) })
	}
}

// The legend explains ≋ only where the axis draws it: a stream with known drifts (the synthetic
// one), not real data, whose drifts nobody labelled.
func TestLegendDriftOnlyWhereKnown(t *testing.T) {
	s := synth.Session(t)
	f := synthFrame(t, draw.ForProfile(termenv.Ascii), s, synth.GoldenAt)
	p := New()
	legend := func() string { return ansi.Strip(strings.Join(p.Legend(f), "\n")) }
	if l := legend(); !strings.Contains(l, "≋ known drift") {
		t.Errorf("with %d known drifts the legend says %q", len(f.Drifts), l)
	}
	f.Drifts = nil
	if l := legend(); strings.Contains(l, "drift") || !strings.Contains(l, "▼ now") {
		t.Errorf("with no known drifts the legend says %q", l)
	}
}
