// Package scenarios owns the scenario file format (YAML, read strictly, with expressions compiled
// once at load), its loader and validation, the point generators, concept timelines and CSV streams
// that scenario files describe, and the embedded scenarios that reproduce the paper's examples.
package scenarios

import (
	"errors"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

// Scenario is a loaded, validated scenario file.
type Scenario struct {
	Name, Title, About string
	Path               string // file it was read from; "" for an embedded scenario
	Seed               uint64
	Batches, Offline   int
	Features           int
	Model              sim.Trainer
	Gamma              sim.GammaSpec
	RetrainCost        algos.RetrainCost
	RetrainCostText    string   // as written: "20" or "10 + 5*sin(t/10)"
	Algorithms         []string // default: algos.Names

	newStream func(seed uint64) (sim.Stream, error)
}

// Stream builds the scenario's stream for a seed (the scenario's own Seed for its default run).
func (s *Scenario) Stream(seed uint64) (sim.Stream, error) { return s.newStream(seed) }

// Config returns the engine configuration of a run with seed.
func (s *Scenario) Config(seed uint64) (sim.Config, error) {
	st, err := s.Stream(seed)
	if err != nil {
		return sim.Config{}, err
	}
	return sim.Config{Scenario: s.Name, Stream: st, Trainer: s.Model, Seed: seed, Offline: s.Offline, Gamma: s.Gamma}, nil
}

// Options override parts of a scenario from the command line.
type Options struct {
	Data    string // --data: the data CSV, replacing the file's data.csv path
	Queries string // --queries: the queries CSV
}

// Info describes an embedded scenario for pickers and listings.
type Info struct{ Name, Title, About string }

// Load reads an embedded scenario by name, or a scenario file by path.
// TEMPORARY SKELETON: being written.
func Load(nameOrPath string, opt Options) (*Scenario, error) {
	return nil, errors.New("scenarios: not implemented yet")
}

// Embedded lists the embedded scenarios in a stable order. TEMPORARY SKELETON: being written.
func Embedded() []Info { return nil }
