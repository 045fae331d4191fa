package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

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
	return paneSet{matrix: &matrixPane{keys: newMatrixKeys()}, chart: &chartPane{keys: newChartKeys()}, decisions: &decisionsPane{},
		batch: &batchPane{keys: newBatchKeys(), pair: [2]int{0, 1}}, results: &resultsPane{}, about: &aboutPane{keys: newAboutKeys()}}
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
