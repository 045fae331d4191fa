// Package live owns the runs players watch: the registry that starts, shares, queues, bounds and
// ends engine runs (Runs), a watcher's subscription to one (Watch), and what-ifs over a finished run
// (Base, WhatIf) with the caches a run's watchers share. It has no terminal in it: the player (tui)
// turns a subscription into messages, and it is tested and benchmarked without a screen.
package live

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/budget"
	"github.com/cara-sim/cara/internal/memo"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// Runs is the registry every player's engine runs go through, local or served: it starts them,
// shares them, limits them and ends them.
//
//   - Sharing: sessions that open the same scenario (the same loaded *Scenario) with the same seed
//     watch one run, computed once; a later session gets the columns computed so far at once, then
//     the rest as they come. Watchers at the same batch and R share the algorithms' replay too.
//   - Lifetime: a run counts its watchers and is cancelled when the last one leaves (q, r, a closed
//     connection, a cancelled context). A finished run nobody watches is kept for the next to ask,
//     at most Cache of them, the least recently left dropped first.
//   - Limits: every run is admitted against one budget (internal/budget), shared with whatever
//     else the budget admits (a server's commands): it starts when a compute slot is free and the
//     memory it will hold at its most (sim.Estimate) fits beside what is held and computing;
//     until then it waits in line, first come first served, and its watchers are told their place,
//     and either an estimate of the wait or that the room's memory is in use. A run that could
//     never fit is refused, saying what would (TooBig). A finished run's grant shrinks to what it
//     keeps; one nobody watches is let go when the budget needs its memory.
//   - What-ifs: a finished run keeps its matrix and error bits, not its models. Its watchers share
//     one Base for what-ifs, made at the first and dropped when the last watcher leaves, or when
//     more than MaxBases runs hold one (the least recently used goes; its next what-if makes it
//     again); a what-if on other queries fits the models again from the seed, a few at a time
//     (sim.Reanswer), and gets the same accuracies bit for bit. Measured on covcon-d (100 batches,
//     100 trees; BenchmarkRunMemory): a finished run holds 1.0 MB (7.8 MB when it kept its models).
//     At most MaxComputing what-ifs compute at once.
//
// A presenter/follower layer needs nothing more: followers open the presenter's scenario and seed
// and share its run. Safe for concurrent use. Idle, it holds no goroutine.
type Runs struct {
	cfg RunsConfig

	base  context.Context // cancelled by Close: the parent of every run
	close context.CancelFunc
	wg    sync.WaitGroup // running computations

	// mu guards everything below and every sharedRun's fields but its replays: one lock, held
	// briefly, for a few hundred events a second at most, keeps the state machine simple.
	mu        sync.Mutex
	runs      map[runKey]*sharedRun
	idle      []runKey     // finished runs nobody watches, least recently left first (the cache)
	queue     []*sharedRun // waiting for their grant, oldest first
	computing int
	took      map[string]meanDuration // measured wall time of complete runs, per scenario name
	started   int                     // runs whose computation started, ever
	refused   int                     // runs refused as too big for the budget, ever
	closed    bool

	budget     *budget.Budget
	footprints *memo.Memo[footprintKey, sim.Footprint]
	whatifs    chan struct{} // a slot per what-if computing
	bases      []*sharedRun  // runs holding a Base, least recently used first
}

// unbounded is a budget's capacity past which memory is not counted (budget.Unlimited).
const unbounded = 1 << 61

// footprintKey names a run's estimate: its scenario's content (the seed changes nothing that
// matters to memory), or the scenario itself when it has no content to compare.
type footprintKey struct {
	content  string
	scenario *scenarios.Scenario
}

// RunsConfig sets a registry's limits.
type RunsConfig struct {
	// Budget is what runs are admitted against: its compute slots and its memory, shared with any
	// other work it admits. Nil gives the registry a budget of its own: MaxComputing slots and no
	// bound on memory (a local player's).
	Budget       *budget.Budget
	MaxComputing int // runs computing at once without a Budget; 0 means the number of CPUs
	Cache        int // finished runs kept while nobody watches them
	Workers      int // engine workers per run; 0 means GOMAXPROCS
	// OnPanic, when set, is told of a panic recovered in a run's engine (which ends that run with an
	// error, not the process): the value and the stack where it happened.
	OnPanic func(value any, stack []byte)
	// MaxBases bounds the runs holding what-if state (an Base) at once; 0 means
	// 2 x MaxComputing.
	MaxBases int
}

