// Package server owns `cara serve`: the SSH server whose only program is cara's terminal UI, for a
// workshop. It admits sessions (authentication, limits, refusals), runs each one's picker and
// player through wish's bubbletea middleware, shares one run registry (live) and one workshop room
// (room) among them, reads the scenarios offered again on Reload, and publishes metrics for
// Prometheus. The command line only turns flags into a Config.
package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	charmlog "github.com/charmbracelet/log"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	bm "github.com/charmbracelet/wish/bubbletea"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/internal/budget"
	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/tui"
)

// Config is a server's configuration: `cara serve`'s flags.
type Config struct {
	Listen         string
	HostKey        string // ed25519, created with mode 0600 when missing
	AuthorizedKeys string // only these public keys may connect ("" for any)
	PasswordFile   string // the first line is the room's password ("" for none)
	PresenterKeys  string // sessions logging in with these keys present ("" for a room without one)
	ScenariosDir   string // also offer the *.yaml scenarios of this folder ("" for none)
	MaxSessions    int
	// Memory is the room's memory in bytes (--memory): the process's GOMEMLIMIT (the command sets
	// it) and the budget every piece of work a client can cause is admitted against (budget.go).
	// 0 means the smallest limit the process runs under (budget.Default); MemoryFrom says where
	// the value came from, for the log.
	Memory         int64
	MemoryFrom     string
	MaxComputing   int // matrices computed at once; 0 means DefaultMaxComputing
	CacheRuns      int // computed matrices kept after their last viewer leaves
	Workers        int // engine workers per run; 0 shares the cores but one among MaxComputing runs
	MaxWork        float64
	IdleTimeout    time.Duration
	PresenterGrace time.Duration // followers keep following this long for a presenter who reconnects
	Answers        string        // append every student's answer to this file, a JSON line each ("" for none; answers.go)
	// Per client: connections open from one address (0: no limit), sessions on one connection
	// (0: 3), how long a connection may take to open its first session (0: 20 s), and how often
	// a silent client is asked whether it is there (0: never; three unanswered close it).
	MaxPerAddress      int
	MaxSessionsPerConn int
	ConnectTimeout     time.Duration
	KeepAlive          time.Duration
	Open               bool // let anyone in on a non-loopback address, without keys or password
	Log                *slog.Logger
	// Exec, when set, runs `ssh HOST COMMAND ...` headless (exec.go): the client's command line,
	// its channel as standard input and output, the offered scenarios; it returns the exit status.
	// Without it a command is refused.
	Exec Exec
	// Commands: at most MaxCommands running or queued at once (0: 16), at most MaxCommandsPerClient
	// of them one client's (0: 3); each waits at most CommandQueue for its turn (0: 2 min) and runs
	// at most CommandTimeout (0: 5 min), a write to a client that stops reading included.
	MaxCommands          int
	MaxCommandsPerClient int
	CommandQueue         time.Duration
	CommandTimeout       time.Duration
	// MaxCommandWork bounds one command's matrix in computing: cells x points x queries x k
	// (CommandWork; 0: 2e10, about a minute of one core; < 0: no bound).
	MaxCommandWork float64
	// UploadBytes bounds the text of every upload kept (0: 16 MiB).
	UploadBytes int64
}

// hooks are a test's ways into a server; a served room has none.
type hooks struct {
	// onMsg is called inside each session's guarded Update with every message, so a test can make
	// one session panic there or in a command it returns.
	onMsg func(ssh.Session, tea.Msg) tea.Cmd
	// seedFor chooses the seed a session's first player opens with (the load test gives each
	// session its own).
	seedFor func(ssh.Session) (uint64, bool)
	// emptyDelay, when set, replaces emptyDelay (empty.go).
	emptyDelay time.Duration
}

// UsageError is a Config that cannot serve as given (a usage mistake, not a failure).
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

func usagef(format string, args ...any) error { return UsageError{fmt.Errorf(format, args...)} }

