package figures

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

func rgba(r, g, b uint32, a uint8) color.Color {
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
}

// costGrid is the cost matrix C as a heat-map grid: column t, row t', NaN below the diagonal and
// where a cell was not computed.
type costGrid struct {
	m *sim.Matrix
	r algos.RetrainCost
}

func (g costGrid) Dims() (c, r int) { return g.m.Batches(), g.m.Batches() }
func (g costGrid) X(c int) float64  { return float64(c) }
func (g costGrid) Y(r int) float64  { return float64(r) }
func (g costGrid) Z(c, r int) float64 {
	switch {
	case r > c:
		return math.NaN()
	case r == c:
		return g.r(c)
	}
	return g.m.Staleness(r, c)
}

// Path is a strategy to draw on the matrix under a name of algos.Names.
type Path struct {
	Algorithm algos.Name
	Strategy  algos.Strategy
}

// MatrixFigure draws the cost matrix C (QDMdiff above the diagonal, R_t on it) as a heat map on
// the player's scale (sequential unless some cell is negative) with its colour bar, the offline and online blocks separated,
// and each path drawn on it as the paper's figure 4a does: keeps as a line along the model's row,
// retrains as markers on the diagonal. It writes dir/name.format and returns the path.
func MatrixFigure(m *sim.Matrix, r algos.RetrainCost, paths []Path, dir, name string, f Format) ([]string, error) {
	g := costGrid{m, r}
	lo, hi := 0.0, 0.0
	for t := 0; t < m.Batches(); t++ {
		for tp := 0; tp <= t; tp++ {
			if v := g.Z(t, tp); !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	if hi == 0 {
		hi = 1
	}
	cm := newHeatScale(lo, hi)
	hm := plotter.NewHeatMap(g, cm.Palette(255))
	hm.Min, hm.Max = cm.Min(), cm.Max()
	hm.NaN = color.White
	// Vector cells: a raster image does not follow the inverted axis that puts t' = 0 on top.
	hm.Rasterized = false

	p := newPlot(fmt.Sprintf("%s: cost matrix C[t', t]", m.Scenario), "batch t (data and queries)", "batch t' (model trained on D_t')")
	p.Y.Scale = plot.InvertedScale{Normalizer: plot.LinearScale{}}
	p.Add(hm)
	// The offline block ends before batch Off: a dashed cross marks the border of the blocks.
	border := float64(m.Offline()) - 0.5
	for _, xy := range []plotter.XYs{{{X: border, Y: -0.5}, {X: border, Y: float64(m.Batches()) - 0.5}}, {{X: -0.5, Y: border}, {X: float64(m.Batches()) - 0.5, Y: border}}} {
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		l.Color = color.Gray{Y: 40}
		p.Add(l)
	}
	// The Oracle first, under the others (see drawPath).
	paths = slices.Clone(paths)
	slices.SortStableFunc(paths, func(a, b Path) int {
		return cmp.Compare(b2i(a.Algorithm != algos.NameOracle), b2i(b.Algorithm != algos.NameOracle))
	})
	drawn := make([]algos.Name, len(paths))
	for i, path := range paths {
		drawn[i] = path.Algorithm
	}
	for _, path := range paths {
		if err := drawPath(p, path, drawn); err != nil {
			return nil, err
		}
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -0.5, float64(m.Batches())-0.5, -0.5, float64(m.Batches())-0.5

	p.Legend.Top, p.Legend.Left = false, true // bottom left: the empty lower triangle
	p.Legend.YOffs = vg.Centimeter

	bar := plot.New()
	bar.Title.Text = "C"
	bar.HideX()
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	bar.Y.Padding = 0
	bar.Y.Label.Text = "staleness units (R on the diagonal)"
	return saveWithBar(p, bar, 22*vg.Centimeter, 17*vg.Centimeter, dir, name, f)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// saveWithBar draws a plot with a narrow colour bar on its right.
func saveWithBar(p, bar *plot.Plot, w, h vg.Length, dir, name string, f Format) ([]string, error) {
	return save(w, h, dir, name, f, func(dc draw.Canvas) {
		split := w * 0.84
		p.Draw(draw.Crop(dc, 0, split-w, 0, 0))
		bar.Draw(draw.Crop(dc, split+vg.Millimeter*4, 0, vg.Centimeter*1.2, -vg.Centimeter*0.6))
	})
}

// drawPath draws a strategy: each model's run of batches as a horizontal line along row s from its
// training batch to the last batch that used it, and a marker on the diagonal where it was trained.
func drawPath(p *plot.Plot, path Path, drawn []algos.Name) error {
	s := path.Strategy
	c := algoColor(path.Algorithm)
	// The Oracle goes under the others, wide and ringed, so a path that coincides with it shows as
	// a thin line inside a wide one and a dot inside a ring: both stay visible.
	width, mark, glyph := vg.Points(1.5), "dot", draw.GlyphStyle{Color: c, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
	if path.Algorithm == algos.NameOracle {
		width, mark = vg.Points(4.5), "ring"
		glyph = draw.GlyphStyle{Color: c, Radius: vg.Points(5.5), Shape: draw.RingGlyph{}}
	}
	var marks plotter.XYs
	first := true
	for i := 0; i < len(s.Model); {
		model, j := s.Model[i], i
		for j+1 < len(s.Model) && s.Model[j+1] == model {
			j++
		}
		marks = append(marks, plotter.XY{X: float64(model), Y: float64(model)})
		if t1 := s.Start + j; t1 > model {
			l, err := plotter.NewLine(plotter.XYs{{X: float64(model), Y: float64(model)}, {X: float64(t1), Y: float64(model)}})
			if err != nil {
				return err
			}
			l.Color, l.Width, l.Dashes = c, width, dashesOf(path.Algorithm, drawn)
			p.Add(l)
			if first {
				p.Legend.Add(path.Algorithm.Display()+" (keep: line, retrain: "+mark+")", l)
				first = false
			}
		}
		i = j + 1
	}
	sc, err := plotter.NewScatter(marks)
	if err != nil {
		return err
	}
	sc.GlyphStyle = glyph
	p.Add(sc)
	return nil
}

// CumulativeFigure draws each result's cumulative strategy cost over the online batches (the
// paper's appendix figure), the legend beside the plot. It writes dir/name.format and returns the
// files written.
func CumulativeFigure(scenario string, r float64, results []algos.Result, dir, name string, f Format) ([]string, error) {
	p := newPlot(fmt.Sprintf("%s: cumulative strategy cost at R = %.4g", scenario, r), "online batch t", "cumulative strategy cost (staleness units)")
	drawn := make([]algos.Name, len(results))
	for i, res := range results {
		drawn[i] = res.Algorithm
	}
	for _, res := range results {
		s := res.Strategy
		xy := make(plotter.XYs, len(s.Cumulative))
		for i, v := range s.Cumulative {
			xy[i] = plotter.XY{X: float64(s.Start + i), Y: v}
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		l.Color, l.Width, l.Dashes = algoColor(res.Algorithm), vg.Points(1.5), dashesOf(res.Algorithm, drawn)
		p.Add(l)
		p.Legend.Add(res.Algorithm.Display(), l)
	}
	return grid([][]*plot.Plot{{p}}, takeLegend(p), 18*vg.Centimeter, 12*vg.Centimeter, dir, name, f)
}

// BatchFrame is one batch to draw: its data and queries, and the errors of the model in use.
type BatchFrame struct {
	Batch  *sim.Batch
	Model  int        // the batch of the model in use
	Errors algos.Bits // its 0-1 errors on the batch's data
}

// BatchesFigure draws chosen batches of a 2-D scenario side by side (the paper's figures 1 and 2):
// data by class, the queries, and the points the model in use gets wrong. It writes dir/name.format.
func BatchesFigure(scenario string, frames []BatchFrame, dir, name string, f Format) ([]string, error) {
	const cols = 3
	var plots [][]*plot.Plot
	for i, fr := range frames {
		b := fr.Batch
		if b.X.D < 2 {
			return nil, fmt.Errorf("batch figure needs at least 2 features, %s has %d", scenario, b.X.D)
		}
		p := newPlot(fmt.Sprintf("t = %d (model of t' = %d)", b.T, fr.Model), "x1", "x2")
		var class [2]plotter.XYs
		var wrong plotter.XYs
		for k := 0; k < b.X.Len(); k++ {
			row := b.X.Row(k)
			class[b.Y[k]] = append(class[b.Y[k]], plotter.XY{X: row[0], Y: row[1]})
			if fr.Errors.N > k && fr.Errors.Get(k) {
				wrong = append(wrong, plotter.XY{X: row[0], Y: row[1]})
			}
		}
		var q plotter.XYs
		for k := 0; k < b.Q.Len(); k++ {
			row := b.Q.Row(k)
			q = append(q, plotter.XY{X: row[0], Y: row[1]})
		}
		layers := []struct {
			label string
			xy    plotter.XYs
			style draw.GlyphStyle
		}{
			{"class 0", class[0], draw.GlyphStyle{Color: color.NRGBA{0x56, 0xB4, 0xE9, 160}, Radius: vg.Points(1.2), Shape: draw.CircleGlyph{}}},
			{"class 1", class[1], draw.GlyphStyle{Color: color.NRGBA{0xE6, 0x9F, 0x00, 160}, Radius: vg.Points(1.2), Shape: draw.CircleGlyph{}}},
			{"misclassified", wrong, draw.GlyphStyle{Color: color.NRGBA{0xD5, 0x5E, 0x00, 255}, Radius: vg.Points(2.2), Shape: draw.RingGlyph{}}},
			{"queries", q, draw.GlyphStyle{Color: color.Black, Radius: vg.Points(2), Shape: draw.CrossGlyph{}}},
		}
		for _, l := range layers {
			if len(l.xy) == 0 {
				continue
			}
			sc, err := plotter.NewScatter(l.xy)
			if err != nil {
				return nil, err
			}
			sc.GlyphStyle = l.style
			p.Add(sc)
			if i == 0 {
				p.Legend.Add(l.label, sc)
			}
		}
		if i%cols == 0 {
			plots = append(plots, nil)
		}
		plots[len(plots)-1] = append(plots[len(plots)-1], p)
	}
	if len(plots) == 0 {
		return nil, fmt.Errorf("no batches to draw")
	}
	w := vg.Length(cols) * 9 * vg.Centimeter
	h := vg.Length(len(plots)) * 9 * vg.Centimeter
	return grid(plots, takeLegend(plots[0][0]), w, h, dir, name, f)
}
