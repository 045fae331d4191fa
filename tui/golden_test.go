package tui

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// The sizes the panes are checked at: a laptop's small terminal, a workshop's usual one, a large one.
var checkSizes = [][2]int{{80, 24}, {120, 36}, {160, 48}}

var profiles = []struct {
	name string
	st   func() *Styles
}{{"ascii", asciiStyles}, {"256", ansi256Styles}}

// resize gives the player a terminal size.
func resize(p *Player, w, h int) { p.Update(tea.WindowSizeMsg{Width: w, Height: h}) }

// paneBox is pane i's box as the view draws it, the pane focused (so it is never a title bar).
func paneBox(p *Player, i int) string {
	press(p, string(rune('1'+i)))
	p.View()
	return p.panes.boxes[i].out
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
	for _, prof := range profiles {
		p := syntheticPlayer(t, prof.st(), 80, 24)
		goTo(p, synthGoldenAt)
		for _, size := range checkSizes {
			resize(p, size[0], size[1])
			for i := range numPanes {
				box := paneBox(p, i)
				t.Run(fmt.Sprintf("%s/%dx%d/%d-%s", prof.name, size[0], size[1], i+1, tabNames[i]), func(t *testing.T) {
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
		box := paneBox(p, paneMatrix)
		c := content(box)
		f := p.frame()
		r := p.layout(f, p.w, p.bodyHeight()).boxes[paneMatrix]
		mp := p.panes.matrix
		l := mp.layout(f, r.w-4, r.h-2)
		at := func(t int) rune { return c[l.heatY+l.g.yOf(t)][l.gw+l.g.xOf(t)] }
		for _, tc := range []struct {
			algo  algos.Name
			marks []rune
		}{{"oracle", []rune{'○', '◉'}}, {"cara-t", []rune{'●', '◉'}}} {
			res, _ := f.result(tc.algo)
			for _, t0 := range append([]int{res.Strategy.Start}, res.Strategy.Retrains...) {
				if got := at(t0); !slices.Contains(tc.marks, got) {
					t.Errorf("%dx%d: %s retrains at %d, the diagonal shows %q", size[0], size[1], tc.algo, t0, got)
				}
			}
		}
		labels := string(c[l.labelsY])
		var gutter []string
		for _, line := range c[l.heatY : l.heatY+l.g.rows] {
			gutter = append(gutter, string(line[:l.gw]))
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
	mp := p.panes.matrix
	inkAt := func(pos int) (heatScale, ink, rune) {
		goTo(p, pos)
		p.View()
		f := p.frame()
		r := p.layout(f, p.w, p.bodyHeight()).boxes[paneMatrix]
		l := mp.layout(f, r.w-4, r.h-2)
		c := mp.cv.at(l.gw+l.g.xOf(20), l.heatY+l.g.yOf(5))
		return f.heat, c.k, c.r
	}
	h30, k30, r30 := inkAt(30)
	h99, k99, r99 := inkAt(99)
	if h30 != h99 || !h30.final {
		t.Errorf("scale at 30 %+v, at 99 %+v: want the same, final", h30, h99)
	}
	if k30 != k99 || r30 != r99 {
		t.Errorf("cell (5, 20) drawn %q %+v at batch 30 and %q %+v at 99", r30, k30, r99, k99)
	}
	if k30.fg.Hex == "" && k30.bg.Hex == "" {
		t.Error("cell (5, 20) has no colour")
	}
}

// Pane 2 is drawn in braille, and a series whose cost only grows is drawn as a line that never
// goes down.
func TestChartBrailleMonotone(t *testing.T) {
	f := randomFrame(t, 60, 15)
	cp := &chartPane{keys: newChartKeys()}
	for _, size := range [][2]int{{40, 10}, {56, 14}, {76, 20}} {
		v := cp.View(f, size[0], size[1])
		if !hasBraille(v) {
			t.Fatalf("%dx%d: no braille:\n%s", size[0], size[1], v)
		}
		for id, dots := range cp.plot.dots {
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
	// Every size of the player shows braille in pane 2, in both profiles.
	for _, prof := range profiles {
		p := pumpedScenario(t, loadTestdata(t, "bench100.yaml"), prof.st(), 80, 24)
		goTo(p, 50)
		for _, size := range checkSizes {
			resize(p, size[0], size[1])
			if box := paneBox(p, paneChart); !hasBraille(box) {
				t.Errorf("%s %dx%d: pane 2 has no braille:\n%s", prof.name, size[0], size[1], box)
			}
		}
	}
}

// randomFrame is a frame over a T-batch matrix of random costs >= 0 (so every cumulative cost
// grows), every algorithm replayed to the last batch.
func randomFrame(t testing.TB, T, off int) *frame {
	m := sim.NewMatrix(T, off)
	rng := rand.New(rand.NewPCG(1, 2))
	for tt := range T {
		for tp := 0; tp <= tt; tp++ {
			errs := algos.NewBits(50)
			for i := range 50 {
				if rng.Float64() < 0.1*float64(tt-tp)/float64(T) {
					errs.Set(i)
				}
			}
			m.Set(tp, tt, sim.Cell{A: rng.Float64() * 10 * float64(tt-tp) / float64(T), Errors: errs})
		}
	}
	r := algos.Constant(3)
	res, err := algos.Evaluate(m, r, algos.Names, T-1)
	if err != nil {
		t.Fatal(err)
	}
	scen := &scenarios.Scenario{Name: "random", Batches: T, Offline: off}
	return &frame{st: asciiStyles(), scen: scen, m: m, pos: T - 1, rp: replay{scale: 1, results: res}, r: r, rScale: 1,
		selected: "cara-t", visible: algos.Names, heat: heatScale{hi: 10}}
}

// Pane 4's axes are fixed for the whole scenario: the same at batch 1 and at batch 4, though the
// data move between them.
func TestBatchAxesFixed(t *testing.T) {
	p := pumpedScenario(t, loadTestdata(t, "small.yaml"), asciiStyles(), 120, 36)
	axes := func(pos int) []string {
		goTo(p, pos)
		var out []string
		for _, s := range strings.Split(ansi.Strip(p.panes.batch.View(p.frame(), 56, 18)), "\n") {
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
		for focus := range numPanes {
			press(p, string(rune('1'+focus)))
			f := p.frame()
			h := p.bodyHeight()
			l := p.layout(f, size[0], h)
			cover := make([]int, size[0]*h)
			for i, r := range l.boxes {
				if !r.shown {
					continue
				}
				if r.x < 0 || r.y < 0 || r.x+r.w > size[0] || r.y+r.h > h {
					t.Errorf("%dx%d: box %d %+v outside the body", size[0], h, i, r)
					continue
				}
				for y := r.y; y < r.y+r.h; y++ {
					for x := r.x; x < r.x+r.w; x++ {
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
			if r := l.boxes[focus]; !r.shown || r.collapsed {
				t.Errorf("%dx%d: the focused pane %d is %+v", size[0], size[1], focus+1, r)
			}
		}
	}
}

// The cursor on the diagonal reads out R (the cost of retraining there), not the cell's QDM terms.
func TestCursorOnDiagonalShowsR(t *testing.T) {
	p := pumped(t, asciiStyles(), 120, 36)
	press(p, "end", "1", "m")
	mp := p.panes.matrix
	p.Cursor.At = [2]int{9, 9}
	press(p, "]") // R 0.5 x 1.25
	if r := mp.readout(p.frame()); !strings.Contains(r, "t'=t=9  R 0.625") {
		t.Errorf("readout on the diagonal %q, want R 0.625", r)
	}
}

// The gap view puts the Oracle on zero and every other line at its cost minus the Oracle's.
func TestChartGapView(t *testing.T) {
	f := randomFrame(t, 60, 15)
	cp := &chartPane{keys: newChartKeys(), gap: true}
	or, _ := f.result(algos.NameOracle)
	for _, s := range cp.chartSeries(f) {
		r, _ := f.result(s.name)
		for i, v := range s.v {
			if want := r.Strategy.Cumulative[i] - or.Strategy.Cumulative[i]; v != want {
				t.Fatalf("%s at %d: %v, want %v", s.name, i, v, want)
			}
		}
	}
	if v := ansi.Strip(cp.View(f, 76, 20)); !strings.Contains(v, "Oracle") || !strings.Contains(v, " 0") {
		t.Errorf("gap view without the Oracle on zero:\n%s", v)
	}
	if cp.Title(f) == (&chartPane{}).Title(f) {
		t.Error("the gap view has the cost view's title")
	}
}

// While the engine computes, the colour scale may still grow, and the bar says so.
func TestScaleGrowsNote(t *testing.T) {
	fits := make(chan struct{}) // one model fitted per value sent: the columns come one at a time
	defer close(fits)
	p, err := NewPlayer(Options{Scenario: gated(t, fits), Seed: 3, Styles: asciiStyles(), Width: 120, Height: 36})
	if err != nil {
		t.Fatal(err)
	}
	defer p.s.Stop()
	cmd := p.s.Start()
	for range 6 {
		fits <- struct{}{}
	}
	for p.s.Computed < 6 {
		_, cmd = p.Update(cmd())
	}
	if p.frame().heat.final {
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
	ap := p.panes.about
	p.View()
	press(p, "down", "down")
	if ap.vp.YOffset != 2 {
		t.Errorf("two downs: offset %d, want 2", ap.vp.YOffset)
	}
	f := p.frame()
	r := p.layout(f, p.w, p.bodyHeight()).boxes[paneAbout]
	p.Update(tea.MouseMsg{X: r.x + 3, Y: r.y + 2, Action: tea.MouseActionPress, Button: tea.MouseButtonWheelUp})
	if ap.vp.YOffset != 1 || p.Pos != 0 {
		t.Errorf("wheel up over About: offset %d, batch %d (want 1, unmoved 0)", ap.vp.YOffset, p.Pos)
	}
}

// The scan of a scenario's feature ranges stops with its session: a restart does not leave the
// old scan generating batches.
func TestScanBoundsStopsWithSession(t *testing.T) {
	s, err := NewSession(loadTestdata(t, "bench100.yaml"), 77, nil, nil) // a seed no other test scans
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	s.Stop()
	if msg := scanBounds(s)(); msg != nil {
		t.Errorf("a stopped session's scan returned %T", msg)
	}
	s2, _ := NewSession(loadTestdata(t, "bench100.yaml"), 78, nil, nil)
	s2.Start()
	defer s2.Stop()
	msg, ok := scanBounds(s2)().(boundsMsg)
	if !ok || msg.b == nil || msg.b.hi[0] <= msg.b.lo[0] {
		t.Errorf("a live session's scan: %+v", msg)
	}
}
