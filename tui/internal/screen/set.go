package screen

import (
	"fmt"
	"strings"

	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/pane/about"
	"github.com/cara-sim/cara/tui/internal/pane/batch"
	"github.com/cara-sim/cara/tui/internal/pane/chart"
	"github.com/cara-sim/cara/tui/internal/pane/decisions"
	"github.com/cara-sim/cara/tui/internal/pane/matrix"
	"github.com/cara-sim/cara/tui/internal/pane/results"
)

// Set is the player's six panes, typed, with each one's last drawn box. It lays them out and
// draws them; pane i of the layout is list()[i].
type Set struct {
	Matrix    *matrix.Pane
	Chart     *chart.Pane
	Decisions *decisions.Pane
	Batch     *batch.Pane
	Results   *results.Pane
	About     *about.Pane
	boxes     [pane.Count]boxCache
}

func New() Set {
	return Set{Matrix: matrix.New(), Chart: chart.New(), Decisions: decisions.New(), Batch: batch.New(),
		Results: results.New(), About: about.New()}
}

// List is the panes in their order on the screen (pane.Matrix, pane.Chart, ...).
func (ps *Set) List() [pane.Count]pane.Pane {
	return [pane.Count]pane.Pane{ps.Matrix, ps.Chart, ps.Decisions, ps.Batch, ps.Results, ps.About}
}

// At is pane i of list.
func (ps *Set) At(i int) pane.Pane { return ps.List()[i] }

// Body draws the panes where the layout put them, as bodyH lines w wide.
func (ps *Set) Body(st *draw.Styles, f *pane.Frame, l Layout, focus, w, bodyH int) string {
	lines := make([]string, bodyH)
	if l.tabs {
		lines[0] = tabLine(st, focus, w)
	}
	for i, r := range l.Boxes {
		if !r.Shown {
			continue
		}
		var box []string
		switch {
		case r.Strip:
			box = strings.Split(ps.Results.Strip(f, r.W, r.H), "\n")
		case r.Collapsed:
			s := fmt.Sprintf("▸ %d %s", i+1, ps.At(i).Title(f))
			box = []string{st.Collapsed.Render(draw.PadRight(draw.Truncate(s, r.W), r.W))}
		default:
			box = strings.Split(ps.box(st, i, r, f, i == focus), "\n")
		}
		for k, s := range box {
			if y := r.Y + k; y >= 0 && y < bodyH {
				if r.X == 0 {
					lines[y] = s
				} else {
					lines[y] = draw.OverlayAt(lines[y], s, r.X)
				}
			}
		}
	}
	return strings.Join(lines, "\n")
}

// LastBox is pane i's box as last drawn.
func (ps *Set) LastBox(i int) string { return ps.boxes[i].out }

// boxCache is a pane's last drawn box.
type boxCache struct {
	title, body string
	r           pane.Rect
	focus       bool
	out         string
}

// box draws pane i in a border of the rect's size, its number and title in the top edge; the
// focused pane's border is heavy and bright. A box whose content, size and focus are unchanged is
// reused.
func (ps *Set) box(st *draw.Styles, i int, r pane.Rect, f *pane.Frame, focus bool) string {
	pn := ps.At(i)
	w, h := r.W, r.H
	body := pn.View(f, w-4, h-2) // first: a title may say how the body is drawn
	title := pane.BoxTitle(i, pn, f)
	c := &ps.boxes[i]
	if c.out != "" && c.r == r && c.focus == focus && c.body == body && c.title == title {
		return c.out
	}
	s := draw.Box(st, title, body, w, h, focus)
	*c = boxCache{title: title, body: body, r: r, focus: focus, out: s}
	return s
}

// Hit is the pane under (x, y) of a body laid out as l, -1 for none, and whether (x, y) is on the
// small layout's tab line (then the pane is the tab's).
func (l Layout) Hit(x, y int) (pane int, tab bool) {
	if l.tabs && y == 0 {
		for i, r := range l.tabX {
			if x >= r[0] && x < r[1] {
				return i, true
			}
		}
		return -1, true
	}
	pane = -1
	for i, r := range l.Boxes {
		if r.Contains(x, y) {
			pane = i
		}
	}
	return pane, false
}
