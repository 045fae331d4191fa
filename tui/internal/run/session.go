package run

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// Session is one player's view of a run of a scenario: the run itself is computed by the Runs
// registry (shared with other sessions on the same scenario and seed), and the session builds its
// own matrix from the run's columns as they come. Only the UI goroutine touches the matrix.
type Session struct {
	Scenario *scenarios.Scenario
	Seed     uint64
	Matrix   *sim.Matrix
	Stream   sim.Stream
	Computed int // columns received
	Done     bool
	Err      error
	Progress sim.Event
	Queue    live.Queue // the run's place in the registry's queue until it starts

	runs   *live.Runs
	parent context.Context // the player's lifetime (an SSH session's, or the program's)
	ctx    context.Context // this session's: cancelled by Stop, or with parent
	cancel context.CancelFunc
	w      *live.Watch

	tuned map[*live.WhatIf]tuning // offline tuning of the run (nil key) and of the what-if shown

	// WhatIf is the what-if shown (nil: the scenario itself): the matrix and scenario that
	// evaluate, Shown and Batch use instead of the run's own.
	WhatIf      *live.WhatIf
	WhatIfErr   error // the last what-if's error, until the next one
	whatifSeq   int   // numbers what-ifs: only the newest one's message is taken
	whatifStop  context.CancelFunc
	WhatIfSince time.Time // when the computing what-if started; zero when none is
}

// ColumnMsg carries the columns computed since the session last asked, in order: usually one, all
// of them for a session joining a finished run, so a player catching up draws once, not once per
// column.
type ColumnMsg struct {
	Session *Session
	Events  []sim.Event
}

// DoneMsg says the engine stopped (err nil when it finished).
type DoneMsg struct {
	Session *Session
	Err     error
}

// QueuedMsg says where the session's run waits (Pos 0: it has started).
type QueuedMsg struct {
	Session *Session
	Queue   live.Queue
}

// WhatIfMsg carries a what-if's outcome back to the UI goroutine: one message per what-if.
type WhatIfMsg struct {
	s   *Session
	seq int
	w   *live.WhatIf
	err error
}

// Err is the what-if's error (nil when it came).
func (m WhatIfMsg) Err() error { return m.err }

// New prepares a run of s with seed in the registry runs, for the lifetime ctx (an SSH
// session's); Start launches it. A nil runs is a registry of the session's own, one run computing
// at a time; a nil ctx, the program's.
func New(s *scenarios.Scenario, seed uint64, runs *live.Runs, ctx context.Context) (*Session, error) {
	st, err := s.Stream(seed)
	if err != nil {
		return nil, err
	}
	m := sim.NewMatrix(s.Batches, s.Offline)
	// The seed a detector that samples (KSWIN) draws from and the drifts the detectors are scored
	// against, as the engine's matrix has them: the replays read them while the columns come.
	m.Seed, m.Drifts = seed, st.Drifts()
	return &Session{Scenario: s, Seed: seed, Stream: st, Matrix: m, runs: runs, parent: ctx}, nil
}

// Start watches the session's run (starting or queueing it in the registry) and returns the command
// that delivers its first message; each message's handler asks for the next. The session leaves
// the run on Stop or when its parent context ends, whichever comes first.
func (s *Session) Start() tea.Cmd {
	if s.runs == nil {
		s.runs = live.NewRuns(live.RunsConfig{MaxComputing: 1})
	}
	if s.parent == nil {
		s.parent = context.Background()
	}
	s.ctx, s.cancel = context.WithCancel(s.parent)
	s.w = s.runs.Watch(s.Scenario, s.Stream, s.Seed)
	context.AfterFunc(s.ctx, s.w.Leave)
	return s.next()
}

func (s *Session) next() tea.Cmd {
	w, ctx, i, shown := s.w, s.ctx, s.Computed, s.Queue
	return func() tea.Msg {
		u := w.Next(ctx, i, shown)
		switch {
		case u.OK:
			return ColumnMsg{s, u.Events}
		case u.Queued:
			return QueuedMsg{s, u.Queue}
		}
		return DoneMsg{s, u.Err}
	}
}

