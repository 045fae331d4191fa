package screen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// Layout places the panes in a body of w x h.
type Layout struct {
	Boxes [pane.Count]pane.Rect
	tabs  bool               // the small layout: a tab line on row 0 and one pane under it
	tabX  [pane.Count][2]int // each tab's columns on the tab line
}

// The wide layout needs this much; below it, one pane at a time. Its right-hand column is at
// least rightNarrow wide (the results table in full); rightWide holds two panes side by side.
const (
	wideMinW    = 100
	wideMinH    = 24
	rightNarrow = 58
	rightWide   = 80
)

// Layout is Player.layout for the focused pane focus, zoomed or not.
func (ps *Set) Layout(f *pane.Frame, w, h, focus int, zoomed bool) Layout {
	var l Layout
	if zoomed {
		l.Boxes[focus] = pane.Rect{X: 0, Y: 0, W: w, H: h, Shown: true}
		return l
	}
	if w < wideMinW || h < wideMinH {
		return ps.smallLayout(f, w, h, focus)
	}
	// The matrix as large as a square allows, unless the right-hand column can then not hold the
	// chart and the batch side by side while the matrix still would be fine narrower.
	mp := ps.Matrix
	want := mp.Width(f, h)
	lw := max(min(want, w-rightNarrow), 30)
	if w-want < rightWide && w-rightWide >= mp.MinWidth(f) {
		lw = w - rightWide
	}
	l.Boxes[pane.Matrix] = pane.Rect{X: 0, Y: 0, W: lw, H: h, Shown: true}
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
	// strip: the slot shows the results strip (h rows, no box); hidden: it shows nothing, not
	// even a title bar (About, giving way to the strip).
	strip, hidden bool
}

// stack lays out the right-hand column at x, w wide and h tall.
func (ps *Set) stack(l *Layout, f *pane.Frame, x, w, h, focus int) {
	slots := ps.slots(f, w)
	order := []int{pane.Chart, pane.Decisions, pane.Batch, pane.Results}
	if f.Scen.Batches-f.Scen.Offline < shortOnline {
		// A few online batches: the decisions strip is a dot or two a row, and the table says more.
		order = []int{pane.Chart, pane.Results, pane.Batch, pane.Decisions}
	}
	used := openSlots(slots, focus, h, order)
	share(slots, h-used)
	ps.strip(slots, f, focus)
	place(l, slots, x, w)
}

// stripSlack is how far below its least height a pane that takes any height (the chart, the
// batch) may go to make room for the results strip: one row.
const stripSlack = 1

// strip makes room for the results where the table did not fit: the whole table when About's
// title bar and the spare rows of the panes that take any height make room for it, else a strip
// in place of the title bar (results.Pane.StripRows): the Oracle, the selected algorithm and the
// player's answers stay on screen. About gives way first (its title bar goes), then the panes that
// take any height give their spare rows, the tallest first, and for the strip at most stripSlack
// rows below their least.
func (ps *Set) strip(slots []*slot, f *pane.Frame, focus int) {
	res, about := slotOf(slots, pane.Results), slotOf(slots, pane.About)
	k := ps.Results.StripRows(f)
	if res == nil || res.open || k < 2 || len(res.panes) != 1 {
		return
	}
	aboutGives := about != nil && !about.open && focus != pane.About
	free := res.h
	if aboutGives {
		free += about.h
	}
	// The whole table first, when About's title bar and the spare rows make room for it.
	if table := max(res.want, res.least); free+spareRows(slots) >= table {
		k = table
	}
	before := heights(slots)
	free = takeRows(slots, free, k, func(s *slot) int { return s.least })
	free = takeRows(slots, free, k, func(s *slot) int { return s.least - stripSlack })
	if free < k {
		for i, s := range slots {
			s.h = before[i]
		}
		return
	}
	res.h = k
	if k > ps.Results.StripRows(f) {
		res.open = true // the whole table, in a box
	} else {
		res.strip = true
	}
	if aboutGives {
		about.hidden, about.h = true, 0
	}
	giveBack(slots, free-k)
}

// slotOf is the slot that shows pane i alone or beside others; nil when none does.
func slotOf(slots []*slot, i int) *slot {
	for _, s := range slots {
		if slices.Contains(s.panes, i) {
			return s
		}
	}
	return nil
}

// stretchy reports whether s is open and takes any height (the chart, the batch).
func (s *slot) stretchy() bool { return s.open && s.want == 0 }

// spareRows are the rows the open slots that take any height have above their least.
func spareRows(slots []*slot) int {
	spare := 0
	for _, s := range slots {
		if s.stretchy() {
			spare += max(s.h-s.least, 0)
		}
	}
	return spare
}

// heights are the slots' heights, in order.
func heights(slots []*slot) []int {
	out := make([]int, len(slots))
	for i, s := range slots {
		out[i] = s.h
	}
	return out
}

