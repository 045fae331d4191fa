// Package scenarios owns scenario files: loading one (Load, Parse: strictly, every error at
// file:line:column or at the --set it came from) into a Scenario, changing a loaded one (WhatIf,
// With), the embedded scenarios that reproduce the paper's examples and teach with tours, the
// catalog a picker offers (embedded scenarios and files, each loaded once), and what a scenario
// costs (Hash, Bytes, CheckBudget). The loader reads the header, model, kernel, detectors,
// algorithms, offline block, retraining cost and what-if alternatives itself; the other sections
// are read by the packages of their jobs:
//
//   - internal/format: the file as written (the YAML schema, decoding, placing errors, --set);
//   - internal/expr: the expressions a value may be written as (t, x1..xd, sin, ...);
//   - internal/streams: the data and queries sections, and the streams they describe (generators,
//     concept timelines, CSV files, the embedded real data);
//   - tour: the tour, its stops and their {templates};
//   - cmdline: the player's command line, set PATH=VALUE over the same format.
package scenarios

import (
	"context"
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios/internal/streams"
	"github.com/cara-sim/cara/scenarios/tour"
	"github.com/cara-sim/cara/sim"
)

// Scenario is a loaded, validated scenario file.
type Scenario struct {
	Name, Title, About string
	Path               string // file it was read from; "" for an embedded scenario
	Seed               uint64
	Batches, Offline   int
	Features           int
	Model              sim.Trainer // the model cara fits; nil when it comes from outside
	Outside            sim.Outside // the model from outside (outside.go): a predictions file or a command; nil for Model
	Gamma              sim.GammaSpec
	RetrainCost        algos.RetrainCost
	RetrainCostText    string             // as written: "20" or "10 + 5*sin(t/10)"
	Algorithms         []algos.Name       // default: algos.Names
	Evaluation         algos.Options      // detectors: {reset: ...}
	Notes              []string           // what the user should know about how the files were read
	Tour               []tour.Stop        // the scenario's lesson, stops in batch order; nil when it has none
	tourSeed           uint64             // the seed the tour was written for (TourSeed)
	WhatIfQueries      []QueryAlternative // query streams the file offers for what-ifs (whatif.go)

	// Beyond the paper (Extensions says them in words), each off at its zero value:
	Classes     [2]string // the labels of class 0 and 1 as the data write them ("0", "1" when generated)
	Weights     []float64 // errors.weights by class (0, 1); nil: every error counts 1 (all weights 1 included)
	Standardize bool      // kernel.standardize
	Missing     string    // data.missing: "", mean, median or drop
	Window      int       // model.window; 0 (or 1): a model trains on its own batch alone
	Positive    string    // data.positive: the label value that is class 1; "" when not given

	outsideText string  // the model from outside as the file names it, for Extensions; "" for a model cara fits
	origin      *origin // what it was read from, to read it again under a what-if (change.go)
	content     []byte  // the loader's contentHash, for Hash
	identity    string  // Identity

	newStream func(seed uint64) (sim.Stream, error)
}

// TourSeed is the seed the scenario's tour was written for, on which it plays: the file's
// tour_seed, else its seed as the file writes it (--seed changes the run's seed, not the tour's).
// Every sentence of the tour that states something about the run is about that seed's run.
func (s *Scenario) TourSeed() uint64 { return s.tourSeed }

// Stream builds the scenario's stream for a seed (the scenario's own Seed for its default run).
func (s *Scenario) Stream(seed uint64) (sim.Stream, error) { return s.newStream(seed) }

// Config returns the engine configuration of a run with seed.
func (s *Scenario) Config(seed uint64) (sim.Config, error) {
	st, err := s.Stream(seed)
	if err != nil {
		return sim.Config{}, err
	}
	return sim.Config{Scenario: s.Name, Stream: st, Trainer: s.Model, Outside: s.Outside, Seed: seed, Offline: s.Offline, Gamma: s.Gamma,
		Weights: s.Weights, Standardize: s.Standardize, Window: s.Window}, nil
}

// Options override parts of a scenario from the command line.
type Options struct {
	Data    string // --data: the data CSV, replacing the file's data.csv path
	Queries string // --queries: the queries CSV
	// Set holds --set PATH=VALUE overrides, applied in order to the file's YAML before it is
	// checked: PATH is a dotted path of keys (list items by index), VALUE is YAML in flow style.
	Set []string
	// Untrusted marks a scenario whose text came from someone else (an SSH client's stdin, an
	// upload, a served player's editor): it may read no file but the embedded streams and, when
	// FilesDir is set, the CSV files inside that folder (a path that leaves it, by .. or a link, is
	// refused). Nothing it names, --set included, reaches the rest of the disk.
	Untrusted bool
	FilesDir  string
	// NoCommands refuses a model that is a command (model.command): a served room's own folder,
	// whose files are trusted but whose room starts no program. Untrusted refuses it too.
	NoCommands bool
	// Flags are command-line flags that change one field each, as --set does (-R 40 is
	// retrain_cost=40), applied after Set; an error in one names the flag, not --set.
	Flags []Flag
	// Context ends the load's blocking reads (a FIFO as the data CSV) with its error; nil: never.
	Context context.Context

	spool       *streams.Spool    // CSV files that can be read only once (a FIFO), shared by every load of this one
	predictions *predictionsCache // predictions files read, shared as spool is
}

