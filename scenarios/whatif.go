package scenarios

// What-ifs: a scenario with some of its parts changed as `--set PATH=VALUE` changes them, limited
// to the parts a finished run can be recomputed for without training a model again (the queries,
// the kernel's gamma, the retraining cost). The player's what-if bar, a tour's stop and a
// presenter all go through Scenario.WhatIf; a scenario file may offer query streams of its own
// for the bar under whatif.queries, each checked here as the what-if it becomes.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"

	"github.com/cara-sim/cara/sim"
)

// QueryAlternative is a query stream a scenario file offers for what-ifs (whatif.queries).
type QueryAlternative struct {
	Name string
	Set  string // the what-if, as --set takes it: queries={...}
}

// rawWhatifSection is the file's whatif section.
type rawWhatifSection struct {
	Queries []rawQueryAlternative `yaml:"queries"`
}

// rawQueryAlternative is one of whatif.queries: a name and a queries block.
type rawQueryAlternative struct {
	Name    scalar     `yaml:"name"`
	Queries rawQueries `yaml:",inline"`
}

// origin is what a scenario was read from, to read it again under a what-if: its file, and every
// override applied to it (--set, flags, earlier what-ifs), in order.
type origin struct {
	file string
	src  []byte
	dir  string
	opt  Options
	sets []override
}

// WhatIf returns the scenario with the overrides sets applied after its own (each PATH=VALUE, as
// --set takes it). A what-if changes only queries, kernel or retrain_cost: what a finished run is
// recomputed for from the errors and models it keeps, without training again (the data, the
// models and the offline block stay those of s). Errors name `--set PATH` as the command line's
// do. The result keeps s's tour and query alternatives, and takes more what-ifs in turn.
func (s *Scenario) WhatIf(sets []string) (*Scenario, error) {
	if s.origin == nil {
		return nil, fmt.Errorf("%s: a what-if needs the scenario's file, and this scenario was not read from one", s.Name)
	}
	l := &loader{file: s.origin.file, src: s.origin.src, dir: s.origin.dir, opt: s.origin.opt, noTour: true, noWhatif: true,
		sets: slices.Clip(s.origin.sets)}
	for _, a := range sets {
		o, err := parseOverride(a)
		if err != nil {
			return nil, err
		}
		if !Replayable(o.path) {
			return nil, fmt.Errorf("--set %s: a what-if changes only %s: what a finished run is recomputed for without training a model again",
				o.path, strings.Join(whatifPaths, ", "))
		}
		l.sets = append(l.sets, o)
	}
	out, err := l.parse()
	if err != nil {
		return nil, l.wrap(err)
	}
	out.Path, out.Tour, out.WhatIfQueries = s.Path, s.Tour, s.WhatIfQueries
	out.origin = &origin{file: s.origin.file, src: s.origin.src, dir: s.origin.dir, opt: s.origin.opt, sets: l.sets}
	return out, nil
}

// Replayable reports whether a --set of path (a dotted path) changes only what a finished run is
// recomputed for without training again: what Scenario.WhatIf takes. Any other change is a new run.
func Replayable(path string) bool {
	root, _, _ := strings.Cut(strings.TrimSpace(path), ".")
	return slices.Contains(whatifPaths, root)
}

// whatif reads the whatif section: each query alternative's name, and its block as the what-if
// queries={...}, which must load as a --set of the command line would (checked here, so that a
// mistake shows in `cara validate`, at its place in the file, and not when a student picks it).
func (l *loader) whatifSection(s *Scenario, raw *rawScenario) error {
	if raw.Whatif == nil || l.noWhatif {
		return nil
	}
	for i, alt := range raw.Whatif.Queries {
		field, path := fmt.Sprintf("whatif.queries[%d]", i), fmt.Sprintf("$.whatif.queries[%d]", i)
		text, place := l.alternative(i)
		if !alt.Name.set || strings.TrimSpace(alt.Name.text) == "" {
			return place.errorf(field+".name", "is required: the what-if bar shows it")
		}
		name := l.clean(field+".name", strings.TrimSpace(alt.Name.text), false)
		if slices.ContainsFunc(s.WhatIfQueries, func(q QueryAlternative) bool { return q.Name == name }) {
			return alt.Name.errorf(field+".name", "%q names two alternatives; give each its own", name)
		}
		if text == "{}" {
			return place.errorf(field, "has only a name; give a queries block beside it (from: data with size or fraction, a point generator with size, or csv)")
		}
		if err := l.checkAlternative(s, text); err != nil {
			// Placed as a --set's would be, the error names `--set queries` and the field under
			// it: the same field of the alternative stands in for them.
			rest, ok := strings.CutPrefix(err.Error(), "--set queries: ")
			if !ok {
				return place.errorf(field, "with these queries the scenario does not load: %v", err)
			}
			if after, ok := strings.CutPrefix(rest, "queries."); ok {
				if sub, msg, ok := strings.Cut(after, ": "); ok {
					field, rest = field+"."+sub, msg
					place = l.at(path + "." + sub)
				}
			}
			return place.errorf(field, "%s", rest)
		}
		s.WhatIfQueries = append(s.WhatIfQueries, QueryAlternative{Name: name, Set: "queries=" + text})
	}
	return nil
}

