package tui

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/pane/batch"
	"github.com/cara-sim/cara/tui/internal/pane/chart"
	"github.com/cara-sim/cara/tui/internal/pane/matrix"
	"github.com/cara-sim/cara/tui/internal/screen"
)

func asciiStyles() *draw.Styles { return draw.NewStyles(profileRenderer(termenv.Ascii)) }

func ansi256Styles() *draw.Styles { return draw.NewStyles(profileRenderer(termenv.ANSI256)) }

func loadSmall(t testing.TB) *scenarios.Scenario { return loadTestdata(t, "small.yaml") }

func loadTestdata(t testing.TB, file string) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Load(filepath.Join("testdata", file), scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// pumped returns a player whose engine has finished, driven through Update on this goroutine.
func pumped(t testing.TB, st *draw.Styles, w, h int) *Player {
	t.Helper()
	return pumpedScenario(t, loadSmall(t), st, w, h)
}

func pumpedScenario(t testing.TB, s *scenarios.Scenario, st *draw.Styles, w, h int) *Player {
	t.Helper()
	p, err := NewPlayer(Options{Scenario: s, Seed: s.Seed, Styles: st, Width: w, Height: h, Runs: testRuns()})
	if err != nil {
		t.Fatal(err)
	}
	pump(t, p)
	return p
}

// testRuns is the registry the tests' finished players share, as a server's players share theirs: a
// run computed for one test (covcon-d's or gauss-d's 100 batches of 1000 points) is the next
// one's on the same scenario and seed, not computed again. Tests that count runs, or watch one
// compute, have registries of their own.
var testRuns = sync.OnceValue(func() *live.Runs {
	return live.NewRuns(live.RunsConfig{MaxComputing: 2, Cache: 32, Workers: 2})
})

// pump starts a player and runs its engine to the end through Update, on this goroutine.
func pump(t testing.TB, p *Player) {
	t.Helper()
	pumpCmd(t, p, p.Init())
}

// pumpCmd runs commands and feeds their messages to the player, on this goroutine, until none is
// left: the engine's columns to the end, the scatter's bounds.
func pumpCmd(t testing.TB, p *Player, cmd tea.Cmd) {
	t.Helper()
	pumpWatching(p, cmd, nil)
	if !p.s.Done || p.s.Err != nil || p.s.Computed != p.opt.Scenario.Batches {
		t.Fatalf("engine: done %v err %v computed %d", p.s.Done, p.s.Err, p.s.Computed)
	}
}

// pumpWatching is pumpCmd without its check, calling seen (when not nil) after each message the
// player took.
func pumpWatching(p *Player, cmd tea.Cmd, seen func(tea.Msg)) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			_, next := p.Update(msg)
			queue = append(queue, next)
			if seen != nil {
				seen(msg)
			}
		}
	}
}

func press(p *Player, keys ...string) {
	for _, k := range keys {
		var msg tea.KeyMsg
		switch k {
		case "right", "left", "home", "end", "up", "down", "tab", "shift+tab", "enter", "esc":
			msg = tea.KeyMsg{Type: map[string]tea.KeyType{"right": tea.KeyRight, "left": tea.KeyLeft, "home": tea.KeyHome,
				"end": tea.KeyEnd, "up": tea.KeyUp, "down": tea.KeyDown, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
				"enter": tea.KeyEnter, "esc": tea.KeyEscape}[k]}
		case " ":
			msg = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune(" ")}
		default:
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		}
		p.Update(msg)
	}
}

// goTo steps a player to batch t.
func goTo(p *Player, t int) {
	press(p, "home")
	for range t {
		press(p, "right")
	}
}

