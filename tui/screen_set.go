package tui

import (
	"fmt"
	"strings"
)

// paneSet is the player's six panes, typed, with each one's last drawn box. It lays them out and
// draws them; pane i of the layout is list()[i].
type paneSet struct {
	matrix    *matrixPane
	chart     *chartPane
	decisions *decisionsPane
	batch     *batchPane
	results   *resultsPane
	about     *aboutPane
	boxes     [numPanes]boxCache
}

func newPaneSet() paneSet {
	return paneSet{matrix: newMatrixPane(), chart: newChartPane(), decisions: newDecisionsPane(), batch: newBatchPane(),
		results: newResultsPane(), about: newAboutPane()}
}

// list is the panes in their order on the screen (paneMatrix, paneChart, ...).
func (ps *paneSet) list() [numPanes]pane {
	return [numPanes]pane{ps.matrix, ps.chart, ps.decisions, ps.batch, ps.results, ps.about}
}

// at is pane i of list.
func (ps *paneSet) at(i int) pane { return ps.list()[i] }

// body draws the panes where the layout put them, as bodyH lines w wide.
func (ps *paneSet) body(st *Styles, f *frame, l screenLayout, focus, w, bodyH int) string {
	lines := make([]string, bodyH)
	if l.tabs {
		lines[0] = tabLine(st, focus, w)
	}
	for i, r := range l.boxes {
		if !r.shown {
			continue
		}
		var box []string
		if r.collapsed {
			s := fmt.Sprintf("▸ %d %s", i+1, ps.at(i).Title(f))
			box = []string{st.Collapsed.Render(padRight(truncate(s, r.w), r.w))}
		} else {
			box = strings.Split(ps.box(st, i, r, f, i == focus), "\n")
		}
		for k, s := range box {
			if y := r.y + k; y >= 0 && y < bodyH {
				if r.x == 0 {
					lines[y] = s
				} else {
					lines[y] = overlayAt(lines[y], s, r.x)
				}
			}
		}
	}
	return strings.Join(lines, "\n")
}

// boxCache is a pane's last drawn box.
type boxCache struct {
	title, body string
	r           rect
	focus       bool
	out         string
}

// box draws pane i in a border of the rect's size, its number and title in the top edge; the
// focused pane's border is heavy and bright. A box whose content, size and focus are unchanged is
// reused.
func (ps *paneSet) box(st *Styles, i int, r rect, f *frame, focus bool) string {
	pn := ps.at(i)
	w, h := r.w, r.h
	body := pn.View(f, w-4, h-2) // first: a title may say how the body is drawn
	title := fmt.Sprintf(" %d %s ", i+1, pn.Title(f))
	c := &ps.boxes[i]
	if c.out != "" && c.r == r && c.focus == focus && c.body == body && c.title == title {
		return c.out
	}
	s := drawBox(st, title, body, w, h, focus)
	*c = boxCache{title: title, body: body, r: r, focus: focus, out: s}
	return s
}

// hit is the pane under (x, y) of a body laid out as l, -1 for none, and whether (x, y) is on the
// small layout's tab line (then the pane is the tab's).
func (l screenLayout) hit(x, y int) (pane int, tab bool) {
	if l.tabs && y == 0 {
		for i, r := range l.tabX {
			if x >= r[0] && x < r[1] {
				return i, true
			}
		}
		return -1, true
	}
	pane = -1
	for i, r := range l.boxes {
		if r.contains(x, y) {
			pane = i
		}
	}
	return pane, false
}