// Apply stores columns and returns the command for the next ones.
func (s *Session) Apply(msg ColumnMsg) tea.Cmd {
	for _, ev := range msg.Events {
		for tp, c := range ev.Cells {
			if c.Done {
				s.Matrix.Set(tp, ev.Index, c)
			}
		}
		s.Computed = ev.Index + 1
		s.Progress = ev
	}
	s.Queue = live.Queue{}
	if s.Matrix.Gamma == 0 {
		s.Matrix.Scenario = s.Scenario.Name
	}
	return s.next()
}

// Finish records the run's end (err nil when it is complete); a complete run's matrix is the
// registry's, shared with every session watching it, instead of this session's copy.
func (s *Session) Finish(err error) {
	s.Done, s.Err = true, err
	if err != nil || s.w == nil {
		return
	}
	if m := s.w.Matrix(); m != nil && s.Computed == m.Batches() {
		s.Matrix = m
	}
}

// Queued records the run's place in the queue and asks for what comes next; a message for another
// (restarted) session is dropped.
func (s *Session) Queued(msg QueuedMsg) tea.Cmd {
	if msg.Session != s {
		return nil
	}
	s.Queue = msg.Queue
	return s.next()
}

// Status is the status line's account of the computation: its place in the queue, the columns
// computed so far, or that all are.
func (s *Session) Status() string {
	switch {
	case s.Queue.Pos > 0 && s.Computed == 0:
		return s.Queue.String()
	case s.Done && s.Err == nil:
		return "computed all"
	}
	return fmt.Sprintf("computed %d/%d", s.Computed, s.Matrix.Batches())
}

// Watch is the session's subscription to its run (nil before Start).
func (s *Session) Watch() *live.Watch { return s.w }

// Stop leaves the run (cancelling it when no other session watches it). Safe to call more than
// once, and before Start.
func (s *Session) Stop() {
	if s.cancel != nil {
		s.cancel()
		s.w.Leave() // now, not when the context's callback gets to run
	}
}

// StartWhatIf computes the what-if of sets (--set overrides of queries, kernel, errors or retrain_cost,
// scenarios.Scenario.WhatIf) off the UI goroutine, on the finished run's kept errors and models;
// the command's one message brings it back, and TakeWhatIf shows it. A newer what-if supersedes
// an older one: the older is cancelled and its message, should it still come, is dropped. The
// player's what-if bar, a tour's stop and a presenter call it alike.
func (s *Session) StartWhatIf(sets []string) tea.Cmd {
	sets = slices.Clone(sets)
	return s.StartWhatIfOf(func(float64) []string { return sets })
}

// StartWhatIfOf is StartWhatIf with overrides made from the run's own gamma (the what-if bar's
// "gamma x2" is twice it), which is known only once the run's Base is.
func (s *Session) StartWhatIfOf(build func(gamma float64) []string) tea.Cmd {
	s.stopWhatIf()
	if s.w == nil {
		return nil
	}
	s.whatifSeq++
	seq, w := s.whatifSeq, s.w
	ctx, cancel := context.WithCancel(s.ctx)
	s.whatifStop, s.WhatIfSince = cancel, time.Now()
	return func() tea.Msg {
		defer cancel()
		base, err := w.Base()
		if err != nil {
			return WhatIfMsg{s: s, seq: seq, err: err}
		}
		g, err := base.Gamma(ctx)
		if err != nil {
			return WhatIfMsg{s: s, seq: seq, err: err}
		}
		res, err := w.WhatIf(ctx, build(g))
		return WhatIfMsg{s: s, seq: seq, w: res, err: err}
	}
}

// WarmWhatIf prepares the run for what-ifs in the background (its batches generated, its models
// compiled for asking), so that the first what-if is as quick as the next: the what-if bar calls
// it when it opens. It reports nothing; a run not finished is left alone.
func (s *Session) WarmWhatIf() tea.Cmd {
	if s.w == nil || !s.Done || s.Err != nil {
		return nil
	}
	w, ctx := s.w, s.ctx
	return func() tea.Msg {
		if b, err := w.Base(); err == nil {
			_ = b.Warm(ctx)
		}
		return nil
	}
}