func TestStepBackAndR(t *testing.T) {
	p := pumped(t, asciiStyles(), 100, 32)
	if p.Pos != 0 {
		t.Fatalf("first column shows batch %d, want 0", p.Pos)
	}
	press(p, "right", "right", "l")
	if p.Pos != 3 || p.frame().Phase() != "tuning" {
		t.Errorf("after 3 steps: batch %d phase %s, want 3 tuning (the offline block is 0..3)", p.Pos, p.frame().Phase())
	}
	press(p, "end")
	if p.Pos != 11 || p.frame().Phase() != "online" {
		t.Fatalf("end: batch %d phase %s", p.Pos, p.frame().Phase())
	}
	press(p, "home")
	// Keys typed faster than the terminal is read arrive as one message; each still counts.
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("lll")})
	if p.Pos != 3 {
		t.Errorf(`"lll" in one message: batch %d, want 3`, p.Pos)
	}
	press(p, "end", "left", "h")
	if p.Pos != 9 {
		t.Errorf("two steps back from 11: batch %d", p.Pos)
	}
	press(p, "end")
	before := p.rp.Results
	cell := *p.s.Matrix.Cell(2, 9)
	r0 := p.frame().RNow()
	press(p, "]", "]", "]", "]", "]", "]", "]", "]")
	if p.frame().RNow() <= r0 {
		t.Fatalf("] did not raise R: %v -> %v", r0, p.frame().RNow())
	}
	after := p.rp.Results
	changed := false
	for i := range before {
		if before[i].Strategy.Cost() != after[i].Strategy.Cost() {
			changed = true
		}
	}
	if !changed {
		t.Error("raising R changed no strategy cost")
	}
	if got := *p.s.Matrix.Cell(2, 9); got.A != cell.A || got.B != cell.B {
		t.Error("raising R changed the matrix; it must only replay")
	}
	// The Oracle's cost never exceeds any other algorithm's.
	for _, r := range after[1:] {
		if r.Strategy.Cost() < after[0].Strategy.Cost()-1e-9 {
			t.Errorf("%s below the Oracle", r.Algorithm)
		}
	}
	press(p, "[", "[", "[", "[", "[", "[", "[", "[")
	if d := p.frame().RNow() - r0; d > 1e-12 || d < -1e-12 {
		t.Errorf("[ eight times after ] eight times: R %v, want %v", p.frame().RNow(), r0)
	}
}

func TestKeysChangeSelectionAndCursor(t *testing.T) {
	p := pumped(t, asciiStyles(), 100, 32)
	press(p, "end")
	sel := p.selected()
	press(p, "tab")
	if p.selected() == sel {
		t.Error("tab did not change the selected algorithm")
	}
	press(p, "shift+tab")
	n := len(p.visible())
	press(p, "v")
	if len(p.visible()) == n {
		t.Error("v did not change the visible algorithms")
	}
	press(p, "m")
	if !p.Cursor.On || p.Cursor.At[1] != 11 {
		t.Fatalf("m: cursor on %v at %v, want on at column 11", p.Cursor.On, p.Cursor.At)
	}
	p.Cursor.At = [2]int{10, 11}
	press(p, "up", "up", "left")
	if p.Cursor.At != [2]int{8, 10} || p.Pos != 11 {
		t.Errorf("cursor %v pos %d after up, up, left with the matrix focused", p.Cursor.At, p.Pos)
	}
	if v := p.View(); !strings.Contains(v, "t'=8 t=10  C ") {
		t.Errorf("cursor cell details missing from the view:\n%s", v)
	}
	// h and l still step while the arrows move the cursor.
	press(p, "h")
	if p.Pos != 10 || p.Cursor.At != [2]int{8, 10} {
		t.Errorf("h with the cursor on: pos %d cursor %v, want 10 and the cursor unmoved", p.Pos, p.Cursor.At)
	}
	// Another pane focused: the arrows step again.
	press(p, "2", "right")
	if p.Pos != 11 {
		t.Errorf("→ with pane 2 focused: batch %d, want 11", p.Pos)
	}
	press(p, "esc")
	if p.Cursor.On {
		t.Error("esc left the cursor on")
	}
}

func TestTooSmallAndResize(t *testing.T) {
	p := pumped(t, asciiStyles(), 100, 32)
	for _, size := range [][2]int{{59, 30}, {100, 17}} {
		p.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		if v := p.View(); !strings.Contains(v, "Enlarge the terminal") {
			t.Errorf("%dx%d: no enlarge message:\n%s", size[0], size[1], v)
		}
	}
	for _, size := range [][2]int{{60, 18}, {80, 24}, {100, 32}, {120, 36}, {160, 48}, {200, 60}} {
		p.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		press(p, "end")
		for focus := range pane.Count {
			press(p, string(rune('1'+focus)))
			v := p.View()
			lines := strings.Split(v, "\n")
			if len(lines) != size[1] {
				t.Errorf("%dx%d pane %d focused: view has %d lines", size[0], size[1], focus+1, len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("%dx%d pane %d focused: line %d is %d wide", size[0], size[1], focus+1, i, w)
					break
				}
			}
			if !strings.Contains(v, "batch 11/11") {
				t.Errorf("%dx%d: status line missing", size[0], size[1])
			}
		}
	}
}

