package scenarios

import (
	"context"
	"testing"

	"github.com/cara-sim/cara/sim"
)

// Every embedded scenario loads, builds its stream and computes a matrix (forests cut to 5 trees),
// and its about says something. The real streams read their embedded copies.
func TestEmbeddedScenariosRun(t *testing.T) {
	t.Setenv("CARA_DATA", "")
	infos := Embedded()
	if len(infos) != 15 {
		t.Errorf("%d embedded scenarios, want 15", len(infos))
	}
	for _, info := range infos {
		if len(info.About) < 200 {
			t.Errorf("%s: about is %d characters; it should teach", info.Name, len(info.About))
		}
		s, err := Load(info.Name, Options{})
		if err != nil {
			t.Errorf("%s: %v", info.Name, err)
			continue
		}
		cfg, err := s.Config(s.Seed)
		if err != nil {
			t.Errorf("%s: %v", info.Name, err)
			continue
		}
		if rf, ok := cfg.Trainer.(sim.RandomForest); ok {
			rf.Trees = 5
			cfg.Trainer = rf
		}
		m, err := sim.Run(context.Background(), cfg, nil)
		if err != nil {
			t.Errorf("%s: %v", info.Name, err)
			continue
		}
		last, done := m.Batches()-1, true
		for tp := 0; tp <= last; tp++ {
			done = done && m.Cell(tp, last).Done
		}
		if m.Batches() != s.Batches || !done || !(m.Gamma > 0) {
			t.Errorf("%s: incomplete matrix", info.Name)
		}
	}
}

// The embedded scenario of the real Elec2 stream reads it from the binary, with nothing beside
// the checkout (internal/streams checks the stream itself).
func TestEmbeddedDataScenario(t *testing.T) {
	t.Setenv("CARA_DATA", "")
	s, err := Load("electricity", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Batches != 100 || s.Offline != 25 || s.Features != 6 {
		t.Errorf("scenario: %d batches, %d offline, %d features", s.Batches, s.Offline, s.Features)
	}
}
