package tui

// calloutMaxW is the widest callout: about 60 columns of text read well.
const calloutMaxW = 66

// callout draws a callout about the panes about (the first the one it is about, -1 for none) over
// a body of w x h where the panes of frame f are laid out as l: as wide as reads well, or as the
// column beside the matrix when it is about the matrix, placed clear of what it is about. view
// draws the box at a width.
func (ps *paneSet) callout(f *frame, l screenLayout, about []int, view func(bw int) string, w, h int) (string, int, int) {
	bw := min(calloutMaxW, w)
	if m := l.boxes[paneMatrix]; len(about) > 0 && about[0] == paneMatrix && !l.tabs && !f.zoomed && m.shown && w-m.w >= 40 {
		bw = min(bw, w-m.w)
	}
	box := view(bw)
	x, y := placeCallout(w, h, width(firstLine(box)), lines(box), ps.calloutAvoid(f, l, about...))
	return box, x, y
}

// placeCallout chooses where a box of bw x bh goes in a body of w x h, keeping clear of avoid
// (rectangles in body coordinates): the first corner that covers none of them, else the one that
// covers least, trying the lower right first (under the eye's path from the matrix to the right).
func placeCallout(w, h, bw, bh int, avoid []rect) (int, int) {
	xr, xl := max(w-bw, 0), 0
	yb, yt := max(h-bh, 0), 0
	if h-bh > 2 {
		yt = 1
	}
	best, bx, by := -1, xr, yb
	for _, c := range [][2]int{{xr, yb}, {xr, yt}, {xl, yb}, {xl, yt}} {
		box := rect{x: c[0], y: c[1], w: bw, h: bh, shown: true}
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
func overlap(a, b rect) int {
	w := min(a.x+a.w, b.x+b.w) - max(a.x, b.x)
	h := min(a.y+a.h, b.y+b.h) - max(a.y, b.y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// calloutAvoid is what a callout about panes should not cover: what the matrix's pane reads out
// (matrixPane.avoid), and the panes the callout is about.
func (ps *paneSet) calloutAvoid(f *frame, l screenLayout, panes ...int) []rect {
	var out []rect
	if r := l.boxes[paneMatrix]; r.shown && !r.collapsed {
		out = ps.matrix.avoid(f, r)
	}
	for _, pane := range panes {
		if pane >= 0 && pane < numPanes && pane != paneMatrix {
			if r := l.boxes[pane]; r.shown && !r.collapsed {
				out = append(out, r)
			}
		}
		if pane == paneMatrix {
			if r := l.boxes[paneMatrix]; r.shown && !r.collapsed && !l.tabs && !f.zoomed {
				out = append(out, r)
			}
		}
	}
	return out
}