// "? help" and "q quit" are on the help line at every size, and the status line says R against
// the scenario's, the speed in batches per second and which algorithms show.
func TestHelpAndStatusLines(t *testing.T) {
	p := pumped(t, asciiStyles(), 80, 24)
	press(p, "end", "]")
	for _, size := range [][2]int{{60, 18}, {80, 24}, {120, 36}, {200, 60}} {
		p.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(p.View(), "\n")
		help := lines[len(lines)-1]
		if !strings.Contains(help, "? help") || !strings.Contains(help, "q quit") {
			t.Errorf("%dx%d: help line %q lacks ? help or q quit", size[0], size[1], help)
		}
	}
	p.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	status := strings.Split(p.View(), "\n")[57]
	// R 0.5 x 1.25 = 0.625.
	for _, want := range []string{"R 0.625 (x1.25 of 0.5)", "5 batches/s", "showing all (9)", "computed all", "batch 11/11 online"} {
		if !strings.Contains(status, want) {
			t.Errorf("status line %q lacks %q", status, want)
		}
	}
	press(p, "v", "-")
	status = strings.Split(p.View(), "\n")[57]
	for _, want := range []string{"showing Oracle + CARA (4)", "2 batches/s"} {
		if !strings.Contains(status, want) {
			t.Errorf("status line %q lacks %q", status, want)
		}
	}
}

// The results table, wherever it opens, shows every visible algorithm (never a cut table): at
// 120x36 it opens on 5 (a 100-batch scenario's nine algorithms leave room for three of the four
// panes beside the matrix, and the decisions and the batch come first, TestRoomSeesDecisionsAndBatch),
// and from 160x48 whichever pane has the focus.
func TestTableShowsAllAlgorithms(t *testing.T) {
	p := pumpedScenario(t, loadTestdata(t, "bench100.yaml"), asciiStyles(), 120, 36)
	goTo(p, 60)
	for _, c := range []struct {
		w, h   int
		focus  []string
		always bool // the results must show
	}{
		{120, 36, []string{"5"}, true},
		{120, 36, []string{"1", "2", "3", "4", "6"}, false},
		{160, 48, []string{"1", "2", "3", "4", "5", "6"}, true},
		{200, 60, []string{"1", "2", "3", "4", "5", "6"}, true},
	} {
		resize(p, c.w, c.h)
		for _, focus := range c.focus {
			press(p, focus)
			f := p.frame()
			r := p.layout(f, p.w, p.bodyHeight()).Boxes[pane.Results]
			if !r.Shown || r.Collapsed {
				if c.always {
					t.Fatalf("%dx%d, focus %s: the results are not shown (%+v)", c.w, c.h, focus, r)
				}
				continue
			}
			box := region(p.View(), r)
			if r.Strip {
				// Where the table does not fit: the Oracle and the algorithm selected.
				if !strings.Contains(box, "Oracle") || !strings.Contains(box, p.selected().Display()) {
					t.Errorf("%dx%d, focus %s: the strip lacks the Oracle or %s:\n%s", c.w, c.h, focus, p.selected().Display(), box)
				}
				continue
			}
			for _, a := range algos.Names {
				if !strings.Contains(box, a.Display()) {
					t.Errorf("%dx%d, focus %s: %s missing from the results:\n%s", c.w, c.h, focus, a.Display(), box)
				}
			}
		}
	}
}

// A scenario of a few online batches (scenario2: 3) shows the results at 120x36, every
// algorithm's row, in the room the decisions would fill with a dot or two a row.
func TestShortScenarioShowsTheResults(t *testing.T) {
	s := loadEmbedded(t, "scenario2")
	p := pumpedScenario(t, s, asciiStyles(), 120, 36)
	goTo(p, s.Batches-1)
	f := p.frame()
	l := p.layout(f, p.w, p.bodyHeight())
	if r := l.Boxes[pane.Results]; r.Collapsed || !r.Shown {
		t.Fatalf("the results at 120x36 on scenario2: %+v", r)
	}
	box := region(p.View(), l.Boxes[pane.Results])
	for _, a := range f.Visible {
		if !strings.Contains(box, f.Label(a)) {
			t.Errorf("no row for %s:\n%s", f.Label(a), box)
		}
	}
	if c := l.Boxes[pane.Chart]; c.Collapsed {
		t.Errorf("the chart is a title bar: %+v", c)
	}
}

