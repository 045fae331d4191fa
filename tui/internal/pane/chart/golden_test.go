package chart

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/synth"
)

// The cumulative cost chart at three sizes in two profiles (synth.Goldens).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, g := range synth.Goldens(t, pane.Chart, func() pane.Pane { return New() }, nil) {
		t.Run(g.Name, func(t *testing.T) { golden.RequireEqual(t, []byte(g.Box+"\n")) })
	}
}
