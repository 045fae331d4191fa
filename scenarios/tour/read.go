package tour

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios/internal/format"
)

// maxSay bounds a stop's text: what a callout shows without scrolling in a small player (80x24).
const maxSay = 600

// misfit is a stop that does not fit the scenario's shape (its batches, its offline block, what
// its what-if applies to), as opposed to one written wrong.
type misfit struct{ error }

func (m misfit) Unwrap() error { return m.error }

// From is what a tour is read against besides its stops: the scenario's text, what the loader
// knows of it by then, and a way to load it again under a stop's what-if.
type From struct {
	Doc              *format.Doc
	Notes            *format.Notes
	Batches, Offline int
	Algorithms       []algos.Name
	// Changed reports that the command line changed the scenario (--set, --data, --queries) and
	// not its tour: a stop that no longer fits is then left out with a note.
	Changed bool
	// Load loads the scenario again with sets applied after its own (without its tour and its
	// what-if alternatives), and returns its error as it comes, and its message placed (Doc.Wrap);
	// nil when it loads.
	Load func(sets []format.Override) (placed string, err error)
}

// Read reads the tour, once the batches, the offline block and the rest are known. A stop that no
// longer fits a scenario changed from the command line (--set batches=30, --data) is left out with
// a note rather than failing every command; the file's own tour, and a --set into the tour, must fit.
func Read(stops []format.Stop, from From) ([]Stop, error) {
	var tour []Stop
	var left []string
	var why error
	prev := -1
	for i, r := range stops {
		st, err := from.stop(i, r)
		if m := (misfit{}); errors.As(err, &m) && from.Changed {
			left = append(left, strconv.Itoa(i))
			if why == nil {
				why = from.Doc.Wrap(m.error)
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if st.At < prev {
			return nil, r.At.Errorf(fmt.Sprintf("tour[%d].at", i), "is %d, before the stop above it (at %d): stops go in batch order", st.At, prev)
		}
		prev = st.At
		tour = append(tour, st)
	}
	if len(left) > 0 {
		from.Notes.Add("the tour keeps %d of its %d stops: the command line changed the scenario, and stops %s no longer fit (the first: %v)",
			len(tour), len(stops), strings.Join(left, ", "), why)
	}
	return tour, nil
}

// stop reads tour[i].
func (from *From) stop(i int, r format.Stop) (Stop, error) {
	field := func(name string) string { return fmt.Sprintf("tour[%d].%s", i, name) }
	st := Stop{Pause: true}
	if !r.At.Set {
		return st, from.Doc.Required(fmt.Sprintf("$.tour[%d]", i), field("at"))
	}
	at, err := strconv.Atoi(r.At.Text)
	if err != nil || r.At.Quoted {
		return st, r.At.Errorf(field("at"), "must be a batch (a whole number), got %q", r.At.Text)
	}
	if at < 0 || at >= from.Batches {
		return st, misfit{r.At.Errorf(field("at"), "is %d, outside the scenario's batches 0..%d", at, from.Batches-1)}
	}
	st.At = at
	if !r.Say.Set {
		return st, from.Doc.Required(fmt.Sprintf("$.tour[%d]", i), field("say"))
	}
	// A folded block (>) is one paragraph; a literal one (|) keeps its lines.
	st.Say = from.Notes.Clean(field("say"), strings.TrimSpace(r.Say.Text), true)
	if st.Say == "" {
		return st, r.Say.Errorf(field("say"), "is empty; a stop needs a few sentences for its callout")
	}
	if n := len([]rune(st.Say)); n > maxSay {
		return st, r.Say.Errorf(field("say"), "is %d characters; a callout holds %d (split it into two stops at the same batch)", n, maxSay)
	}
	if _, err := parseSay(st.Say, from.Batches, from.Algorithms); err != nil {
		return st, misfit{r.Say.Errorf(field("say"), "%v", err)}
	}
	if st.Focus, err = focus(r.Focus, field("focus"), st.At, from.Batches); err != nil {
		return st, err
	}
	if st.Pause, err = r.Pause.OptBool(field("pause")); err != nil {
		return st, err
	}
	if !r.Pause.Set {
		st.Pause = true
	}
	if st.Quiz, err = r.Quiz.OptBool(field("quiz")); err != nil {
		return st, err
	}
	if st.Quiz && st.At <= from.Offline {
		return st, misfit{r.Quiz.Errorf(field("quiz"), "asks about batch %d, but the guess round is over the online decisions, batches %d..%d (at %d every strategy trains its first model)",
			st.At, from.Offline+1, from.Batches-1, from.Offline)}
	}
	st.Whatif, err = from.whatif(i, r.Whatif)
	return st, err
}

// focus reads a stop's focus: a pane's name, or a cell [t', t] of the columns shown by batch at.
func focus(v format.Scalars, field string, at, batches int) (Focus, error) {
	if !v.Set || len(v.Items) == 0 {
		return Focus{}, nil
	}
	place := v.Place()
	if len(v.Items) == 1 {
		name := v.Items[0].Text
		if i := slices.Index(paneNames, name); i > 0 {
			return Focus{Pane: Pane(i)}, nil
		}
		return Focus{}, v.Items[0].Errorf(field, "unknown pane %q; give one of %s, or a cell of the cost matrix as [t', t]", name, strings.Join(paneNames[1:], ", "))
	}
	if len(v.Items) != 2 {
		return Focus{}, place.Errorf(field, "has %d values; a cell of the cost matrix is [t', t]: the model's batch and the batch", len(v.Items))
	}
	var c [2]int
	for k, item := range v.Items {
		n, err := strconv.Atoi(item.Text)
		if err != nil || item.Quoted {
			return Focus{}, item.Errorf(field, "a cell is [t', t], two batches; got %q", item.Text)
		}
		c[k] = n
	}
	switch {
	case c[0] < 0 || c[1] < 0:
		return Focus{}, place.Errorf(field, "cell [%d, %d] is outside the cost matrix: batches are 0..%d", c[0], c[1], batches-1)
	case c[0] >= batches || c[1] >= batches:
		return Focus{}, misfit{place.Errorf(field, "cell [%d, %d] is outside the cost matrix: batches are 0..%d", c[0], c[1], batches-1)}
	case c[0] > c[1]:
		return Focus{}, place.Errorf(field, "cell [%d, %d] is below the diagonal: in C[t', t] the model t' is trained at or before batch t", c[0], c[1])
	case c[1] > at:
		return Focus{}, place.Errorf(field, "cell [%d, %d] is in column %d, after the stop's batch %d: the player has not shown it yet", c[0], c[1], c[1], at)
	}
	return Focus{Pane: PaneMatrix, Cell: &Cell{Model: c[0], Batch: c[1]}}, nil
}

// whatif reads and checks tour[i].whatif: each path is one a what-if may change, and the scenario
// loads with the overrides applied (after any --set of the command line), so a value that would
// fail in the player fails here, at its place in the file.
func (from *From) whatif(i int, w format.Whatif) ([]Override, error) {
	field := fmt.Sprintf("tour[%d].whatif", i)
	if !w.Set {
		return nil, nil
	}
	if len(w.Items) == 0 {
		return nil, format.Scalar{Line: w.Line, Col: w.Col}.Errorf(field, "is empty; give {PATH: VALUE, ...} as --set takes them, or leave it out")
	}
	var out []Override
	var sets []format.Override
	for _, o := range w.Items {
		if o.Err != "" {
			return nil, o.Place.Errorf(field+"."+o.Path, "%s", o.Err)
		}
		if !format.Replayable(o.Path) {
			return nil, o.Place.Errorf(field, "%s: a what-if changes only %s: what the player recomputes without training again", o.Path, strings.Join(format.WhatifPaths, ", "))
		}
		if _, err := format.ParseOverride(o.Path + "=" + o.Value); err != nil {
			return nil, o.Place.Errorf(field, "%s", strings.TrimPrefix(err.Error(), "--set "))
		}
		out = append(out, Override{Path: o.Path, Value: o.Value})
		sets = append(sets, format.Override{Path: o.Path, Value: o.Value})
	}
	msg, err := from.Load(sets)
	if err == nil {
		return out, nil
	}
	// Placed as a --set's would be, the error names `--set PATH` when it is about one of the
	// stop's values: that value's place in the tour stands in for it.
	for k := len(w.Items) - 1; k >= 0; k-- {
		o := w.Items[k]
		for _, m := range []string{msg, err.Error()} { // the override's own errors come unplaced
			if rest, ok := strings.CutPrefix(m, "--set "+o.Path+": "); ok {
				return nil, misfit{o.Place.Errorf(field+"."+o.Path, "%s", rest)}
			}
		}
	}
	return nil, misfit{format.Scalar{Line: w.Line, Col: w.Col}.Errorf(field, "with this what-if the scenario does not load: %s", msg)}
}
