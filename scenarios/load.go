package scenarios

// The loader: a scenario's text, decoded strictly (internal/format), read one section at a time:
// the header, model, kernel, detectors, algorithms, offline block and retraining cost here
// (sections.go), the data and queries by their own package (internal/streams), the what-if
// alternatives (whatif.go), the tour by its own (tour).

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/ctxio"
	"github.com/cara-sim/cara/scenarios/internal/format"
	"github.com/cara-sim/cara/scenarios/internal/streams"
	"github.com/cara-sim/cara/scenarios/tour"
)

// loader turns one file's bytes into a Scenario, keeping its syntax tree (in doc) to place errors.
type loader struct {
	doc    *format.Doc // the file as shown in errors, the --set overrides merged into it, its tree
	src    []byte      // the file's text, read again to check a tour's what-ifs
	dir    string      // folder for relative CSV paths; "" for an embedded scenario
	opt    Options
	noTour bool // reading the scenario under a tour stop's what-if: the tour itself is not read
	// noWhatif: reading the scenario under a what-if, its query alternatives are taken as they
	// are, not each loaded again (whatif.go)
	noWhatif bool
	knnK     format.Scalar // model.knn.k, checked against the batch size once the data are known
	outside  *outsideModel // a model from outside, made once the data are known (outside.go)

	streams *streams.Streams // the data and queries, once read
	notes   format.Notes     // Scenario.Notes
}

// newLoader reads src (the text of file, relative CSV paths starting from dir) with sets merged in.
func newLoader(file string, src []byte, dir string, opt Options, sets []format.Override) *loader {
	return &loader{doc: format.NewDoc(file, sets), src: src, dir: dir, opt: opt}
}

// again is a loader of the same text with more overrides after its own, reading neither the tour
// nor (unless whatifs) the what-if alternatives.
func (l *loader) again(more []format.Override, whatifs bool) *loader {
	sub := newLoader(l.doc.File, l.src, l.dir, l.opt, append(slices.Clip(l.doc.Sets), more...))
	sub.noTour, sub.noWhatif = true, !whatifs
	return sub
}

// Parse reads a scenario from src. name is the file's name for errors; dir is the folder that
// relative CSV paths start from ("" for an embedded scenario).
func Parse(name string, src []byte, dir string, opt Options) (*Scenario, error) {
	if opt.spool == nil {
		opt.spool = &streams.Spool{}
	}
	if opt.predictions == nil {
		opt.predictions = &predictionsCache{}
	}
	var sets []format.Override
	for _, s := range opt.Set {
		o, err := format.ParseOverride(s)
		if err != nil {
			return nil, err
		}
		sets = append(sets, o)
	}
	for _, f := range opt.Flags {
		sets = append(sets, format.Override{Path: f.Path, Value: f.Value, Flag: f.Name, Under: f.Under})
	}
	l := newLoader(name, src, dir, opt, sets)
	s, err := l.parse()
	if err != nil && opt.Context != nil && opt.Context.Err() != nil {
		return nil, opt.Context.Err() // interrupted (a FIFO's read), not a mistake in the file
	}
	if err != nil {
		return nil, l.doc.Wrap(err)
	}
	s.origin = &origin{file: name, src: src, dir: dir, opt: opt, sets: l.doc.Sets}
	s.identity = l.identity()
	return s, nil
}

// parse reads l.src with the overrides merged in; its errors are not yet placed (doc.Wrap places
// them).
func (l *loader) parse() (*Scenario, error) {
	// A byte order mark, as some editors write, is not part of the text (a CSV's is dropped too).
	l.src = bytes.TrimPrefix(l.src, []byte("\ufeff"))
	raw, err := l.doc.Decode(l.src)
	if err != nil {
		return nil, err
	}
	return l.build(raw)
}