// RunsStats is a snapshot of a registry, for metrics and tests.
type RunsStats struct {
	Computing int   // runs computing now
	Queued    int   // runs waiting for a slot
	Finished  int   // finished runs held (watched, or kept in the cache)
	Watchers  int   // subscriptions open on all runs
	Started   int   // runs whose computation started since the registry was made
	Refused   int   // runs refused as too big for the budget since the registry was made
	Bytes     int64 // memory held by the runs' recorded columns (cells and error bits)
}

// runKey is a run's identity: the content of its scenario (scenarios.RunKey) and the seed, so
// that the same change made twice (two students' `:set data.noise=0.2`) is one run; a scenario built
// by hand, with no content to compare, is its own.
type runKey struct {
	content  string
	scenario *scenarios.Scenario // only when content is ""
	seed     uint64
}

func keyOf(s *scenarios.Scenario, seed uint64) runKey {
	if c := s.RunKey(); c != "" {
		return runKey{content: c, seed: seed}
	}
	return runKey{scenario: s, seed: seed}
}

type runState int

const (
	runQueued runState = iota
	runComputing
	runDone
)

// sharedRun records one engine run's columns for any number of watchers. Guarded by Runs.mu.
type sharedRun struct {
	key      runKey
	scenario *scenarios.Scenario // the first watcher's: its content is every watcher's
	cfg      sim.Config
	state    runState
	watchers int
	cancel   context.CancelFunc
	started  time.Time
	// matrix is the run's cells as they are computed, and events its columns (their Cells are the
	// matrix's own columns, not copies): every watcher reads them, and once the run is done its
	// sessions show the matrix itself, rather than a copy each.
	matrix     *sim.Matrix
	events     []sim.Event
	bytes      int64
	footprint  sim.Footprint  // its estimate
	ticket     *budget.Ticket // its place in the budget, then its grant (peak, then what it keeps)
	stale      bool           // its scenario can no longer be opened (Retain): not kept once unwatched
	base       *Base
	baseTicket *budget.Ticket // what the Base holds
	err        error
	changed    chan struct{} // closed and replaced at every change a watcher may wait for
	// What the run's watchers derive from it, computed once for all of them: the algorithms'
	// replays (players at the same batch and R: a room told to press End, students following a
	// presenter), its what-ifs while it keeps its Base, and the features' ranges (the scatter's axes).
	replays *memo.Memo[ReplayKey, []algos.Result]
	whatifs *memo.Memo[string, *WhatIf]
	ranges  *memo.Memo[struct{}, Ranges]
}

// replaysKept bounds a run's replays: a replay of a 100-batch run is some tens of kB.
const replaysKept = 16

// whatIfsKept bounds a run's what-ifs: a what-if of covcon-d holds about a megabyte.
const whatIfsKept = 4

func newSharedRun(k runKey, s *scenarios.Scenario) *sharedRun {
	return &sharedRun{key: k, scenario: s, changed: make(chan struct{}), replays: memo.New[ReplayKey, []algos.Result](replaysKept),
		whatifs: memo.New[string, *WhatIf](whatIfsKept), ranges: memo.New[struct{}, Ranges](1)}
}

// meanDuration is a running mean.
type meanDuration struct {
	sum time.Duration
	n   int
}

func (m meanDuration) mean() time.Duration { return m.sum / time.Duration(max(m.n, 1)) }

