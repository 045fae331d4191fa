package main

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	bm "github.com/charmbracelet/wish/bubbletea"
	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/tui"
)

// serveConfig is `cara serve`'s flags.
type serveConfig struct {
	listen         string
	hostKey        string
	authorizedKeys string
	passwordFile   string
	scenariosDir   string
	maxSessions    int
	maxComputing   int
	idleTimeout    time.Duration
	open           bool
	cacheRuns      int
	workers        int
	maxWork        float64
	metrics        string // address of the Prometheus endpoint; "" for none
	presenterKeys  string // authorized_keys of the presenters; "" for a room without one
	log            *slog.Logger

	// onMsg, for tests only, is called inside each session's guarded Update with every message, so a
	// test can make one session panic there or in a command it returns.
	onMsg func(ssh.Session, tea.Msg) tea.Cmd
	// seedFor, for tests only, chooses the seed a session's first player opens with (the load test
	// gives each session its own).
	seedFor func(ssh.Session) (uint64, bool)
}

// defaultMetrics is where `cara serve` publishes its metrics unless told otherwise.
const defaultMetrics = "127.0.0.1:9234"

func newServeCmd() *cobra.Command {
	cfg := serveConfig{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the terminal UI over SSH for a workshop",
		Long: `serve runs an SSH server whose only program is cara's terminal UI: everyone in the room types
ssh -p 23234 HOST and gets their own live simulation, with nothing to install. Sessions that open
the same scenario with the same seed share one computed matrix; at most --max-computing matrices
are computed at once and the others wait their turn, with their place and an estimate shown. No
shell, no commands, no port forwarding, no file access beyond the scenarios offered.

The scenarios offered are read once at start; send SIGHUP to read them again. Metrics for
Prometheus are served on http://ADDR/metrics (--metrics, loopback by default).

Presenter mode (--presenter-keys FILE, an authorized_keys file): a session that logs in with one of
those keys presents. Everyone who connects while a presenter is on follows them live: the scenario,
the batch, play and pause, R, what-ifs, the tour's stops and the matrix cursor, on the presenter's
own run (no computation of their own). p goes free and p again rejoins where the presenter is. The
presenter's status line counts who follows and who is free; in the guess round the presenter sees
the room's answers before revealing the batch. The room's other clients log in as they would
without presenters.

Listening on a non-loopback address needs --authorized-keys or --password-file, or --open to say
that anyone who can reach the port may use it.`,
		Example: `  cara serve                                   # 127.0.0.1:23234, for a try on this machine
  cara serve --listen 0.0.0.0:23234 --password-file room.txt --scenarios ./scenarios
  cara serve --listen 0.0.0.0:23234 --password-file room.txt --presenter-keys ~/.ssh/id_ed25519.pub
  curl -s 127.0.0.1:9234/metrics | grep ^cara_      # while it serves`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg.workers = workers(cmd)
			if !cmd.Flags().Changed("max-work") {
				cfg.maxWork = serveMaxWork
			} else {
				cfg.maxWork, _ = cmd.Flags().GetFloat64("max-work")
			}
			cfg.log = slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
			srv, err := newServer(cfg)
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", cfg.listen)
			if err != nil {
				return err
			}
			if cfg.metrics != "" {
				if err := srv.serveMetrics(cfg.metrics); err != nil {
					if cmd.Flags().Changed("metrics") {
						ln.Close()
						return err
					}
					// The default port may be taken (a second server on this machine): the room
					// matters more than its metrics.
					cfg.log.Warn("no metrics", "err", err)
				}
			}
			// SIGHUP reloads the picker: listen for it before saying "serving", or a reload sent as
			// soon as the server says it is up would find the default action (exit).
			hup := make(chan os.Signal, 1)
			signal.Notify(hup, syscall.SIGHUP)
			defer signal.Stop(hup)
			cfg.log.Info("serving", "addr", ln.Addr().String(), "host_key", cfg.hostKey, "max_sessions", cfg.maxSessions,
				"max_computing", srv.runs.Config().MaxComputing)
			errc := make(chan error, 1)
			go func() { errc <- srv.Serve(ln) }()
		wait:
			for {
				select {
				case <-hup:
					srv.reload()
				case err := <-errc:
					srv.Close()
					if errors.Is(err, ssh.ErrServerClosed) {
						return nil
					}
					return err
				case <-cmd.Context().Done():
					break wait
				}
			}
			cfg.log.Info("shutting down")
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			srv.Shutdown(ctx)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.listen, "listen", "127.0.0.1:23234", "address to listen on")
	f.StringVar(&cfg.hostKey, "host-key", defaultHostKey(), "host key (ed25519, created with mode 0600 when missing)")
	f.StringVar(&cfg.authorizedKeys, "authorized-keys", "", "only these public keys may connect (an authorized_keys file)")
	f.StringVar(&cfg.passwordFile, "password-file", "", "a file whose first line is the room's password")
	f.StringVar(&cfg.presenterKeys, "presenter-keys", "", "sessions logging in with these public keys (an authorized_keys file) present: the others follow them")
	f.StringVar(&cfg.scenariosDir, "scenarios", "", "also offer the *.yaml scenarios of this folder (read again on SIGHUP)")
	f.IntVar(&cfg.maxSessions, "max-sessions", 50, "sessions at once; more are told the room is full")
	f.IntVar(&cfg.maxComputing, "max-computing", runtime.NumCPU(), "matrices computed at once; more wait in a queue")
	f.DurationVar(&cfg.idleTimeout, "idle-timeout", 30*time.Minute, "close sessions idle this long")
	f.BoolVar(&cfg.open, "open", false, "allow anyone who reaches a non-loopback address, without keys or password")
	f.IntVar(&cfg.cacheRuns, "cache", 32, "computed matrices kept for sharing after their last viewer leaves")
	f.StringVar(&cfg.metrics, "metrics", defaultMetrics, `serve Prometheus metrics on http://ADDR/metrics ("" for none; a bare :PORT means loopback)`)
	return cmd
}

