package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// frame is the state every pane draws from, rebuilt for each view. Panes read the matrix, the
// stream and the replay from here, never from the session, so a pane can be handed another
// matrix (a what-if, one side of a split view) by handing it another frame.
type frame struct {
	st       *Styles
	scen     *scenarios.Scenario
	m        *sim.Matrix
	stream   sim.Stream
	drifts   []sim.Drift
	pos      int // the last revealed batch (-1 before the first)
	computed int // columns computed so far
	done     bool
	rp       replay
	r        algos.RetrainCost // the retraining cost in force (scaled)
	rScale   float64
	selected algos.Name   // the algorithm whose path and decisions stand out
	visible  []algos.Name // algorithms shown
	heat     heatScale
	bounds   *bounds       // the scatter's axes over the whole scenario (nil until known)
	features []string      // feature names
	zoomed   bool          // the pane is maximised
	split    bool          // drawn in the split view (W), where the matrix has no cursor
	cursor   room.Cursor   // the matrix's cell cursor
	you      *algos.Result // the player's own guesses as a strategy (nil when none)
	// ask is the batch the guess round asks about (-1 when none): the batch pane shows it, with
	// the errors of askModel, the model the player's strategy uses, as every algorithm sees its
	// batch before deciding; the matrix keeps column ask and the Oracle hidden.
	ask, askModel int
}

func (f *frame) result(name algos.Name) (algos.Result, bool) {
	for _, r := range f.rp.results {
		if r.Algorithm == name {
			return r, true
		}
	}
	return algos.Result{}, false
}

// shown are the results of the visible algorithms, in display order.
func (f *frame) shown() []algos.Result {
	var out []algos.Result
	for _, r := range f.rp.results {
		if slices.Contains(f.visible, r.Algorithm) {
			out = append(out, r)
		}
	}
	return out
}

// viewKey is what most panes' drawings depend on: a pane redraws only when it changes.
type viewKey struct {
	m        *sim.Matrix
	pos      int
	rScale   float64
	visible  string
	selected algos.Name
	w, h     int
	extra    int  // a pane's own state (a mode)
	final    bool // the replay's Oracle is the paper's (not provisional): it changes when the matrix is in
	// The replay itself and R now: an R-only what-if keeps the matrix and the scale of R, and
	// changes only these.
	res  *algos.Result
	rNow float64
}

func (f *frame) key(w, h, extra int) viewKey {
	var vis strings.Builder
	for _, a := range f.visible {
		vis.WriteString(string(a))
		vis.WriteByte(' ')
	}
	k := viewKey{m: f.m, pos: f.pos, rScale: f.rScale, visible: vis.String(), selected: f.selected, w: w, h: h, extra: extra,
		final: !f.rp.provisional, rNow: f.r(max(f.pos, 0))}
	if len(f.rp.results) > 0 {
		k.res = &f.rp.results[0]
	}
	return k
}

// pane is one component of the player. The player gives it a box of the layout's size; the pane
// draws its content (View) in the box's inside, says which keys it owns (Keys, for the help) and
// handles them (Key), and answers the mouse inside its content (Click).
type pane interface {
	Title(f *frame) string
	// Enable turns the pane's keys on or off for the mode the player is in.
	Enable(m mode)
	// Size is the box height the pane asks for at a box width of w: want 0 means it can use any
	// height, least is the smallest it can be drawn in.
	Size(f *frame, w int) (want, least int)
	// View draws the content of a w x h inside.
	View(f *frame, w, h int) string
	Keys(f *frame, focused bool) []key.Binding
	// Key handles one of the pane's keys; focused says whether the pane has the focus (some keys
	// work only then).
	Key(msg tea.KeyMsg, f *frame, focused bool) reply
	// Click handles a left click at (x, y) of the content of a w x h inside.
	Click(f *frame, x, y, w, h int) reply
}

// reply is what a pane's key or click comes to: whether the pane took it, a command, and a change
// of the player's view for the player to make (a pane reads the view from the frame and never
// writes it).
type reply struct {
	handled bool
	cmd     tea.Cmd
	cursor  *room.Cursor // the matrix's cell cursor moved
}

// jumpMsg asks the player to show batch t (a click on the decisions).
type jumpMsg struct{ t int }

func jump(t int) tea.Cmd { return func() tea.Msg { return jumpMsg{t} } }

// onlineNote stands in for what starts with the online block.
func onlineNote(f *frame) string {
	return fmt.Sprintf("starts with the online block (batch %d)", f.scen.Offline)
}

// shortNames are the one- or two-letter keys of the algorithms, for labels where names do not fit.
var shortNames = map[algos.Name]string{
	"oracle": "O", "cara-t": "T", "cara-ct": "CT", "cara-p": "P", "never": "N", "markov": "M",
	"adwin": "A", "ddm": "D", "page-hinkley": "PH",
}

// bestSoFar names the optimum over the batches seen so far, which the panes show in the Oracle's
// place while the matrix is still being computed: it is not the paper's Oracle, whose decisions
// depend on batches not computed yet.
const bestSoFar = "best so far"

// algoLabel is algorithm a's name on the screen: "best so far" for the Oracle's row of a
// provisional replay (replay.provisional), else the name as the paper writes it.
func algoLabel(a algos.Name, provisional bool) string {
	if provisional && a == algos.NameOracle {
		return bestSoFar
	}
	return a.Display()
}

