package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/run"
	"github.com/cara-sim/cara/tui/internal/synth"
)

// The sizes the panes are checked at: a laptop's small terminal, a workshop's usual one, a large one.
var checkSizes = [][2]int{{80, 24}, {120, 36}, {160, 48}}

var profiles = []struct {
	name string
	st   func() *draw.Styles
}{{"ascii", asciiStyles}, {"256", ansi256Styles}}

// resize gives the player a terminal size.
func resize(p *Player, w, h int) { p.Update(tea.WindowSizeMsg{Width: w, Height: h}) }

// paneBox is pane i's box as the view draws it, the pane focused (so it is never a title bar).
func paneBox(p *Player, i int) string {
	press(p, string(rune('1'+i)))
	p.View()
	return p.panes.LastBox(i)
}

// content is the inside of a box, without its colours: one []rune per line.
func content(box string) [][]rune {
	lines := strings.Split(ansi.Strip(box), "\n")
	var out [][]rune
	for _, l := range lines[1 : len(lines)-1] {
		r := []rune(l)
		out = append(out, r[2:len(r)-2])
	}
	return out
}

// Golden views of every pane at 80x24, 120x36 and 160x48, without colours and in 256 colours, on
// the hand-made synthetic run (synthetic_test.go) at batch 20, so that only a change to the screen
// changes them (go test ./tui -run TestGoldenPanes -update rewrites testdata/TestGoldenPanes).
func TestGoldenPanes(t *testing.T) {
	t.Parallel()
	for _, prof := range profiles {
		p := syntheticPlayer(t, prof.st(), 80, 24)
		goTo(p, synth.GoldenAt)
		for _, size := range checkSizes {
			resize(p, size[0], size[1])
			for i := range pane.Count {
				box := paneBox(p, i)
				t.Run(fmt.Sprintf("%s/%dx%d/%d-%s", prof.name, size[0], size[1], i+1, pane.TabNames[i]), func(t *testing.T) {
					golden.RequireEqual(t, []byte(box+"\n"))
				})
			}
		}
	}
}

// Pane 1 at every size: the Oracle's retrains are marked on the diagonal at the Oracle's batches
// (○, or ◉ where the selected algorithm passes too), and so are the selected algorithm's (● or ◉);
// batch labels are on both axes.
func TestMatrixPaneMarksAndTicks(t *testing.T) {
	p := pumpedScenario(t, loadTestdata(t, "bench100.yaml"), asciiStyles(), 80, 24)
	press(p, "end")
	for _, size := range checkSizes {
		resize(p, size[0], size[1])
		box := paneBox(p, pane.Matrix)
		c := content(box)
		f := p.frame()
		r := p.layout(f, p.w, p.bodyHeight()).Boxes[pane.Matrix]
		mp := p.panes.Matrix
		l := mp.Where(f, r.W-4, r.H-2)
		at := func(t int) rune { return c[l.HeatY+l.Y(t)][l.Gutter+l.X(t)] }
		for _, tc := range []struct {
			algo  algos.Name
			marks []rune
		}{{"oracle", []rune{'○', '◉'}}, {"cara-t", []rune{'●', '◉'}}} {
			res, _ := f.Result(tc.algo)
			for _, t0 := range append([]int{res.Strategy.Start}, res.Strategy.Retrains...) {
				if got := at(t0); !slices.Contains(tc.marks, got) {
					t.Errorf("%dx%d: %s retrains at %d, the diagonal shows %q", size[0], size[1], tc.algo, t0, got)
				}
			}
		}
		labels := string(c[l.LabelsY])
		var gutter []string
		for _, line := range c[l.HeatY : l.HeatY+l.Rows] {
			gutter = append(gutter, string(line[:l.Gutter]))
		}
		if !strings.Contains(labels, "40") || !strings.Contains(labels, "80") {
			t.Errorf("%dx%d: column labels %q lack 40 and 80", size[0], size[1], labels)
		}
		if g := strings.Join(gutter, "|"); !strings.Contains(g, "40┤") || !strings.Contains(g, "80┤") {
			t.Errorf("%dx%d: row labels %q lack 40 and 80", size[0], size[1], g)
		}
	}
}

