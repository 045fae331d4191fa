package main

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	bm "github.com/charmbracelet/wish/bubbletea"
	"github.com/spf13/cobra"

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
	idleTimeout    time.Duration
	open           bool
	cacheRuns      int
	workers        int
	maxWork        float64
	log            *slog.Logger
}

func newServeCmd() *cobra.Command {
	cfg := serveConfig{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the terminal UI over SSH for a workshop",
		Long: `serve runs an SSH server whose only program is cara's terminal UI: everyone in the room types
ssh -p 23234 HOST and gets their own live simulation, with nothing to install. Sessions that open
the same scenario with the same seed share one computed matrix. No shell, no commands, no port
forwarding, no file access beyond the scenarios offered.

Listening on a non-loopback address needs --authorized-keys or --password-file, or --open to say
that anyone who can reach the port may use it.`,
		Example: `  cara serve                                   # 127.0.0.1:23234, for a try on this machine
  cara serve --listen 0.0.0.0:23234 --password-file room.txt --scenarios ./scenarios`,
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
			cfg.log.Info("serving", "addr", ln.Addr().String(), "host_key", cfg.hostKey, "max_sessions", cfg.maxSessions)
			errc := make(chan error, 1)
			go func() { errc <- srv.Serve(ln) }()
			select {
			case err := <-errc:
				if errors.Is(err, ssh.ErrServerClosed) {
					return nil
				}
				return err
			case <-cmd.Context().Done():
			}
			cfg.log.Info("shutting down")
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			if err := srv.Shutdown(ctx); err != nil {
				srv.Close() // sessions still open after the grace period are closed
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.listen, "listen", "127.0.0.1:23234", "address to listen on")
	f.StringVar(&cfg.hostKey, "host-key", defaultHostKey(), "host key (ed25519, created with mode 0600 when missing)")
	f.StringVar(&cfg.authorizedKeys, "authorized-keys", "", "only these public keys may connect (an authorized_keys file)")
	f.StringVar(&cfg.passwordFile, "password-file", "", "a file whose first line is the room's password")
	f.StringVar(&cfg.scenariosDir, "scenarios", "", "also offer the *.yaml scenarios of this folder")
	f.IntVar(&cfg.maxSessions, "max-sessions", 50, "sessions at once; more are told the room is full")
	f.DurationVar(&cfg.idleTimeout, "idle-timeout", 30*time.Minute, "close sessions idle this long")
	f.BoolVar(&cfg.open, "open", false, "allow anyone who reaches a non-loopback address, without keys or password")
	f.IntVar(&cfg.cacheRuns, "cache", 32, "computed matrices kept for sharing between sessions")
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

// newServer builds the SSH server; it does not listen.
func newServer(cfg serveConfig) (*ssh.Server, error) {
	if cfg.log == nil {
		cfg.log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	if cfg.maxSessions < 1 {
		return nil, usagef("--max-sessions must be >= 1, got %d", cfg.maxSessions)
	}
	auth := cfg.authorizedKeys != "" || cfg.passwordFile != ""
	if !isLoopback(cfg.listen) && !auth && !cfg.open {
		return nil, usagef("listening on %s (not loopback) needs --authorized-keys or --password-file, or --open to let anyone in", cfg.listen)
	}
	if err := os.MkdirAll(filepath.Dir(cfg.hostKey), 0o700); err != nil {
		return nil, err
	}
	opts := []ssh.Option{wish.WithAddress(cfg.listen), wish.WithHostKeyPath(cfg.hostKey), wish.WithIdleTimeout(cfg.idleTimeout)}
	if cfg.authorizedKeys != "" {
		if _, err := os.Stat(cfg.authorizedKeys); err != nil {
			return nil, fmt.Errorf("--authorized-keys: %w", err)
		}
		opts = append(opts, wish.WithAuthorizedKeys(cfg.authorizedKeys))
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
	runs := tui.NewRuns(cfg.cacheRuns, cfg.workers)
	var active atomic.Int64
	opts = append(opts, wish.WithMiddleware(
		bm.Middleware(uiHandler(cfg, runs)),
		gate(cfg, &active),
		logSessions(cfg.log),
	))
	return wish.NewServer(opts...)
}

// uiHandler gives each session a picker and player styled from the session's own renderer.
func uiHandler(cfg serveConfig, runs *tui.Runs) bm.Handler {
	return func(sess ssh.Session) (tea.Model, []tea.ProgramOption) {
		st := tui.NewStyles(bm.MakeRenderer(sess))
		entries := tui.Entries(cfg.scenariosDir, nil)
		picker := tui.NewPicker(entries, st, func(e tui.Entry, w, h int, back func() (tea.Model, tea.Cmd)) (*tui.Player, error) {
			s, err := scenarios.Load(e.Ref, scenarios.Options{})
			if err != nil {
				return nil, err
			}
			if err := s.CheckBudget(cfg.maxWork, "cara serve --max-work"); err != nil {
				return nil, err
			}
			return tui.NewPlayer(tui.Options{Scenario: s, Seed: s.Seed, Workers: cfg.workers, Styles: st, Back: back,
				Width: w, Height: h, Runs: runs})
		})
		return picker, []tea.ProgramOption{tea.WithAltScreen()}
	}
}

// gate lets in only interactive sessions, and no more than maxSessions at once.
func gate(cfg serveConfig, active *atomic.Int64) wish.Middleware {
	return func(next ssh.Handler) ssh.Handler {
		return func(sess ssh.Session) {
			if len(sess.Command()) > 0 {
				wish.Fatalln(sess, "cara serves its terminal UI only; connect without a command: ssh -p PORT HOST")
				return
			}
			if _, _, ok := sess.Pty(); !ok {
				wish.Fatalln(sess, "cara needs a terminal; connect with ssh -t -p PORT HOST (no PTY was requested)")
				return
			}
			if n := active.Add(1); n > int64(cfg.maxSessions) {
				active.Add(-1)
				wish.Fatalln(sess, fmt.Sprintf("The room is full (%d sessions); try again in a moment.", cfg.maxSessions))
				return
			}
			defer active.Add(-1)
			next(sess)
		}
	}
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