// Flag is a command-line flag standing for one --set PATH=VALUE: Name is how errors name it (e.g.
// "-R 40"). What-ifs keep it as they keep --set, so there is one way to override a scenario. Under,
// when set, is a path the file must have for the flag to apply (--trees needs model.random_forest).
type Flag struct {
	Name, Path, Value string
	Under             string
}

// Info describes an embedded scenario for pickers and listings.
type Info struct {
	Name, Title, About string
	Stops              int // stops of its tour (0: none)
}

// Load reads an embedded scenario by name, or a scenario file by path (a path that exists wins).
func Load(nameOrPath string, opt Options) (*Scenario, error) {
	st, err := os.Stat(nameOrPath)
	if err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a folder; give a scenario file (a folder's *.yaml files go to cara validate)", nameOrPath)
	}
	if _, lerr := os.Lstat(nameOrPath); err != nil && lerr == nil { // there, but cannot be followed
		return nil, fmt.Errorf("reading scenario %s: %w", nameOrPath, err)
	}
	if err == nil {
		src, err := readFile(opt.Context, nameOrPath)
		if err != nil {
			return nil, err
		}
		s, err := Parse(nameOrPath, src, filepath.Dir(nameOrPath), opt)
		if err != nil {
			return nil, err
		}
		s.Path = nameOrPath
		return s, nil
	}
	name := strings.TrimSuffix(nameOrPath, ".yaml")
	src, err := embedded.ReadFile("embedded/" + name + ".yaml")
	if err != nil || strings.ContainsAny(name, "/\\") {
		return nil, fmt.Errorf("no scenario %q: not a file, and not an embedded scenario (%s)", nameOrPath, strings.Join(EmbeddedNames(), ", "))
	}
	return Parse(name+".yaml", src, "", opt)
}

//go:embed embedded/*.yaml
var embedded embed.FS

// Default is the scenario the bare command opens.
const Default = "covcon-d"

// Embedded lists the embedded scenarios in a stable (alphabetical) order.
func Embedded() []Info {
	entries, _ := embedded.ReadDir("embedded")
	var out []Info
	for _, e := range entries {
		src, err := embedded.ReadFile("embedded/" + e.Name())
		if err != nil {
			continue
		}
		var head struct {
			Name  string     `yaml:"name"`
			Title string     `yaml:"title"`
			About string     `yaml:"about"`
			Tour  []struct{} `yaml:"tour"`
		}
		if err := yaml.Unmarshal(src, &head); err != nil {
			continue
		}
		out = append(out, Info{Name: head.Name, Title: head.Title, About: strings.TrimSpace(head.About), Stops: len(head.Tour)})
	}
	return out
}

// Work is the scenario's size as batches x points per batch x queries per batch, read off batch 0
// of the scenario's own seed: the measure a shared machine's budget is set in.
func (s *Scenario) Work() (batches, points, queries int, err error) {
	st, err := s.Stream(s.Seed)
	if err != nil {
		return 0, 0, 0, err
	}
	b, err := st.Batch(0)
	if err != nil {
		return 0, 0, 0, err
	}
	return s.Batches, b.X.Len(), max(b.Q.Len(), 1), nil
}

// CheckBudget refuses a scenario whose work is over limit, or whose run would not fit in memory
// (Bytes, against half the machine's memory); limit 0 skips both checks. flag names the setting
// that raises the limit, for the message.
func (s *Scenario) CheckBudget(limit float64, flag string) error {
	if limit <= 0 {
		return nil
	}
	b, p, q, err := s.Work()
	if err != nil {
		return err
	}
	if w := float64(b) * float64(p) * float64(q); w > limit {
		return fmt.Errorf("%s is too big for this machine's budget: %d batches x %d points x %d queries = %.3g, over the limit of %.3g; raise it with %s %.3g (or make the scenario smaller)",
			s.Name, b, p, q, w, limit, flag, w)
	}
	// The work budget does not see memory: 20000 batches of 5 points are little work and a
	// matrix of 2e8 cells.
	return s.checkMemory(p, q, flag)
}