// The colour of a cell does not change while you step: the scale is the whole run's.
func TestMatrixScaleFixed(t *testing.T) {
	p := pumpedScenario(t, loadTestdata(t, "bench100.yaml"), ansi256Styles(), 120, 36)
	mp := p.panes.Matrix
	inkAt := func(pos int) (draw.Scale, draw.Ink, rune) {
		goTo(p, pos)
		p.View()
		f := p.frame()
		r := p.layout(f, p.w, p.bodyHeight()).Boxes[pane.Matrix]
		l := mp.Where(f, r.W-4, r.H-2)
		c := mp.Canvas().At(l.Gutter+l.X(20), l.HeatY+l.Y(5))
		return f.Heat, c.Ink, c.Rune
	}
	h30, k30, r30 := inkAt(30)
	h99, k99, r99 := inkAt(99)
	if h30 != h99 || !h30.Final {
		t.Errorf("scale at 30 %+v, at 99 %+v: want the same, final", h30, h99)
	}
	if k30 != k99 || r30 != r99 {
		t.Errorf("cell (5, 20) drawn %q %+v at batch 30 and %q %+v at 99", r30, k30, r99, k99)
	}
	if k30.FG.Hex == "" && k30.BG.Hex == "" {
		t.Error("cell (5, 20) has no colour")
	}
}

// Every size of the player shows braille in pane 2, in both profiles.
func TestChartBrailleAtEverySize(t *testing.T) {
	for _, prof := range profiles {
		p := pumpedScenario(t, loadTestdata(t, "bench100.yaml"), prof.st(), 80, 24)
		goTo(p, 50)
		for _, size := range checkSizes {
			resize(p, size[0], size[1])
			if box := paneBox(p, pane.Chart); !strings.ContainsFunc(box, isBraille) {
				t.Errorf("%s %dx%d: pane 2 has no braille:\n%s", prof.name, size[0], size[1], box)
			}
		}
	}
}

// Pane 4's axes are fixed for the whole scenario: the same at batch 1 and at batch 4, though the
// data move between them.
func TestBatchAxesFixed(t *testing.T) {
	p := pumpedScenario(t, loadTestdata(t, "small.yaml"), asciiStyles(), 120, 36)
	axes := func(pos int) []string {
		goTo(p, pos)
		var out []string
		for _, s := range strings.Split(ansi.Strip(p.panes.Batch.View(p.frame(), 56, 18)), "\n") {
			switch {
			case strings.Contains(s, "└"), strings.HasPrefix(s, "↑"):
				out = append(out, s) // the x axis, the features' names
			case strings.Contains(s, "┤"):
				out = append(out, s[:strings.Index(s, "┤")]) // a y label
			case strings.Contains(s, "│"):
				out = append(out, "")
			default:
				if strings.Contains(s, ".5") {
					out = append(out, s) // the x labels
				}
			}
		}
		return out
	}
	a1, a4 := axes(1), axes(4)
	if strings.Join(a1, "\n") != strings.Join(a4, "\n") {
		t.Errorf("axes at batch 1:\n%s\nat batch 4:\n%s", strings.Join(a1, "\n"), strings.Join(a4, "\n"))
	}
	if len(a1) < 4 || p.bounds == nil {
		t.Errorf("no axes found (%d lines) or no bounds", len(a1))
	}
}

// The layout tiles the body: boxes inside it, none overlapping, every row of the right column
// used, the focused pane never a title bar.
func TestLayoutTiles(t *testing.T) {
	p := pumpedScenario(t, loadTestdata(t, "bench100.yaml"), asciiStyles(), 80, 24)
	goTo(p, 50)
	for _, size := range [][2]int{{60, 18}, {80, 24}, {100, 32}, {120, 36}, {160, 48}, {200, 60}, {240, 70}} {
		resize(p, size[0], size[1])
		for focus := range pane.Count {
			press(p, string(rune('1'+focus)))
			f := p.frame()
			h := p.bodyHeight()
			l := p.layout(f, size[0], h)
			cover := make([]int, size[0]*h)
			for i, r := range l.Boxes {
				if !r.Shown {
					continue
				}
				if r.X < 0 || r.Y < 0 || r.X+r.W > size[0] || r.Y+r.H > h {
					t.Errorf("%dx%d: box %d %+v outside the body", size[0], h, i, r)
					continue
				}
				for y := r.Y; y < r.Y+r.H; y++ {
					for x := r.X; x < r.X+r.W; x++ {
						cover[y*size[0]+x]++
					}
				}
			}
			for i, n := range cover {
				if n > 1 {
					t.Errorf("%dx%d focus %d: boxes overlap at (%d, %d)", size[0], size[1], focus+1, i%size[0], i/size[0])
					break
				}
			}
			if r := l.Boxes[focus]; !r.Shown || r.Collapsed {
				t.Errorf("%dx%d: the focused pane %d is %+v", size[0], size[1], focus+1, r)
			}
		}
	}
}