// build turns the decoded file into a Scenario, one section at a time: the data before the
// offline block, since a CSV with a batch column decides the number of batches.
func (l *loader) build(raw *format.File) (*Scenario, error) {
	s := &Scenario{Algorithms: algos.Names}
	for _, section := range []func(*Scenario, *format.File) error{
		l.header, l.requireSections, l.modelAndKernel, l.detectors, l.algorithms, l.data, l.errorWeights, l.offline, l.rows, l.impute,
		func(s *Scenario, raw *format.File) error { return l.retrainCost(s, raw.RetrainCost) },
		func(s *Scenario, _ *format.File) error { return l.checkKNN(s) },
		l.outsideStep, l.whatifSection, l.tour,
	} {
		if err := section(s, raw); err != nil {
			return nil, err
		}
	}
	s.Notes = l.notes
	s.content = l.contentHash()
	return s, nil
}

// data reads the data section and, with it, the queries (internal/streams).
func (l *loader) data(s *Scenario, raw *format.File) error {
	opt := streams.Options{Dir: l.dir, Data: l.opt.Data, Queries: l.opt.Queries, Untrusted: l.opt.Untrusted,
		FilesDir: l.opt.FilesDir, Context: l.opt.Context, Spool: l.opt.spool}
	st, err := streams.Read(l.doc, raw, s.Seed, opt, &l.notes)
	if err != nil {
		return err
	}
	l.streams = st
	s.Batches, s.Features, s.newStream, s.Classes = st.Batches, st.Features, st.Stream, st.Classes
	s.Missing, s.Positive = raw.Data.Missing.Text, raw.Data.Positive.Text
	return l.checkWindow(s, raw)
}

// impute fills the data's empty cells (data.missing mean or median), once the offline block is
// known.
func (l *loader) impute(s *Scenario, _ *format.File) error {
	return l.streams.Impute(s.Offline, &l.notes)
}

// tour reads the tour (package tour), once the batches, the offline block and the rest are known.
// A stop that no longer fits a scenario changed from the command line is left out with a note,
// unless the command line changed the tour itself.
func (l *loader) tour(s *Scenario, raw *format.File) error {
	if l.noTour {
		return nil
	}
	changed := l.opt.Data != "" || l.opt.Queries != ""
	for _, o := range l.doc.Sets {
		if o.Path == "tour" || strings.HasPrefix(o.Path, "tour.") {
			changed = false
			break
		}
		changed = true
	}
	var err error
	if s.tourSeed, err = l.tourSeed(s, raw); err != nil {
		return err
	}
	s.Tour, err = tour.Read(raw.Tour, tour.From{Doc: l.doc, Notes: &l.notes, Batches: s.Batches, Offline: s.Offline,
		Algorithms: s.Algorithms, Changed: changed,
		Load: func(sets []format.Override) (string, error) {
			sub := l.again(sets, false)
			if _, err := sub.parse(); err != nil {
				return sub.doc.Wrap(err).Error(), err
			}
			return "", nil
		}})
	return err
}

// tourSeed is the seed the tour was written for: tour_seed, else the seed as the file writes it,
// which --seed (an override of seed) does not change.
func (l *loader) tourSeed(s *Scenario, raw *format.File) (uint64, error) {
	if raw.TourSeed.Set {
		n, err := raw.TourSeed.Int("tour_seed", 0, format.MaxInt)
		return uint64(n), err
	}
	if !slices.ContainsFunc(l.doc.Sets, func(o format.Override) bool { return o.Path == "seed" }) {
		return s.Seed, nil
	}
	own, err := format.NewDoc(l.doc.File, nil).Decode(l.src)
	if err != nil || !own.Seed.Set {
		return 0, err
	}
	n, err := own.Seed.Int("seed", 0, format.MaxInt)
	return uint64(n), err
}

// maxScenarioBytes bounds a scenario file: one that is a device or an endless pipe is refused
// rather than read until memory runs out.
const maxScenarioBytes = 64 << 20

// readFile reads a scenario file under ctx (a FIFO waits for its writer), with a message that
// says what was expected.
func readFile(ctx context.Context, path string) ([]byte, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	b, err := ctxio.ReadFile(ctx, path, maxScenarioBytes, 8192, func(head []byte) error {
		if i := bytes.IndexByte(head, 0); i >= 0 {
			return fmt.Errorf("%s is not a text file (byte %d is 0x00): a scenario is a YAML text file", path, i+1)
		}
		return nil
	})
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("reading scenario %s: %w", path, err)
	}
	return b, nil
}
