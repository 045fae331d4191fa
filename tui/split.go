package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/cara-sim/cara/algos"
)

// The split view (W): the scenario's cost matrix and the what-if's side by side, each with its own
// replay's paths on one colour scale, and under them each algorithm's cost in both. CovCon-D
// against CovCon-S is then w, a (the file's alternative), W.

// toggleSplit turns the split view on and off; turned on with no what-if yet, it opens the bar to
// choose one.
func (p *Player) toggleSplit() tea.Cmd {
	p.wi.split = !p.wi.split
	p.refresh()
	if p.wi.split && p.s.WhatIf == nil && p.cmd.orig == nil && !p.wi.open {
		return p.openBar()
	}
	return nil
}

// splitMatrix is the fewest rows a matrix gets in the split view; below it the view shows the
// table alone.
const splitMatrix = 12

// splitBody draws the split view in w x h: the matrices as tall as the whole table leaves them,
// else splitMatrix tall over a shortened table, else the table alone.
func (p *Player) splitBody(f *frame, w, h int) string {
	own := p.frameOfRun(p.s, nil, p.rpOwn)
	before, after := " Scenario: "+p.opt.Scenario.Name+" ", ""
	if o := p.cmd.orig; o != nil {
		// The command line changed the data or the model: the run before beside the new one.
		own = p.frameOfRun(o, nil, p.cmd.origRp)
		before, after = " Before: "+o.Scenario.Name+" ", " "+p.commandStatus()+" "
	}
	own.split, f.split, own.zoomed, f.zoomed = true, true, false, false
	need := len(own.visible) + 4 // the table's border, header and rule
	matH := h - need
	if matH < splitMatrix {
		matH = splitMatrix
		if h-matH < 5 { // not even the Oracle and one more
			matH = 0
		}
	}
	sides := "scenario | what-if"
	if p.cmd.orig != nil {
		sides = "before | now"
	}
	title := fmt.Sprintf(" Cost of each algorithm, online to batch %d: %s ", max(p.Pos, 0), sides)
	cmp := drawBox(p.st, title, p.compare(own, f, w-4, h-matH-4), w, h-matH, false)
	if matH == 0 {
		return cmp
	}
	lw := w / 2
	left := drawBox(p.st, before, p.split[0].View(own, lw-4, matH-2), lw, matH, false)
	var right string
	if p.s.WhatIf != nil || p.cmd.orig != nil {
		title := after
		if p.s.WhatIf != nil {
			title = " What-if: " + p.describe(p.wi.state, true) + strings.TrimSuffix(after, " ") + " "
		}
		right = drawBox(p.st, title, p.split[1].View(f, w-lw-4, matH-2), w-lw, matH, true)
	} else {
		msg := "No what-if yet: choose one in the bar (w): other queries (s d c a), gamma (g G)."
		if wi := p.whatIfStatus(false); wi != "" {
			msg = wi
		}
		body := p.st.r.NewStyle().Width(max(w-lw-4, 10)).Render(msg)
		right = drawBox(p.st, " What-if ", body, w-lw, matH, true)
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, left, right) + "\n" + cmp
}

// compare is the split view's table: each visible algorithm's strategy cost, retrains and query
// accuracy under the scenario and under the what-if, and the change in cost.
// At most rows algorithms are listed: the Oracle and the selected one first when not all fit.
func (p *Player) compare(own, wi *frame, w, rows int) string {
	st := p.st
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
	if p.cmd.orig != nil {
		headers[1], headers[2] = "before", "now"
	}
	var cells [][]string
	var names []algos.Name
	for _, a := range shown {
		b, ok := wi.result(a.Algorithm)
		if (p.s.WhatIf == nil && p.cmd.orig == nil) || !ok {
			b = algos.Result{Algorithm: a.Algorithm, QueryAccuracy: math.NaN()}
		}
		name := " " + a.Algorithm.Display()
		if a.Algorithm == own.selected {
			name = "▶" + a.Algorithm.Display()
		}
		whatif, change, retrains, acc := "-", "", itoa(len(a.Strategy.Retrains)), frac(a.QueryAccuracy)
		if (p.s.WhatIf != nil || p.cmd.orig != nil) && ok {
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
