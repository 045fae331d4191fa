package live

// What runs cost and what the budget is asked for: a run's estimate (Footprint), the refusal of
// one that could never fit (TooBig), memory given back when the budget needs it (reclaim), and the
// prices of quick work and of a run's what-if state.

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unsafe"

	"github.com/cara-sim/cara/internal/budget"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// Footprint is what the run of s with seed would hold (sim.Estimate), estimated once per scenario
// content; err is a *TooBig when it could never fit the registry's budget.
func (r *Runs) Footprint(s *scenarios.Scenario, seed uint64) (sim.Footprint, error) {
	cfg, err := s.Config(seed)
	if err != nil {
		return sim.Footprint{}, err
	}
	cfg.Workers = r.cfg.Workers
	f, err := r.footprint(s, cfg)
	if err != nil {
		return f, err
	}
	if allowed := r.budget.Allowed(); f.Peak > allowed {
		return f, tooBig(s, f, allowed)
	}
	return f, nil
}

func (r *Runs) footprint(s *scenarios.Scenario, cfg sim.Config) (sim.Footprint, error) {
	if r.budget.Capacity() >= unbounded {
		return sim.Footprint{}, nil // a budget of slots only (a local player's): nothing to estimate for
	}
	k := footprintKey{content: s.RunKey()}
	if k.content == "" {
		k.scenario = s
	}
	return r.footprints.Get(context.Background(), k, func(ctx context.Context) (sim.Footprint, error) {
		return sim.Estimate(ctx, cfg)
	})
}

// TooBig is a run that could never fit the room's memory, however long it waited.
type TooBig struct {
	Scenario string
	Need     int64 // the run's estimated peak
	Allowed  int64 // the most one run may take
	Trees    int   // the forest's trees (0 for another model)
	Fit      int   // the trees that would fit (0 when none would, or another model)
}

func tooBig(s *scenarios.Scenario, f sim.Footprint, allowed int64) *TooBig {
	return &TooBig{Scenario: s.Name, Need: f.Peak, Allowed: allowed, Trees: f.Trees, Fit: roundDown(f.TreesWithin(allowed))}
}

func (e *TooBig) Error() string {
	if e.Trees > 0 && e.Fit > 0 {
		return fmt.Sprintf("%d trees need about %v; this room allows %v a run: try trees <= %d",
			e.Trees, budget.Bytes(e.Need), budget.Bytes(e.Allowed), e.Fit)
	}
	return fmt.Sprintf("%s needs about %v of memory; this room allows %v a run: fewer batches, points or trees would fit",
		e.Scenario, budget.Bytes(e.Need), budget.Bytes(e.Allowed))
}

// roundDown keeps n's two leading digits (752 -> 750), so advice reads as advice.
func roundDown(n int) int {
	p := 1
	for n/p >= 100 {
		p *= 10
	}
	return n / p * p
}

// reclaim lets go of finished runs nobody watches, least recently left first, then of what-if
// state, until need bytes went back to the budget (the budget asks, when the first in line does
// not fit).
func (r *Runs) reclaim(need int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for need > 0 && len(r.idle) > 0 {
		run := r.runs[r.idle[0]]
		r.idle = r.idle[1:]
		if run == nil {
			continue
		}
		delete(r.runs, run.key)
		need -= run.ticket.Bytes()
		r.releaseLocked(run)
	}
	for need > 0 && len(r.bases) > 0 { // what-if state comes back at its next what-if
		run := r.bases[0]
		if run.baseTicket != nil {
			need -= run.baseTicket.Bytes()
		}
		r.dropBaseLocked(run)
	}
}

// releaseLocked gives back what a run holds in the budget.
func (r *Runs) releaseLocked(run *sharedRun) {
	if run.ticket != nil {
		run.ticket.Release()
	}
}

// waitMemory bounds how long quick work (a what-if) waits for the room's memory before giving up
// with ErrMemory.
const waitMemory = 30 * time.Second

// ErrMemory is quick work that waited waitMemory for the room's memory in vain.
var ErrMemory = errors.New("the room's memory is in use: try again in a moment")

// acquire holds bytes of the budget for quick work, waiting at most waitMemory.
func (r *Runs) acquire(ctx context.Context, bytes int64) (*budget.Ticket, error) {
	ctx, cancel := context.WithTimeout(ctx, waitMemory)
	defer cancel()
	t, err := r.budget.Acquire(ctx, budget.Request{Bytes: bytes, Quick: true}, nil)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
		return nil, ErrMemory
	}
	return t, err
}

// baseBytes is what a Base holds in the budget: the run's batches and another query stream's, two
// what-ifs' matrices, and the run's models as trees.
func baseBytes(run *sharedRun) int64 {
	f := run.footprint
	return 2*f.Data + 2*f.Held + f.Kept*int64(run.scenario.Batches)
}

// eventBytes estimates the memory an event holds: its cells and their error bitsets.
func eventBytes(ev sim.Event) int64 {
	n := int64(len(ev.Cells)) * int64(unsafe.Sizeof(sim.Cell{}))
	for _, c := range ev.Cells {
		n += int64(len(c.Errors.Words)) * 8
	}
	return n
}
