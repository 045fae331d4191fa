// Package live owns the runs players watch: the registry that starts, shares, queues, bounds and
// ends engine runs (Runs), a watcher's subscription to one (Watch), and what-ifs over a finished run
// (Base, WhatIf) with the caches a run's watchers share. It has no terminal in it: the player (tui)
// turns a subscription into messages, and it is tested and benchmarked without a screen.
package live

import (
	"context"
	"errors"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"time"

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
