// Package tour owns a scenario's tour, its lesson: stops at batches, each with a few sentences
// for a callout over the player, optionally a pane or a cell of the cost matrix to look at, a
// what-if to apply and a guess-the-decision question. A stop's text may hold templates ({C 0 11},
// {cost Oracle}) that the player fills from the run it shows (Stop.Text, say.go). Read checks a
// tour's section of the scenario file as strictly as the loader (package scenarios) checks every
// other field; the player (tui/) decides how a stop is shown. Nothing here knows about the UI.
package tour

import "strconv"

// Stop is one stop of a tour.
type Stop struct {
	At     int        // the batch the player runs to, 0..Batches-1
	Say    string     // the callout's text: a few sentences
	Focus  Focus      // what to look at; the zero Focus leaves the view as it is
	Whatif []Override // a what-if to apply at the stop, in order (empty: none)
	Pause  bool       // wait for the user to go on (the default); false: show the callout and play on
	Quiz   bool       // ask RETRAIN or KEEP at At before batch At is shown (online batches only)
}

// Sets returns the stop's what-if as --set arguments: Load(name, Options{Set: append(own, stop.Sets()...)})
// gives the scenario as the stop changes it.
func (s Stop) Sets() []string {
	out := make([]string, len(s.Whatif))
	for i, o := range s.Whatif {
		out[i] = o.String()
	}
	return out
}

// Override is one what-if change, as `--set Path=Value` writes it: Path a dotted path of the
// scenario file, Value YAML in flow style.
type Override struct{ Path, Value string }

// String returns the override as a --set argument, PATH=VALUE.
func (o Override) String() string { return o.Path + "=" + o.Value }

// Pane names a pane of the player, in the player's order (its keys 1-6).
type Pane int

// The panes a stop can focus.
const (
	NoPane         Pane = iota
	PaneMatrix          // the cost matrix C[t', t]
	PaneCumulative      // cumulative strategy cost
	PaneDecisions       // each algorithm's retrain and keep decisions
	PaneBatch           // the batch's data and queries
	PaneResults         // the results table
	PaneAbout           // the scenario's about
)

var paneNames = []string{"", "matrix", "cumulative", "decisions", "batch", "results", "about"}

// String returns the pane's name as tour files write it ("" for NoPane).
func (p Pane) String() string {
	if p < 0 || int(p) >= len(paneNames) {
		return "pane(" + strconv.Itoa(int(p)) + ")"
	}
	return paneNames[p]
}

// Focus is what a stop points at: a pane, or a cell of the cost matrix (then Pane is PaneMatrix).
type Focus struct {
	Pane Pane
	Cell *Cell // nil unless the stop names a cell
}

// Cell is the cost-matrix cell C[t', t]: the model trained at batch Model (t') used at batch
// Batch (t), Model <= Batch.
type Cell struct{ Model, Batch int }
