package pane

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/run"
)

// Frame is the state every pane draws from, rebuilt for each view. Panes read the matrix, the
// stream and the replay from here, never from the session, so a pane can be handed another
// matrix (a what-if, one side of a split view) by handing it another frame.
type Frame struct {
	St       *draw.Styles
	Scen     *scenarios.Scenario
	M        *sim.Matrix
	Stream   sim.Stream
	Drifts   []sim.Drift
	Pos      int // the last revealed batch (-1 before the first)
	Computed int // columns computed so far
	Done     bool
	RP       run.Replay
	R        algos.RetrainCost // the retraining cost in force (scaled)
	RScale   float64
	Selected algos.Name   // the algorithm whose path and decisions stand out
	Visible  []algos.Name // algorithms shown
	Heat     draw.Scale
	Bounds   *run.Bounds // the scatter's axes over the whole scenario (nil until known)
	Features []string    // feature names
	Zoomed   bool        // the pane is maximised
	Split    bool        // drawn in the split view (W), where the matrix has no cursor
	Cursor   room.Cursor // the matrix's cell cursor
	You      *You        // the player's own answers, over the batches answered (nil when none)
	// Ask is the batch the guess round asks about (-1 when none): the batch pane shows it, with
	// the errors of AskModel, the model in use the question is about, as every algorithm sees its
	// batch before deciding; the matrix keeps column ask and the Oracle hidden.
	Ask, AskModel int
}

func (f *Frame) Result(name algos.Name) (algos.Result, bool) {
	for _, r := range f.RP.Results {
		if r.Algorithm == name {
			return r, true
		}
	}
	return algos.Result{}, false
}

// Shown are the results of the visible algorithms, in display order.
func (f *Frame) Shown() []algos.Result {
	var out []algos.Result
	for _, r := range f.RP.Results {
		if slices.Contains(f.Visible, r.Algorithm) {
			out = append(out, r)
		}
	}
	return out
}

// ViewKey is what most panes' drawings depend on: a pane redraws only when it changes.
type ViewKey struct {
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

func (f *Frame) Key(w, h, extra int) ViewKey {
	var vis strings.Builder
	for _, a := range f.Visible {
		vis.WriteString(string(a))
		vis.WriteByte(' ')
	}
	k := ViewKey{m: f.M, pos: f.Pos, rScale: f.RScale, visible: vis.String(), selected: f.Selected, w: w, h: h, extra: extra,
		final: !f.RP.Provisional, rNow: f.R(max(f.Pos, 0))}
	if len(f.RP.Results) > 0 {
		k.res = &f.RP.Results[0]
	}
	return k
}

// Label is how this frame's panes name algorithm a.
func (f *Frame) Label(a algos.Name) string { return AlgoLabel(a, f.RP.Provisional) }

// Phase is the block the frame's batch is in: the offline block but its last batch, the tuning at
// that last batch, or the online block.
func (f *Frame) Phase() string {
	off := f.Scen.Offline
	switch {
	case f.Pos < off-1:
		return "offline"
	case f.Pos == off-1:
		return "tuning"
	}
	return "online"
}

// RNow is the retraining cost in force at the frame's batch.
func (f *Frame) RNow() float64 { return f.R(max(f.Pos, 0)) }

// RText says R and how it relates to the scenario's: "R 31.25 (x1.56 of 20)", or shorter
// "R 31.25 x1.56".
func (f *Frame) RText(short bool) string {
	same := math.Abs(f.RScale-1) < 1e-12
	switch {
	case same && short:
		return "R " + draw.Num(f.RNow())
	case same:
		return fmt.Sprintf("R %s (the scenario's)", draw.Num(f.RNow()))
	case short:
		return fmt.Sprintf("R %s x%.3g", draw.Num(f.RNow()), f.RScale)
	}
	return fmt.Sprintf("R %s (x%.3g of %s)", draw.Num(f.RNow()), f.RScale, f.Scen.RetrainCostText)
}

// AlgoInk is draw.AlgoInk in frame f: the best so far (the Oracle's row while the matrix computes)
// faint.
func (f *Frame) AlgoInk(name algos.Name) draw.Ink {
	k := draw.AlgoInk(name)
	k.Faint = f.RP.Provisional && name == algos.NameOracle
	return k
}

// You is the player's own answers (the guess round's, a tour's quizzes) as the results show them:
// only over the batches answered, each the cost of the answer given the model in use it was asked
// about, beside what the Oracle paid at the same batches. A tour's two quizzes are two batches,
// not a whole strategy: unanswered batches are nobody's decision.
type You struct {
	Answers  int     // batches answered, up to the batch shown
	Agreed   int     // of them, those where the answer was the Oracle's decision
	Retrains int     // of them, those answered RETRAIN
	Now      string  // the answer at the batch shown ("RETRAIN", "keep"), "" when it was not asked
	Cost     float64 // the answers' cost: R_t for RETRAIN, C[t', t] for KEEP, summed
	Oracle   float64 // the Oracle's cost at the same batches
	// SCPE is 100 |Cost - Oracle| / Oracle, NaN when the Oracle's cost there is <= 0; Gap is
	// Cost - Oracle.
	SCPE, Gap float64
	// QueryAccuracy is the mean accuracy, on the queries of each batch answered, of the model in
	// use before the answer (NaN without query labels).
	QueryAccuracy float64
	Provisional   bool // compared with the best so far: the matrix is still being computed
}

// Label is the You row's name: "You (2 answers)".
func (y *You) Label() string {
	if y.Answers == 1 {
		return "You (1 answer)"
	}
	return fmt.Sprintf("You (%d answers)", y.Answers)
}

// Line says the score in words: "You (2 answers): 2 of 2 as the Oracle".
func (y *You) Line() string {
	who := "the Oracle"
	if y.Provisional {
		who = BestSoFar
	}
	return fmt.Sprintf("%s: %d of %d as %s", y.Label(), y.Agreed, y.Answers, who)
}
