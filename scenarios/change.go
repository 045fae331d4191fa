package scenarios

// Changing a loaded scenario: a what-if (WhatIf: only what a finished run can be recomputed for),
// a change that needs a new run (With), the text a user edits (Text, Reparse), and confining what
// a client's changes may read (Confined). Each reads the scenario's file again with the overrides
// it was read with, then the new ones, checked exactly as --set is.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cara-sim/cara/scenarios/internal/format"
)

// origin is what a scenario was read from, to read it again under a what-if: its file, and every
// override applied to it (--set, flags, earlier what-ifs), in order.
type origin struct {
	file string
	src  []byte
	dir  string
	opt  Options
	sets []format.Override
}

// reread is a loader of the scenario's file with sets (each PATH=VALUE, as --set takes it) after
// the overrides it was read with; check refuses an override before anything is read.
func (o *origin) reread(sets []string, check func(format.Override) error) (*loader, error) {
	more := make([]format.Override, 0, len(sets))
	for _, a := range sets {
		set, err := format.ParseOverride(a)
		if err != nil {
			return nil, err
		}
		if err := check(set); err != nil {
			return nil, err
		}
		more = append(more, set)
	}
	return newLoader(o.file, o.src, o.dir, o.opt, append(slices.Clip(o.sets), more...)), nil
}

// with is the scenario l reads, as a change of s: its path, and the origin it was read from.
func (o *origin) with(l *loader, s *Scenario) (*Scenario, error) {
	out, err := l.parse()
	if err != nil {
		return nil, l.doc.Wrap(err)
	}
	out.Path = s.Path
	out.origin = &origin{file: o.file, src: o.src, dir: o.dir, opt: o.opt, sets: l.doc.Sets}
	return out, nil
}

// WhatIf returns the scenario with the overrides sets applied after its own (each PATH=VALUE, as
// --set takes it). A what-if changes only queries, kernel, errors or retrain_cost: what a finished run is
// recomputed for from the errors and models it keeps, without training again (the data, the
// models and the offline block stay those of s). Errors name `--set PATH` as the command line's
// do. The result keeps s's tour and query alternatives, and takes more what-ifs in turn.
func (s *Scenario) WhatIf(sets []string) (*Scenario, error) {
	if s.origin == nil {
		return nil, fmt.Errorf("%s: a what-if needs the scenario's file, and this scenario was not read from one", s.Name)
	}
	l, err := s.origin.reread(sets, func(o format.Override) error {
		if !Replayable(o.Path) {
			return fmt.Errorf("--set %s: a what-if changes only %s: what a finished run is recomputed for without training a model again",
				o.Path, strings.Join(format.WhatifPaths, ", "))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	l.noTour, l.noWhatif = true, true
	out, err := s.origin.with(l, s)
	if err != nil {
		return nil, err
	}
	out.Tour, out.tourSeed, out.WhatIfQueries = s.Tour, s.tourSeed, s.WhatIfQueries
	return out, nil
}

// Replayable reports whether a --set of path (a dotted path) changes only what a finished run is
// recomputed for without training again: what Scenario.WhatIf takes. Any other change is a new run.
func Replayable(path string) bool { return format.Replayable(path) }

// With returns the scenario with sets applied after its own, any path of the file (the data, the
// model, the offline block): a new scenario, to be computed as a new run. It has no tour (the
// tour's words were written for the file's data) and keeps its query alternatives. Errors name
// `--set PATH`.
func (s *Scenario) With(sets []string) (*Scenario, error) {
	if s.origin == nil {
		return nil, fmt.Errorf("%s: a change needs the scenario's file, and this scenario was not read from one", s.Name)
	}
	l, err := s.origin.reread(sets, func(format.Override) error { return nil })
	if err != nil {
		return nil, err
	}
	l.noTour = true
	return s.origin.with(l, s)
}

// Text is the scenario's file as YAML, with the overrides it was read with merged in: what a
// user edits to change it further.
func (s *Scenario) Text() ([]byte, error) {
	if s.origin == nil {
		return nil, fmt.Errorf("%s: this scenario was not read from a file", s.Name)
	}
	return format.Merged(s.origin.src, s.origin.sets)
}

// Reparse reads text edited from this scenario's (Text): relative CSV paths resolve as the
// scenario's own do, and an untrusted scenario's text stays untrusted.
func (s *Scenario) Reparse(text []byte) (*Scenario, error) {
	name, dir, opt := s.Name+".yaml", "", Options{}
	if s.origin != nil {
		name, dir = s.origin.file, s.origin.dir
		o := s.origin.opt
		opt = Options{Data: o.Data, Queries: o.Queries, Untrusted: o.Untrusted, FilesDir: o.FilesDir, NoCommands: o.NoCommands}
	}
	out, err := Parse(name, text, dir, opt)
	if err != nil {
		return nil, err
	}
	out.Path = s.Path
	return out, nil
}

// Confined returns s as a scenario whose changes (With, Reparse, WhatIf) are untrusted: they may
// read no file but the embedded streams and the CSV files in filesDir, as a scenario a server's
// client sends. s itself is unchanged.
func (s *Scenario) Confined(filesDir string) *Scenario {
	c := *s
	if s.origin != nil {
		o := *s.origin
		o.opt.Untrusted, o.opt.FilesDir = true, filesDir
		c.origin = &o
	}
	return &c
}