// TakeWhatIf shows a what-if's outcome; it reports false for a message that is not the newest
// what-if's (superseded, or for another session), which changes nothing.
func (s *Session) TakeWhatIf(msg WhatIfMsg) bool {
	if msg.s != s || msg.seq != s.whatifSeq || s.WhatIfSince.IsZero() {
		return false
	}
	s.whatifStop, s.WhatIfSince = nil, time.Time{}
	if msg.err != nil {
		if !errors.Is(msg.err, context.Canceled) {
			s.WhatIfErr = msg.err
		}
		return true
	}
	s.WhatIf, s.WhatIfErr = msg.w, nil
	if len(msg.w.Sets) == 0 {
		s.WhatIf = nil // the scenario itself
	}
	return true
}

// ClearWhatIf returns to the scenario at once, cancelling a what-if still computing.
func (s *Session) ClearWhatIf() {
	s.stopWhatIf()
	s.WhatIf, s.WhatIfErr = nil, nil
}

func (s *Session) stopWhatIf() {
	if s.whatifStop != nil {
		s.whatifStop()
	}
	s.whatifStop, s.WhatIfSince = nil, time.Time{}
}

// Shown is the matrix and scenario the panes show: the what-if's, or the run's own.
func (s *Session) Shown() (*sim.Matrix, *scenarios.Scenario) { return s.ViewOf(s.WhatIf) }

// Batch is batch t as the panes show it: under a what-if on the queries, with its queries.
func (s *Session) Batch(t int) (*sim.Batch, error) {
	if s.WhatIf != nil && s.WhatIf.Batches != nil {
		return s.WhatIf.Batches[t], nil
	}
	return s.Stream.Batch(t)
}

// Replay is what the panes show at one position and retraining cost.
type Replay struct {
	Pos     int
	Scale   float64
	Results []algos.Result     // online results up to pos (nil before the online block)
	Tuned   map[string]float64 // tuned parameters, once the offline block is complete
	// Provisional: the matrix is still being computed, so the row named oracle in results is the
	// optimum over the batches seen so far, which the panes call "best so far", never the Oracle.
	// Once the matrix is in, it is the paper's Oracle over the whole online block, cut at pos.
	Provisional bool
}

// Evaluate replays every algorithm up to pos at the scaled retraining cost, on what the panes
// show (the what-if, or the run itself).
func (s *Session) Evaluate(pos int, scale float64, names []algos.Name) (Replay, error) {
	return s.EvaluateOf(s.WhatIf, pos, scale, names)
}

// ViewOf is a what-if's matrix and scenario, or the run's own for nil.
func (s *Session) ViewOf(w *live.WhatIf) (*sim.Matrix, *scenarios.Scenario) {
	if w != nil {
		return w.Matrix, w.Scenario
	}
	return s.Matrix, s.Scenario
}

// tuning is the offline tuning of one view at one scale of R.
type tuning struct {
	scale  float64
	params map[string]float64
}

