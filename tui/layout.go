package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Pane indices.
const (
	paneMatrix = iota
	paneChart
	paneDecisions
	paneBatch
	paneResults
	paneAbout
	numPanes
)

// tabNames name the panes on the small layout's tab line.
var tabNames = [numPanes]string{"Matrix", "Cost", "Decisions", "Batch", "Results", "About"}

// rect is where a pane's box goes.
type rect struct {
	x, y, w, h int
	shown      bool
	collapsed  bool // a one-line title bar
}

func (r rect) contains(x, y int) bool {
	return r.shown && x >= r.x && y >= r.y && x < r.x+r.w && y < r.y+r.h
}

// screenLayout places the panes in a body of w x h.
type screenLayout struct {
	boxes [numPanes]rect
	tabs  bool             // the small layout: a tab line on row 0 and one pane under it
	tabX  [numPanes][2]int // each tab's columns on the tab line
}

// The wide layout needs this much; below it, one pane at a time. Its right-hand column is at
// least rightNarrow wide (the results table in full); rightWide holds two panes side by side.
const (
	wideMinW    = 100
	wideMinH    = 24
	rightNarrow = 58
	rightWide   = 80
)

// layout decides what goes where. Wide terminals: the cost matrix on the left, as large as a
// square heat map allows, and on the right a stack whose panes take what their content needs (the
// results a row per algorithm, the decisions too) and share the rest; a pane that does not fit
// shrinks to its title bar, the focused one never does. Small terminals: a tab line and the
// focused pane, with the results under it when there is room.
func (p *Player) layout(f *frame, w, h int) screenLayout {
	return p.panes.layout(f, w, h, p.Focus, p.Zoomed)
}

// layout is Player.layout for the focused pane focus, zoomed or not.
func (ps *paneSet) layout(f *frame, w, h, focus int, zoomed bool) screenLayout {
	var l screenLayout
	if zoomed {
		l.boxes[focus] = rect{0, 0, w, h, true, false}
		return l
	}
	if w < wideMinW || h < wideMinH {
		return ps.smallLayout(f, w, h, focus)
	}
	// The matrix as large as a square allows, unless the right-hand column can then not hold the
	// chart and the batch side by side while the matrix still would be fine narrower.
	mp := ps.matrix
	want := mp.width(f, h)
	lw := max(min(want, w-rightNarrow), 30)
	if w-want < rightWide && w-rightWide >= mp.minWidth(f) {
		lw = w - rightWide
	}
	l.boxes[paneMatrix] = rect{0, 0, lw, h, true, false}
	ps.stack(&l, f, lw, w-lw, h, focus)
	return l
}

// slot is a row of the right-hand stack: one pane, or two side by side.
type slot struct {
	panes []int
	want  int // fixed height; 0 when the slot takes what is left
	least int
	open  bool
	h     int
}

// stack lays out the right-hand column at x, w wide and h tall.
func (ps *paneSet) stack(l *screenLayout, f *frame, x, w, h, focus int) {
	slots := ps.slots(f, w)
	order := []int{paneChart, paneDecisions, paneBatch, paneResults}
	if f.scen.Batches-f.scen.Offline < shortOnline {
		// A few online batches: the decisions strip is a dot or two a row, and the table says more.
		order = []int{paneChart, paneResults, paneBatch, paneDecisions}
	}
	used := openSlots(slots, focus, h, order)
	share(slots, h-used)
	place(l, slots, x, w)
}

// slots are the right-hand column's rows, top to bottom: the chart and the batch side by side
// when the column is wide enough for both, each on its own row otherwise.
func (ps *paneSet) slots(f *frame, w int) []*slot {
	mk := func(panes ...int) *slot {
		s := &slot{panes: panes}
		for _, i := range panes {
			want, least := ps.at(i).Size(f, w)
			s.want, s.least = max(s.want, want), max(s.least, least)
		}
		if len(panes) > 1 {
			s.want = 0
		}
		return s
	}
	if w >= rightWide {
		return []*slot{mk(paneChart, paneBatch), mk(paneDecisions), mk(paneResults), mk(paneAbout)}
	}
	return []*slot{mk(paneChart), mk(paneDecisions), mk(paneBatch), mk(paneResults), mk(paneAbout)}
}