// serveMaxWork is the stricter budget of a shared server: the paper's scenarios (1e7) fit, ten
// times more does not.
const serveMaxWork = 2e7

func defaultHostKey() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "cara_host_ed25519"
	}
	return filepath.Join(dir, "cara", "ssh_host_ed25519")
}

// isLoopback reports whether host:port listens on loopback only.
func isLoopback(addr string) bool {
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

// server is `cara serve`: the SSH server, the registry every session's runs go through, the
// scenarios offered, and the metrics.
type server struct {
	cfg      serveConfig
	ssh      *ssh.Server
	runs     *live.Runs
	catalog  atomic.Pointer[scenarios.Catalog]
	sessions atomic.Int64 // admitted and not yet closed
	// room is the workshop's presenter and followers; presenters are the keys that present (nil
	// without --presenter-keys).
	room       *room.Room
	presenters atomic.Pointer[[]ssh.PublicKey]
	metrics    *metrics
	http       atomic.Pointer[http.Server]
	// metricsURL is where serveMetrics listens (tests listen on port 0).
	metricsURL string
}

// newServer builds the server; it does not listen.
func newServer(cfg serveConfig) (*server, error) {
	if cfg.log == nil {
		cfg.log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	if cfg.maxSessions < 1 {
		return nil, usagef("--max-sessions must be >= 1, got %d", cfg.maxSessions)
	}
	if cfg.maxComputing < 0 {
		return nil, usagef("--max-computing must be >= 1, got %d", cfg.maxComputing)
	}
	auth := cfg.authorizedKeys != "" || cfg.passwordFile != ""
	if !isLoopback(cfg.listen) && !auth && !cfg.open {
		return nil, usagef("listening on %s (not loopback) needs --authorized-keys or --password-file, or --open to let anyone in", cfg.listen)
	}
	if err := os.MkdirAll(filepath.Dir(cfg.hostKey), 0o700); err != nil {
		return nil, err
	}
	opts := []ssh.Option{wish.WithAddress(cfg.listen), wish.WithHostKeyPath(cfg.hostKey), wish.WithIdleTimeout(cfg.idleTimeout)}
	s := &server{cfg: cfg, room: room.New()}
	if cfg.authorizedKeys != "" {
		if _, err := os.Stat(cfg.authorizedKeys); err != nil {
			return nil, fmt.Errorf("--authorized-keys: %w", err)
		}
		if cfg.presenterKeys == "" {
			opts = append(opts, wish.WithAuthorizedKeys(cfg.authorizedKeys))
		}
	}
	if cfg.presenterKeys != "" {
		auth, err := s.presenterAuth()
		if err != nil {
			return nil, err
		}
		opts = append(opts, auth...)
	}
	if cfg.passwordFile != "" {
		b, err := os.ReadFile(cfg.passwordFile)
		if err != nil {
			return nil, fmt.Errorf("--password-file: %w", err)
		}
		want := []byte(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
		if len(want) == 0 {
			return nil, fmt.Errorf("--password-file %s: the first line is empty", cfg.passwordFile)
		}
		opts = append(opts, wish.WithPasswordAuth(func(_ ssh.Context, pw string) bool {
			return subtle.ConstantTimeCompare([]byte(pw), want) == 1
		}))
	}
	if cfg.maxComputing == 0 {
		cfg.maxComputing = runtime.NumCPU()
	}
	if cfg.workers <= 0 {
		// Runs computing at once share the cores rather than each taking all of them: as fast in
		// total, and fewer busy goroutines for the sessions' own to queue behind.
		cfg.workers = max(1, runtime.GOMAXPROCS(0)/cfg.maxComputing)
	}
	s.cfg = cfg
	s.metrics = newMetrics(s)
	s.runs = live.NewRuns(live.RunsConfig{MaxComputing: cfg.maxComputing, Cache: cfg.cacheRuns, Workers: cfg.workers,
		OnPanic: func(v any, stack []byte) { s.panicked("engine", v, stack) }})
	s.catalog.Store(scenarios.NewCatalog(cfg.scenariosDir, nil))
	// The first middleware listed runs innermost.
	opts = append(opts, wish.WithMiddleware(
		s.program,
		s.gate,
		s.recover,
		logSessions(cfg.log),
	))
	srv, err := wish.NewServer(opts...)
	if err != nil {
		return nil, err
	}
	s.ssh = srv
	return s, nil
}

// Serve accepts connections on ln until the server is shut down.
func (s *server) Serve(ln net.Listener) error { return s.ssh.Serve(ln) }

// Shutdown stops accepting, gives open sessions until ctx ends to close, then closes them; every run
// is cancelled and the metrics stop.
func (s *server) Shutdown(ctx context.Context) {
	if err := s.ssh.Shutdown(ctx); err != nil {
		s.ssh.Close()
	}
	s.runs.Close()
	if h := s.http.Load(); h != nil {
		h.Shutdown(ctx)
	}
}

// Close closes every connection at once, cancels every run and stops the metrics.
func (s *server) Close() {
	s.ssh.Close()
	s.runs.Close()
	if h := s.http.Load(); h != nil {
		h.Close()
	}
}

// reload reads the offered scenarios and the presenters' keys again (SIGHUP); open sessions keep
// what they opened.
func (s *server) reload() {
	c := scenarios.NewCatalog(s.cfg.scenariosDir, nil)
	s.catalog.Store(c)
	s.cfg.log.Info("scenarios read again", "entries", len(c.Entries()), "dir", s.cfg.scenariosDir)
	if s.cfg.presenterKeys != "" {
		keys, err := readKeys(s.cfg.presenterKeys)
		if err == nil && len(keys) == 0 {
			err = fmt.Errorf("%s: no public key in it", s.cfg.presenterKeys)
		}
		if err != nil {
			s.cfg.log.Warn("presenter keys not read again: the old ones stay", "err", err)
			return
		}
		s.presenters.Store(&keys)
		s.cfg.log.Info("presenter keys read again", "keys", len(keys))
	}
}

// apology is what a session sees when a bug ends it.
const apology = "cara: sorry, this session hit a bug and had to close; the room goes on. Reconnect to start again."

// panicked logs a recovered panic with its stack and counts it.
func (s *server) panicked(where string, v any, stack []byte) {
	s.metrics.panics.Inc()
	s.cfg.log.Error("panic recovered", "in", where, "panic", fmt.Sprint(v), "stack", string(stack))
}

// recover keeps a panic in one session from ending the server: logged with its stack, counted, and
// that session closed with an apology. (A panic in a session's player is caught nearer, by its
// guard; this is for everything else a session runs.)
func (s *server) recover(next ssh.Handler) ssh.Handler {
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

// gate lets in only interactive sessions, and no more than maxSessions at once.
func (s *server) gate(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
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
		if n := s.sessions.Add(1); n > int64(s.cfg.maxSessions) {
			s.sessions.Add(-1)
			s.metrics.refused.WithLabelValues("room_full").Inc()
			wish.Fatalln(sess, fmt.Sprintf("The room is full (%d sessions); try again in a moment.", s.cfg.maxSessions))
			return
		}
		defer s.sessions.Add(-1)
		next(sess)
	}
}

// program runs a session's picker and player for as long as the SSH session lasts: its context
// ends with the connection, with the client closing the session's input, or when the program quits,
// and every run the session watched is left with it.
func (s *server) program(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		ctx, cancel := context.WithCancel(sess.Context())
		defer cancel()
		st := tui.NewStyles(bm.MakeRenderer(sess))
		cat := s.catalog.Load()
		var member *room.Member
		if s.cfg.presenterKeys != "" {
			member = s.room.Join(s.isPresenter(sess))
			defer member.Leave()
		}
		picker := tui.NewPicker(cat.Entries(), st, func(e scenarios.Entry, w, h int, back func() (tea.Model, tea.Cmd)) (*tui.Player, error) {
			sc, err := cat.Load(e.Ref)
			if err != nil {
				return nil, err
			}
			if err := sc.CheckBudget(s.cfg.maxWork, "cara serve --max-work"); err != nil {
				return nil, err
			}
			seed := sc.Seed
			if s.cfg.seedFor != nil {
				if v, ok := s.cfg.seedFor(sess); ok {
					seed = v
				}
			}
			return tui.NewPlayer(tui.Options{Scenario: sc, Seed: seed, Styles: st, Back: back, Width: w, Height: h,
				Runs: s.runs, Context: ctx, Member: member})
		})
		if member != nil {
			// A follower opens the presenter's own loaded scenario and seed: the same run.
			picker.Join(member, func(stage room.Stage, w, h int, back func() (tea.Model, tea.Cmd)) (*tui.Player, error) {
				return tui.NewPlayer(tui.Options{Scenario: stage.Scenario, Seed: stage.Seed, Styles: st, Back: back, Width: w, Height: h,
					Runs: s.runs, Context: ctx, Member: member})
			})
		}
		g := &guard{inner: picker, onPanic: func(v any, stack []byte) { s.panicked("player", v, stack) }}
		if s.cfg.onMsg != nil {
			g.hook = func(msg tea.Msg) tea.Cmd { return s.cfg.onMsg(sess, msg) }
		}
		p := tea.NewProgram(g, tea.WithInput(untilEOF{sess, cancel}), tea.WithOutput(sess), tea.WithAltScreen(),
			tea.WithContext(ctx))
		g.quit = func() { go p.Quit() }
		if member != nil {
			go tui.Relay(ctx, member, p.Send)
		}
		_, winch, _ := sess.Pty()
		go func() {
			for {
				select {
				case <-ctx.Done():
					return
				case w := <-winch:
					p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
				}
			}
		}()
		_, err := p.Run()
		cancel()
		if g.failed.Load() || errors.Is(err, tea.ErrProgramPanic) {
			if !g.failed.Load() {
				// Caught by bubbletea itself (which printed the stack): counted, not logged twice.
				s.panicked("player", err, nil)
			}
			wish.Fatalln(sess, apology)
			return
		}
		next(sess)
	}
}

// untilEOF reads a session's input and ends the session's context when the client closes it.
type untilEOF struct {
	r      io.Reader
	cancel context.CancelFunc
}

func (u untilEOF) Read(b []byte) (int, error) {
	n, err := u.r.Read(b)
	if err != nil {
		u.cancel()
	}
	return n, err
}

// logSessions logs connects, disconnects and their duration, one line each.
func logSessions(log *slog.Logger) wish.Middleware {
	return func(next ssh.Handler) ssh.Handler {
		return func(sess ssh.Session) {
			start := time.Now()
			_, _, pty := sess.Pty()
			log.Info("connect", "client", sess.RemoteAddr().String(), "user", sess.User(), "pty", pty)
			next(sess)
			log.Info("disconnect", "client", sess.RemoteAddr().String(), "user", sess.User(), "duration", time.Since(start).Round(time.Millisecond))
		}
	}
}
