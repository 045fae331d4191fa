package tui

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
)

// colorStyles are true-colour styles. The profile is set explicitly: a renderer on a non-terminal
// writer otherwise detects no colours at all.
func colorStyles() *draw.Styles { return draw.NewStyles(profileRenderer(termenv.TrueColor)) }

func profileRenderer(p termenv.Profile) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(p)
	return r
}

// The whole player view at 200x60 at the last batch of a finished 100-batch run (the panes redraw
// when a batch is revealed, not on every frame: this is a frame with nothing new).
func BenchmarkView200x60(b *testing.B) {
	p := pumpedScenario(b, loadTestdata(b, "bench100.yaml"), colorStyles(), 200, 60)
	press(p, "end")
	for b.Loop() {
		p.View()
	}
}

// A step's whole cost at 200x60 on the same run: the replay of every algorithm (tuning included),
// every pane redrawn, and the view. One step per iteration, walking the online block back and
// forth, so no step finds its replay in the run's cache (which keeps the last 16).
func BenchmarkStepView200x60(b *testing.B) {
	benchSteps(b, pumpedScenario(b, loadTestdata(b, "bench100.yaml"), colorStyles(), 200, 60))
}

// The same at 120x36 in 256 colours, the size of a workshop laptop.
func BenchmarkStepView120x36(b *testing.B) {
	benchSteps(b, pumpedScenario(b, loadTestdata(b, "bench100.yaml"), draw.NewStyles(profileRenderer(termenv.ANSI256)), 120, 36))
}

// The same step with the heat map's canvas rendered by ntcharts' View (a lipgloss style per cell)
// instead of writeInkLine: the measurement behind the panes' own renderer (docs/benchmarks.md).
func BenchmarkStepView200x60HeatNtcharts(b *testing.B) {
	p := pumpedScenario(b, loadTestdata(b, "bench100.yaml"), colorStyles(), 200, 60)
	p.panes.Matrix.Render = heatViaNtcharts
	benchSteps(b, p)
}

// heatViaNtcharts renders the heat map's canvas through ntcharts' View.
func heatViaNtcharts(cv *draw.Canvas, st *draw.Styles) []string {
	return strings.Split(draw.NtchartsView(cv, st), "\n")
}

// benchSteps steps between batch 30 and the last, one step and one view per iteration.
func benchSteps(b *testing.B, p *Player) {
	press(p, "end")
	dir := "left"
	for b.Loop() {
		switch {
		case p.Pos <= 30:
			dir = "right"
		case p.Pos >= p.s.Matrix.Batches()-1:
			dir = "left"
		}
		press(p, dir)
		p.View()
	}
}

// A step at 200x60 on covcon-d's own streams (1000 points a batch, so the batch pane's scatter is
// full size and each step generates a batch), with nearest centroid in place of the forest to
// keep the set-up short. One step per iteration.
func BenchmarkStepCovconD200x60(b *testing.B) {
	s, err := scenarios.Load("covcon-d", scenarios.Options{})
	if err != nil {
		b.Fatal(err)
	}
	s.Model = sim.NearestCentroid{}
	benchSteps(b, pumpedScenario(b, s, colorStyles(), 200, 60))
}

// The covcon-d step with the heat map rendered by ntcharts' View.
func BenchmarkStepCovconD200x60HeatNtcharts(b *testing.B) {
	s, err := scenarios.Load("covcon-d", scenarios.Options{})
	if err != nil {
		b.Fatal(err)
	}
	s.Model = sim.NearestCentroid{}
	p := pumpedScenario(b, s, colorStyles(), 200, 60)
	p.panes.Matrix.Render = heatViaNtcharts
	benchSteps(b, p)
}