// checkAlternative loads the scenario with queries=text, as a what-if would, and generates its
// first batch, the first online one and the last (queries whose parameters are expressions of t
// may fail at some t only; these are the batches a mistake shows first), so that a mistake shows
// in `cara validate`, and not when a student picks the alternative. Its errors are placed as a
// --set's are.
func (l *loader) checkAlternative(s *Scenario, text string) error {
	sub := &loader{file: l.file, src: l.src, dir: l.dir, opt: l.opt, noTour: true, noWhatif: true,
		sets: append(slices.Clip(l.sets), override{path: "queries", value: text})}
	alt, err := sub.parse()
	if err != nil {
		return sub.wrap(err)
	}
	st, err := alt.Stream(alt.Seed)
	if err != nil {
		return err
	}
	for _, t := range []int{0, s.Offline, s.Batches - 1} {
		if _, err := st.Batch(t); err != nil {
			return err
		}
	}
	return nil
}

// alternative writes whatif.queries[i] without its name, on one line in flow style (the value of
// a --set queries=VALUE), and returns where it starts: its first key.
func (l *loader) alternative(i int) (string, scalar) {
	var node ast.Node
	l.walk(func(path string, _, value ast.Node) bool {
		if path == fmt.Sprintf("whatif.queries[%d]", i) {
			node = value
			return true
		}
		return false
	})
	place := l.at(fmt.Sprintf("$.whatif.queries[%d]", i))
	first := node
	if m, ok := node.(*ast.MappingNode); ok && len(m.Values) > 0 {
		first = m.Values[0]
	}
	if mv, ok := first.(*ast.MappingValueNode); ok {
		tk := mv.Key.GetToken()
		place = scalar{line: tk.Position.Line, col: tk.Position.Column}
	}
	return flowText(node, "name"), place
}

// flowText writes a YAML node on one line in flow style, leaving out the top-level key skip.
func flowText(n ast.Node, skip string) string {
	pairs := func(values []*ast.MappingValueNode) string {
		var parts []string
		for _, mv := range values {
			k := mv.Key.GetToken().Value
			if k == skip {
				continue
			}
			parts = append(parts, k+": "+flowText(mv.Value, ""))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	switch n := n.(type) {
	case *ast.MappingNode:
		return pairs(n.Values)
	case *ast.MappingValueNode:
		return pairs([]*ast.MappingValueNode{n})
	case *ast.SequenceNode:
		parts := make([]string, len(n.Values))
		for i, v := range n.Values {
			parts[i] = flowText(v, "")
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *ast.AnchorNode: // &base {...}: the anchor means nothing on its own line
		return flowText(n.Value, skip)
	case *ast.LiteralNode:
		return strconv.Quote(n.Value.Value)
	case *ast.NullNode:
		return "null"
	case nil:
		return "null"
	}
	tk := n.GetToken()
	if tk.Type == token.DoubleQuoteType || tk.Type == token.SingleQuoteType {
		return strconv.Quote(tk.Value)
	}
	return tk.Value
}

// QueriesFor returns the query half of s's stream for seed: the queries of a batch, and their
// labels (nil when they have none), drawn for the batch's data as Stream(seed).Batch(b.T) draws
// them. A what-if on the queries keeps the data it has (the same under any queries) and draws only
// these: for covcon-d, a tenth of the work of drawing and labelling every batch again.
func (s *Scenario) QueriesFor(seed uint64) (func(b *sim.Batch) (sim.Points, []uint8, error), error) {
	st, err := s.Stream(seed)
	if err != nil {
		return nil, err
	}
	str, ok := st.(*stream)
	if !ok { // not one of ours: the whole batch, and its queries
		return func(b *sim.Batch) (sim.Points, []uint8, error) {
			full, err := st.Batch(b.T)
			if err != nil {
				return sim.Points{}, nil, err
			}
			return full.Q, full.QY, nil
		}, nil
	}
	return func(b *sim.Batch) (sim.Points, []uint8, error) {
		q, y, err := str.queries.Queries(b.T, b)
		if err != nil {
			return sim.Points{}, nil, str.place(err)
		}
		return q, y, nil
	}, nil
}
