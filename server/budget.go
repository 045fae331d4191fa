package server

import (
	"errors"
	"fmt"

	"github.com/cara-sim/cara/internal/budget"
	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/scenarios"
)

// The room's memory. --memory (or the smallest limit the process runs under) is the process's
// GOMEMLIMIT, and three quarters of it is what the work clients cause may hold: runs computing and
// kept, what-if state, commands' matrices, uploads, checks, and what each open session costs. The
// last quarter is the margin the issue asks to state: the Go runtime (goroutine stacks, its own
// structures), the collector's headroom under GOMEMLIMIT, and the estimates' error (a run's
// estimate is within a factor of 2 above what it holds; see sim.Estimate).
const workShare = 0.75

// minMemory is the least --memory a room runs with: an idle server, the players' canvases
// (tui.CanvasKeep), a few sessions, one small run.
const minMemory = 128 << 20

// sessionBytes is what an open player session is charged, for as long as it is open: what an idle
// session holds (its panes' text, replays and what-ifs, the SSH channel's buffers; its run's matrix
// is shared, and the canvases its panes draw on are counted apart, bounded for all sessions
// together: tui.CanvasKeep) is 0.38 MB at 120x40 and 1.05 MB at 500x200, the largest screen a
// session draws (TestSessionCost).
const sessionBytes = 2 << 20

// workBytes is what admitted work may hold under a room's memory.
func workBytes(memory int64) int64 { return int64(float64(memory) * workShare) }

// memoryDefaults fills Memory (and where it came from) when not given, and refuses a room too
// small to hold anything.
func memoryDefaults(cfg *Config) error {
	switch {
	case cfg.Memory == 0:
		d := budget.Default()
		cfg.Memory, cfg.MemoryFrom = d.Bytes, d.From
	case cfg.MemoryFrom == "":
		cfg.MemoryFrom = "--memory"
	}
	if cfg.Memory < minMemory {
		return usagef("--memory %v is too little for a room (%s); give at least %v", budget.Bytes(cfg.Memory), cfg.MemoryFrom, budget.Bytes(minMemory))
	}
	return nil
}

// Budget is the room's memory and compute slots, as admitted work holds them now.
func (s *Server) Budget() budget.Stats { return s.budget.Stats() }

// check refuses a scenario before a player opens it (a picker's choice, a :set that makes a new
// run, the editor's ctrl+s): over --max-work, or a run that could never fit the room's memory,
// saying what would.
func (s *Server) check(sc *scenarios.Scenario) error {
	if err := sc.CheckBudget(s.cfg.MaxWork, "cara serve --max-work"); err != nil {
		s.metrics.workRefused.WithLabelValues("max_work").Inc()
		return err
	}
	_, err := s.runs.Footprint(sc, sc.Seed)
	var tb *live.TooBig
	if errors.As(err, &tb) {
		s.metrics.workRefused.WithLabelValues("memory").Inc()
		return fmt.Errorf("%s: %w", sc.Name, err)
	}
	return err
}
