package screen

import (
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// calloutMaxW is the widest callout: about 60 columns of text read well.
const calloutMaxW = 66

// Callout draws a callout about the panes about (the first the one it is about, -1 for none) over
// a body of w x h where the panes of frame f are laid out as l: as wide as reads well, or as the
// column beside the matrix when it is about the matrix, placed clear of what it is about. view
// draws the box at a width.
func (ps *Set) Callout(f *pane.Frame, l Layout, about []int, view func(bw int) string, w, h int) (string, int, int) {
	bw := min(calloutMaxW, w)
	if m := l.Boxes[pane.Matrix]; len(about) > 0 && about[0] == pane.Matrix && !l.tabs && !f.Zoomed && m.Shown && w-m.W >= 40 {
		bw = min(bw, w-m.W)
	}
	box := view(bw)
	x, y := placeCallout(w, h, draw.Width(draw.FirstLine(box)), draw.Lines(box), ps.calloutAvoid(f, l, about...))
	return box, x, y
}

// placeCallout chooses where a box of bw x bh goes in a body of w x h, keeping clear of avoid
// (rectangles in body coordinates): the first corner that covers none of them, else the one that
// covers least, trying the lower right first (under the eye's path from the matrix to the right).
func placeCallout(w, h, bw, bh int, avoid []pane.Rect) (int, int) {
	xr, xl := max(w-bw, 0), 0
	yb, yt := max(h-bh, 0), 0
	if h-bh > 2 {
		yt = 1
	}
	best, bx, by := -1, xr, yb
	for _, c := range [][2]int{{xr, yb}, {xr, yt}, {xl, yb}, {xl, yt}} {
		box := pane.Rect{X: c[0], Y: c[1], W: bw, H: bh, Shown: true}
		covered := 0
		for _, a := range avoid {
			covered += overlap(box, a)
		}
		if best < 0 || covered < best {
			best, bx, by = covered, c[0], c[1]
		}
		if covered == 0 {
			break
		}
	}
	return bx, by
}

// overlap is the area two rectangles share.
func overlap(a, b pane.Rect) int {
	w := min(a.X+a.W, b.X+b.W) - max(a.X, b.X)
	h := min(a.Y+a.H, b.Y+b.H) - max(a.Y, b.Y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// calloutAvoid is what a callout about panes should not cover: what the matrix's pane reads out
// (matrix.Pane.Avoid), and the panes the callout is about.
func (ps *Set) calloutAvoid(f *pane.Frame, l Layout, panes ...int) []pane.Rect {
	var out []pane.Rect
	if r := l.Boxes[pane.Matrix]; r.Shown && !r.Collapsed {
		out = ps.Matrix.Avoid(f, r)
	}
	if r := l.Boxes[pane.Results]; r.Strip {
		out = append(out, r) // the numbers a class reads off: no callout covers them
	}
	for _, i := range panes {
		if i >= 0 && i < pane.Count && i != pane.Matrix {
			if r := l.Boxes[i]; r.Shown && !r.Collapsed {
				out = append(out, r)
			}
		}
		if i == pane.Matrix {
			if r := l.Boxes[pane.Matrix]; r.Shown && !r.Collapsed && !l.tabs && !f.Zoomed {
				out = append(out, r)
			}
		}
	}
	return out
}
