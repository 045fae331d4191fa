package about

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/synth"
	"github.com/charmbracelet/x/exp/golden"
)

// frame is the synthetic run's frame, its scenario a copy the test may change.
func frame(t *testing.T) *pane.Frame {
	f := synth.Frame(t, draw.ForProfile(termenv.Ascii), synth.Session(t), synth.GoldenAt)
	scen := *f.Scen
	f.Scen = &scen
	return f
}

// The pane says the scenario's facts (its batches, R, features, seed and known drifts) under its
// description, and which settings beyond the paper it uses, nothing of them when it uses none
// (issue 33).
func TestFactsAndBeyondThePaper(t *testing.T) {
	f := frame(t)
	v := strings.Join(strings.Fields(ansi.Strip(New().View(f, 90, 30))), " ")
	for _, want := range []string{"60 batches, the first 15 offline; R = 4; 2 features; seed 0.",
		"Known drifts at 8 (abrupt), 24 (recurring), 36 (recurring), 48 (recurring)."} {
		if !strings.Contains(v, want) {
			t.Errorf("the facts lack %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "Beyond the paper") {
		t.Errorf("a scenario of the paper's settings shows an extension:\n%s", v)
	}
	f.Scen.Window = 3
	v = strings.Join(strings.Fields(ansi.Strip(New().View(f, 90, 30))), " ")
	if !strings.Contains(v, "Beyond the paper: each model trains on its batch and the 2 before") {
		t.Errorf("model.window 3 not in About:\n%s", v)
	}
}

// Focused, the pane scrolls with its keys and the wheel; unfocused, its keys are not its own.
func TestScrolls(t *testing.T) {
	f := frame(t)
	f.Scen.About = strings.Repeat("A long description of the scenario, longer than the pane is tall. ", 30)
	p := New()
	p.View(f, 56, 6)
	for _, k := range []string{"down", "down"} {
		if e, ok := p.Key(keys.Msg(k), f, true); !ok || e != nil {
			t.Fatalf("%s: taken %v, effects %v", k, ok, e)
		}
	}
	if p.Offset() != 2 {
		t.Errorf("two downs: offset %d, want 2", p.Offset())
	}
	if p.Wheel(-1); p.Offset() != 1 {
		t.Errorf("the wheel up: offset %d, want 1", p.Offset())
	}
	if _, ok := p.Key(keys.Msg("down"), f, false); ok || p.Offset() != 1 {
		t.Errorf("down unfocused: taken %v, offset %d", ok, p.Offset())
	}
	if e, ok := p.Key(keys.Msg("pgdown"), f, true); !ok || e != nil || p.Offset() != 4 {
		t.Errorf("page down: taken %v, offset %d, want 1 + half of 6", ok, p.Offset())
	}
}

// The About pane at three sizes in two profiles (synth.Goldens).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, g := range synth.Goldens(t, pane.About, func() pane.Pane { return New() }, nil) {
		t.Run(g.Name, func(t *testing.T) { golden.RequireEqual(t, []byte(g.Box+"\n")) })
	}
}