// Server is `cara serve`: the SSH server, the registry every session's runs go through, the
// scenarios offered, the room, and the metrics.
type Server struct {
	cfg      Config
	ssh      *ssh.Server
	runs     *live.Runs
	catalog  atomic.Pointer[scenarios.Catalog]
	sessions atomic.Int64 // admitted and not yet closed
	// room is the workshop's presenter and followers; presenters are the keys that present (nil
	// without PresenterKeys).
	room       *room.Room
	presenters atomic.Pointer[[]ssh.PublicKey]
	metrics    *metrics
	http       atomic.Pointer[http.Server]
	// metricsURL is where ServeMetrics listens (tests listen on port 0).
	metricsURL string
	guards     sync.Map // ssh.Session -> *guard: each running session's, for apologise
	logins     *loginBackoff
	addrs      addresses
	refusals   *refusals
	stopping   atomic.Bool // Shutdown has begun
	emptying   atomic.Bool // the empty room's timer runs (empty.go)
	// budget is the room's memory and compute slots: every run, command, upload and check is
	// admitted against it.
	budget   *budget.Budget
	commands *commands
	uploads  *uploads
	hooks    hooks
	answers  *answersFile // nil without Config.Answers
	// fingerprint is the host key's SHA256 fingerprint, for the log, the metrics and the handout.
	fingerprint string
}

// IsLoopback reports whether host:port listens on loopback only.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// New builds a server; it does not listen. A configuration that cannot serve is a UsageError.
func New(cfg Config) (*Server, error) {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	cfg.Log = boundLog(cfg.Log) // what clients send is cut before it is logged
	if cfg.MaxSessions < 1 {
		return nil, usagef("--max-sessions must be >= 1, got %d", cfg.MaxSessions)
	}
	if cfg.MaxComputing < 0 {
		return nil, usagef("--max-computing must be >= 1, got %d", cfg.MaxComputing)
	}
	auth := cfg.AuthorizedKeys != "" || cfg.PasswordFile != ""
	if !IsLoopback(cfg.Listen) && !auth && !cfg.Open {
		return nil, usagef("listening on %s (not loopback) needs --authorized-keys or --password-file, or --open to let anyone in", cfg.Listen)
	}
	if err := os.MkdirAll(filepath.Dir(cfg.HostKey), 0o700); err != nil {
		return nil, err
	}
	opts := []ssh.Option{wish.WithAddress(cfg.Listen), wish.WithHostKeyPath(cfg.HostKey), wish.WithIdleTimeout(cfg.IdleTimeout)}
	if cfg.MaxSessionsPerConn <= 0 {
		cfg.MaxSessionsPerConn = defaultSessionsPerConn
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = defaultConnectTimeout
	}
	s := &Server{cfg: cfg, room: room.New(), logins: newLoginBackoff(), addrs: addresses{by: map[string]*address{}}, refusals: newRefusals(cfg.Log)}
	s.room.Grace = cfg.PresenterGrace
	if cfg.Answers != "" {
		a, err := openAnswers(cfg.Answers, cfg.Log.Warn)
		if err != nil {
			return nil, err
		}
		s.answers, s.room.Record = a, a.record
		a.onChange = s.tellPresenters
	}
	if cfg.AuthorizedKeys != "" {
		if _, err := os.Stat(cfg.AuthorizedKeys); err != nil {
			return nil, fmt.Errorf("--authorized-keys: %w", err)
		}
	}
	s.metrics = newMetrics(s)
	authOpts, err := s.authOptions()
	if err != nil {
		return nil, err
	}
	opts = append(opts, authOpts...)
	if cfg.MaxComputing == 0 {
		cfg.MaxComputing = DefaultMaxComputing()
	}
	if cfg.Workers <= 0 {
		// Runs computing at once share the cores but one rather than each taking all of them: as
		// fast in total, and the room's keys never wait for a core behind the engine's workers.
		cfg.Workers = max(1, (runtime.GOMAXPROCS(0)-1)/cfg.MaxComputing)
	}
	if err := memoryDefaults(&cfg); err != nil {
		return nil, err
	}
	commandDefaults(&cfg)
	s.cfg = cfg
	s.budget = budget.New(budget.Config{Bytes: workBytes(cfg.Memory), Slots: cfg.MaxComputing})
	s.budget.Charge(tui.CanvasKeep) // the players' canvases kept between drawings, all sessions together
	s.commands = newCommands(cfg.MaxCommands, cfg.MaxCommandsPerClient)
	s.uploads = newUploads(s.budget, cfg.UploadBytes)
	s.runs = live.NewRuns(live.RunsConfig{Budget: s.budget, Cache: cfg.CacheRuns, Workers: cfg.Workers,
		OnPanic: func(v any, stack []byte) { s.panicked("engine", v, stack) }})
	s.catalog.Store(scenarios.NewServedCatalog(cfg.ScenariosDir)) // no scenario whose model is a command
	// Session channels are read by sessionChannel first (clamped, answered, coalesced). The first
	// middleware listed runs innermost: wish's bubbletea middleware runs the session's program and
	// hands it the window's changes (sized: clamped and coalesced), then apologise says why a
	// program ended in a bug.
	opts = append(opts, func(srv *ssh.Server) error {
		srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.sessionChannel}
		srv.ConnCallback = s.accept
		return nil
	}, wish.WithMiddleware(
		s.apologise,
		bm.MiddlewareWithProgramHandler(s.program, termenv.Ascii),
		sized,
		s.gate,
		s.recover,
		logSessions(cfg.Log),
	))
	// wish's bubbletea middleware logs through charmbracelet/log's default logger, and says "app
	// exit with error" for every session whose connection dropped (a normal end here); what the
	// server has to say goes to Config.Log.
	charmlog.SetOutput(io.Discard)
	srv, err := wish.NewServer(opts...)
	if err != nil {
		return nil, err
	}
	s.ssh = srv
	if s.fingerprint, err = HostKeyFingerprint(cfg.HostKey); err != nil {
		return nil, err
	}
	s.metrics.hostKey.WithLabelValues(s.fingerprint).Set(1)
	return s, nil
}