// The cursor on the diagonal reads out R (the cost of retraining there), not the cell's QDM terms.
func TestCursorOnDiagonalShowsR(t *testing.T) {
	p := pumped(t, asciiStyles(), 120, 36)
	press(p, "end", "1", "m")
	mp := p.panes.Matrix
	p.Cursor.At = [2]int{9, 9}
	press(p, "]") // R 0.5 x 1.25
	if r := mp.Readout(p.frame()); !strings.Contains(r, "t'=t=9  R 0.625") {
		t.Errorf("readout on the diagonal %q, want R 0.625", r)
	}
}

// While the engine computes, the colour scale may still grow, and the bar says so.
func TestScaleGrowsNote(t *testing.T) {
	p, fits, cmd := gatedPlayer(t)
	for range 6 {
		fits <- struct{}{}
	}
	for p.s.Computed < 6 {
		_, cmd = p.Update(cmd())
	}
	if p.frame().Heat.Final {
		t.Fatal("the scale is final with 6 columns of 12")
	}
	if v := p.View(); !strings.Contains(v, "scale grows while computing") {
		t.Errorf("no note that the scale may grow:\n%s", v)
	}
}

// The About pane scrolls when it has the focus, with the keys and the wheel.
func TestAboutScrolls(t *testing.T) {
	s := loadSmall(t)
	s.About = strings.Repeat("A long description of the scenario, longer than the pane is tall. ", 30)
	p := pumpedScenario(t, s, asciiStyles(), 60, 18)
	press(p, "6")
	ap := p.panes.About
	p.View()
	press(p, "down", "down")
	if ap.Offset() != 2 {
		t.Errorf("two downs: offset %d, want 2", ap.Offset())
	}
	f := p.frame()
	r := p.layout(f, p.w, p.bodyHeight()).Boxes[pane.About]
	p.Update(tea.MouseMsg{X: r.X + 3, Y: r.Y + 2, Action: tea.MouseActionPress, Button: tea.MouseButtonWheelUp})
	if ap.Offset() != 1 || p.Pos != 0 {
		t.Errorf("wheel up over About: offset %d, batch %d (want 1, unmoved 0)", ap.Offset(), p.Pos)
	}
}

// The scan of a scenario's feature ranges stops with its session: a restart does not leave the
// old scan generating batches.
func TestScanBoundsStopsWithSession(t *testing.T) {
	s, err := run.New(loadTestdata(t, "bench100.yaml"), 77, nil, nil) // a seed no other test scans
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	s.Stop()
	if msg := run.ScanBounds(s)(); msg != nil {
		t.Errorf("a stopped session's scan returned %T", msg)
	}
	s2, _ := run.New(loadTestdata(t, "bench100.yaml"), 78, nil, nil)
	s2.Start()
	defer s2.Stop()
	msg, ok := run.ScanBounds(s2)().(run.BoundsMsg)
	if !ok || msg.Bounds == nil || msg.Bounds.Hi[0] <= msg.Bounds.Lo[0] {
		t.Errorf("a live session's scan: %+v", msg)
	}
}

// isBraille reports whether r is a braille pattern with a dot.
func isBraille(r rune) bool { return r > 0x2800 && r <= 0x28FF }

// Whole screens of the synthetic run at batch 52, at 80x24, 120x36 and 160x48, without colours and
// in 256 colours: the layout, the panes, the status and help lines together (each pane's own
// goldens are in its package; go test ./tui -run TestGoldenScreens -update rewrites
// testdata/TestGoldenScreens).
func TestGoldenScreens(t *testing.T) {
	t.Parallel()
	for _, prof := range profiles {
		p := syntheticPlayer(t, prof.st(), 80, 24)
		goTo(p, synth.GoldenAt)
		for _, size := range checkSizes {
			resize(p, size[0], size[1])
			view := p.View()
			t.Run(fmt.Sprintf("%s/%dx%d", prof.name, size[0], size[1]), func(t *testing.T) {
				golden.RequireEqual(t, []byte(view+"\n"))
			})
		}
		// At 120x36, what a few keys put over the panes or under them: the what-if bar, the
		// command line being typed, the full help.
		for _, tc := range []struct{ name, keys string }{
			{"whatif-bar", "w"}, {"command-line", ":set retrain_cost=8"}, {"help", "?"},
		} {
			p := syntheticPlayer(t, prof.st(), 120, 36)
			goTo(p, synth.GoldenAt)
			for _, k := range tc.keys {
				press(p, string(k))
			}
			view := p.View()
			t.Run(prof.name+"/"+tc.name, func(t *testing.T) { golden.RequireEqual(t, []byte(view+"\n")) })
		}
	}
}
