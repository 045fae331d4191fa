package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/room"
)

// The split view (W): the scenario's cost matrix and the what-if's side by side, each with its own
// replay's paths on one colour scale, and under them each algorithm's cost in both. CovCon-D
// against CovCon-S is then w, a (the file's alternative), W.

// splitView is the split view's state in the player.
type splitView struct {
	on    bool
	own   replay         // the run's own replay, for the scenario's side (Player.refresh)
	panes [2]*matrixPane // the two matrices
}

func newSplitView() splitView {
	return splitView{panes: [2]*matrixPane{newMatrixPane(), newMatrixPane()}}
}

// toggle turns the split view on and off; turned on with no what-if yet, it opens the bar to
// choose one.
func (v *splitView) toggle(h whatIfHost, bar *whatIfBar, c *commandState) tea.Cmd {
	v.on = !v.on
	h.refresh()
	if v.on && h.session().WhatIf == nil && c.orig == nil && !bar.open {
		return bar.show(h)
	}
	return nil
}

// isOn reports whether the split view shows.
func (v *splitView) isOn() bool { return v.on }

// clear forgets the run's replay: a new run has none yet.
func (v *splitView) clear() { v.own = replay{} }

// refresh takes the replay rp (with its error) of the run shown at pos and scale: the scenario's
// side is the run's own replay, replayed without the what-if when one is shown, and the command
// line's run before gets its replay too. It returns the first error.
func (v *splitView) refresh(s *Session, c *commandState, rp replay, err error, pos int, scale float64, names []algos.Name) error {
	v.own = rp
	if s.WhatIf != nil && v.on && err == nil {
		v.own, err = s.evaluateOf(nil, pos, scale, names)
	}
	if o := c.orig; o != nil && v.on && err == nil {
		c.origRp, err = o.evaluateOf(nil, pos, scale, o.Scenario.Algorithms)
	}
	return err
}

// splitMatrix is the fewest rows a matrix gets in the split view; below it the view shows the
// table alone.
const splitMatrix = 12

// view draws the split view in w x ht beside f, the frame the panes draw: the matrices as tall as
// the whole table leaves them, else splitMatrix tall over a shortened table, else the table alone.
func (v *splitView) view(h whatIfHost, bar *whatIfBar, c *commandState, f *frame, w, ht int) string {
	st, s := f.st, h.session()
	own := h.frameOfRun(s, nil, v.own)
	before, after := " Scenario: "+h.scenario().Name+" ", ""
	if o := c.orig; o != nil {
		// The command line changed the data or the model: the run before beside the new one.
		own = h.frameOfRun(o, nil, c.origRp)
		before, after = " Before: "+o.Scenario.Name+" ", " "+c.status()+" "
	}
	own.split, f.split, own.zoomed, f.zoomed = true, true, false, false
	own.cursor, f.cursor = room.Cursor{}, room.Cursor{} // the player's cursor is the panes' matrix's
	need := len(own.visible) + 4                        // the table's border, header and rule
	matH := ht - need
	if matH < splitMatrix {
		matH = splitMatrix
		if ht-matH < 5 { // not even the Oracle and one more
			matH = 0
		}
	}
	sides := "scenario | what-if"
	if c.orig != nil {
		sides = "before | now"
	}
	title := fmt.Sprintf(" Cost of each algorithm, online to batch %d: %s ", max(f.pos, 0), sides)
	cmp := drawBox(st, title, compare(st, own, f, s.WhatIf != nil, c.orig != nil, w-4, ht-matH-4), w, ht-matH, false)
	if matH == 0 {
		return cmp
	}
	lw := w / 2
	left := drawBox(st, before, v.panes[0].View(own, lw-4, matH-2), lw, matH, false)
	var right string
	if s.WhatIf != nil || c.orig != nil {
		title := after
		if s.WhatIf != nil {
			title = " What-if: " + bar.describe(h, bar.state, true) + strings.TrimSuffix(after, " ") + " "
		}
		right = drawBox(st, title, v.panes[1].View(f, w-lw-4, matH-2), w-lw, matH, true)
	} else {
		msg := "No what-if yet: choose one in the bar (w): other queries (s d c a), gamma (g G)."
		if wi := bar.status(h, false); wi != "" {
			msg = wi
		}
		body := st.NewStyle().Width(max(w-lw-4, 10)).Render(msg)
		right = drawBox(st, " What-if ", body, w-lw, matH, true)
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, left, right) + "\n" + cmp
}

// compare is the split view's table: each visible algorithm's strategy cost, retrains and query
// accuracy under the scenario and under the what-if (the run before and the run now, when before),
// and the change in cost; whatIf says a what-if is shown.
// At most rows algorithms are listed: the Oracle and the selected one first when not all fit.
func compare(st *Styles, own, wi *frame, whatIf, before bool, w, rows int) string {
	if len(own.rp.results) == 0 {
		return st.Dim.Render(onlineNote(own))
	}
	shown := own.shown()
	if len(shown) > rows {
		first := func(r algos.Result) bool { return r.Algorithm == algos.NameOracle || r.Algorithm == own.selected }
		shown = append(slices.DeleteFunc(slices.Clone(shown), func(r algos.Result) bool { return !first(r) }),
			slices.DeleteFunc(slices.Clone(shown), first)...)[:max(rows, 0)]
	}
	headers := []string{"algorithm", "scenario", "what-if", "change", "retrains", "query acc"}
	if before {
		headers[1], headers[2] = "before", "now"
	}
	var cells [][]string
	var names []algos.Name
	for _, a := range shown {
		b, ok := wi.result(a.Algorithm)
		if (!whatIf && !before) || !ok {
			b = algos.Result{Algorithm: a.Algorithm, QueryAccuracy: math.NaN()}
		}
		name := " " + a.Algorithm.Display()
		if a.Algorithm == own.selected {
			name = "▶" + a.Algorithm.Display()
		}
		whatif, change, retrains, acc := "-", "", itoa(len(a.Strategy.Retrains)), frac(a.QueryAccuracy)
		if (whatIf || before) && ok {
			whatif, change = cost(b.Strategy.Cost()), signed(b.Strategy.Cost()-a.Strategy.Cost())
			retrains += " → " + itoa(len(b.Strategy.Retrains))
			acc += " → " + frac(b.QueryAccuracy)
		}
		cells = append(cells, []string{name, cost(a.Strategy.Cost()), whatif, change, retrains, acc})
		names = append(names, a.Algorithm)
	}
	// Narrow: the accuracies go first, then the change.
	return strings.TrimRight(algoTable(st, headers, cells, names, own.selected, false, 1, []int{5, 3}, w), "\n")
}
