package tui

import (
	"context"
	"sync"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// Runs shares computed matrices between sessions: sessions that open the same scenario with the
// same seed replay one engine run, computed once (a later session gets the columns computed so far
// at once, then the rest as they come). At most Max runs are kept; the least recently opened
// finished run is dropped first. Safe for concurrent use.
type Runs struct {
	Max     int
	Workers int

	mu    sync.Mutex
	runs  map[runKey]*sharedRun
	order []runKey // least recently opened first
}

type runKey struct {
	scenario string
	seed     uint64
}

// sharedRun records one engine run's events for any number of subscribers.
type sharedRun struct {
	mu      sync.Mutex
	events  []sim.Event
	done    bool
	err     error
	changed chan struct{} // closed and replaced at every new event
}

// NewRuns returns a cache of at most max runs.
func NewRuns(max, workers int) *Runs {
	return &Runs{Max: max, Workers: workers, runs: map[runKey]*sharedRun{}}
}

// Len is the number of runs held.
func (r *Runs) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.runs)
}

// open returns the run of (s, seed), starting it when it is not cached.
func (r *Runs) open(s *scenarios.Scenario, stream sim.Stream, seed uint64) *sharedRun {
	k := runKey{s.Name + "\x00" + s.Path, seed}
	r.mu.Lock()
	defer r.mu.Unlock()
	if run, ok := r.runs[k]; ok {
		r.touch(k)
		return run
	}
	run := &sharedRun{changed: make(chan struct{})}
	r.runs[k] = run
	r.order = append(r.order, k)
	r.evict()
	cfg, err := s.Config(seed)
	if err != nil {
		run.finish(err)
		return run
	}
	cfg.Stream, cfg.Workers = stream, r.Workers
	events := make(chan sim.Event, 4)
	errc := make(chan error, 1)
	go func() {
		_, err := sim.Run(context.Background(), cfg, events)
		errc <- err
		close(events)
	}()
	// The run is marked done only after its last event is recorded.
	go func() {
		for ev := range events {
			run.add(ev)
		}
		run.finish(<-errc)
	}()
	return run
}

func (r *Runs) touch(k runKey) {
	for i, o := range r.order {
		if o == k {
			r.order = append(append(r.order[:i:i], r.order[i+1:]...), k)
			return
		}
	}
}

// evict drops the oldest finished runs beyond Max (a run still computing is kept: sessions use it).
func (r *Runs) evict() {
	for i := 0; len(r.runs) > max(r.Max, 1) && i < len(r.order); {
		k := r.order[i]
		run := r.runs[k]
		run.mu.Lock()
		done := run.done
		run.mu.Unlock()
		if !done {
			i++
			continue
		}
		delete(r.runs, k)
		r.order = append(r.order[:i], r.order[i+1:]...)
	}
}

func (run *sharedRun) add(ev sim.Event) {
	run.mu.Lock()
	run.events = append(run.events, ev)
	close(run.changed)
	run.changed = make(chan struct{})
	run.mu.Unlock()
}

func (run *sharedRun) finish(err error) {
	run.mu.Lock()
	run.done, run.err = true, err
	close(run.changed)
	run.changed = make(chan struct{})
	run.mu.Unlock()
}

// next returns event i, blocking until it exists; ok is false when the run ended before it.
func (run *sharedRun) next(ctx context.Context, i int) (ev sim.Event, ok bool, err error) {
	for {
		run.mu.Lock()
		if i < len(run.events) {
			ev = run.events[i]
			run.mu.Unlock()
			return ev, true, nil
		}
		if run.done {
			err := run.err
			run.mu.Unlock()
			return sim.Event{}, false, err
		}
		ch := run.changed
		run.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return sim.Event{}, false, ctx.Err()
		}
	}
}