// takeRows takes a row at a time from the tallest (above its floor) of the slots that take any
// height until free reaches k or none is above its floor, and returns free.
func takeRows(slots []*slot, free, k int, floor func(s *slot) int) int {
	for free < k {
		var best *slot
		for _, s := range slots {
			if s.stretchy() && !s.strip && s.h > floor(s) && (best == nil || s.h-floor(s) > best.h-floor(best)) {
				best = s
			}
		}
		if best == nil {
			break
		}
		best.h--
		free++
	}
	return free
}

// giveBack gives n rows left over (a strip shorter than what About and the title bar freed) to the
// last slot that takes any height.
func giveBack(slots []*slot, n int) {
	for i := len(slots) - 1; i >= 0 && n > 0; i-- {
		if s := slots[i]; s.stretchy() && !s.strip {
			s.h += n
			n = 0
		}
	}
}

// slots are the right-hand column's rows, top to bottom: the chart and the batch side by side
// when the column is wide enough for both, each on its own row otherwise.
func (ps *Set) slots(f *pane.Frame, w int) []*slot {
	mk := func(panes ...int) *slot {
		s := &slot{panes: panes}
		for _, i := range panes {
			want, least := ps.At(i).Size(f, w)
			s.want, s.least = max(s.want, want), max(s.least, least)
		}
		if len(panes) > 1 {
			s.want = 0
		}
		return s
	}
	if w >= rightWide {
		return []*slot{mk(pane.Chart, pane.Batch), mk(pane.Decisions), mk(pane.Results), mk(pane.About)}
	}
	return []*slot{mk(pane.Chart), mk(pane.Decisions), mk(pane.Batch), mk(pane.Results), mk(pane.About)}
}

// FocusLeast is the least height of a focused chart or batch (About scrolls, and its text is
// short): the scatter then has 9 rows of plot under its names, over its axis and legend.
const FocusLeast = 16

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
	used := 0
	for _, s := range slots {
		used += len(s.panes)
	}
	prio := []*slot{slotOf(slots, focus)}
	for _, i := range order {
		prio = append(prio, slotOf(slots, i))
	}
	for k, s := range prio {
		if s == nil || s.open || (s.panes[0] == pane.About && focus != pane.About) {
			continue
		}
		if k == 0 && s.want == 0 && focus != pane.About {
			// The focused pane is the one being looked at: not squeezed to its least by the others.
			s.least = max(s.least, min(FocusLeast, h-used+len(s.panes)))
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
func place(l *Layout, slots []*slot, x, w int) {
	y := 0
	for _, s := range slots {
		switch {
		case s.hidden:
			continue
		case s.strip:
			l.Boxes[s.panes[0]] = pane.Rect{X: x, Y: y, W: w, H: s.h, Shown: true, Strip: true}
			y += s.h
			continue
		}
		if !s.open {
			for _, i := range s.panes {
				l.Boxes[i] = pane.Rect{X: x, Y: y, W: w, H: 1, Shown: true, Collapsed: true}
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
			l.Boxes[i] = pane.Rect{X: bx, Y: y, W: bw, H: s.h, Shown: true}
			bx += bw
		}
		y += s.h
	}
}

func (ps *Set) smallLayout(f *pane.Frame, w, h, focus int) Layout {
	l := Layout{tabs: true}
	x := 0
	for i := range pane.Count {
		label := fmt.Sprintf(" %d %s ", i+1, pane.TabNames[i])
		l.tabX[i] = [2]int{x, x + ansi.StringWidth(label)}
		x += ansi.StringWidth(label)
	}
	bodyH := h - 1
	main := bodyH
	rw, rl := ps.Results.Size(f, w)
	_, least := ps.At(focus).Size(f, w)
	k := ps.Results.StripRows(f)
	switch {
	case focus != pane.Results && main-max(rw, rl) >= max(least, 12):
		main -= max(rw, rl)
		l.Boxes[pane.Results] = pane.Rect{X: 0, Y: 1 + main, W: w, H: bodyH - main, Shown: true}
	case focus != pane.Results && k > 1 && main-k >= max(least, 12):
		// No room for the table: its strip, the Oracle's and the selected algorithm's numbers.
		main -= k
		l.Boxes[pane.Results] = pane.Rect{X: 0, Y: 1 + main, W: w, H: k, Shown: true, Strip: true}
	}
	l.Boxes[focus] = pane.Rect{X: 0, Y: 1, W: w, H: main, Shown: true}
	return l
}

// tabLine draws the small layout's tabs, the focused one highlighted.
func tabLine(st *draw.Styles, focus, w int) string {
	var b strings.Builder
	for i := range pane.Count {
		label := fmt.Sprintf(" %d %s ", i+1, pane.TabNames[i])
		if i == focus {
			b.WriteString(st.StatusKey.Render(label))
		} else {
			b.WriteString(st.Dim.Render(label))
		}
	}
	return draw.Truncate(b.String(), w)
}