// At the README's 120x36 a room sees, beside the matrix, every decision strip with its batch axis
// and a scatter with at least batch.MinPlot rows of plot, on the 100-batch scenarios with all
// nine algorithms: not two title bars. The chart stays; the results are a strip (the Oracle and
// the selected algorithm), the table one key away (5), and a focused chart or batch keeps
// screen.FocusLeast rows.
func TestRoomSeesDecisionsAndBatch(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"covcon-d", "gauss-d"} {
		t.Run(name, func(t *testing.T) {
			s := loadEmbedded(t, name, "data.size=250", "model.random_forest.trees=10")
			p := pumpedScenario(t, s, asciiStyles(), 120, 36)
			goTo(p, s.Batches-1)
			f := p.frame()
			if len(f.Visible) != 9 {
				t.Fatalf("%d algorithms visible, want all 9 (what this test is about)", len(f.Visible))
			}
			l := p.layout(f, p.w, p.bodyHeight())
			view := p.View()
			dec, bat := l.Boxes[pane.Decisions], l.Boxes[pane.Batch]
			if dec.Collapsed || dec.H-2 < len(f.Visible)+2 {
				t.Errorf("the decisions get %+v: want a strip per algorithm and the axis, %d rows inside", dec, len(f.Visible)+2)
			}
			box := region(view, dec)
			for _, a := range f.Visible {
				if !strings.Contains(box, f.Label(a)) {
					t.Errorf("no strip for %s:\n%s", f.Label(a), box)
				}
			}
			if bat.Collapsed {
				t.Fatalf("the batch is a title bar: %+v", bat)
			}
			plot := 0
			for _, l := range content(region(view, bat)) {
				if strings.ContainsAny(string(l), "┤│") {
					plot++ // a row of the plot: its y axis
				}
			}
			if plot < batch.MinPlot {
				t.Errorf("the scatter has %d rows of plot, want %d:\n%s", plot, batch.MinPlot, region(view, bat))
			}
			if c := l.Boxes[pane.Chart]; c.Collapsed {
				t.Errorf("the chart is a title bar: %+v", c)
			}
			if r := l.Boxes[pane.Results]; !r.Strip || r.H != 2 || l.Boxes[pane.About].Shown {
				t.Errorf("the results get %+v and About %+v: want a strip of the Oracle and CARA-T, About gone", r, l.Boxes[pane.About])
			}
			for _, c := range []struct {
				key  string
				pane int
				h    int
			}{{"5", pane.Results, len(f.Visible) + 5}, {"2", pane.Chart, screen.FocusLeast}, {"4", pane.Batch, screen.FocusLeast}} {
				press(p, c.key)
				if b := p.layout(p.frame(), p.w, p.bodyHeight()).Boxes[c.pane]; b.Collapsed || b.H < c.h {
					t.Errorf("focus %s: pane %d gets %+v, want %d rows", c.key, c.pane+1, b, c.h)
				}
			}
		})
	}
}

// region cuts a rectangle out of a view.
func region(v string, r pane.Rect) string {
	lines := strings.Split(v, "\n")
	var out []string
	for y := r.Y; y < r.Y+r.H && y < len(lines); y++ {
		out = append(out, ansi.Cut(lines[y], r.X, r.X+r.W))
	}
	return strings.Join(out, "\n")
}

// Focus moves with 1-6 and the mouse; z maximises the focused pane and esc restores it; ? shows
// every key over the panes until a key is pressed.
func TestFocusZoomAndHelp(t *testing.T) {
	p := pumpedScenario(t, loadTestdata(t, "bench100.yaml"), asciiStyles(), 160, 48)
	goTo(p, 40)
	press(p, "3")
	if p.Focus != pane.Decisions {
		t.Fatalf("3: focus %d", p.Focus)
	}
	press(p, "z")
	f := p.frame()
	l := p.layout(f, p.w, p.bodyHeight())
	if r := l.Boxes[pane.Decisions]; r.W != 160 || r.H != 45 {
		t.Errorf("z: the decisions box is %dx%d, want the whole body 160x45", r.W, r.H)
	}
	press(p, "esc")
	if p.Zoomed {
		t.Error("esc did not restore the layout")
	}
	press(p, "1", "z")
	if v := p.View(); !strings.Contains(v, "zoomed") || !strings.Contains(v, "t'=") {
		t.Errorf("z on the matrix: no zoom with a cursor readout:\n%s", v)
	}
	press(p, "esc", "?")
	v := p.View()
	if !strings.Contains(v, "Retraining cost and algorithms") || !strings.Contains(v, "gap to Oracle") {
		t.Errorf("? did not show the keys:\n%s", v)
	}
	press(p, "x")
	if p.overlay != nil || p.Pos != 40 {
		t.Errorf("a key after ?: overlay %v, batch %d (want closed, still 40)", p.overlay, p.Pos)
	}
}