// NewRuns returns an empty registry. A registry takes its budget's reclaim hook: one registry a
// budget.
func NewRuns(cfg RunsConfig) *Runs {
	if cfg.Budget != nil {
		cfg.MaxComputing = cfg.Budget.Stats().Slots
	}
	if cfg.MaxComputing <= 0 {
		cfg.MaxComputing = runtime.NumCPU()
	}
	if cfg.Budget == nil {
		cfg.Budget = budget.Unlimited(cfg.MaxComputing)
	}
	if cfg.MaxBases <= 0 {
		cfg.MaxBases = 2 * cfg.MaxComputing
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &Runs{cfg: cfg, base: ctx, close: cancel, runs: map[runKey]*sharedRun{}, took: map[string]meanDuration{},
		budget: cfg.Budget, footprints: memo.New[footprintKey, sim.Footprint](64), whatifs: make(chan struct{}, cfg.MaxComputing)}
	cfg.Budget.OnReclaim(r.reclaim)
	return r
}

// errClosed ends the runs of a registry that was closed (a server shutting down).
var errClosed = errors.New("the server is shutting down")

// Close cancels every run and waits for their computations to stop; later opens fail at once. What
// the runs held goes back to the budget.
func (r *Runs) Close() {
	r.mu.Lock()
	r.closed = true
	for _, run := range r.queue {
		r.finishLocked(run, errClosed)
		run.ticket.Release()
	}
	r.queue = nil
	r.mu.Unlock()
	r.close()
	r.wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, run := range r.runs {
		r.dropBaseLocked(run)
		r.releaseLocked(run)
		delete(r.runs, k)
	}
	r.idle = nil
}

// Retain keeps the runs whose scenario keep accepts and lets go of the others: a finished run
// nobody watches at once, a watched one when its last watcher leaves (the scenarios offered were
// read again, and a file edited since is a new scenario nobody can open the old way).
func (r *Runs) Retain(keep func(*scenarios.Scenario) bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, run := range r.runs {
		if keep(run.scenario) {
			continue
		}
		run.stale = true
		if run.watchers == 0 && run.state == runDone {
			delete(r.runs, k)
			r.releaseLocked(run)
			r.idle = slices.DeleteFunc(r.idle, func(o runKey) bool { return o == k })
		}
	}
}

// Config is the registry's configuration, defaults filled in.
func (r *Runs) Config() RunsConfig { return r.cfg }

// Stats returns the registry's current counts.
func (r *Runs) Stats() RunsStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := RunsStats{Computing: r.computing, Queued: len(r.queue), Started: r.started, Refused: r.refused}
	for _, run := range r.runs {
		if run.state == runDone {
			st.Finished++
		}
		st.Watchers += run.watchers
		st.Bytes += run.bytes
	}
	return st
}

// Len is the number of runs held: live ones and finished ones kept.
func (r *Runs) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.runs)
}

// Watch subscribes to the run of (s, seed), queueing a new run when none is held. stream is the
// watcher's own stream of (s, seed), used by a new run. The caller must leave exactly once (Leave is
// idempotent). A new run is estimated first (Footprint); one that could never fit the budget ends
// at once with a *TooBig error, as a run whose scenario fails does.
func (r *Runs) Watch(s *scenarios.Scenario, stream sim.Stream, seed uint64) *Watch {
	k := keyOf(s, seed)
	r.mu.Lock()
	run, ok := r.runs[k]
	if !ok {
		// Estimated unlocked: probing a run takes milliseconds, and other runs' events wait on the lock.
		r.mu.Unlock()
		cfg, err := s.Config(seed)
		var f sim.Footprint
		if err == nil {
			cfg.Stream, cfg.Workers = stream, r.cfg.Workers
			f, err = r.footprint(s, cfg)
		}
		r.mu.Lock()
		if run, ok = r.runs[k]; !ok { // nobody made it meanwhile
			run = r.newRunLocked(k, s, cfg, f, err)
		}
	}
	defer r.mu.Unlock()
	if run.watchers == 0 && run.state == runDone {
		r.idle = slices.DeleteFunc(r.idle, func(o runKey) bool { return o == k })
	}
	run.watchers++
	return &Watch{runs: r, run: run}
}

// newRunLocked makes the run of k and queues it for its grant; a run that cannot start (its
// scenario's error, a registry closed, too big for the budget) ends at once and is not held, so the
// next watcher tries again.
func (r *Runs) newRunLocked(k runKey, s *scenarios.Scenario, cfg sim.Config, f sim.Footprint, err error) *sharedRun {
	run := newSharedRun(k, s)
	if r.closed {
		err = errClosed
	}
	var t *budget.Ticket
	if err == nil {
		t, err = r.budget.Queue(budget.Request{Bytes: f.Peak, Slot: true})
		var tb *budget.TooBig
		if errors.As(err, &tb) {
			r.refused++
			err = tooBig(s, f, tb.Allowed)
		}
	}
	if err != nil {
		r.finishLocked(run, err)
		return run
	}
	run.cfg, run.footprint, run.ticket = cfg, f, t
	run.matrix = sim.NewMatrix(s.Batches, s.Offline)
	run.matrix.Scenario = s.Name
	// What the algorithms read beyond the cells, as the engine's own matrix has it: the seed a
	// detector that samples (KSWIN) draws from, and the drifts the detectors are scored against.
	run.matrix.Seed = cfg.Seed
	if cfg.Stream != nil {
		run.matrix.Drifts = cfg.Stream.Drifts()
	}
	r.runs[k] = run
	r.queue = append(r.queue, run)
	r.wg.Add(1)
	go r.admit(run)
	return run
}

