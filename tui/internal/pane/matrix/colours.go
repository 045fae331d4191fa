package matrix

import (
	"math"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/palette"
	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/run"
)

// The heat map's colours, and R's way to the diagonal's: which colour a cell of the cost matrix
// gets is decided here and nowhere else.
//
// The scale (draw.Scale) runs over every computed off-diagonal cell of the run and of the what-if
// shown, and over R at every batch of the scenario opened and of the what-if: R as the scenario
// says it, not as ] and [ scale it. So a cell keeps its colour while you step and while R's scale
// changes, and the scale stops growing once every column is in. The diagonal shows R in force
// (diagonal: R's scale applied, the what-if's R under a what-if), coloured on that scale like any
// cell, and the colour bar marks where it falls (colourBar).

// Colours builds the heat map's scale for a run, a column at a time as the columns come, afresh
// for another run, scenario or what-if.
type Colours struct {
	s      *run.Session
	whatIf *live.WhatIf
	scen   *scenarios.Scenario
	cols   int // the run's columns in the scale
	scale  draw.Scale
}

// Of is the scale of run s of scenario scen (the one opened), under the what-if s shows.
func (c *Colours) Of(s *run.Session, scen *scenarios.Scenario) draw.Scale {
	if c.s != s || c.whatIf != s.WhatIf || c.scen != scen || c.cols > s.Computed {
		*c = Colours{s: s, whatIf: s.WhatIf, scen: scen, scale: draw.NewScale()}
		addR(&c.scale, scen)
		if w := s.WhatIf; w != nil {
			addR(&c.scale, w.Scenario)
		}
	}
	for ; c.cols < s.Computed; c.cols++ {
		addColumn(&c.scale, s.Matrix, c.cols)
		if w := s.WhatIf; w != nil {
			addColumn(&c.scale, w.Matrix, c.cols)
		}
	}
	c.scale.Final = s.Done && s.Err == nil
	return c.scale
}

// addR widens the scale h to R at every batch of scenario s.
func addR(h *draw.Scale, s *scenarios.Scenario) {
	for t := range s.Batches {
		h.Add(s.RetrainCost(t))
	}
}

// diagonal is what cell (t, t) shows: R in force at t, r being the frame's (R's scale applied, a
// what-if's R under a what-if).
func diagonal(r algos.RetrainCost, t int) float64 { return r(t) }

// addColumn widens the scale h to the off-diagonal cells of column t of m.
func addColumn(h *draw.Scale, m *sim.Matrix, t int) {
	for tp := 0; tp < t; tp++ {
		if c := m.Cell(tp, t); c.Done {
			v := c.C()
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				h.Lo, h.Hi = min(h.Lo, v), max(h.Hi, v)
			}
		}
	}
}

// termScale is the colour scale of A or B: from zero to the largest computed cell, its own (C's
// scale, fixed for the run, stays C's).
func termScale(m *sim.Matrix, computed int, show byte) draw.Scale {
	h := draw.NewScale()
	for t := range computed {
		for tp := 0; tp <= t; tp++ {
			if c := m.Cell(tp, t); c.Done {
				h.Add(termOf(c, show))
			}
		}
	}
	h.Final = true
	return h
}

func termOf(c *sim.Cell, show byte) float64 {
	if show == 'A' {
		return c.A
	}
	return c.B
}

// colourBar draws the scale as a bar of steps, two columns each, with round values under it:
// width is the bar's, labels the ticks' line.
func colourBar(st *draw.Styles, h draw.Scale, r float64) (bar, labels *draw.Canvas) {
	neg := 0
	if h.Lo < 0 {
		neg = len(palette.Negative)
	}
	n := len(palette.Sequential)
	w := 2 * (neg + n)
	bar, labels = draw.NewGrid(w, 1), draw.NewGrid(w+6, 1)
	x := 0
	for s := -neg; s < n; s++ {
		c := draw.StepColour(s)
		for range 2 {
			if st.Glyphs {
				bar.Set(x, 0, draw.StepGlyph(s), draw.InkOf(c))
			} else {
				bar.Set(x, 0, '█', draw.InkOf(c))
			}
			x++
		}
	}
	// Ticks: round values, each at the start of its step (values are placed piecewise linearly,
	// the negative half over [lo, 0] and the positive over [0, hi]).
	at := func(v float64) int {
		if v < 0 {
			return int(math.Round((1 - v/h.Lo) * float64(2*neg)))
		}
		return 2*neg + int(math.Round(v/h.Top()*float64(2*n)))
	}
	dim := draw.InkOf(palette.Axis)
	var ticks []float64
	ts, step := draw.NiceTicks(0, h.Top(), 4)
	if neg > 0 {
		nt, _ := draw.NiceTicks(h.Lo, 0, 2)
		ticks = append(ticks, nt[:len(nt)-1]...)
	}
	ticks = append(ticks, ts...)
	next := 0
	for _, v := range ticks {
		x := at(v)
		text := draw.Tick(v, step)
		if x < next || x+len(text) > w+1 {
			continue
		}
		labels.Text(x, 0, text, dim)
		next = x + len(text) + 1
	}
	// The top of the scale, when no tick is there.
	if top := draw.Short(h.Top()); next <= w-len(top)+5 && labels.RuneAt(w, 0) == ' ' {
		end := "▸" + top
		labels.Text(max(next, w+5-len(end)), 0, end, dim)
	}
	// R's place on the bar: the diagonal's colour, which follows R while the scale stays put.
	if !math.IsNaN(r) {
		k := draw.Ink{FG: palette.Cursor, Bold: true}
		if s := h.Step(r); s >= 6 && !st.Glyphs {
			k.FG = palette.Colour{Hex: "#000000", X256: 16, X16: 0}
		}
		if !st.Glyphs {
			k.BG = draw.StepColour(h.Step(r))
		}
		bar.Set(min(max(at(r), 0), w-1), 0, 'R', k)
	}
	return bar, labels
}