// The mouse: a click on the decisions jumps to that batch, a click on a cell puts the cursor
// there, the wheel steps.
func TestMouse(t *testing.T) {
	p := pumpedScenario(t, loadTestdata(t, "bench100.yaml"), asciiStyles(), 160, 48)
	goTo(p, 80)
	f := p.frame()
	l := p.layout(f, p.w, p.bodyHeight())
	dr := l.Boxes[pane.Decisions]
	dp := p.panes.Decisions
	// Content x of batch 51 (a click takes the first batch of its column, and 51 is the first of a
	// pair).
	x := dr.X + 2 + dp.X(f, dr.W-4, 51)
	click := func(x, y int) {
		_, cmd := p.Update(tea.MouseMsg{X: x, Y: y, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
		if cmd != nil {
			p.Update(cmd())
		}
	}
	click(x, dr.Y+2)
	if p.Pos != 51 || p.Focus != pane.Decisions {
		t.Errorf("click on the decisions at batch 51: batch %d, focus %d", p.Pos, p.Focus)
	}
	p.Update(tea.MouseMsg{X: x, Y: dr.Y + 2, Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown})
	if p.Pos != 52 {
		t.Errorf("wheel down: batch %d, want 52", p.Pos)
	}
	p.Update(tea.MouseMsg{X: x, Y: dr.Y + 2, Action: tea.MouseActionPress, Button: tea.MouseButtonWheelUp})
	if p.Pos != 51 {
		t.Errorf("wheel up: batch %d, want 51", p.Pos)
	}
	mr := l.Boxes[pane.Matrix]
	mp := p.panes.Matrix
	f = p.frame()
	ml := mp.Where(f, mr.W-4, mr.H-2)
	hx, hy := ml.X(40), ml.Y(30)
	click(mr.X+2+ml.Gutter+hx, mr.Y+1+ml.HeatY+hy)
	tp, tt := ml.Cell(hx, hy)
	if !p.Cursor.On || p.Cursor.At != [2]int{tp, tt} || p.Focus != pane.Matrix || tt < 39 || tt > 41 || tp < 29 || tp > 31 {
		t.Errorf("click on cell (30, 40): cursor %v on %v focus %d", p.Cursor.At, p.Cursor.On, p.Focus)
	}
}

// The whole program, through bubbletea: step, play, step back, raise R, resize, quit.
func TestProgram(t *testing.T) {
	s := loadSmall(t)
	p, err := NewPlayer(Options{Scenario: s, Seed: s.Seed, Styles: asciiStyles()})
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(100, 32))
	wait := func(text string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(text)) },
			teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	}
	wait("computed all")
	for range 5 {
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("l")})
	}
	wait("batch 5/11")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("h")})
	wait("batch 4/11")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("]")})
	wait("R 0.625")
	tm.Send(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune(" ")})
	wait("playing")
	wait("batch 11/11")
	tm.Send(tea.WindowSizeMsg{Width: 50, Height: 15})
	wait("Enlarge the terminal")
	tm.Send(tea.WindowSizeMsg{Width: 60, Height: 20})
	wait("1 Matrix")
	tm.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	wait("Cumulative strategy cost")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	tm.WaitFinished(t, teatest.WithFinalTimeout(3*time.Second))
}

func TestPicker(t *testing.T) {
	st := asciiStyles()
	entries := scenarios.Entries("testdata", nil)
	opened := ""
	pk := NewPicker(entries, st, func(e scenarios.Entry, w, h int, back func() (tea.Model, tea.Cmd)) (*Player, error) {
		opened = e.Ref
		s, err := scenarios.Load(e.Ref, scenarios.Options{})
		if err != nil {
			return nil, err
		}
		return NewPlayer(Options{Scenario: s, Seed: s.Seed, Styles: st, Back: back, Width: w, Height: h})
	})
	pk.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	if v := pk.View(); !strings.Contains(v, "covcon-d") || !strings.Contains(v, "CovCon-D") {
		t.Fatalf("picker does not show covcon-d first:\n%s", v)
	}
	// The file in testdata is listed after the embedded scenarios.
	small := filepath.Join("testdata", "small.yaml")
	for range entries {
		if it := pk.list.SelectedItem().(entryItem); it.e.Ref == small {
			break
		}
		pk.Update(tea.KeyMsg{Type: tea.KeyDown})
	}
	if it := pk.list.SelectedItem().(entryItem); it.e.Ref != small {
		t.Fatal("testdata/small.yaml is not offered")
	}
	m, cmd := pk.Update(tea.KeyMsg{Type: tea.KeyEnter})
	pl, ok := m.(*Player)
	if !ok || cmd == nil || opened != small {
		t.Fatalf("enter opened %q as %T", opened, m)
	}
	back, _ := pl.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	if back != pk {
		t.Errorf("q in the player returned %T, want the picker", back)
	}
	// Keys that arrive in one message (a slow link, a script) count one by one: "jj" moves two.
	pk.Update(tea.KeyMsg{Type: tea.KeyHome})
	pk.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jj")})
	if i := pk.list.Index(); i != 2 {
		t.Errorf("\"jj\" at once moved the selection to %d, want 2", i)
	}
}

