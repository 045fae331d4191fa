package tui

import (
	"context"
	"fmt"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/algos"
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
	Queue    Queue // the run's place in the registry's queue until it starts

	runs   *Runs
	parent context.Context // the player's lifetime (an SSH session's, or the program's)
	ctx    context.Context // this session's: cancelled by Stop, or with parent
	cancel context.CancelFunc
	w      *watch

	tuned      map[string]float64 // offline tuning at tunedScale (nil until the offline block is in)
	tunedScale float64
}

// columnMsg carries the columns computed since the session last asked, in order: usually one, all
// of them for a session joining a finished run, so a player catching up draws once, not once per
// column.
type columnMsg struct {
	s   *Session
	evs []sim.Event
}

// engineDoneMsg says the engine stopped (err nil when it finished).
type engineDoneMsg struct {
	s   *Session
	err error
}

// queuedMsg says where the session's run waits (Pos 0: it has started).
type queuedMsg struct {
	s *Session
	q Queue
}

// NewSession prepares a run of s with seed; Start launches it.
func NewSession(s *scenarios.Scenario, seed uint64) (*Session, error) {
	st, err := s.Stream(seed)
	if err != nil {
		return nil, err
	}
	return &Session{Scenario: s, Seed: seed, Stream: st, Matrix: sim.NewMatrix(s.Batches, s.Offline)}, nil
}

// withDefaults fills what a player needs and was not given: a registry of its own (one run
// computing at a time: a local player's r replaces its run rather than adding one) and a lifetime.
func (o Options) withDefaults() Options {
	if o.Runs == nil {
		o.Runs = NewRuns(RunsConfig{MaxComputing: 1, Cache: 2, Workers: o.Workers})
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	return o
}

// newSession prepares the player's run with seed, in its registry and lifetime.
func (o Options) newSession(seed uint64) (*Session, error) {
	s, err := NewSession(o.Scenario, seed)
	if err != nil {
		return nil, err
	}
	s.runs, s.parent = o.Runs, o.Context
	return s, nil
}

// Start watches the session's run (starting or queueing it in the registry) and returns the command
// that delivers its first message; each message's handler asks for the next. The session leaves
// the run on Stop or when its parent context ends, whichever comes first.
func (s *Session) Start() tea.Cmd {
	if s.runs == nil {
		s.runs = NewRuns(RunsConfig{MaxComputing: 1})
	}
	if s.parent == nil {
		s.parent = context.Background()
	}
	s.ctx, s.cancel = context.WithCancel(s.parent)
	s.w = s.runs.watch(s.Scenario, s.Stream, s.Seed)
	context.AfterFunc(s.ctx, s.w.leave)
	return s.next()
}

func (s *Session) next() tea.Cmd {
	w, ctx, i, shown := s.w, s.ctx, s.Computed, s.Queue
	return func() tea.Msg {
		u := w.next(ctx, i, shown)
		switch {
		case u.ok:
			return columnMsg{s, u.evs}
		case u.queued:
			return queuedMsg{s, u.q}
		}
		return engineDoneMsg{s, u.err}
	}
}

// apply stores columns and returns the command for the next ones.
func (s *Session) apply(msg columnMsg) tea.Cmd {
	for _, ev := range msg.evs {
		for tp, c := range ev.Cells {
			if c.Done {
				s.Matrix.Set(tp, ev.Index, c)
			}
		}
		s.Computed = ev.Index + 1
		s.Progress = ev
	}
	s.Queue = Queue{}
	if s.Matrix.Gamma == 0 {
		s.Matrix.Scenario = s.Scenario.Name
	}
	return s.next()
}

// queued records the run's place in the queue and asks for what comes next; a message for another
// (restarted) session is dropped.
func (s *Session) queued(msg queuedMsg) tea.Cmd {
	if msg.s != s {
		return nil
	}
	s.Queue = msg.q
	return s.next()
}

// progress is the status line's account of the computation: its place in the queue, the columns
// computed so far, or that all are.
func (s *Session) progress() string {
	switch {
	case s.Queue.Pos > 0 && s.Computed == 0:
		return s.Queue.String()
	case s.Done && s.Err == nil:
		return "computed all"
	}
	return fmt.Sprintf("computed %d/%d", s.Computed, s.Matrix.Batches())
}

// Stop leaves the run (cancelling it when no other session watches it). Safe to call more than
// once, and before Start.
func (s *Session) Stop() {
	if s.cancel != nil {
		s.cancel()
		s.w.leave() // now, not when the context's callback gets to run
	}
}

// replay is what the panes show at one position and retraining cost.
type replay struct {
	pos     int
	scale   float64
	results []algos.Result     // online results up to pos (nil before the online block)
	tuned   map[string]float64 // tuned parameters, once the offline block is complete
}

// evaluate replays every algorithm up to pos at the scaled retraining cost.
func (s *Session) evaluate(pos int, scale float64, names []algos.Name) (replay, error) {
	rp := replay{pos: pos, scale: scale}
	r := s.retrainCost(scale)
	off := s.Scenario.Offline
	if pos >= off-1 && s.Computed >= off {
		// Tuning reads only the offline block and R, so it is done once per R.
		if s.tuned == nil || s.tunedScale != scale {
			c := algos.Costs{M: s.Matrix, R: r}
			t := algos.TuneThreshold(c, 0, off-1, false)
			ct := algos.TuneThreshold(c, 0, off-1, true)
			p, _ := algos.TunePeriodic(c, 0, off-1)
			s.tuned = p.Params()
			s.tuned["theta"], s.tuned["theta_c"] = t.Value, ct.Value
			s.tunedScale = scale
		}
		rp.tuned = s.tuned
	}
	if pos >= off && s.Computed > pos {
		// The Oracle is always replayed: its path is drawn and the table compares against it.
		if !slices.Contains(names, "oracle") {
			names = append([]algos.Name{algos.NameOracle}, names...)
		}
		replay := func() ([]algos.Result, error) { return s.Scenario.Evaluation.Evaluate(s.Matrix, r, names, pos) }
		var res []algos.Result
		var err error
		if s.w != nil {
			// Every watcher of the run has the same cells up to pos: one replay serves them all.
			res, err = s.w.run.replays.get(replayKey{pos, scale, fmt.Sprint(names)}, replay)
		} else {
			res, err = replay()
		}
		if err != nil {
			return rp, fmt.Errorf("replay: %w", err)
		}
		rp.results = res
	}
	return rp, nil
}

func (s *Session) retrainCost(scale float64) algos.RetrainCost {
	base := s.Scenario.RetrainCost
	return func(t int) float64 { return scale * base(t) }
}