// Fingerprint is the host key's SHA256 fingerprint ("SHA256:...", as ssh-keygen -lf prints it).
func (s *Server) Fingerprint() string { return s.fingerprint }

// DefaultMaxComputing is the matrices computed at once unless told otherwise: one per core but
// one, which is kept for the sessions (a step, a what-if's replay) so that compute never starves
// the room; one on a single core.
func DefaultMaxComputing() int { return max(1, runtime.NumCPU()-1) }

// Config is the server's configuration, defaults filled in.
func (s *Server) Config() Config { return s.cfg }

// Runs is the registry every session's runs go through.
func (s *Server) Runs() *live.Runs { return s.runs }

// Serve accepts connections on ln until the server is shut down.
func (s *Server) Serve(ln net.Listener) error { return s.ssh.Serve(ln) }

// Shutdown stops accepting, ends every session's program (each student reads why, and their ssh
// exits with status 1), gives the connections until ctx ends to close, then closes them; every run
// is cancelled and the metrics stop.
func (s *Server) Shutdown(ctx context.Context) {
	s.stopping.Store(true)
	s.guards.Range(func(_, g any) bool {
		g.(*guard).quit()
		return true
	})
	if err := s.ssh.Shutdown(ctx); err != nil {
		s.ssh.Close()
	}
	s.runs.Close()
	if h := s.http.Load(); h != nil {
		h.Shutdown(ctx)
	}
	s.answers.close()
}

// Close closes every connection at once, cancels every run and stops the metrics.
func (s *Server) Close() {
	s.ssh.Close()
	s.runs.Close()
	if h := s.http.Load(); h != nil {
		h.Close()
	}
	s.answers.close()
}

