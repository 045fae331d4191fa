package batch

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/synth"
)

// The batch scatter, its axes scanned, at three sizes in two profiles (synth.Goldens).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, g := range synth.Goldens(t, pane.Batch, func() pane.Pane { p := New(); p.Scanned(synth.Bounds()); return p }, nil) {
		t.Run(g.Name, func(t *testing.T) { golden.RequireEqual(t, []byte(g.Box+"\n")) })
	}
}
