package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/ssh"

	"github.com/cara-sim/cara/internal/budget"
	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// Exec runs a client's headless command (`ssh HOST run covcon-d -R 30`) and returns its exit
// status. The command tree is the binary's own (cmd/cara gives it): the server only admits the
// client, queues the work and hands over its channel and its own limits.
type Exec func(ctx context.Context, req ExecRequest) int

// ExecRequest is one client's command and what the server allows it.
type ExecRequest struct {
	Args           []string
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Offered        *scenarios.Catalog // the scenarios a client may name
	FilesDir       string             // the folder whose CSV files a client's scenario may read
	MaxWork        float64            // --max-work of serve
	Workers        int                // engine workers for one command
	// Check refuses a scenario before the command computes anything: over --max-work, or a run that
	// could never fit the room's memory (saying how many trees would).
	Check func(*scenarios.Scenario) error
	// Admit waits for the room's memory and a compute slot for one matrix of s with seed, saying on
	// Stderr where the command waits while it does, and returns the release. A command asks once a
	// matrix, so a command of many seeds lets the room's players in between; its matrices go behind
	// the players' runs. It gives up after the server's queue time limit.
	Admit func(ctx context.Context, s *scenarios.Scenario, seed uint64) (release func(), err error)
	// Yield is called between a matrix's columns: when a player's run waits for the compute slot
	// the command holds, the command gives it up and Yield returns once the slot is back (the
	// command's memory stays held meanwhile). Commands are the room's background work.
	Yield func(ctx context.Context) error
}

// Defaults of the command limits (Config's zero values).
const (
	defaultMaxCommands    = 16
	defaultCommandsClient = 3
	defaultCommandQueue   = 2 * time.Minute
	defaultCommandTimeout = 5 * time.Minute
	// writeStall is how long one write to a client may block (a client that stopped reading holds
	// its command, and whatever the command holds, no longer than this, nor past its time limit).
	writeStall = 30 * time.Second
)

func commandDefaults(cfg *Config) {
	if cfg.MaxCommands <= 0 {
		cfg.MaxCommands = defaultMaxCommands
	}
	if cfg.MaxCommandsPerClient <= 0 {
		cfg.MaxCommandsPerClient = defaultCommandsClient
	}
	if cfg.CommandQueue <= 0 {
		cfg.CommandQueue = defaultCommandQueue
	}
	if cfg.CommandTimeout <= 0 {
		cfg.CommandTimeout = defaultCommandTimeout
	}
	if cfg.MaxCommandWork == 0 {
		cfg.MaxCommandWork = defaultCommandWork
	}
}

// commands counts the commands running and queued, in all and per client. A command does not take
// one of the room's session places: the players' sessions and the commands are bounded apart.
type commands struct {
	mu       sync.Mutex
	max, per int
	n        int
	by       map[string]int
	queued   atomic.Int64 // of n, waiting for memory and a slot
	// computing is the commands' matrices holding a compute slot now (not while they yield it).
	computing atomic.Int64
}

func newCommands(max, per int) *commands { return &commands{max: max, per: per, by: map[string]int{}} }

// take counts a command of who's; it fails with the refusal's reason and words over a limit.
func (c *commands) take(who string) (release func(), reason, words string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.by[who] >= c.per:
		return nil, "commands_per_client", fmt.Sprintf("you have %d commands running or queued, the most one client may; try again when one ends", c.per)
	case c.n >= c.max:
		return nil, "commands_full", fmt.Sprintf("this room runs or queues at most %d commands at once and has that many; try again in a moment", c.max)
	}
	c.n++
	c.by[who]++
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.n--
			if c.by[who]--; c.by[who] <= 0 {
				delete(c.by, who)
			}
		})
	}, "", ""
}

// counts are the commands running and queued now.
func (c *commands) counts() (running, queued int) {
	c.mu.Lock()
	n := c.n
	c.mu.Unlock()
	q := int(c.queued.Load())
	return n - q, q
}

