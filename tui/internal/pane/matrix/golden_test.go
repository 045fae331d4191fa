package matrix

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/run"
	"github.com/cara-sim/cara/tui/internal/synth"
)

// The cost matrix at three sizes in two profiles (synth.Goldens).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, g := range synth.Goldens(t, pane.Matrix, func() pane.Pane { return New() }, func(f *pane.Frame, s *run.Session) { f.Heat = new(Colours).Of(s, s.Scenario) }) {
		t.Run(g.Name, func(t *testing.T) { golden.RequireEqual(t, []byte(g.Box+"\n")) })
	}
}
