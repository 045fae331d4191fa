package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/synth"
)

// The sizes the screen is checked at: a laptop's small terminal, a workshop's usual one, a large one.
var checkSizes = synth.Sizes

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

// The focused About pane takes the player's keys and the wheel over it to scroll (the pane's own
// scrolling is its package's test), and the wheel there does not step.
func TestAboutScrolls(t *testing.T) {
	s := loadSmall(t)
	s.About = strings.Repeat("A long description of the scenario, longer than the pane is tall. ", 30)
	p := pumpedScenario(t, s, asciiStyles(), 60, 18)
	press(p, "6")
	ap := p.panes.About
	p.View()
	press(p, "down", "down")
	if ap.Offset() != 2 || p.Pos != 0 {
		t.Errorf("two downs: offset %d, batch %d (want 2, unmoved 0)", ap.Offset(), p.Pos)
	}
	f := p.frame()
	r := p.layout(f, p.w, p.bodyHeight()).Boxes[pane.About]
	p.Update(tea.MouseMsg{X: r.X + 3, Y: r.Y + 2, Action: tea.MouseActionPress, Button: tea.MouseButtonWheelUp})
	if ap.Offset() != 1 || p.Pos != 0 {
		t.Errorf("wheel up over About: offset %d, batch %d (want 1, unmoved 0)", ap.Offset(), p.Pos)
	}
}

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