// EvaluateOf replays every algorithm up to pos at the scaled retraining cost on the what-if w, or
// on the run itself for nil (the split view shows both).
func (s *Session) EvaluateOf(w *live.WhatIf, pos int, scale float64, names []algos.Name) (Replay, error) {
	rp := Replay{Pos: pos, Scale: scale}
	r := s.RetrainCostOf(w, scale)
	m, sc := s.ViewOf(w)
	off := sc.Offline
	if pos >= off-1 && s.Computed >= off {
		// Tuning reads only the offline block and R, so it is done once per R and view.
		tu, ok := s.tuned[w]
		if !ok || tu.scale != scale {
			c := algos.Costs{M: m, R: r}
			t := algos.TuneThreshold(c, 0, off-1, false)
			ct := algos.TuneThreshold(c, 0, off-1, true)
			p, _ := algos.TunePeriodic(c, 0, off-1)
			tu = tuning{scale: scale, params: p.Params()}
			// The scenario's tie rule (tuning.tie), as the replay's CARA-T and CARA-CT use it.
			tu.params["theta"], tu.params["theta_c"] = t.Pick(sc.Evaluation.Tie), ct.Pick(sc.Evaluation.Tie)
			if s.tuned == nil {
				s.tuned = map[*live.WhatIf]tuning{}
			}
			for k := range s.tuned { // the run's own and the what-if shown: no older ones
				if k != nil && k != s.WhatIf {
					delete(s.tuned, k)
				}
			}
			s.tuned[w] = tu
		}
		rp.Tuned = tu.params
	}
	if pos >= off && s.Computed > pos {
		// The Oracle is always replayed: its path is drawn and the table compares against it.
		if !slices.Contains(names, "oracle") {
			names = append([]algos.Name{algos.NameOracle}, names...)
		}
		// The Oracle is the paper's: the DP over the whole online block, in hindsight. Once every
		// column is in (a what-if is made from a finished run), every algorithm is replayed to the
		// end once and cut at pos, so the Oracle's decision at pos and its cost so far include
		// retrains that only pay later. Until then only the optimum over 0..pos can be known.
		complete := w != nil || s.Computed == m.Batches()
		end := pos
		if complete {
			end = m.Batches() - 1
		}
		replay := func() ([]algos.Result, error) { return sc.Evaluation.Evaluate(m, r, names, end) }
		var res []algos.Result
		var err error
		if s.w != nil {
			// Every watcher of the run has the same cells up to end: one replay serves them all,
			// and one per what-if those under the same what-if.
			var whatif string
			if w != nil {
				whatif = strings.Join(w.Sets, "\n")
			}
			res, err = s.w.Replay(live.ReplayKey{Pos: end, Scale: scale, Names: fmt.Sprint(names), WhatIf: whatif}, replay)
		} else {
			res, err = replay()
		}
		if err != nil {
			return rp, fmt.Errorf("replay: %w", err)
		}
		rp.Results, rp.Provisional = res, !complete
		if complete && pos < end {
			rp.Results = resultsUpTo(m, sc.Evaluation, res, pos)
		}
	}
	return rp, nil
}

// resultsUpTo cuts results replayed over the whole online block at batch pos: each strategy as it
// stood at pos (every algorithm but the Oracle decides from the past alone, so this is its replay
// up to pos), its SCPE, gap and query accuracy against the Oracle's cost up to pos. The results
// are shared between watchers: they are copied, never changed.
func resultsUpTo(m *sim.Matrix, o algos.Options, res []algos.Result, pos int) []algos.Result {
	var oracle float64
	for _, r := range res {
		if r.Algorithm == algos.NameOracle {
			oracle = r.Strategy.UpTo(pos).Cost()
		}
	}
	out := make([]algos.Result, len(res))
	for i, r := range res {
		s := r.Strategy.UpTo(pos)
		c := algos.Against(m, r.Algorithm, s, oracle)
		c.Params, c.OfflineCost, c.OfflineRetrains, c.Optimal = r.Params, r.OfflineCost, r.OfflineRetrains, r.Optimal
		// A detector's alarms so far, scored against the drifts up to pos (a drift after pos is
		// not missed yet: the replay has not got there).
		c.Detection = o.Score(m, s)
		out[i] = c
	}
	return out
}

// WholeBlock is every algorithm of the scenario over the whole online block at the scaled R, on
// what the panes show (the Oracle the paper's, in hindsight); nil until the matrix is in.
func (s *Session) WholeBlock(scale float64) []algos.Result {
	m, _ := s.Shown()
	rp, err := s.Evaluate(m.Batches()-1, scale, s.Scenario.Algorithms)
	if err != nil || rp.Provisional {
		return nil
	}
	return rp.Results
}

func (s *Session) RetrainCost(scale float64) algos.RetrainCost {
	return s.RetrainCostOf(s.WhatIf, scale)
}

func (s *Session) RetrainCostOf(w *live.WhatIf, scale float64) algos.RetrainCost {
	_, sc := s.ViewOf(w)
	base := sc.RetrainCost
	return func(t int) float64 { return scale * base(t) }
}
