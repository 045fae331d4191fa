package whatif

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/pane/matrix"
	"github.com/cara-sim/cara/tui/internal/run"
)

// The split view (W): the scenario's cost matrix and the what-if's side by side, each with its own
// replay's paths on one colour scale, and under them each algorithm's cost in both. CovCon-D
// against CovCon-S is then w, a (the file's alternative), W.

// Split is the split view's state in the player.
type Split struct {
	on       bool
	own      run.Replay      // the run's own replay, for the scenario's side (Player.refresh)
	beforeRp run.Replay      // the run before's replay (Host.Before), for its side
	panes    [2]*matrix.Pane // the two matrices
}

// Sides are the words the split view's titles take from the what-if bar and the command line.
type Sides struct {
	Changed string // the command line's change of the data or the model (Commands.Status)
	WhatIf  string // the what-if shown, in short (Bar.Describe)
	Waiting string // the bar's status, while no what-if is shown (Bar.Status)
}

func NewSplit() Split {
	return Split{panes: [2]*matrix.Pane{matrix.New(), matrix.New()}}
}

// Toggle turns the split view on and off, replaying for it; turned on with nothing to compare (no
// what-if, no run before) while the bar is closed, it opens the bar to choose one.
func (v *Split) Toggle(h Host, barOpen bool) effect.Effects {
	v.on = !v.on
	e := effect.Effects{effect.Refresh{}}
	if v.on && h.Session().WhatIf == nil && h.Before() == nil && !barOpen {
		e = append(e, effect.WhatIfBar{})
	}
	return e
}

// Own is the run's own replay at the batch shown: the scenario's side; BeforeReplay is the run
// before's, its side when there is one.
func (v *Split) Own() run.Replay          { return v.own }
func (v *Split) BeforeReplay() run.Replay { return v.beforeRp }

// On reports whether the split view shows.
func (v *Split) On() bool { return v.on }

// Clear forgets the runs' replays: a new run has none yet.
func (v *Split) Clear() { v.own, v.beforeRp = run.Replay{}, run.Replay{} }

// Refresh takes the replay rp (with its error) of the run shown at pos and scale: the scenario's
// side is the run's own replay, replayed without the what-if when one is shown, and the command
// line's run before (nil for none) gets its replay too. It returns the first error.
func (v *Split) Refresh(s, before *run.Session, rp run.Replay, err error, pos int, scale float64, names []algos.Name) error {
	v.own = rp
	if s.WhatIf != nil && v.on && err == nil {
		v.own, err = s.EvaluateOf(nil, pos, scale, names)
	}
	if before != nil && v.on && err == nil {
		v.beforeRp, err = before.EvaluateOf(nil, pos, scale, before.Scenario.Algorithms)
	}
	return err
}

// splitMatrix is the fewest rows a matrix gets in the split view; below it the view shows the
// table alone.
const splitMatrix = 12

// View draws the split view in w x ht beside f, the frame the panes draw: the matrices as tall as
// the whole table leaves them, else splitMatrix tall over a shortened table, else the table alone.
// sides are the titles' words from the bar and the command line.
func (v *Split) View(h Host, f *pane.Frame, sides Sides, w, ht int) string {
	st, s, o := f.St, h.Session(), h.Before()
	own := h.FrameOfRun(s, nil, v.own)
	before, after := " Scenario: "+h.Scenario().Name+" ", ""
	if o != nil {
		// The command line changed the data or the model: the run before beside the new one.
		own = h.FrameOfRun(o, nil, v.beforeRp)
		before, after = " Before: "+o.Scenario.Name+" ", " "+sides.Changed+" "
	}
	own.Split, f.Split, own.Zoomed, f.Zoomed = true, true, false, false
	own.Cursor, f.Cursor = room.Cursor{}, room.Cursor{} // the player's cursor is the panes' matrix's
	need := len(own.Visible) + 4                        // the table's border, header and rule
	matH := ht - need
	if matH < splitMatrix {
		matH = splitMatrix
		if ht-matH < 5 { // not even the Oracle and one more
			matH = 0
		}
	}
	pair := "scenario | what-if"
	if o != nil {
		pair = "before | now"
	}
	title := fmt.Sprintf(" Cost of each algorithm, online to batch %d: %s ", max(f.Pos, 0), pair)
	cmp := draw.Box(st, title, compare(st, own, f, s.WhatIf != nil, o != nil, w-4, ht-matH-4), w, ht-matH, false)
	if matH == 0 {
		return cmp
	}
	lw := w / 2
	left := draw.Box(st, before, v.panes[0].View(own, lw-4, matH-2), lw, matH, false)
	var right string
	if s.WhatIf != nil || o != nil {
		title := after
		if s.WhatIf != nil {
			title = " What-if: " + sides.WhatIf + strings.TrimSuffix(after, " ") + " "
		}
		right = draw.Box(st, title, v.panes[1].View(f, w-lw-4, matH-2), w-lw, matH, true)
	} else {
		msg := "No what-if yet: choose one in the bar (w): other queries (s d c a), gamma (g G)."
		if sides.Waiting != "" {
			msg = sides.Waiting
		}
		body := st.NewStyle().Width(max(w-lw-4, 10)).Render(msg)
		right = draw.Box(st, " What-if ", body, w-lw, matH, true)
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, left, right) + "\n" + cmp
}

// compare is the split view's table: each visible algorithm's strategy cost, retrains and query
// accuracy under the scenario and under the what-if (the run before and the run now, when before),
// and the change in cost; whatIf says a what-if is shown.
// At most rows algorithms are listed: the Oracle and the selected one first when not all fit.
func compare(st *draw.Styles, own, wi *pane.Frame, whatIf, before bool, w, rows int) string {
	if len(own.RP.Results) == 0 {
		return st.Dim.Render(pane.OnlineNote(own))
	}
	shown := own.Shown()
	if len(shown) > rows {
		first := func(r algos.Result) bool { return r.Algorithm == algos.NameOracle || r.Algorithm == own.Selected }
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
		b, ok := wi.Result(a.Algorithm)
		if (!whatIf && !before) || !ok {
			b = algos.Result{Algorithm: a.Algorithm, QueryAccuracy: math.NaN()}
		}
		name := " " + a.Algorithm.Display()
		if a.Algorithm == own.Selected {
			name = "▶" + a.Algorithm.Display()
		}
		whatif, change, retrains, acc := "-", "", draw.Itoa(len(a.Strategy.Retrains)), draw.Frac(a.QueryAccuracy)
		if (whatIf || before) && ok {
			whatif, change = draw.Cost(b.Strategy.Cost()), draw.Signed(b.Strategy.Cost()-a.Strategy.Cost())
			retrains += " → " + draw.Itoa(len(b.Strategy.Retrains))
			acc += " → " + draw.Frac(b.QueryAccuracy)
		}
		cells = append(cells, []string{name, draw.Cost(a.Strategy.Cost()), whatif, change, retrains, acc})
		names = append(names, a.Algorithm)
	}
	// Narrow: the accuracies go first, then the change.
	return strings.TrimRight(pane.AlgoTable(st, headers, cells, names, own.Selected, false, 1, []int{5, 3}, w), "\n")
}
