package scenarios

// A tour is a scenario's lesson: stops at batches, each with a few sentences for a callout over
// the player, optionally a pane or a cell of the cost matrix to look at, a what-if to apply and a
// guess-the-decision question. The loader checks a tour as strictly as every other field; the
// player (tui/) decides how a stop is shown. Nothing here knows about the UI.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

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

// maxSay bounds a stop's text: what a callout shows without scrolling in a small player (80x24).
const maxSay = 600

// rawStop is a stop as written.
type rawStop struct {
	At     scalar    `yaml:"at"`
	Say    scalar    `yaml:"say"`
	Focus  scalars   `yaml:"focus"`
	Whatif rawWhatif `yaml:"whatif"`
	Pause  scalar    `yaml:"pause"`
	Quiz   scalar    `yaml:"quiz"`
}

// rawWhatif is a stop's what-if as written: a mapping of --set paths to values, in file order.
type rawWhatif struct {
	set   bool
	line  int
	col   int
	items []rawOverride
}

type rawOverride struct {
	Override
	place scalar // where the value is written (the key's place when the value is missing)
	err   string // what is wrong with how the value is written, reported with the stop's field
}

// UnmarshalYAML implements yaml.NodeUnmarshaler: a mapping whose keys are paths and whose values
// are what --set would take: a single value, or a list or mapping written in flow style.
func (w *rawWhatif) UnmarshalYAML(n ast.Node) error {
	tk := n.GetToken()
	*w = rawWhatif{set: true, line: tk.Position.Line, col: tk.Position.Column}
	var pairs []*ast.MappingValueNode
	switch n := n.(type) {
	case *ast.MappingNode:
		pairs = n.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{n}
	case *ast.NullNode:
		return nil
	default:
		return &posError{line: w.line, col: w.col, msg: fmt.Sprintf("expected a mapping of paths to values (e.g. {retrain_cost: 40} or {kernel.gamma: 2}), got %s", nodeKind(n))}
	}
	for _, p := range pairs {
		ktk := p.Key.GetToken()
		o := rawOverride{Override: Override{Path: ktk.Value}, place: scalar{line: ktk.Position.Line, col: ktk.Position.Column}}
		switch v := p.Value; {
		case v == nil || v.Type() == ast.NullType:
			o.err = "has no value; give the value --set would take"
		case v.Type() == ast.MappingType || v.Type() == ast.SequenceType:
			o.place.line, o.place.col = v.GetToken().Position.Line, v.GetToken().Position.Column
			if !flow(v) {
				o.err = "write the value on one line, in flow style ({a: 1, b: [2, 3]}), as --set takes it"
			}
			o.Value = v.String()
		default:
			var s scalar
			if err := s.UnmarshalYAML(v); err != nil {
				return err
			}
			o.Value, o.place = s.text, s
		}
		w.items = append(w.items, o)
	}
	return nil
}

// flow reports whether a mapping or list is written in flow style ({...} or [...]).
func flow(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.MappingNode:
		return n.IsFlowStyle
	case *ast.SequenceNode:
		return n.IsFlowStyle
	}
	return false
}

// whatifPaths are the parts of a scenario a tour's what-if may change: those the player can
// recompute without training a model again (issue 14's what-ifs: queries, gamma and R).
var whatifPaths = []string{"queries", "kernel", "retrain_cost"}

// misfit is a stop that does not fit the scenario's shape (its batches, its offline block, what
// its what-if applies to), as opposed to one written wrong.
type misfit struct{ error }

func (m misfit) Unwrap() error { return m.error }