// focusLeast is the least height of a focused chart or batch (About scrolls, and its text is
// short): the scatter then has 9 rows of plot under its names, over its axis and legend.
const focusLeast = 16

// shortOnline is the online block's length under which the results come before the decisions.
const shortOnline = 8

// openSlots opens slots in order of priority while they fit in h rows: the focused pane's, the
// chart, the decisions, the batch, the results (About only when focused); the others stay title
// bars. The results come last because the chart's end labels carry every cost, while the
// decisions and the batch have nothing else that shows them: at the guides' 120x36 a 100-batch
// scenario's nine algorithms leave room for three of the four, and `5` brings the table back.
// On a scenario with fewer than shortOnline online batches order puts the results before the
// decisions. It returns the rows used.
func openSlots(slots []*slot, focus, h int, order []int) int {
	byPane := func(i int) *slot {
		for _, s := range slots {
			if slices.Contains(s.panes, i) {
				return s
			}
		}
		return nil
	}
	used := 0
	for _, s := range slots {
		used += len(s.panes)
	}
	prio := []*slot{byPane(focus)}
	for _, i := range order {
		prio = append(prio, byPane(i))
	}
	for k, s := range prio {
		if s == nil || s.open || (s.panes[0] == paneAbout && focus != paneAbout) {
			continue
		}
		if k == 0 && s.want == 0 && focus != paneAbout {
			// The focused pane is the one being looked at: not squeezed to its least by the others.
			s.least = max(s.least, min(focusLeast, h-used+len(s.panes)))
		}
		if need := max(s.want, s.least) - len(s.panes); used+need <= h {
			s.open = true
			used += need
		}
	}
	return used
}

// share gives the left rows to the open slots that take any height (to the last open slot when
// none does).
func share(slots []*slot, left int) {
	var flex []*slot
	for _, s := range slots {
		switch {
		case !s.open:
			s.h = len(s.panes)
		case s.want > 0:
			s.h = s.want
		default:
			s.h = s.least
			flex = append(flex, s)
		}
	}
	for i := len(slots) - 1; len(flex) == 0 && i >= 0; i-- {
		if slots[i].open {
			flex = append(flex, slots[i])
		}
	}
	for i, s := range flex {
		extra := left / len(flex)
		if i < left%len(flex) {
			extra++
		}
		s.h += extra
	}
}

// place turns the slots into boxes from the top of the column.
func place(l *screenLayout, slots []*slot, x, w int) {
	y := 0
	for _, s := range slots {
		if !s.open {
			for _, i := range s.panes {
				l.boxes[i] = rect{x, y, w, 1, true, true}
				y++
			}
			continue
		}
		bx := x
		for k, i := range s.panes {
			bw := w / len(s.panes)
			if k == len(s.panes)-1 {
				bw = x + w - bx
			}
			l.boxes[i] = rect{bx, y, bw, s.h, true, false}
			bx += bw
		}
		y += s.h
	}
}

func (ps *paneSet) smallLayout(f *frame, w, h, focus int) screenLayout {
	l := screenLayout{tabs: true}
	x := 0
	for i := range numPanes {
		label := fmt.Sprintf(" %d %s ", i+1, tabNames[i])
		l.tabX[i] = [2]int{x, x + ansi.StringWidth(label)}
		x += ansi.StringWidth(label)
	}
	bodyH := h - 1
	main := bodyH
	rw, rl := ps.results.Size(f, w)
	_, least := ps.at(focus).Size(f, w)
	if focus != paneResults && main-max(rw, rl) >= max(least, 12) {
		main -= max(rw, rl)
		l.boxes[paneResults] = rect{0, 1 + main, w, bodyH - main, true, false}
	}
	l.boxes[focus] = rect{0, 1, w, main, true, false}
	return l
}

// tabLine draws the small layout's tabs, the focused one highlighted.
func tabLine(st *Styles, focus, w int) string {
	var b strings.Builder
	for i := range numPanes {
		label := fmt.Sprintf(" %d %s ", i+1, tabNames[i])
		if i == focus {
			b.WriteString(st.StatusKey.Render(label))
		} else {
			b.WriteString(st.Dim.Render(label))
		}
	}
	return truncate(b.String(), w)
}
