// Package simtest holds what the tests of several packages need around a run: a scenario's matrix
// computed plainly (as `cara matrix` does), a copy of a scenario whose runs wait for a gate, and a
// wait for a condition. Only tests import it.
package simtest

import (
	"context"
	"testing"
	"time"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// Matrix computes the matrix of s at its own seed, failing t on an error.
func Matrix(t testing.TB, s *scenarios.Scenario) *sim.Matrix {
	t.Helper()
	cfg, err := s.Config(s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	m, err := sim.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// gatedTrainer fits nearest centroids, but no model before open is closed.
type gatedTrainer struct {
	sim.NearestCentroid
	open chan struct{}
}

func (g gatedTrainer) Fit(x sim.Points, y []uint8, seed uint64) (sim.Model, error) {
	<-g.open
	return g.NearestCentroid.Fit(x, y, seed)
}

// Gated returns a copy of s (a scenario of its own for a registry) on nearest centroids whose runs
// compute only once open is closed: a test decides when they go on.
func Gated(s *scenarios.Scenario, open chan struct{}) *scenarios.Scenario {
	c := *s
	c.Model = gatedTrainer{open: open}
	return &c
}

// Eventually waits up to 5 s for cond, failing t with what when it does not come.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within 5 s: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
