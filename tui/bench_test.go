package tui

import (
	"io"
	"math/rand/v2"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

func colorStyles() *Styles {
	return NewStyles(lipgloss.NewRenderer(io.Discard, termenv.WithProfile(termenv.TrueColor)))
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

// The whole player view at 200x60 on a finished small run.
func BenchmarkView200x60(b *testing.B) {
	p := pumped(b, colorStyles(), 200, 60)
	press(p, "end")
	for b.Loop() {
		p.View()
	}
}