// exec runs a session's command: counted against the command limits (not the room's sessions),
// each of its matrices admitted against the room's memory and slots, stopped after CommandTimeout;
// its context ends with the connection too, and a client that stops reading is let go (stalled).
func (s *Server) exec(sess ssh.Session) {
	defer s.left() // the room may be empty once it ends
	who := owner(sess)
	release, reason, words := s.commands.take(who)
	if release == nil {
		s.metrics.workRefused.WithLabelValues(reason).Inc()
		fmt.Fprintf(sess.Stderr(), "cara: %s\n", words)
		sess.Exit(1)
		return
	}
	defer release()
	s.metrics.execs.Inc()
	ctx, cancel := context.WithTimeout(sess.Context(), s.cfg.CommandTimeout)
	defer cancel()
	w := newStall(sess, writeStall)
	defer w.done()
	// At the time limit a command stops; one blocked writing to a client that does not read is let
	// go by closing its channel, which ends the write.
	stop := context.AfterFunc(ctx, func() { time.AfterFunc(time.Second, w.cut) })
	defer stop()
	if sess.Command()[0] == "upload" {
		sess.Exit(s.upload(ctx, sess, w.out(sess), w.out(sess.Stderr())))
		return
	}
	s.cfg.Log.Info("command", "user", userForLog(sess.User()), "addr", sess.RemoteAddr().String(), "command", strings.Join(sess.Command(), " "))
	stderr := w.out(sess.Stderr())
	var held grants
	code := s.cfg.Exec(ctx, ExecRequest{Args: sess.Command(), Stdin: sess, Stdout: w.out(sess), Stderr: stderr,
		Offered: s.catalogFor(sess), FilesDir: s.cfg.ScenariosDir, MaxWork: s.cfg.MaxWork, Workers: s.cfg.Workers,
		Check: s.check, Admit: func(ctx context.Context, sc *scenarios.Scenario, seed uint64) (func(), error) {
			return s.admitCommand(ctx, sc, seed, stderr, &held)
		}, Yield: func(ctx context.Context) error { return held.yield(ctx, &s.commands.computing) }})
	if w.stalled.Load() {
		s.metrics.workRefused.WithLabelValues("stalled").Inc()
		s.cfg.Log.Info("command stopped: its client stopped reading", "user", userForLog(sess.User()), "addr", sess.RemoteAddr().String())
	}
	sess.Exit(code)
}

// grants are the budget tickets one command's matrices hold (one at a time, as a command computes
// them), for Yield.
type grants struct {
	mu sync.Mutex
	ts []*budget.Ticket
}

func (g *grants) add(t *budget.Ticket) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ts = append(g.ts, t)
}

func (g *grants) remove(t *budget.Ticket) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ts = slices.DeleteFunc(g.ts, func(o *budget.Ticket) bool { return o == t })
}

// yield gives each held slot to a player's run waiting for one, and waits for it back; computing
// does not count the command while it waits.
func (g *grants) yield(ctx context.Context, computing *atomic.Int64) error {
	g.mu.Lock()
	ts := slices.Clone(g.ts)
	g.mu.Unlock()
	for _, t := range ts {
		if !t.WouldYield() {
			continue
		}
		computing.Add(-1)
		err := t.Yield(ctx)
		computing.Add(1) // counted again: its release counts it out
		if err != nil {
			return err
		}
	}
	return nil
}

// admitCommand waits for one matrix of a command: the room's memory for its estimate and a compute
// slot, behind the players' runs, at most CommandQueue; the place is said on stderr as it changes.
// A matrix whose computing is over the command bound (commandWork) is refused at once.
func (s *Server) admitCommand(ctx context.Context, sc *scenarios.Scenario, seed uint64, stderr io.Writer, held *grants) (func(), error) {
	if err := s.checkCommandWork(sc); err != nil {
		s.metrics.workRefused.WithLabelValues("command_work").Inc()
		return nil, err
	}
	f, err := s.runs.Footprint(sc, seed)
	var tb *live.TooBig
	if errors.As(err, &tb) {
		s.metrics.workRefused.WithLabelValues("memory").Inc()
	}
	if err != nil {
		return nil, err
	}
	s.commands.queued.Add(1)
	defer s.commands.queued.Add(-1)
	qctx, cancel := context.WithTimeout(ctx, s.cfg.CommandQueue)
	defer cancel()
	var last time.Time
	t, err := s.budget.Acquire(qctx, budget.Request{Bytes: f.Peak, Slot: true, Background: true}, func(p budget.Place) {
		if time.Since(last) >= time.Second { // a long queue moves often: a line a second at most
			fmt.Fprintf(stderr, "cara: %s; yours starts when it fits\n", live.Queue{Pos: p.Pos, Memory: p.Memory})
			last = time.Now()
		}
	})
	if err != nil && ctx.Err() == nil && qctx.Err() != nil {
		s.metrics.workRefused.WithLabelValues("queue_timeout").Inc()
		return nil, fmt.Errorf("waited %v for the room's memory and a compute slot, this server's limit; try again later", s.cfg.CommandQueue)
	}
	if err != nil {
		return nil, err
	}
	s.commands.computing.Add(1)
	held.add(t)
	var once sync.Once
	return func() {
		once.Do(func() {
			held.remove(t)
			t.Release()
			s.commands.computing.Add(-1)
		})
	}, nil
}