// Reload reads the offered scenarios and the presenters' keys again (SIGHUP); open sessions keep
// what they opened. A scenario whose file is unchanged is the same scenario, and keeps its runs;
// the runs of one edited are let go (at once when nobody watches them).
func (s *Server) Reload() {
	c := s.catalog.Load().Reload()
	s.catalog.Store(c)
	before := s.runs.Len()
	s.runs.Retain(c.Offers)
	s.answers.reopen() // after logrotate moved it away
	s.cfg.Log.Info("scenarios read again", "entries", len(c.Entries()), "dir", s.cfg.ScenariosDir, "runs_kept", s.runs.Len(), "runs_dropped", before-s.runs.Len())
	if s.cfg.PresenterKeys != "" {
		keys, err := readKeys(s.cfg.PresenterKeys)
		if err == nil && len(keys) == 0 {
			err = fmt.Errorf("%s: no public key in it", s.cfg.PresenterKeys)
		}
		if err != nil {
			s.cfg.Log.Warn("presenter keys not read again: the old ones stay", "err", err)
			return
		}
		s.presenters.Store(&keys)
		s.cfg.Log.Info("presenter keys read again", "keys", len(keys))
	}
}

// tellPresenters has the presenters' screens say the answers file's state again.
func (s *Server) tellPresenters() {
	s.guards.Range(func(_, v any) bool {
		if g := v.(*guard); g.presenter && g.send != nil {
			g.send(noteChanged{})
		}
		return true
	})
}

// apology is what a session sees when a bug ends it.
const apology = "cara: sorry, this session hit a bug and had to close; the room goes on. Reconnect to start again."

// panicked logs a recovered panic with its stack and counts it.
func (s *Server) panicked(where string, v any, stack []byte) {
	s.metrics.panics.Inc()
	s.cfg.Log.Error("panic recovered", "in", where, "panic", fmt.Sprint(v), "stack", string(stack))
}

// recover keeps a panic in one session from ending the server: logged with its stack, counted, and
// that session closed with an apology. (A panic in a session's player is caught nearer, by its
// guard; this is for everything else a session runs.)
func (s *Server) recover(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		defer func() {
			if v := recover(); v != nil {
				s.panicked("session", v, debug.Stack())
				wish.Fatalln(sess, apology)
			}
		}()
		next(sess)
	}
}

// gate lets in only interactive sessions, and no more than MaxSessions at once, each charged to
// the room's memory for as long as it is open; a command goes to exec, which has limits of its own.
func (s *Server) gate(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if len(sess.User()) > maxUserBytes { // an open room asks no login: its names are bounded here
			s.metrics.refused.WithLabelValues("long_name").Inc()
			wish.Fatalln(sess, fmt.Sprintf("cara: a user name is at most %d bytes; connect as a shorter one (ssh NAME@HOST)", maxUserBytes))
			return
		}
		if len(sess.Command()) > 0 && s.cfg.Exec != nil {
			s.exec(sess)
			return
		}
		if len(sess.Command()) > 0 {
			s.metrics.refused.WithLabelValues("exec").Inc()
			wish.Fatalln(sess, "cara serves its terminal UI only; connect without a command: ssh -p PORT HOST")
			return
		}
		if _, _, ok := sess.Pty(); !ok {
			s.metrics.refused.WithLabelValues("no_pty").Inc()
			wish.Fatalln(sess, "cara needs a terminal; connect with ssh -t -p PORT HOST (no PTY was requested)")
			return
		}
		if n := s.sessions.Add(1); n > int64(s.cfg.MaxSessions) {
			s.sessions.Add(-1)
			s.metrics.refused.WithLabelValues("room_full").Inc()
			wish.Fatalln(sess, fmt.Sprintf("The room is full (%d sessions); try again in a moment.", s.cfg.MaxSessions))
			return
		}
		defer s.left()
		defer s.sessions.Add(-1)
		defer s.budget.Charge(sessionBytes).Release()
		next(sess)
	}
}

