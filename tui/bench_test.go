package tui

import (
	"io"
	"math/rand/v2"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/algos"
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

func randomMatrix(T int) *sim.Matrix {
	m := sim.NewMatrix(T, T/4)
	rng := rand.New(rand.NewPCG(1, 1))
	for t := range T {
		for tp := 0; tp <= t; tp++ {
			c := sim.Cell{A: rng.Float64() * 10, B: rng.Float64() * 5, Errors: algos.NewBits(10)}
			if tp == t {
				c.B = c.A
			}
			m.Set(tp, t, c)
		}
	}
	return m
}

// A 100x100 matrix drawn at one terminal column per batch (50 rows of half blocks).
func BenchmarkMatrixView100(b *testing.B) {
	st := colorStyles()
	hm := newHeatmap(st)
	m := randomMatrix(100)
	c := algos.Costs{M: m, R: algos.Constant(5)}
	o := algos.Oracle(c, 25, 99)
	v := heatView{m: m, r: c.R, pos: 99, paths: []heatPath{{colOracle, o}}, width: 100, height: 50, absScale: scaleOf(m, 99)}
	for b.Loop() {
		hm.render(v)
	}
}

// The whole player view at 200x60 at the last batch of a finished 100-batch run (charts cached:
// they are redrawn when a batch is revealed, not on every frame).
func BenchmarkView200x60(b *testing.B) {
	p := pumpedScenario(b, loadTestdata(b, "bench100.yaml"), colorStyles(), 200, 60)
	press(p, "end")
	for b.Loop() {
		p.View()
	}
}

// A step's whole cost at 200x60 on the same run: the replay of every algorithm (tuning included),
// the chart redrawn, and the view.
func BenchmarkStepView200x60(b *testing.B) {
	p := pumpedScenario(b, loadTestdata(b, "bench100.yaml"), colorStyles(), 200, 60)
	press(p, "end")
	for b.Loop() {
		press(p, "left")
		p.View()
		press(p, "right")
		p.View()
	}
}

// The view at 200x60 on covcon-d's own streams (1000 points a batch, so the batch pane's scatter
// is full size), with nearest centroid in place of the forest to keep the set-up short.
func BenchmarkViewCovconD200x60(b *testing.B) {
	s, err := scenarios.Load("covcon-d", scenarios.Options{})
	if err != nil {
		b.Fatal(err)
	}
	s.Model = sim.NearestCentroid{}
	p := pumpedScenario(b, s, colorStyles(), 200, 60)
	press(p, "end")
	for b.Loop() {
		p.View()
	}
}
