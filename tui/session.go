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

// Session is one run of a scenario: the engine computing in its own goroutine, and the matrix the
// UI builds from the engine's column events. Only the UI goroutine touches the matrix.
type Session struct {
	Scenario *scenarios.Scenario
	Seed     uint64
	Matrix   *sim.Matrix
	Stream   sim.Stream
	Computed int // columns received
	Done     bool
	Err      error
	Progress sim.Event

	events chan sim.Event
	errc   chan error
	cancel context.CancelFunc
	runs   *Runs // shared computations, or nil for a run of its own

	tuned      map[string]float64 // offline tuning at tunedScale (nil until the offline block is in)
	tunedScale float64
}

// columnMsg carries one computed column from the engine.
type columnMsg struct {
	s  *Session
	ev sim.Event
}

// engineDoneMsg says the engine stopped (err nil when it finished).
type engineDoneMsg struct {
	s   *Session
	err error
}

// NewSession prepares a run; Start launches it.
func NewSession(s *scenarios.Scenario, seed uint64) (*Session, error) {
	st, err := s.Stream(seed)
	if err != nil {
		return nil, err
	}
	return &Session{Scenario: s, Seed: seed, Stream: st, Matrix: sim.NewMatrix(s.Batches, s.Offline)}, nil
}

// Start runs the engine in the background with the given workers and returns the command that
// delivers its first event. Each event's handler asks for the next, one message per column.
func (s *Session) Start(workers int) tea.Cmd {
	if s.runs != nil {
		return s.startShared()
	}
	cfg, err := s.Scenario.Config(s.Seed)
	if err != nil {
		return func() tea.Msg { return engineDoneMsg{s, err} }
	}
	cfg.Stream, cfg.Workers = s.Stream, workers
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.events = make(chan sim.Event, 4)
	s.errc = make(chan error, 1)
	go func() {
		m, err := sim.Run(ctx, cfg, s.events)
		if m != nil && err == nil {
			s.errc <- nil
		} else {
			s.errc <- err
		}
		close(s.events)
	}()
	return s.next()
}

// startShared replays a shared run's columns into this session.
func (s *Session) startShared() tea.Cmd {
	run := s.runs.open(s.Scenario, s.Stream, s.Seed)
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.events = make(chan sim.Event, 4)
	s.errc = make(chan error, 1)
	go func() {
		defer close(s.events)
		for i := 0; ; i++ {
			ev, ok, err := run.next(ctx, i)
			if !ok {
				s.errc <- err
				return
			}
			select {
			case s.events <- ev:
			case <-ctx.Done():
				s.errc <- ctx.Err()
				return
			}
		}
	}()
	return s.next()
}

func (s *Session) next() tea.Cmd {
	events, errc := s.events, s.errc
	return func() tea.Msg {
		ev, ok := <-events
		if !ok {
			return engineDoneMsg{s, <-errc}
		}
		return columnMsg{s, ev}
	}
}

// apply stores a column and returns the command for the next one.
func (s *Session) apply(ev sim.Event) tea.Cmd {
	for tp, c := range ev.Cells {
		if c.Done {
			s.Matrix.Set(tp, ev.Index, c)
		}
	}
	s.Computed = ev.Index + 1
	s.Progress = ev
	if s.Matrix.Gamma == 0 {
		s.Matrix.Scenario = s.Scenario.Name
	}
	return s.next()
}

// Stop cancels the engine.
func (s *Session) Stop() {
	if s.cancel != nil {
		s.cancel()
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
		res, err := s.Scenario.Evaluation.Evaluate(s.Matrix, r, names, pos)
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