// tour reads the tour, once the batches, the offline block and the rest are known. A stop that no
// longer fits a scenario changed from the command line (--set batches=30, --data) is left out with
// a note rather than failing every command; the file's own tour, and a --set into the tour, must fit.
func (l *loader) tour(s *Scenario, raw *rawScenario) error {
	if l.noTour {
		return nil
	}
	changed := l.opt.Data != "" || l.opt.Queries != ""
	for _, o := range l.sets {
		if o.path == "tour" || strings.HasPrefix(o.path, "tour.") {
			changed = false
			break
		}
		changed = true
	}
	var left []string
	var why error
	prev := -1
	for i, r := range raw.Tour {
		st, err := l.stop(s, i, r)
		if m := (misfit{}); errors.As(err, &m) && changed {
			left = append(left, strconv.Itoa(i))
			if why == nil {
				why = l.wrap(m.error)
			}
			continue
		}
		if err != nil {
			return err
		}
		if st.At < prev {
			return r.At.errorf(fmt.Sprintf("tour[%d].at", i), "is %d, before the stop above it (at %d): stops go in batch order", st.At, prev)
		}
		prev = st.At
		s.Tour = append(s.Tour, st)
	}
	if len(left) > 0 {
		l.notes = append(l.notes, fmt.Sprintf("the tour keeps %d of its %d stops: the command line changed the scenario, and stops %s no longer fit (the first: %v)",
			len(s.Tour), len(raw.Tour), strings.Join(left, ", "), why))
	}
	return nil
}

// stop reads tour[i].
func (l *loader) stop(s *Scenario, i int, r rawStop) (Stop, error) {
	field := func(name string) string { return fmt.Sprintf("tour[%d].%s", i, name) }
	st := Stop{Pause: true}
	if !r.At.set {
		return st, l.required(fmt.Sprintf("$.tour[%d]", i), field("at"))
	}
	at, err := strconv.Atoi(r.At.text)
	if err != nil || r.At.quoted {
		return st, r.At.errorf(field("at"), "must be a batch (a whole number), got %q", r.At.text)
	}
	if at < 0 || at >= s.Batches {
		return st, misfit{r.At.errorf(field("at"), "is %d, outside the scenario's batches 0..%d", at, s.Batches-1)}
	}
	st.At = at
	if !r.Say.set {
		return st, l.required(fmt.Sprintf("$.tour[%d]", i), field("say"))
	}
	// A folded block (>) is one paragraph; a literal one (|) keeps its lines.
	st.Say = l.clean(field("say"), strings.TrimSpace(r.Say.text), true)
	if st.Say == "" {
		return st, r.Say.errorf(field("say"), "is empty; a stop needs a few sentences for its callout")
	}
	if n := len([]rune(st.Say)); n > maxSay {
		return st, r.Say.errorf(field("say"), "is %d characters; a callout holds %d (split it into two stops at the same batch)", n, maxSay)
	}
	if _, err := parseSay(st.Say, s.Batches, s.Algorithms); err != nil {
		return st, misfit{r.Say.errorf(field("say"), "%v", err)}
	}
	if st.Focus, err = focus(r.Focus, field("focus"), st.At, s.Batches); err != nil {
		return st, err
	}
	if st.Pause, err = r.Pause.optBool(field("pause")); err != nil {
		return st, err
	}
	if !r.Pause.set {
		st.Pause = true
	}
	if st.Quiz, err = r.Quiz.optBool(field("quiz")); err != nil {
		return st, err
	}
	if st.Quiz && st.At <= s.Offline {
		return st, misfit{r.Quiz.errorf(field("quiz"), "asks about batch %d, but the guess round is over the online decisions, batches %d..%d (at %d every strategy trains its first model)",
			st.At, s.Offline+1, s.Batches-1, s.Offline)}
	}
	st.Whatif, err = l.whatif(i, r.Whatif)
	return st, err
}

