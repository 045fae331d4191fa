package tui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/cara-sim/cara/internal/palette"
)

// callout is a box over the panes that leaves the keys to the player: a tour's stop, a guess's
// reveal, a presenter's question as followers see it answered. It is placed where it covers
// least of what it points at (the focused pane, the matrix cell under the cursor).
type callout struct {
	kind  calloutKind
	title string   // in the top border ("tour 3/8")
	head  []string // styled lines above the text (a guess's reveal)
	text  string   // plain text, wrapped to the box
	foot  string   // the keys that go on, dimmed, on the last line
	pane  int      // the pane the callout is about (not to be covered); -1 for none
	// batch: the callout answers a question about a batch (a quiz stop), whose pane is not to be
	// covered either: every algorithm saw that batch before deciding.
	batch bool
	stop  int // the tour's stop it shows (calloutTour)
	// fill, when set, writes text afresh at each draw: a tour stop's templates are filled from
	// the run as it stands (a what-if arriving, the matrix coming in, R changed).
	fill func(Frame) string
}

// calloutKind says what put a callout up, so each thing clears only its own.
type calloutKind int

const (
	calloutTour   calloutKind = iota // a tour's stop
	calloutReveal                    // a guess's reveal
	calloutWait                      // a follower's answer, waiting for the presenter's reveal
)

// calloutMaxW is the widest callout: about 60 columns of text read well.
const calloutMaxW = 66

// view draws the callout bw columns wide and at most maxH lines tall.
func (c *callout) view(st *Styles, bw, maxH int) string {
	iw := max(bw-4, 10)
	var lines []string
	wrap := st.r.NewStyle().Width(iw)
	for _, h := range c.head {
		lines = append(lines, strings.Split(wrap.Render(h), "\n")...)
	}
	if c.text != "" {
		if len(c.head) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, strings.Split(wrap.Render(c.text), "\n")...)
	}
	room := max(maxH-3, 1) // the border and the foot
	if len(lines) > room {
		lines = append(lines[:room-1], st.Dim.Render("…"))
	}
	if c.foot != "" {
		lines = append(lines, st.Dim.Render(truncate(c.foot, iw)))
	}
	for i, l := range lines {
		lines[i] = padRight(truncate(l, iw), iw)
	}
	box := st.Overlay.Render(strings.Join(lines, "\n"))
	if c.title == "" {
		return box
	}
	// The title goes in the top border, as the panes' titles do.
	rows := strings.Split(box, "\n")
	b := lipgloss.ThickBorder()
	t := " " + truncate(c.title, max(iw-2, 1)) + " "
	edge := st.r.NewStyle().Foreground(st.color(palette.FocusEdge))
	rows[0] = edge.Render(b.TopLeft+b.Top) + st.TitleFocus.Render(t) + edge.Render(strings.Repeat(b.Top, max(iw+2-1-width(t), 0))+b.TopRight)
	return strings.Join(rows, "\n")
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

// calloutAvoid is what a callout about panes should not cover: the cell under the cursor of mp
// (the matrix's pane), with a margin so that its row and column labels show too; the readout under
// the matrix; and the panes the callout is about.
func calloutAvoid(mp *matrixPane, f *frame, l screenLayout, panes ...int) []rect {
	var out []rect
	if r := l.boxes[paneMatrix]; r.shown && !r.collapsed && (f.cursor.On || f.zoomed) {
		if x, y, ok := mp.cellAt(f, r, f.cursor.At[0], f.cursor.At[1]); ok {
			out = append(out, rect{x: x - 6, y: y - 2, w: 13, h: 5, shown: true})
		}
		// The readout under the matrix gives the cell's value, which a stop's text quotes.
		ml := mp.layout(f, r.w-4, r.h-2)
		out = append(out, rect{x: r.x, y: r.y + 1 + ml.readoutY, w: min(r.w, 40), h: 1, shown: true})
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

// cellAt is where cell (tp, t) of the heat map is drawn when the matrix's box is r, in body
// coordinates; false when the cell is not in view.
func (p *matrixPane) cellAt(f *frame, r rect, tp, t int) (x, y int, ok bool) {
	l := p.layout(f, r.w-4, r.h-2)
	cx, cy := l.g.xOf(t), l.g.yOf(tp)
	if cx < 0 || cy < 0 {
		return 0, 0, false
	}
	return r.x + 2 + l.gw + cx, r.y + 1 + l.heatY + cy, true
}

// draw draws the callout over a body of w x h where the panes of frame f are laid out as l (mp
// the matrix's pane): as wide as reads well, or as the column beside the matrix when it is about
// the matrix, placed clear of what it is about.
func (c *callout) draw(f *frame, l screenLayout, mp *matrixPane, w, h int) (string, int, int) {
	bw := min(calloutMaxW, w)
	if m := l.boxes[paneMatrix]; c.pane == paneMatrix && !l.tabs && !f.zoomed && m.shown && w-m.w >= 40 {
		bw = min(bw, w-m.w)
	}
	box := c.view(f.st, bw, h)
	panes := []int{c.pane}
	if c.batch {
		panes = append(panes, paneBatch)
	}
	x, y := placeCallout(w, h, width(firstLine(box)), lines(box), calloutAvoid(mp, f, l, panes...))
	return box, x, y
}

func firstLine(s string) string {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

func lines(s string) int {
	n := 1
	for i := range len(s) {
		if s[i] == '\n' {
			n++
		}
	}
	return n
}