// Filtering narrows the list; a scenario that cannot open shows the whole message, wrapped.
func TestPickerFilterAndError(t *testing.T) {
	entries := scenarios.Entries("", nil)
	long := "electricity.csv not found: looked in $CARA_DATA, ./data and ../shared/data beside a checkout; give it with --data PATH (the Elec2 set, 45,312 rows)"
	pk := NewPicker(entries, asciiStyles(), func(e scenarios.Entry, w, h int, back func() (tea.Model, tea.Cmd)) (*Player, error) {
		return nil, &openError{long}
	})
	// send delivers a message, then the filter's matches (the list filters in a command; the
	// other commands, a cursor's blinking, would run forever).
	send := func(msg tea.Msg) {
		_, cmd := pk.Update(msg)
		var cmds []tea.Cmd
		if cmd != nil {
			cmds = append(cmds, cmd)
		}
		for len(cmds) > 0 {
			c := cmds[0]
			cmds = cmds[1:]
			switch m := c().(type) {
			case tea.BatchMsg:
				for _, c := range m {
					if c != nil {
						cmds = append(cmds, c)
					}
				}
			case list.FilterMatchesMsg:
				pk.Update(m)
			}
		}
	}
	send(tea.WindowSizeMsg{Width: 100, Height: 30})
	send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/")})
	for _, r := range "electricity" {
		send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	send(tea.KeyMsg{Type: tea.KeyEnter}) // applies the filter
	if n := len(pk.list.VisibleItems()); n != 1 {
		t.Fatalf("filter electricity: %d items", n)
	}
	send(tea.KeyMsg{Type: tea.KeyEnter}) // opens: fails
	v := ansi.Strip(pk.View())
	flat := strings.Join(strings.Fields(v), " ")
	if !strings.Contains(flat, "Cannot open it: "+long) {
		t.Errorf("the error is not shown in full:\n%s", v)
	}
}

// A server's picker names its scenarios: never the path of a file in its scenarios folder, nor
// the owner of an upload (their Refs), in the list, the detail or the filter.
func TestPickerHidesRefs(t *testing.T) {
	entries := []scenarios.Entry{
		{Ref: "/srv/secret/scenarios/lesson.yaml", Title: "Lesson  (lesson.yaml)", About: "A lesson."},
		{Ref: "upload:SHA256:abcdefOWNER/mine", Title: "Mine  (mine, yours)", About: "An upload."},
	}
	pk := NewPicker(entries, asciiStyles(), nil)
	pk.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	for i, want := range []string{"lesson", "mine"} {
		pk.list.Select(i)
		v := ansi.Strip(pk.View())
		if strings.Contains(v, "/srv/secret") || strings.Contains(v, "OWNER") || strings.Contains(v, "upload:") {
			t.Errorf("entry %d shows a Ref:\n%s", i, v)
		}
		if n := len(regexp.MustCompile(`(^|\s)`+want+`(\s|$)`).FindAllString(v, -1)); n != 2 { // the list's line and the detail's
			t.Errorf("entry %d: its name %q is not shown beside its title:\n%s", i, want, v)
		}
		if f := (entryItem{entries[i]}).FilterValue(); strings.Contains(f, "secret") || strings.Contains(f, "OWNER") {
			t.Errorf("entry %d filters on %q", i, f)
		}
	}
}

type openError struct{ s string }

func (e *openError) Error() string { return e.s }

// The picker's view in the ASCII profile at 100x24, on the second entry
// (go test ./tui -run TestGoldenPicker -update rewrites testdata/TestGoldenPicker.golden).
func TestGoldenPicker(t *testing.T) {
	entries := []scenarios.Entry{
		{Ref: "covcon-d", Title: "CovCon-D: covariate and concept drift", About: "Points drift in space."},
		{Ref: "testdata/small.yaml", Title: "Small: a test scenario  (testdata/small.yaml)", About: "Twelve batches of a hundred points."},
	}
	pk := NewPicker(entries, asciiStyles(), nil)
	pk.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	pk.Update(tea.KeyMsg{Type: tea.KeyDown})
	golden.RequireEqual(t, []byte(pk.View()+"\n"))
	pk.Update(tea.WindowSizeMsg{Width: 40, Height: 10})
	if v := pk.View(); !strings.Contains(v, "cara needs at least 60x18") {
		t.Errorf("too small picker:\n%s", v)
	}
}

// NewPlayer builds its styles from the renderer it is given (the SSH server passes each session's),
// so an ASCII renderer gives the monochrome player.
func TestNewPlayerUsesRenderer(t *testing.T) {
	s := loadSmall(t)
	for _, tc := range []struct {
		profile termenv.Profile
		mono    bool
	}{{termenv.Ascii, true}, {termenv.ANSI256, false}} {
		p, err := NewPlayer(Options{Scenario: s, Seed: s.Seed, Renderer: profileRenderer(tc.profile)})
		if err != nil {
			t.Fatal(err)
		}
		if p.st.Mono != tc.mono {
			t.Errorf("profile %v: mono %v, want %v", tc.profile, p.st.Mono, tc.mono)
		}
	}
}

// A step pressed before its batch is computed waits for the engine instead of vanishing.
func TestStepWaitsForTheEngine(t *testing.T) {
	fits := make(chan struct{}) // one model fitted per value sent: the columns come one at a time
	defer close(fits)
	p, err := NewPlayer(Options{Scenario: gated(t, fits), Seed: 3, Styles: asciiStyles()})
	if err != nil {
		t.Fatal(err)
	}
	cmd := p.s.Start()
	fits <- struct{}{}
	msg := cmd() // the first column
	_, cmd = p.Update(msg)
	if p.Pos != 0 || p.s.Computed != 1 {
		t.Fatalf("after the first column: pos %d computed %d", p.Pos, p.s.Computed)
	}
	press(p, "l", "l")
	if p.Pos != 0 {
		t.Fatalf("stepped to %d before batch 1 was computed", p.Pos)
	}
	fits <- struct{}{}
	fits <- struct{}{}
	for p.s.Computed < 3 {
		_, cmd = p.Update(cmd())
	}
	if p.Pos != 2 {
		t.Errorf("after columns 1 and 2 arrived, batch %d, want the 2 steps asked for", p.Pos)
	}
	p.s.Stop()
}

// Keys are in one place and the help line follows the focused pane.
func TestHelpFollowsFocus(t *testing.T) {
	p := pumpedScenario(t, loadTestdata(t, "bench100.yaml"), asciiStyles(), 200, 60)
	goTo(p, 30)
	last := func() string { lines := strings.Split(p.View(), "\n"); return lines[len(lines)-1] }
	for _, tc := range []struct{ focus, want string }{{"1", "m cell cursor"}, {"2", "o gap to Oracle"}} {
		press(p, tc.focus)
		if h := last(); !strings.Contains(h, tc.want) {
			t.Errorf("pane %s focused: help %q lacks %q", tc.focus, h, tc.want)
		}
	}
	press(p, "2", "o")
	if !p.panes.Chart.Gap() {
		t.Error("o did not switch the chart to the gap to the Oracle")
	}
	// The keys of every pane are key.Bindings of the pane's own key map.
	for _, b := range []bool{key1(matrix.NewKeyMap().Cursor, "m"), key1(chart.NewKeyMap().Gap, "o"), key1(batch.NewKeyMap().Features, "f"),
		key1(newPlayerKeys().Maximise, "z")} {
		if !b {
			t.Error("a pane key is not in its key map")
		}
	}
	if slices.Contains(newPlayerKeys().Home.Keys(), "g") {
		t.Error("g is bound: it is left for the guess round")
	}
}

func key1(b interface{ Keys() []string }, k string) bool { return slices.Contains(b.Keys(), k) }

// The numbers on a laptop: at 120x36 the end of covcon-d shows, beside the matrix, the chart,
// the decisions and the batch (not title bars), a strip of the results with the Oracle's and
// CARA-T's strategy costs as cara run gives them (the same replay: 419.85 both on seed 0), and,
// after an answer, the row You; About gives way. At 160x48 the whole table shows.
func TestResultsStripOnALaptop(t *testing.T) {
	t.Parallel()
	s := loadEmbedded(t, "covcon-d")
	p := pumpedScenario(t, s, asciiStyles(), 120, 36)
	press(p, "end")
	res, err := s.Evaluation.Evaluate(p.s.Matrix, s.RetrainCost, s.Algorithms, s.Batches-1)
	if err != nil {
		t.Fatal(err)
	}
	cost := map[algos.Name]string{}
	for _, r := range res {
		cost[r.Algorithm] = draw.Cost(r.Strategy.Cost())
	}
	strip := func() (string, screen.Layout) {
		f := p.frame()
		l := p.layout(f, p.w, p.bodyHeight())
		return region(draw.StripANSI(p.View()), l.Boxes[pane.Results]), l
	}
	got, l := strip()
	for _, i := range []int{pane.Matrix, pane.Chart, pane.Decisions, pane.Batch} {
		if b := l.Boxes[i]; !b.Shown || b.Collapsed || b.Strip {
			t.Errorf("pane %d gets %+v: want it open", i+1, b)
		}
	}
	if r := l.Boxes[pane.Results]; !r.Strip || l.Boxes[pane.About].Shown {
		t.Fatalf("results %+v, About %+v: want the strip, and About gone", r, l.Boxes[pane.About])
	}
	lines := strings.Split(got, "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "Oracle") || !strings.Contains(lines[0], cost[algos.NameOracle]) ||
		!strings.Contains(lines[1], "▶T CARA-T") || !strings.Contains(lines[1], cost[algos.NameCaraT]) || !strings.Contains(lines[1], "12 retr.") {
		t.Errorf("the strip, want the Oracle's %s and CARA-T's %s:\n%s", cost[algos.NameOracle], cost[algos.NameCaraT], got)
	}
	// An answer: the row You joins it (the chart gives a row), and the decisions and batch stay open.
	press(p, "home")
	goTo(p, 40)
	press(p, "g", "l", "r", "1") // the question focused the batch; the matrix again
	got, l = strip()
	if lines := strings.Split(got, "\n"); len(lines) != 3 || !strings.Contains(lines[2], "You (1 answer)") || !strings.Contains(lines[2], "RETRAIN") {
		t.Errorf("the strip after an answer:\n%s", got)
	}
	for _, i := range []int{pane.Chart, pane.Decisions, pane.Batch} {
		if b := l.Boxes[i]; b.Collapsed || b.Strip {
			t.Errorf("after an answer pane %d gets %+v", i+1, b)
		}
	}
	// At 80x24, one pane at a time: the strip under it.
	resize(p, 80, 24)
	if got, l := strip(); !l.Boxes[pane.Results].Strip || !strings.Contains(got, "Oracle") || !strings.Contains(got, "You (1 answer)") {
		t.Errorf("at 80x24 the results get %+v:\n%s", l.Boxes[pane.Results], got)
	}
	resize(p, 160, 48)
	l = p.layout(p.frame(), p.w, p.bodyHeight())
	for _, i := range []int{pane.Chart, pane.Decisions, pane.Batch, pane.Results} {
		if b := l.Boxes[i]; b.Collapsed || b.Strip {
			t.Errorf("at 160x48 pane %d gets %+v: want every pane a lesson needs open", i+1, b)
		}
	}
	// The batch focused (as a question leaves it), the table with its You row still fits: About
	// gives way.
	press(p, "4")
	l = p.layout(p.frame(), p.w, p.bodyHeight())
	if b := l.Boxes[pane.Results]; b.Collapsed || b.Strip || b.H < len(p.frame().Visible)+7 {
		t.Errorf("at 160x48, the batch focused, the results get %+v", b)
	}
}

// End while the engine computes goes to the last column computed and on with the columns as they
// come, to the last batch (it stopped at 91-97 of 99 and stayed); the status says where it goes.
func TestEndWhileComputing(t *testing.T) {
	p, fits, cmd := gatedPlayer(t)
	last := p.s.Matrix.Batches() - 1
	for range 3 {
		fits <- struct{}{}
		_, cmd = p.Update(cmd())
	}
	press(p, "end")
	if p.Pos != 2 || !strings.Contains(draw.StripANSI(p.status(p.frame())), fmt.Sprintf("computed 3/%d, to batch %d", last+1, last)) {
		t.Fatalf("End at 3 columns: batch %d, status %q", p.Pos, draw.StripANSI(p.status(p.frame())))
	}
	for p.s.Computed <= last {
		fits <- struct{}{}
		_, cmd = p.Update(cmd())
	}
	if p.Pos != last {
		t.Errorf("the engine done: batch %d, want %d", p.Pos, last)
	}
}

// gatedPlayer is a 120x36 player of the gated scenario, started: each value sent on fits fits one
// model, so the columns come one at a time as the test lets them; cmd brings the next message.
func gatedPlayer(t *testing.T) (p *Player, fits chan struct{}, cmd tea.Cmd) {
	t.Helper()
	fits = make(chan struct{})
	p, err := NewPlayer(Options{Scenario: gated(t, fits), Seed: 3, Styles: asciiStyles(), Width: 120, Height: 36})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.s.Stop()
		close(fits)
	})
	return p, fits, p.s.Start()
}