// program builds a session's program: its picker and players, guarded, for as long as the SSH
// session lasts. Its context ends with the connection, with the client closing the session's
// input, or when the program quits, and every run the session watched is left with it; a room's
// member leaves with it too.
func (s *Server) program(sess ssh.Session) *tea.Program {
	ctx, cancel := context.WithCancel(sess.Context())
	st := tui.NewStyles(renderer(sess))
	cat := s.catalogFor(sess)
	open := &tui.Opener{Catalog: cat, Styles: st, Runs: s.runs, Context: ctx, Untrusted: true, FilesDir: s.cfg.ScenariosDir,
		Check: s.check, Reparse: func(from *scenarios.Scenario, text []byte) (*scenarios.Scenario, error) {
			t, err := s.quick(ctx, checkBytes) // the editor's check, within the room's memory
			if err != nil {
				return nil, err
			}
			defer t.Release()
			return from.Reparse(text)
		}}
	if s.hooks.seedFor != nil {
		open.Seed = func(sc *scenarios.Scenario) uint64 {
			if v, ok := s.hooks.seedFor(sess); ok {
				return v
			}
			return sc.Seed
		}
	}
	if s.cfg.PresenterKeys != "" {
		open.Member = s.room.JoinAs(s.isPresenter(sess), sess.User())
		context.AfterFunc(ctx, open.Member.Leave)
	}
	picker := tui.NewPicker(cat.Entries(), st, open.Entry)
	if open.Member != nil {
		picker.Join(open.Member, open.Stage)
	}
	g := &guard{inner: picker, onPanic: func(v any, stack []byte) { s.panicked("player", v, stack) }}
	var notes []func() string
	if w := windowOf(sess); w != nil {
		notes = append(notes, w.note)
	}
	if open.Member != nil && s.answers != nil && s.isPresenter(sess) {
		// The presenter reads, under the screen, when the room's answers are not being written.
		g.presenter = true
		notes = append(notes, func() string {
			if n := s.answers.state().note(s.cfg.Answers); n != "" {
				return st.Error.Render(n)
			}
			return ""
		})
	}
	if len(notes) > 0 {
		g.note = func() string {
			var out []string
			for _, n := range notes {
				if v := n(); v != "" {
					out = append(out, v)
				}
			}
			return strings.Join(out, "; ")
		}
	}
	if s.hooks.onMsg != nil {
		g.hook = func(msg tea.Msg) tea.Cmd { return s.hooks.onMsg(sess, msg) }
	}
	p := tea.NewProgram(g, tea.WithInput(newInput(ctx, sess, cancel)), tea.WithOutput(sess), tea.WithAltScreen(),
		tea.WithContext(ctx))
	g.quit = func() { go p.Quit() }
	g.send = p.Send
	g.done = cancel
	s.guards.Store(sess, g)
	if open.Member != nil {
		go tui.Relay(ctx, open.Member, p.Send)
	}
	return p
}

// goodbye is what every session reads when the server shuts down.
const goodbye = "cara: the server is shutting down; thank you for coming."

// apologise runs after a session's program has ended (the program middleware calls it): it ends
// the program's context, and tells the client when a bug or the server's shutdown ended the
// program (its ssh then exits with status 1).
func (s *Server) apologise(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if v, ok := s.guards.LoadAndDelete(sess); ok {
			g := v.(*guard)
			g.done()
			switch {
			case g.failed.Load():
				wish.Fatalln(sess, apology)
				return
			case s.stopping.Load():
				wish.Fatalln(sess, goodbye)
				return
			}
		}
		next(sess)
	}
}

// logSessions logs connects, disconnects and their duration, one line each.
func logSessions(log *slog.Logger) wish.Middleware {
	return func(next ssh.Handler) ssh.Handler {
		return func(sess ssh.Session) {
			start := time.Now()
			_, _, pty := sess.Pty()
			log.Info("connect", "client", sess.RemoteAddr().String(), "user", userForLog(sess.User()), "pty", pty)
			next(sess)
			log.Info("disconnect", "client", sess.RemoteAddr().String(), "user", userForLog(sess.User()), "duration", time.Since(start).Round(time.Millisecond))
		}
	}
}

// ErrClosed is what Serve returns once the server was shut down or closed.
var ErrClosed = ssh.ErrServerClosed
