// Package figures owns the paper's plots drawn from cara's own runs, as PNG or SVG with
// gonum.org/v1/plot: strategy cost, retrains and query accuracy against the retraining cost (the
// paper's figures 5 and 6), the tuned parameters against it (figure 4b), the cost matrix with
// strategies drawn on it (figure 4a), cumulative cost over the online batches (the appendix
// figure) and small multiples of chosen batches (figures 1 and 2). Colours per algorithm come from
// internal/palette, so they match the terminal UI.
package figures

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/palette"
	"github.com/cara-sim/cara/scenarios"
)

// Format is an output format: "png" or "svg".
type Format string

const (
	PNG Format = "png"
	SVG Format = "svg"
)

// ParseFormat checks a --format value.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case PNG, SVG:
		return f, nil
	}
	return "", fmt.Errorf("figure format must be png or svg, got %q", s)
}

// algoColor is an algorithm's colour, shared with the terminal UI.
func algoColor(name algos.Name) color.Color {
	if name.IsSchedule() {
		return scheduleInk
	}
	r, g, b := palette.RGB(name)
	return color.RGBA{R: r, G: g, B: b, A: 255}
}

// grid draws plots as a grid of tiles (rows of columns, nil for an empty tile), with legend, when
// not nil, in a column of its own on the right, clear of every line, and writes it to
// dir/name.format (save). It returns the files written.
func grid(plots [][]*plot.Plot, legend *plot.Legend, w, h vg.Length, dir, name string, f Format) ([]string, error) {
	var legendW vg.Length
	if legend != nil {
		r := legend.Rectangle(draw.New(vgimg.New(w, h)))
		legendW = r.Max.X - r.Min.X + 6*vg.Millimeter
	}
	return save(w+legendW, h, dir, name, f, func(dc draw.Canvas) {
		rows, cols := len(plots), 0
		for _, r := range plots {
			cols = max(cols, len(r))
		}
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter,
			PadLeft: 2 * vg.Millimeter, PadRight: 2 * vg.Millimeter, PadX: 4 * vg.Millimeter, PadY: 4 * vg.Millimeter}
		canvases := plot.Align(plots, tiles, draw.Crop(dc, 0, -legendW, 0, 0))
		for j := range plots {
			for i, p := range plots[j] {
				if p != nil {
					p.Draw(canvases[j][i])
				}
			}
		}
		if legend != nil {
			legend.Top, legend.Left = true, true
			legend.Draw(draw.Crop(dc, w+2*vg.Millimeter, 0, 0, -12*vg.Millimeter))
		}
	})
}

// save draws onto a w x h canvas and writes it to dir/name.format, name made safe first: it comes
// from a scenario or a sweep file ("../x" must not leave dir). A PNG gets its SVG beside it (the
// same drawing, for print and for zooming); it returns the files written.
func save(w, h vg.Length, dir, name string, f Format, paint func(draw.Canvas)) ([]string, error) {
	name = scenarios.SafeFileName(name)
	formats := []Format{f}
	if f == PNG {
		formats = append(formats, SVG)
	}
	var files []string
	for _, f := range formats {
		var c vg.CanvasWriterTo
		switch f {
		case SVG:
			c = vgsvg.New(w, h)
		default:
			c = vgimg.PngCanvas{Canvas: vgimg.New(w, h)}
		}
		paint(draw.New(c))
		path := filepath.Join(dir, name+"."+string(f))
		file, err := os.Create(path)
		if err != nil {
			return files, err
		}
		if _, err := c.WriteTo(file); err != nil {
			file.Close()
			return files, fmt.Errorf("writing %s: %w", path, err)
		}
		if err := file.Close(); err != nil {
			return files, err
		}
		files = append(files, path)
	}
	return files, nil
}

// takeLegend moves p's legend out of the plot (to draw it beside, with grid) and returns it.
func takeLegend(p *plot.Plot) *plot.Legend {
	l := p.Legend
	p.Legend = plot.NewLegend()
	return &l
}