// admit waits for the run's grant, then computes it; a run its last watcher left (or a registry
// closed) while it waited is let go.
func (r *Runs) admit(run *sharedRun) {
	defer r.wg.Done()
	<-run.ticket.Ready() // closed by the grant, or by the release of a run nobody waits for
	r.mu.Lock()
	if run.state != runQueued || r.closed {
		r.mu.Unlock()
		run.ticket.Release()
		return
	}
	r.queue = slices.DeleteFunc(r.queue, func(q *sharedRun) bool { return q == run })
	ctx, cancel := context.WithCancel(r.base)
	run.state, run.cancel, run.started = runComputing, cancel, time.Now()
	r.computing++
	r.started++
	// Everyone behind moved up one place.
	for _, q := range r.queue {
		q.notifyLocked()
	}
	run.notifyLocked()
	r.mu.Unlock()
	r.compute(ctx, run)
}

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

// compute runs the engine for one run and records its columns; its slot is freed only when the
// engine has stopped, so the budget's slots bound the work actually running. A run that ends
// complete keeps, in the budget, what its columns hold.
func (r *Runs) compute(ctx context.Context, run *sharedRun) {
	var err error
	var got *sim.Matrix
	func() {
		defer func() {
			if v := recover(); v != nil {
				err = &sim.PanicError{Value: v, Stack: debug.Stack()}
			}
		}()
		got, err = sim.Run(ctx, run.cfg, func(ev sim.Event) error {
			r.mu.Lock()
			for tp, c := range ev.Cells {
				if c.Done {
					run.matrix.Set(tp, ev.Index, c)
				}
			}
			ev.Cells = run.matrix.Column(ev.Index)
			run.events = append(run.events, ev)
			run.bytes += eventBytes(ev)
			run.notifyLocked()
			r.mu.Unlock()
			return nil
		})
	}()
	var pe *sim.PanicError
	if errors.As(err, &pe) && r.cfg.OnPanic != nil {
		r.cfg.OnPanic(pe.Value, pe.Stack)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.computing--
	if ctx.Err() != nil {
		err = ctx.Err() // cancelled: nobody watches it, or the registry closed
	} else if err == nil {
		m := r.took[run.cfg.Scenario]
		m.sum += time.Since(run.started)
		m.n++
		r.took[run.cfg.Scenario] = m
	}
	if err == nil && got != nil {
		// The engine's warnings (a kernel that cannot tell the queries apart, a model from outside
		// without answers at the queries) are on its own matrix, not on the columns.
		run.matrix.CarryWarnings(got)
	}
	r.finishLocked(run, err)
	if err != nil {
		r.releaseLocked(run) // a failed or cancelled run is not kept
		if r.runs[run.key] == run {
			delete(r.runs, run.key)
		}
		return
	}
	run.ticket.Resize(run.bytes, false)
}

func (r *Runs) finishLocked(run *sharedRun, err error) {
	run.state, run.err = runDone, err
	run.cfg = sim.Config{} // the stream and its data are no longer needed
	run.notifyLocked()
}

func (run *sharedRun) notifyLocked() {
	close(run.changed)
	run.changed = make(chan struct{})
}

// leaveLocked drops one watcher; the last one cancels a live run and leaves a finished one in the
// cache.
func (r *Runs) leaveLocked(run *sharedRun) {
	run.watchers--
	if run.watchers > 0 {
		return
	}
	switch run.state {
	case runQueued:
		r.queue = slices.DeleteFunc(r.queue, func(q *sharedRun) bool { return q == run })
		if r.runs[run.key] == run {
			delete(r.runs, run.key)
		}
		r.finishLocked(run, context.Canceled)
		run.ticket.Release() // its admit goroutine wakes and ends
		for _, q := range r.queue {
			q.notifyLocked()
		}
	case runComputing:
		// Dropped at once, so a new watcher starts afresh; its slot is freed when its engine stops.
		run.cancel()
		if r.runs[run.key] == run {
			delete(r.runs, run.key)
		}
	case runDone:
		r.dropBaseLocked(run) // its batches and query streams go; the kept run stays
		if r.runs[run.key] != run {
			r.releaseLocked(run) // a failed, cancelled or replaced run is not kept
			return
		}
		if run.stale {
			delete(r.runs, run.key)
			r.releaseLocked(run)
			return
		}
		r.idle = append(r.idle, run.key)
		for len(r.idle) > r.cfg.Cache {
			if old := r.runs[r.idle[0]]; old != nil {
				delete(r.runs, old.key)
				r.releaseLocked(old)
			}
			r.idle = r.idle[1:]
		}
	}
}

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

// ErrComputing refuses a what-if on a run that has not finished.
var ErrComputing = errors.New("a what-if needs the whole run: wait until every batch is computed")

// WhatIf computes a what-if on the watched run (finished), at most MaxComputing at once, once for
// all the run's watchers: a computation outlives a watcher who stops waiting for it (it is
// another's too, and takes tens of milliseconds). While it computes it holds, in the budget, a
// copy of the matrix and the models it fits again a few at a time.
func (w *Watch) WhatIf(ctx context.Context, sets []string) (*WhatIf, error) {
	base, err := w.Base()
	if err != nil {
		return nil, err
	}
	f := w.run.footprint
	workers := int64(max(w.runs.cfg.Workers, 1))
	return w.run.whatifs.Shared(ctx, strings.Join(sets, "\n"), func(ctx context.Context) (*WhatIf, error) {
		w.runs.whatifs <- struct{}{}
		defer func() { <-w.runs.whatifs }()
		t, err := w.runs.acquire(ctx, f.Held+workers*f.Model)
		if err != nil {
			return nil, err
		}
		defer t.Release()
		return base.Apply(ctx, sets)
	})
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

// Base returns the run's Base for what-ifs, made at the first: one per run, shared by its
// watchers, dropped when the last leaves. Making it waits (a while at most) for its memory.
func (w *Watch) Base() (*Base, error) {
	r, run := w.runs, w.run
	get := func() (*Base, bool, error) {
		switch {
		case run.state != runDone:
			return nil, true, ErrComputing
		case run.err != nil:
			return nil, true, run.err
		case run.base != nil:
			r.bases = append(slices.DeleteFunc(r.bases, func(o *sharedRun) bool { return o == run }), run)
			return run.base, true, nil
		}
		return nil, false, nil
	}
	r.mu.Lock()
	b, done, err := get()
	r.mu.Unlock()
	if done {
		return b, err
	}
	t, err := r.acquire(context.Background(), baseBytes(run))
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if b, done, err := get(); done { // made meanwhile
		t.Release()
		return b, err
	}
	b, err = NewBase(run.scenario, run.key.seed, run.matrix, r.cfg.Workers)
	if err != nil {
		t.Release()
		return nil, err
	}
	run.base, run.baseTicket = b, t
	r.bases = append(r.bases, run)
	for len(r.bases) > r.cfg.MaxBases {
		r.dropBaseLocked(r.bases[0])
	}
	return b, nil
}

// DropBase lets go of the watched run's what-if state (its Base and what-ifs), as when more than
// MaxBases runs hold one; the next what-if makes it again. For measuring a cold what-if.
func (w *Watch) DropBase() {
	w.runs.mu.Lock()
	defer w.runs.mu.Unlock()
	w.runs.dropBaseLocked(w.run)
}

// dropBaseLocked lets go of a run's Base.
func (r *Runs) dropBaseLocked(run *sharedRun) {
	if run.baseTicket != nil {
		run.baseTicket.Release()
		run.baseTicket = nil
	}
	run.base = nil
	run.whatifs.Clear()
	r.bases = slices.DeleteFunc(r.bases, func(o *sharedRun) bool { return o == run })
}

// eventBytes estimates the memory an event holds: its cells and their error bitsets.
func eventBytes(ev sim.Event) int64 {
	n := int64(len(ev.Cells)) * int64(unsafe.Sizeof(sim.Cell{}))
	for _, c := range ev.Cells {
		n += int64(len(c.Errors.Words)) * 8
	}
	return n
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

// Queue is a queued run's place, as its watchers see it.
type Queue struct {
	Pos int           // 1 for the first in line (a server's commands count too); 0 when not queued
	ETA time.Duration // estimated wait until it starts; 0 when there is no measure yet
	// Memory says the first in line waits for the room's memory rather than for a compute slot:
	// then there is no estimate, as the wait is for others to finish or leave.
	Memory bool
}

func (q Queue) String() string {
	if q.Pos == 0 {
		return ""
	}
	s := "queued: " + ordinal(q.Pos)
	switch {
	case q.Memory:
		s += "; the room's memory is in use"
	case q.ETA > 0:
		s += ", about " + roughly(q.ETA)
	}
	return s
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// roughly says a wait as precisely as an estimate deserves: to the second below 10 s, to 5 s below
// a minute, to 10 s below 90 s, then in minutes. A coarse estimate also changes less often, and
// each change redraws a waiting player.
func roughly(d time.Duration) string {
	s := int((d + time.Second/2) / time.Second)
	switch {
	case s < 10:
		return fmt.Sprintf("%d s", max(s, 1))
	case s < 60:
		return fmt.Sprintf("%d s", (s+2)/5*5)
	case s < 90:
		return fmt.Sprintf("%d s", (s+5)/10*10)
	}
	return fmt.Sprintf("%d min", (s+30)/60)
}

// queueLocked estimates a queued run's wait from measured run times: each computing run ends after
// its elapsed time scaled by the share of its cells still to do, each queued run ahead takes the
// mean measured time of its scenario (of any scenario when its own has none yet), and a run starts
// in the first slot to free up. ETA is 0 when nothing has been measured yet.
//
// Its place is the budget's, where other work (a server's commands) may be ahead of it: each of
// those is taken to last the mean of any run.
func (r *Runs) queueLocked(run *sharedRun) Queue {
	pos := slices.Index(r.queue, run)
	if pos < 0 {
		return Queue{}
	}
	q := Queue{Pos: pos + 1}
	if run.ticket != nil {
		p := run.ticket.Place()
		if p.Pos == 0 {
			return Queue{} // granted: about to start
		}
		q.Pos, q.Memory = p.Pos, p.Memory
		if q.Memory {
			return q
		}
	}
	now := time.Now()
	var slots []time.Duration // when each slot frees up, from now
	for _, c := range r.runs {
		if c.state != runComputing {
			continue
		}
		if len(c.events) == 0 {
			m, ok := r.took[c.cfg.Scenario]
			if !ok {
				return q
			}
			slots = append(slots, max(m.mean()-now.Sub(c.started), 0))
			continue
		}
		last := c.events[len(c.events)-1]
		frac := float64(last.CellsDone) / float64(max(last.CellsAll, 1))
		elapsed := now.Sub(c.started)
		slots = append(slots, time.Duration(float64(elapsed)*(1-frac)/max(frac, 1e-3)))
	}
	for len(slots) < r.cfg.MaxComputing {
		slots = append(slots, 0)
	}
	others := max(q.Pos-1-pos, 0) // work ahead that is not this registry's runs
	for k := range pos + others {
		name := ""
		if k < pos {
			name = r.queue[k].cfg.Scenario
		}
		d, ok := r.meanLocked(name)
		if !ok {
			return q
		}
		i := slices.Index(slots, slices.Min(slots))
		slots[i] += d
	}
	q.ETA = slices.Min(slots)
	if q.ETA == 0 {
		q.ETA = time.Millisecond // about to start: shown as "about 1 s"
	}
	return q
}

// meanLocked is the mean measured time of a scenario's runs, or of all runs when it has none.
func (r *Runs) meanLocked(scenario string) (time.Duration, bool) {
	if m, ok := r.took[scenario]; ok {
		return m.mean(), true
	}
	var all meanDuration
	for _, m := range r.took {
		all.sum += m.sum
		all.n += m.n
	}
	return all.mean(), all.n > 0
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
