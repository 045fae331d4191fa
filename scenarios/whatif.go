package scenarios

// What-ifs: a scenario with some of its parts changed as `--set PATH=VALUE` changes them, limited
// to the parts a finished run can be recomputed for without training a model again (the queries,
// the kernel's gamma, the retraining cost). The player's what-if bar, a tour's stop and a
// presenter all go through Scenario.WhatIf; a scenario file may offer query streams of its own
// for the bar under whatif.queries, each checked here as the what-if it becomes.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cara-sim/cara/scenarios/internal/format"
	"github.com/cara-sim/cara/scenarios/internal/streams"
	"github.com/cara-sim/cara/sim"
)

// QueryAlternative is a query stream a scenario file offers for what-ifs (whatif.queries).
type QueryAlternative struct {
	Name string
	Set  string // the what-if, as --set takes it: queries={...}
}

// whatif reads the whatif section: each query alternative's name, and its block as the what-if
// queries={...}, which must load as a --set of the command line would (checked here, so that a
// mistake shows in `cara validate`, at its place in the file, and not when a student picks it).
func (l *loader) whatifSection(s *Scenario, raw *format.File) error {
	if raw.Whatif == nil || l.noWhatif {
		return nil
	}
	for i, alt := range raw.Whatif.Queries {
		field, path := fmt.Sprintf("whatif.queries[%d]", i), fmt.Sprintf("$.whatif.queries[%d]", i)
		text, place := l.doc.Flow(field, "name")
		if !alt.Name.Set || strings.TrimSpace(alt.Name.Text) == "" {
			return place.Errorf(field+".name", "is required: the what-if bar shows it")
		}
		name := l.notes.Clean(field+".name", strings.TrimSpace(alt.Name.Text), false)
		if slices.ContainsFunc(s.WhatIfQueries, func(q QueryAlternative) bool { return q.Name == name }) {
			return alt.Name.Errorf(field+".name", "%q names two alternatives; give each its own", name)
		}
		if text == "{}" {
			return place.Errorf(field, "has only a name; give a queries block beside it (from: data with size or fraction, a point generator with size, or csv)")
		}
		if err := l.checkAlternative(s, text); err != nil {
			// Placed as a --set's would be, the error names `--set queries` and the field under
			// it: the same field of the alternative stands in for them.
			rest, ok := strings.CutPrefix(err.Error(), "--set queries: ")
			if !ok {
				return place.Errorf(field, "with these queries the scenario does not load: %v", err)
			}
			if after, ok := strings.CutPrefix(rest, "queries."); ok {
				if sub, msg, ok := strings.Cut(after, ": "); ok {
					field, rest = field+"."+sub, msg
					place = l.doc.At(path + "." + sub)
				}
			}
			return place.Errorf(field, "%s", rest)
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
	sub := l.again([]format.Override{{Path: "queries", Value: text}}, false)
	alt, err := sub.parse()
	if err != nil {
		return sub.doc.Wrap(err)
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

// QueriesFor returns the query half of s's stream for seed: a batch with the data of the one it is
// given and the queries drawn for them as Stream(seed).Batch(b.T) draws them (their labels, nil
// when they have none, and which data points they are, when they are some). A what-if on the
// queries keeps the data it has (the same under any queries) and draws only these: for covcon-d, a
// tenth of the work of drawing and labelling every batch again.
func (s *Scenario) QueriesFor(seed uint64) (func(b *sim.Batch) (*sim.Batch, error), error) {
	st, err := s.Stream(seed)
	if err != nil {
		return nil, err
	}
	return streams.QueriesOf(st), nil
}
