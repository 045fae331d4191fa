package results

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/synth"
)

// The results table at three sizes in two profiles (synth.Goldens).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, g := range synth.Goldens(t, pane.Results, func() pane.Pane { return New() }, nil) {
		t.Run(g.Name, func(t *testing.T) { golden.RequireEqual(t, []byte(g.Box+"\n")) })
	}
}
