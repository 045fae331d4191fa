package tui

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// colorStyles are true-colour styles. The profile is set explicitly: a renderer on a non-terminal
// writer otherwise detects no colours at all.
func colorStyles() *Styles { return NewStyles(profileRenderer(termenv.TrueColor)) }

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
	benchSteps(b, pumpedScenario(b, loadTestdata(b, "bench100.yaml"), NewStyles(profileRenderer(termenv.ANSI256)), 120, 36))
}

// The same step with the heat map drawn and rendered on ntcharts' canvas (every cell set in its
// canvas.Model, rendered by its View with a lipgloss style per cell) instead of its own grid: the
// measurement behind the heat map keeping its renderer (docs/architecture.md).
func BenchmarkStepView200x60HeatNtcharts(b *testing.B) {
	p := pumpedScenario(b, loadTestdata(b, "bench100.yaml"), colorStyles(), 200, 60)
	p.panes.matrix.render = heatViaNtcharts
	benchSteps(b, p)
}

// heatViaNtcharts draws the heat map's cells on an ntcharts canvas and renders them there.
func heatViaNtcharts(g *cellGrid, st *Styles) []string {
	cv := newCanvas(g.w, g.h)
	for i, c := range g.cells {
		cv.set(i%g.w, i/g.w, c.r, c.k)
	}
	return strings.Split(viewViaNtcharts(cv, st), "\n")
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

// The covcon-d step with the heat map on ntcharts' canvas.
func BenchmarkStepCovconD200x60HeatNtcharts(b *testing.B) {
	s, err := scenarios.Load("covcon-d", scenarios.Options{})
	if err != nil {
		b.Fatal(err)
	}
	s.Model = sim.NearestCentroid{}
	p := pumpedScenario(b, s, colorStyles(), 200, 60)
	p.panes.matrix.render = heatViaNtcharts
	benchSteps(b, p)
}

// The heat map alone, drawn afresh on ntcharts' canvas.
func BenchmarkHeat100Ntcharts(b *testing.B) {
	p := pumpedScenario(b, loadTestdata(b, "bench100.yaml"), colorStyles(), 200, 60)
	press(p, "end")
	f := p.frame()
	mp := p.panes.matrix
	mp.render = heatViaNtcharts
	for b.Loop() {
		mp.cache = ""
		mp.View(f, 104, 56)
	}
}

// The heat map alone, drawn afresh: a 100x100 matrix with two paths at one screen column per
// batch.
func BenchmarkHeat100(b *testing.B) {
	p := pumpedScenario(b, loadTestdata(b, "bench100.yaml"), colorStyles(), 200, 60)
	press(p, "end")
	f := p.frame()
	mp := p.panes.matrix
	for b.Loop() {
		mp.cache = "" // no reuse: every cell drawn
		mp.View(f, 104, 56)
	}
}