// stall watches a command's writes to its client: one that blocks longer than its limit (the
// client stopped reading: ssh HOST sweep ... | sleep 600) closes the command's channel, which ends
// the write with an error and so the command, and frees what it held.
type stall struct {
	sess    ssh.Session
	limit   time.Duration
	stalled atomic.Bool
	closed  atomic.Bool
}

func newStall(sess ssh.Session, limit time.Duration) *stall { return &stall{sess: sess, limit: limit} }

// out wraps one of the command's outputs.
func (s *stall) out(w io.Writer) io.Writer { return stallWriter{w, s} }

// cut closes the channel (once), counting the command as stalled when it was still writing.
func (s *stall) cut() {
	if s.closed.CompareAndSwap(false, true) {
		s.stalled.Store(true)
		s.sess.Close()
	}
}

// done marks the command ended: a later cut changes nothing.
func (s *stall) done() { s.closed.Store(true) }

type stallWriter struct {
	w io.Writer
	s *stall
}

func (w stallWriter) Write(p []byte) (int, error) {
	t := time.AfterFunc(w.s.limit, w.s.cut)
	defer t.Stop()
	return w.w.Write(p)
}

// defaultCommandWork is the computing one command's matrix may take (cells x points x queries x k;
// Config.MaxCommandWork): about a minute of one core. Measured here on one worker: covcon-d (5050
// cells x 1000 points x 100 queries, a forest: 5.05e8) in about 1.4 s, and a k=1000 kNN over 100
// batches of 1000 points and 200 queries (1.01e12) at about 5e8 a second, so 2e10 is 40 to 60 s.
// --max-work bounds batches x points x queries, which a k=1000 kNN at the limit passes while it
// computes for twenty minutes.
const defaultCommandWork = 2e10

// CommandWork is the computing a matrix of sc takes, in the units of --max-command-work: its cells
// (batches x (batches+1) / 2) x points x queries x k (a kNN's k; 1 for other models), and the
// parts of it.
type CommandWork struct {
	Batches, Cells, Points, Queries, K int
	Work                               float64
}

func commandWork(sc *scenarios.Scenario) (CommandWork, error) {
	b, p, q, err := sc.Work()
	if err != nil {
		return CommandWork{}, err
	}
	w := CommandWork{Batches: b, Cells: b * (b + 1) / 2, Points: p, Queries: q, K: 1}
	if knn, ok := sc.Model.(sim.KNN); ok {
		w.K = max(knn.K, 1)
	}
	w.Work = float64(w.Cells) * float64(p) * float64(q) * float64(w.K)
	return w, nil
}

// checkCommandWork refuses a command's matrix over the room's bound of computing, saying what
// would fit: a smaller k, fewer batches.
func (s *Server) checkCommandWork(sc *scenarios.Scenario) error {
	limit := s.cfg.MaxCommandWork
	if limit <= 0 {
		return nil
	}
	w, err := commandWork(sc)
	if err != nil || w.Work <= limit {
		return err
	}
	per := float64(w.Points) * float64(w.Queries) * float64(w.K) // one cell
	var fit []string
	if w.K > 1 {
		if k := int(limit / (float64(w.Cells) * float64(w.Points) * float64(w.Queries))); k >= 1 {
			fit = append(fit, fmt.Sprintf("model.knn.k <= %d", k))
		}
	}
	// b(b+1)/2 <= limit/per
	if b := int((math.Sqrt(1+8*limit/per) - 1) / 2); b >= 2 && b < w.Batches {
		fit = append(fit, fmt.Sprintf("batches <= %d", b))
	}
	advice := "fewer batches, points or queries would fit"
	if len(fit) > 0 {
		advice = strings.Join(fit, " or ") + " would fit"
	}
	return fmt.Errorf("%s is more computing than a command may take in this room: %d cells x %d points x %d queries x k %d = %.3g, over the room's %.3g (about a minute of one core; cara serve --max-command-work); %s, or run it on your own machine",
		sc.Name, w.Cells, w.Points, w.Queries, w.K, w.Work, limit, advice)
}
