package scenarios

// A model from outside (model: {predictions: FILE} or model: {command: [...]}): read with the model
// section, made once the data are known (its rows, its classes, its feature names). A predictions
// file is read once for every load that shares an origin (a what-if reads the scenario again), and
// a change that would need other predictions (of the data, of the seed of generated data) is
// refused with the reason. A served room starts no command: an untrusted scenario, or one a
// served catalog loads, may not name one.

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cara-sim/cara/scenarios/internal/format"
	"github.com/cara-sim/cara/scenarios/internal/streams"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/sim/modelcmd"
)

// outsideModel is what the model section says of a model from outside, until the data are known.
type outsideModel struct {
	predictions format.Scalar     // model.predictions
	command     *modelcmd.Command // model.command, its features and classes still to come
	read        *sim.Predictions  // the predictions file, once read
	path        string            // where it was found
}

// servedNoCommand is why a served scenario may not name a model command.
const servedNoCommand = "a served room starts no program: a model command runs only with cara on your own machine; give the model's predictions instead (model: {predictions: FILE}, a file in the server's folder)"

// outsideSection reads model.predictions or model.command (with model.timeout); ok reports that
// the model is one of them.
func (l *loader) outsideSection(m *format.Model) (ok bool, err error) {
	if m.Timeout.Set && !m.Command.Set {
		return false, m.Timeout.Errorf("model.timeout", "goes with model.command (how long the command may take to answer one message)")
	}
	switch {
	case m.Predictions.Set:
		if strings.TrimSpace(m.Predictions.Text) == "" {
			return false, m.Predictions.Errorf("model.predictions", "is empty; give the predictions file (.csv, .csv.gz or .parquet)")
		}
		if m.Window.Set {
			return false, m.Window.Errorf("model.window", "is how cara fits its own models; predictions from outside come from models already fitted (a model command is sent the window's batches: model.window goes with it)")
		}
		l.outside = &outsideModel{predictions: m.Predictions}
		return true, nil
	case m.Command.Set:
		if l.opt.Untrusted || l.opt.NoCommands {
			return false, m.Command.Place().Errorf("model.command", "%s", servedNoCommand)
		}
		argv := m.Command.Texts()
		if len(argv) == 0 || argv[0] == "" || slices.ContainsFunc(argv, func(a string) bool { return strings.ContainsRune(a, 0) }) {
			return false, m.Command.Place().Errorf("model.command", "give the program and its arguments, e.g. [python3, my_model.py]")
		}
		c := &modelcmd.Command{Argv: argv, Dir: l.dir}
		if l.dir == "" {
			c.Dir = "."
		}
		if m.Timeout.Set {
			sec, err := m.Timeout.Float("model.timeout", 0.001, 7*24*3600)
			if err != nil {
				return false, err
			}
			c.Timeout = time.Duration(sec * float64(time.Second))
		}
		l.outside = &outsideModel{command: c}
		return true, nil
	}
	return false, nil
}

// outsideStep makes the model from outside once the data, the offline block and the rest are
// known: the command told the features and classes, the predictions file read.
func (l *loader) outsideStep(s *Scenario, raw *format.File) error {
	if l.outside == nil {
		return nil
	}
	if c := l.outside.command; c != nil {
		cmd := *c
		cmd.Classes = s.Classes
		cmd.Features = l.featureNames(s)
		s.Outside = &cmd
		argv, _ := format.CleanText(strings.Join(cmd.Argv, " "), false) // shown in the About pane: untrusted text
		s.outsideText = fmt.Sprintf("the model is a program outside cara, asked over JSON lines: %s (model.command)", argv)
		return nil
	}
	if err := l.dataUnchanged(s); err != nil {
		return err
	}
	p, err := l.readPredictions(s)
	if err != nil {
		return l.outside.predictions.Errorf("model.predictions", "%v", err)
	}
	s.Outside = p
	file, _ := format.CleanText(l.outside.predictions.Text, false)
	s.outsideText = fmt.Sprintf("the model's predictions come from outside cara: %s (model.predictions)", file)
	return nil
}

// featureNames are the features' names as a command is told them: a CSV's columns, x1..xd for
// generated data.
func (l *loader) featureNames(s *Scenario) []string {
	if st, err := s.Stream(s.Seed); err == nil {
		if n, ok := st.(interface{ FeatureNames() []string }); ok {
			if names := n.FeatureNames(); len(names) == s.Features {
				return names
			}
		}
	}
	names := make([]string, s.Features)
	for i := range names {
		names[i] = "x" + strconv.Itoa(i+1)
	}
	return names
}

// keepsPredictions are the changes of the data that leave a predictions file true: a shuffle keeps
// every row's number (a row is numbered before it), and predictions name labels as the data
// write them, whichever is class 1.
var keepsPredictions = []string{"data.shuffle", "data.positive"}

// dataUnchanged refuses, with a predictions file, a change of what its rows are: the data (--set
// data..., --data, batches; but keepsPredictions) and, for generated data, the seed.
func (l *loader) dataUnchanged(s *Scenario) error {
	why := func(what string) error {
		return fmt.Errorf("%s: the model's predictions (model.predictions %s) are for the data as the scenario file reads them, row by row; this change needs predictions of the changed data (write them anew, or give the model as a command, which is asked again)",
			what, l.outside.predictions.Text)
	}
	if l.opt.Data != "" {
		return why("--data " + l.opt.Data)
	}
	for _, o := range l.doc.Sets {
		root, _, _ := strings.Cut(o.Path, ".")
		if slices.Contains(keepsPredictions, o.Path) {
			continue
		}
		if root == "data" || root == "batches" || root == "seed" && l.streams.Generated() {
			name := "--set " + o.Path
			if o.Flag != "" {
				name = o.Flag
			}
			return why(name)
		}
	}
	return nil
}