// algoKey is algoLabel's short form, for labels where names do not fit ("b", drawn faint, for the
// best so far).
func algoKey(a algos.Name, provisional bool) string {
	if provisional && a == algos.NameOracle {
		return "b"
	}
	return shortName(a)
}

// label is how this frame's panes name algorithm a.
func (f *frame) label(a algos.Name) string { return algoLabel(a, f.rp.provisional) }

func shortName(a algos.Name) string {
	if s, ok := shortNames[a]; ok {
		return s
	}
	return string(a)
}

// explain says why the selected algorithm did what it did at the current batch, or, before the
// online block, what the offline block is for.
func explain(f *frame) string {
	r, ok := f.result(f.selected)
	if !ok {
		if off := f.scen.Offline; f.pos >= 0 && f.pos < off {
			return fmt.Sprintf("offline block 0..%d: each batch trains a model and adds a column to C; the algorithms are tuned on this block, then run from batch %d", off-1, off)
		}
		return ""
	}
	i := f.pos - r.Strategy.Start
	if i < 0 || i >= len(r.Strategy.Reasons) {
		return ""
	}
	why := r.Strategy.Reasons[i]
	if i > 0 {
		// The algorithms say QDMdiff; the player calls it C, the cell of the model in use.
		tp := r.Strategy.Model[i-1]
		why = strings.Replace(why, "cumulative QDMdiff ", fmt.Sprintf("C[%d, %d..%d] summed = ", tp, tp+1, f.pos), 1)
		why = strings.Replace(why, "QDMdiff ", fmt.Sprintf("C[%d, %d] = ", tp, f.pos), 1)
	}
	name := f.label(r.Algorithm)
	verb, rest, found := strings.Cut(why, ": ")
	switch {
	case found && verb == "retrain":
		return fmt.Sprintf("%s retrained at %d: %s", name, f.pos, rest)
	case found && verb == "keep":
		return fmt.Sprintf("%s kept M_%d at %d: %s", name, r.Strategy.Model[i], f.pos, rest)
	}
	return fmt.Sprintf("%s at %d: %s", name, f.pos, why)
}

// phase is the block the frame's batch is in: the offline block but its last batch, the tuning at
// that last batch, or the online block.
func (f *frame) phase() string {
	off := f.scen.Offline
	switch {
	case f.pos < off-1:
		return "offline"
	case f.pos == off-1:
		return "tuning"
	}
	return "online"
}

// R is the retraining cost in force at the frame's batch.
func (f *frame) R() float64 { return f.r(max(f.pos, 0)) }

// rText says R and how it relates to the scenario's: "R 31.25 (x1.56 of 20)", or shorter
// "R 31.25 x1.56".
func (f *frame) rText(short bool) string {
	same := math.Abs(f.rScale-1) < 1e-12
	switch {
	case same && short:
		return "R " + num(f.R())
	case same:
		return fmt.Sprintf("R %s (the scenario's)", num(f.R()))
	case short:
		return fmt.Sprintf("R %s x%.3g", num(f.R()), f.rScale)
	}
	return fmt.Sprintf("R %s (x%.3g of %s)", num(f.R()), f.rScale, f.scen.RetrainCostText)
}

// algoInkOf is algoInk in frame f: the best so far (the Oracle's row while the matrix computes)
// faint.
func (f *frame) algoInk(name algos.Name) ink {
	k := algoInk(name)
	k.faint = f.rp.provisional && name == algos.NameOracle
	return k
}

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

// youName names the player's own strategy (the guess round's answers) among the results.
const youName algos.Name = "you"

// algoTable draws one row of cells per algorithm (names[i] is row i's) as a borderless table in
// each algorithm's colour, the selected one bold; the Oracle's row of a provisional replay (the
// best so far) faint and italic. Columns from numbersFrom on are numbers, aligned
// right; while the table is wider than w the columns in drop go, in that order.
func algoTable(st *Styles, headers []string, rows [][]string, names []algos.Name, selected algos.Name, provisional bool, numbersFrom int, drop []int, w int) string {
	cols := make([]int, len(headers))
	for i := range cols {
		cols[i] = i
	}
	for _, d := range drop {
		if tableWidth(headers, rows, cols) <= w {
			break
		}
		cols = slices.DeleteFunc(cols, func(c int) bool { return c == d })
	}
	pick := func(r []string) []string {
		out := make([]string, len(cols))
		for i, c := range cols {
			out[i] = r[c]
		}
		return out
	}
	tb := table.New().Border(lipgloss.NormalBorder()).BorderStyle(st.Dim).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).BorderColumn(false).
		Headers(pick(headers)...).Wrap(false)
	for _, r := range rows {
		tb.Row(pick(r)...)
	}
	tb.StyleFunc(func(row, col int) lipgloss.Style {
		s := st.NewStyle().PaddingRight(1)
		if cols[col] >= numbersFrom {
			s = s.Align(lipgloss.Right)
		}
		if row == table.HeaderRow {
			return s.Bold(true)
		}
		s = s.Inherit(st.AlgoStyle(names[row]))
		if names[row] == selected {
			s = s.Bold(true)
		}
		if provisional && names[row] == algos.NameOracle {
			s = s.Faint(true).Italic(true)
		}
		return s
	})
	return tb.String()
}

func tableWidth(headers []string, rows [][]string, cols []int) int {
	w := 0
	for _, c := range cols {
		cw := width(headers[c])
		for _, r := range rows {
			cw = max(cw, width(r[c]))
		}
		w += cw + 1
	}
	return w
}
