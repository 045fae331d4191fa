package live

// A watcher's subscription to a run: its columns as they come (Next), the shared replays and
// feature ranges, and the matrix once complete.

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

// ReplayKey names one replay of a run's algorithms: up to batch Pos, at Scale times R, of the
// algorithms Names, under the what-if of overrides WhatIf ("" for the run itself).
type ReplayKey struct {
	Pos    int
	Scale  float64
	Names  string
	WhatIf string
}

// Replay returns the replay of k on the watched run, computing it with compute unless another
// watcher has (or is doing so): every watcher of a run has the same cells up to a batch.
func (w *Watch) Replay(k ReplayKey, compute func() ([]algos.Result, error)) ([]algos.Result, error) {
	return w.run.replays.Get(context.Background(), k, func(context.Context) ([]algos.Result, error) { return compute() })
}

// Ranges are each feature's range over every batch of a run, data and queries: the scatter's axes,
// fixed for the whole scenario so that drift shows as movement.
type Ranges struct{ Lo, Hi []float64 }

// Ranges returns the watched run's feature ranges, generating every batch of st (the watcher's
// stream of the run's scenario and seed) unless another watcher has: they belong to the run, so a
// scenario read again (another run) never shows the axes of the one before. NaNs are skipped, and
// so is a batch that fails to generate (the engine reports it). It stops when ctx ends.
func (w *Watch) Ranges(ctx context.Context, st sim.Stream) (Ranges, error) {
	return w.run.ranges.Get(ctx, struct{}{}, func(ctx context.Context) (Ranges, error) {
		d := st.Features()
		r := Ranges{Lo: make([]float64, d), Hi: make([]float64, d)}
		for j := range d {
			r.Lo[j], r.Hi[j] = math.Inf(1), math.Inf(-1)
		}
		for t := range st.Len() {
			if err := ctx.Err(); err != nil {
				return Ranges{}, err
			}
			b, err := st.Batch(t)
			if err != nil {
				continue
			}
			for _, p := range []sim.Points{b.X, b.Q} {
				for i := range p.Len() {
					for j, v := range p.Row(i) {
						if j < d && !math.IsNaN(v) {
							r.Lo[j], r.Hi[j] = min(r.Lo[j], v), max(r.Hi[j], v)
						}
					}
				}
			}
		}
		return r, nil
	})
}

// Watch is one watcher's subscription to a run.
type Watch struct {
	runs *Runs
	run  *sharedRun
	once sync.Once
}

// Matrix is the watched run's matrix once it is complete (nil before, and for a run that failed):
// shared by its watchers, and only read.
func (w *Watch) Matrix() *sim.Matrix {
	w.runs.mu.Lock()
	defer w.runs.mu.Unlock()
	if run := w.run; run.state == runDone && run.err == nil && len(run.events) == run.matrix.Batches() {
		return run.matrix
	}
	return nil
}

// Leave ends the subscription; only the first call counts.
func (w *Watch) Leave() {
	w.once.Do(func() {
		w.runs.mu.Lock()
		w.runs.leaveLocked(w.run)
		w.runs.mu.Unlock()
	})
}

// Update is what a watcher learns from one wait: events from i on, the run's end, or its queue place.
type Update struct {
	Events []sim.Event
	OK     bool // Events are events i, i+1, ... (all there are)
	Queued bool // Queue is the run's place (it has not started)
	Queue  Queue
	Err    error // when neither: the run's end (nil when complete)
}

// Next waits for event i of the run and returns it with every later one already there. Until the run starts it also returns when the run's place
// differs from shown, or its estimate in whole seconds does (at most once a second, so a status
// line counts down); the first report waits a moment, so a run that starts at once never shows as
// queued. A report with Pos 0 says the run has started.
func (w *Watch) Next(ctx context.Context, i int, shown Queue) Update {
	r, run := w.runs, w.run
	wait, fired := 250*time.Millisecond, false
	if shown.Pos > 0 {
		wait = time.Second
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		r.mu.Lock()
		if i < len(run.events) {
			// Recorded events are never changed, only appended to: the slice can be read unlocked.
			evs := run.events[i:len(run.events):len(run.events)]
			r.mu.Unlock()
			return Update{Events: evs, OK: true}
		}
		if run.state == runDone {
			err := run.err
			r.mu.Unlock()
			return Update{Err: err}
		}
		var q Queue
		var moves <-chan struct{} // the budget's queue changes too (a command ahead ends)
		if run.state == runQueued {
			q = r.queueLocked(run)
			moves = r.budget.Changed()
		}
		ch := run.changed
		r.mu.Unlock()
		moved := q.Pos != shown.Pos && (shown.Pos > 0 || fired)
		ticked := fired && q.Pos > 0 && roughly(q.ETA) != roughly(shown.ETA)
		if moved || ticked {
			return Update{Queued: true, Queue: q}
		}
		select {
		case <-ch:
		case <-moves:
		case <-timer.C:
			fired = true
			timer.Reset(time.Second)
		case <-ctx.Done():
			return Update{Err: ctx.Err()}
		}
	}
}