// queriesChanged reports an override of the queries (--set queries..., --queries): a predictions
// file's answers at the queries are for the scenario file's own.
func (l *loader) queriesChanged() bool {
	if l.opt.Queries != "" {
		return true
	}
	return slices.ContainsFunc(l.doc.Sets, func(o format.Override) bool {
		root, _, _ := strings.Cut(o.Path, ".")
		return root == "queries"
	})
}

// readPredictions reads the predictions file against the batches of the scenario's seed: their rows,
// and their queries where the file must answer at them (labelled queries that are not rows of the
// data).
func (l *loader) readPredictions(s *Scenario) (*sim.Predictions, error) {
	opt := streams.PredictionsOptions{Classes: s.Classes, Untrusted: l.opt.Untrusted, FilesDir: l.opt.FilesDir, Dir: l.dir}
	path, err := streams.PredictionsPath(l.outside.predictions.Text, opt)
	if err != nil {
		return nil, err
	}
	st, err := s.Stream(s.Seed)
	if err != nil {
		return nil, err
	}
	opt.Rows = make([]int, s.Batches)
	queries, dataRows, labelled := make([]int, s.Batches), true, false
	for t := range s.Batches {
		b, err := st.Batch(t)
		if err != nil {
			return nil, fmt.Errorf("batch %d: %w", t, err)
		}
		opt.Rows[t], queries[t] = b.X.Len(), b.Q.Len()
		dataRows = dataRows && b.QRows != nil
		labelled = labelled || b.QY != nil && b.Q.Len() > 0
	}
	switch {
	case l.queriesChanged():
		opt.NoQueries = "the queries are not the scenario file's own (a what-if or --set changed them)"
	case !labelled:
		opt.NoQueries = streams.QueriesHaveNoLabel
	case dataRows:
		opt.NoQueries = streams.QueriesAreData
	default:
		opt.Queries = queries
	}
	l.outside.path = path
	p, notes, err := l.opt.predictions.read(path, opt)
	if err != nil {
		return nil, err
	}
	l.notes = append(l.notes, notes...)
	l.outside.read = p
	if l.streams.Generated() {
		c := *p
		c.ForSeed(s.Seed)
		return &c, nil
	}
	return p, nil
}

// digest writes what the model from outside computes with, beyond the scenario's text, to h: a
// predictions file's predictions, a command's files (its program or script, where an argument
// names a file: a changed script is another model).
func (o *outsideModel) digest(h io.Writer) {
	switch {
	case o == nil:
	case o.read != nil:
		o.read.Digest(h)
	case o.command != nil:
		for _, path := range o.files() {
			if st, err := os.Stat(path); err == nil && st.Size() <= maxDigestBytes {
				if b, err := os.ReadFile(path); err == nil {
					fmt.Fprintf(h, "\x00file %q %d\n", filepath.Base(path), len(b))
					h.Write(b)
				}
			}
		}
	}
}

// files are the files the model from outside reads, for the scenario's identity: the predictions
// file, or the files a command's arguments name (its script).
func (o *outsideModel) files() []string {
	switch {
	case o == nil:
		return nil
	case o.command != nil:
		var out []string
		for _, a := range o.command.Argv {
			path := a
			if !filepath.IsAbs(path) {
				path = filepath.Join(o.command.Dir, path)
			}
			if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
				out = append(out, path)
			}
		}
		return out
	case o.path != "":
		return []string{o.path}
	}
	return nil
}

// maxDigestBytes bounds a command's file that the content hash reads (a script, not an interpreter).
const maxDigestBytes = 16 << 20

// predictionsCache keeps the predictions files read for the loads of one origin: a what-if, a tour's
// stop and a query alternative read the scenario again, and a file of 5 million predictions takes a
// second to read. A file changed on disk (its size or time) is read again.
type predictionsCache struct {
	mu   sync.Mutex
	keys []string
	got  map[string]cachedPredictions
}

type cachedPredictions struct {
	p     *sim.Predictions
	notes []string
}

// predictionsKept bounds the files a cache holds.
const predictionsKept = 4

func (c *predictionsCache) read(path string, opt streams.PredictionsOptions) (*sim.Predictions, []string, error) {
	key := fmt.Sprintf("%q %v %v %q %q", path, opt.Rows, opt.Queries, opt.NoQueries, opt.Classes)
	if st, err := os.Stat(path); err == nil {
		key += fmt.Sprint(" ", st.Size(), st.ModTime().UnixNano())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if got, ok := c.got[key]; ok {
		return got.p, got.notes, nil
	}
	p, notes, err := streams.ReadPredictions(path, opt)
	if err != nil {
		return nil, nil, err
	}
	if c.got == nil {
		c.got = map[string]cachedPredictions{}
	}
	if len(c.keys) == predictionsKept {
		delete(c.got, c.keys[0])
		c.keys = c.keys[1:]
	}
	c.keys = append(c.keys, key)
	c.got[key] = cachedPredictions{p, notes}
	return p, notes, nil
}

// PredictionsForm checks that name is a predictions file cara writes: .csv, .csv.gz or .parquet.
func PredictionsForm(name string) error { return streams.PredictionsForm(name) }

// WritePredictions writes predictions (recorded from a run of s: Predictions.Record) to w as the
// predictions file name (its form by its name), labels as s's data write them.
func (s *Scenario) WritePredictions(w io.Writer, name string, p *sim.Predictions) error {
	return streams.WritePredictions(w, name, p, s.Classes)
}