// focus reads a stop's focus: a pane's name, or a cell [t', t] of the columns shown by batch at.
func focus(v scalars, field string, at, batches int) (Focus, error) {
	if !v.set || len(v.items) == 0 {
		return Focus{}, nil
	}
	place := scalar{line: v.line, col: v.col}
	if len(v.items) == 1 {
		name := v.items[0].text
		if i := slices.Index(paneNames, name); i > 0 {
			return Focus{Pane: Pane(i)}, nil
		}
		return Focus{}, v.items[0].errorf(field, "unknown pane %q; give one of %s, or a cell of the cost matrix as [t', t]", name, strings.Join(paneNames[1:], ", "))
	}
	if len(v.items) != 2 {
		return Focus{}, place.errorf(field, "has %d values; a cell of the cost matrix is [t', t]: the model's batch and the batch", len(v.items))
	}
	var c [2]int
	for k, item := range v.items {
		n, err := strconv.Atoi(item.text)
		if err != nil || item.quoted {
			return Focus{}, item.errorf(field, "a cell is [t', t], two batches; got %q", item.text)
		}
		c[k] = n
	}
	switch {
	case c[0] < 0 || c[1] < 0:
		return Focus{}, place.errorf(field, "cell [%d, %d] is outside the cost matrix: batches are 0..%d", c[0], c[1], batches-1)
	case c[0] >= batches || c[1] >= batches:
		return Focus{}, misfit{place.errorf(field, "cell [%d, %d] is outside the cost matrix: batches are 0..%d", c[0], c[1], batches-1)}
	case c[0] > c[1]:
		return Focus{}, place.errorf(field, "cell [%d, %d] is below the diagonal: in C[t', t] the model t' is trained at or before batch t", c[0], c[1])
	case c[1] > at:
		return Focus{}, place.errorf(field, "cell [%d, %d] is in column %d, after the stop's batch %d: the player has not shown it yet", c[0], c[1], c[1], at)
	}
	return Focus{Pane: PaneMatrix, Cell: &Cell{Model: c[0], Batch: c[1]}}, nil
}

// whatif reads and checks tour[i].whatif: each path is one a what-if may change, and the scenario
// loads with the overrides applied (after any --set of the command line), so a value that would
// fail in the player fails here, at its place in the file.
func (l *loader) whatif(i int, w rawWhatif) ([]Override, error) {
	field := fmt.Sprintf("tour[%d].whatif", i)
	if !w.set {
		return nil, nil
	}
	if len(w.items) == 0 {
		return nil, (&scalar{line: w.line, col: w.col}).errorf(field, "is empty; give {PATH: VALUE, ...} as --set takes them, or leave it out")
	}
	var out []Override
	for _, o := range w.items {
		if o.err != "" {
			return nil, o.place.errorf(field+"."+o.Path, "%s", o.err)
		}
		if !Replayable(o.Path) {
			return nil, o.place.errorf(field, "%s: a what-if changes only queries, kernel (gamma) or retrain_cost: what the player recomputes without training again", o.Path)
		}
		if _, err := parseOverride(o.String()); err != nil {
			return nil, o.place.errorf(field, "%s", strings.TrimPrefix(err.Error(), "--set "))
		}
		out = append(out, o.Override)
	}
	sub := &loader{file: l.file, src: l.src, dir: l.dir, opt: l.opt, noTour: true, noWhatif: true, sets: slices.Clip(l.sets)}
	for _, o := range out {
		sub.sets = append(sub.sets, override{path: o.Path, value: o.Value})
	}
	_, err := sub.parse()
	if err == nil {
		return out, nil
	}
	// Placed as a --set's would be, the error names `--set PATH` when it is about one of the
	// stop's values: that value's place in the tour stands in for it.
	msg := sub.wrap(err).Error()
	for k := len(w.items) - 1; k >= 0; k-- {
		o := w.items[k]
		for _, m := range []string{msg, err.Error()} { // the override's own errors come unplaced
			if rest, ok := strings.CutPrefix(m, "--set "+o.Path+": "); ok {
				return nil, misfit{o.place.errorf(field+"."+o.Path, "%s", rest)}
			}
		}
	}
	return nil, misfit{(&scalar{line: w.line, col: w.col}).errorf(field, "with this what-if the scenario does not load: %s", msg)}
}
