package screen

import (
	"slices"
	"strings"

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

// A callout placed over the panes can leave what it is about clear only when the body has a
// corner to spare: at 80x24 the focused pane is the whole body, and a quiz's callout over its
// batch hid the very cloud and errors it asked about. Then a callout about the batch takes a side
// of the body for itself, docked, and the panes are laid out in the rest: beside them when both
// read at that width, else under them, cut short when it would leave the pane too few rows to
// show a batch.
const (
	dockPaneW    = 40 // the least a pane beside a docked callout keeps: a batch's scatter reads at 40 columns
	dockPaneH    = 10 // the least rows a pane over a docked callout keeps
	dockCalloutW = 38 // the narrowest a docked callout reads (34 columns of text)
)

// Placed is a callout placed on a body of W x H: its box at (X, Y), and the panes' layout in the
// PanesW x PanesH the callout leaves them (the whole body unless Docked).
type Placed struct {
	Layout         Layout
	Box            string
	X, Y           int
	PanesW, PanesH int
	Docked         bool
}

// Place places a callout about the panes about (the first the one it is about, -1 for none) on
// a body of w x h where the panes are laid out for focus and zoomed: over the panes where that
// leaves the panes it is about uncovered (Callout), else docked beside or under them. view draws
// the box bw columns wide and at most maxH lines tall.
func (ps *Set) Place(f *pane.Frame, focus int, zoomed bool, about []int, view func(bw, maxH int) string, w, h int) Placed {
	l := ps.Layout(f, w, h, focus, zoomed)
	box, x, y := ps.Callout(f, l, about, func(bw int) string { return view(bw, h) }, w, h)
	over := Placed{Layout: l, Box: box, X: x, Y: y, PanesW: w, PanesH: h}
	// Only a callout about a batch docks (a question, a quiz's reveal): what it asks about is in
	// the batch pane's cloud and errors. The others cover least over the panes, as they were.
	bw, bh := draw.Width(draw.FirstLine(box)), draw.Lines(box)
	if !slices.Contains(about, pane.Batch) || !covers(l, []int{pane.Batch}, x, y, bw, bh) {
		return over
	}
	if b := l.Boxes[pane.Batch]; b.Shown && !b.Collapsed {
		// A corner clear of the batch pane, if one covers what else it would rather not (a readout).
		if x, y := placeCallout(w, h, bw, bh, []pane.Rect{b}); !covers(l, []int{pane.Batch}, x, y, bw, bh) {
			over.X, over.Y = x, y
			return over
		}
		// Narrower, in the columns beside the batch pane (over the matrix, whose column the
		// question keeps hidden anyway): left of it, or right of it.
		for _, side := range [][2]int{{0, b.X}, {b.X + b.W, w - b.X - b.W}} {
			if side[1] < dockCalloutW {
				continue
			}
			nb := view(min(calloutMaxW, side[1]), h+1)
			nw, nh := draw.Width(draw.FirstLine(nb)), draw.Lines(nb)
			if nh > h {
				continue
			}
			x, y := placeCallout(side[1], h, nw, nh, nil)
			return Placed{Layout: l, Box: nb, X: side[0] + x, Y: y, PanesW: w, PanesH: h}
		}
	}
	// Beside: as wide as reads well, the pane keeping dockPaneW; whole, or not beside.
	if bw := min(calloutMaxW, w-dockPaneW); bw >= dockCalloutW {
		if b := view(bw, h+1); draw.Lines(b) <= h {
			return Placed{Layout: ps.Layout(f, w-bw, h, focus, zoomed), Box: b, X: w - bw, Y: 0, PanesW: w - bw, PanesH: h, Docked: true}
		}
	}
	// Under: whole when that leaves the pane dockPaneH rows, else cut to leave them.
	if h < dockPaneH+4 {
		return over // no room to dock: the callout over the panes, as it was
	}
	b := view(min(calloutMaxW, w), h-dockPaneH)
	under := draw.Lines(b)
	return Placed{Layout: ps.Layout(f, w, h-under, focus, zoomed), Box: b, X: 0, Y: h - under, PanesW: w, PanesH: h - under, Docked: true}
}

// covers reports whether a box of bw x bh at (x, y) covers any of the panes about as laid out in l.
func covers(l Layout, about []int, x, y, bw, bh int) bool {
	box := pane.Rect{X: x, Y: y, W: bw, H: bh, Shown: true}
	for _, i := range about {
		if i < 0 || i >= pane.Count {
			continue
		}
		if r := l.Boxes[i]; r.Shown && !r.Collapsed && !r.Strip && overlap(box, r) > 0 {
			return true
		}
	}
	return false
}

// Compose puts a body drawn in the panes' room of p and the callout's box on one body of w x h.
func (p Placed) Compose(body string, w, h int) string {
	if p.Docked {
		lines := strings.Split(body, "\n")
		for len(lines) < h {
			lines = append(lines, "")
		}
		for i := range lines {
			lines[i] = draw.PadRight(lines[i], w)
		}
		body = strings.Join(lines[:h], "\n")
	}
	return draw.PlaceOverlay(body, p.Box, p.X, p.Y)
}
