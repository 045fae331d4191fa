package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/internal/budget"
	"github.com/cara-sim/cara/server"
)

// defaultMetrics is where `cara serve` publishes its metrics unless told otherwise.
const defaultMetrics = "127.0.0.1:9234"

func newServeCmd() *cobra.Command {
	cfg := server.Config{}
	var metricsAddr, memory string
	var fingerprint bool
	var lim remoteLimits
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the terminal UI over SSH for a workshop",
		Long: `serve runs an SSH server whose only program is cara's terminal UI: everyone in the room types
ssh -p 23234 HOST and gets their own live simulation, with nothing to install. Sessions that open
the same scenario with the same seed share one computed matrix; at most --max-computing matrices
are computed at once and the others wait their turn, with their place and an estimate shown. No
shell, no port forwarding, no file access beyond the scenarios offered.

Headless commands, for what-ifs from any terminal: ssh -p 23234 HOST run covcon-d -R 30 prints
what cara run prints, with its exit status; so do matrix, sweep and validate, and list names the
scenarios offered. A scenario is a name the server offers, or - for a file sent on standard input
(ssh HOST run - < mine.yaml), which may read no file but the embedded data and the CSV files of
--scenarios. Flags that name files (-o, --figures, --data, --queries) or tune the server are
refused. Commands are the room's background work: admitted, a matrix at a time, against the room's
memory and --max-computing slots, behind the players' runs (a queued one says where it waits); they
compute in all the slots but one (the one of a room that has one), and give a slot up between
columns to a player's run waiting for it. A matrix over --max-command-work (cells x points x
queries x k) is refused, saying what would fit. At most --max-commands run or
wait at once, --max-commands-per-client of one client's; each waits at most --command-queue and is
stopped after --command-timeout (a client that stops reading included) or --command-output bytes.

The room's memory (--memory; by default the smallest of the cgroup's limit, GOMEMLIMIT, half the
address-space limit and half the machine's memory, said at start) is the process's GOMEMLIMIT, and
three quarters of it is what work may hold: every run, what-if, command, upload and check is
estimated and admitted against it, queued (the player says "queued: 3rd; the room's memory is in
use") or refused with what would fit. README.md says how to size it for a room.

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
  cara serve --fingerprint                     # the host key's SHA256:..., for the handout
  curl -s 127.0.0.1:9234/metrics | grep ^cara_      # while it serves`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if fingerprint {
				fp, err := server.HostKeyFingerprint(cfg.HostKey)
				if err != nil {
					return err
				}
				fmt.Fprintln(cmd.OutOrStdout(), fp)
				return nil
			}
			cfg.Workers = workers(cmd)
			if !cmd.Flags().Changed("max-work") {
				cfg.MaxWork = serveMaxWork
			} else {
				cfg.MaxWork, _ = cmd.Flags().GetFloat64("max-work")
			}
			cfg.Log = slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
			if lim.Timeout <= 0 || lim.MaxOutput <= 0 || cfg.CommandQueue <= 0 {
				return usagef("--command-timeout, --command-queue and --command-output must be > 0")
			}
			if cfg.MaxCommands < 1 || cfg.MaxCommandsPerClient < 1 {
				return usagef("--max-commands and --max-commands-per-client must be >= 1")
			}
			if memory != "" {
				v, err := budget.ParseSize(memory)
				if err != nil {
					return usagef("--memory: %v", err)
				}
				cfg.Memory, cfg.MemoryFrom = v, "--memory"
			}
			cfg.Exec, cfg.CommandTimeout = lim.exec, lim.Timeout
			return serve(cmd.Context(), cfg, metricsAddr, cmd.Flags().Changed("metrics"))
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.Listen, "listen", "127.0.0.1:23234", "address to listen on")
	f.StringVar(&cfg.HostKey, "host-key", defaultHostKey(), "host key (ed25519, created with mode 0600 when missing)")
	f.BoolVar(&fingerprint, "fingerprint", false, "print the host key's SHA256 fingerprint (as ssh-keygen -lf does; creating the key when there is none) and exit, for the students' handout")
	f.StringVar(&cfg.AuthorizedKeys, "authorized-keys", "", "only these public keys may connect (an authorized_keys file)")
	f.StringVar(&cfg.PasswordFile, "password-file", "", "a file whose first line is the room's password")
	f.StringVar(&cfg.PresenterKeys, "presenter-keys", "", "sessions logging in with these public keys (an authorized_keys file) present: the others follow them")
	f.StringVar(&cfg.ScenariosDir, "scenarios", "", "also offer the *.yaml scenarios of this folder (read again on SIGHUP)")
	f.IntVar(&cfg.MaxSessions, "max-sessions", 50, "sessions at once; more are told the room is full")
	f.StringVar(&memory, "memory", "", "the room's memory, e.g. 800MiB or 2GiB: GOMEMLIMIT, and what every run, command and upload is admitted against (default: the smallest of the cgroup's limit, GOMEMLIMIT, half the address-space limit and half the machine's memory)")
	f.IntVar(&cfg.MaxComputing, "max-computing", server.DefaultMaxComputing(), "matrices computed at once (default: the cores but one, kept for the room's keys); more wait in a queue")
	f.DurationVar(&cfg.IdleTimeout, "idle-timeout", 30*time.Minute, "close sessions idle this long")
	f.IntVar(&cfg.MaxPerAddress, "max-per-address", 20, "connections at once from one address (0: no limit; raise it for a room behind one NAT)")
	f.DurationVar(&cfg.KeepAlive, "keepalive", 15*time.Second, "ask a silent client this often whether it is there; three unanswered close its connection (0: never)")
	f.DurationVar(&cfg.PresenterGrace, "presenter-grace", time.Minute, "followers keep following a presenter who left this long, for one who reconnects")
	f.BoolVar(&cfg.Open, "open", false, "allow anyone who reaches a non-loopback address, without keys or password")
	f.StringVar(&cfg.Answers, "answers", "", "append every student's answer to the presenter's questions to this file, a JSON line each (see docs/answers.md)")
	f.IntVar(&cfg.CacheRuns, "cache", 32, "computed matrices kept for sharing after their last viewer leaves")
	f.DurationVar(&lim.Timeout, "command-timeout", 5*time.Minute, "stop a client's headless command (ssh HOST run ...) after this long, a client that stops reading included")
	f.DurationVar(&cfg.CommandQueue, "command-queue", 2*time.Minute, "a command waits at most this long for the room's memory and a compute slot")
	f.IntVar(&cfg.MaxCommands, "max-commands", 16, "headless commands running or queued at once; more are refused")
	f.Float64Var(&cfg.MaxCommandWork, "max-command-work", 2e10, "the computing one command's matrix may take: cells x points x queries x k (a kNN's k, else 1); 2e10 is about a minute of one core; more is refused, saying what would fit (-1: no bound)")
	f.IntVar(&cfg.MaxCommandsPerClient, "max-commands-per-client", 3, "headless commands running or queued at once for one client (a login key, or a user name and address)")
	f.Int64Var(&cfg.UploadBytes, "upload-bytes", 16<<20, "bytes of uploaded scenarios kept in all; more are refused")
	f.Int64Var(&lim.MaxOutput, "command-output", 16<<20, "bytes a client's headless command may print; it stops there")
	f.StringVar(&metricsAddr, "metrics", defaultMetrics, `serve Prometheus metrics on http://ADDR/metrics ("" for none; a bare :PORT means loopback)`)
	return cmd
}

// serveMaxWork is the stricter budget of a shared server: the paper's scenarios (1e7) fit, ten
// times more does not.
const serveMaxWork = 2e7

// defaultHostKey is where the host key lives when --host-key is not given: under systemd, the
// service's StateDirectory (systemd names it in $STATE_DIRECTORY), so that a drop-in that leaves
// the flag out keeps the key students know; elsewhere the user's configuration folder.
func defaultHostKey() string {
	if dirs := os.Getenv("STATE_DIRECTORY"); dirs != "" {
		// Several StateDirectory= entries are joined with ':'; the first is the service's own.
		return filepath.Join(strings.Split(dirs, ":")[0], "ssh_host_ed25519")
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "cara_host_ed25519"
	}
	return filepath.Join(dir, "cara", "ssh_host_ed25519")
}

// serve runs a server until ctx ends (SIGINT or SIGTERM), reading its scenarios again on SIGHUP;
// metrics are served on metricsAddr unless it is "" (a default address that is taken is only
// warned about: the room matters more than its metrics).
func serve(ctx context.Context, cfg server.Config, metricsAddr string, metricsGiven bool) error {
	srv, err := server.New(cfg)
	var ue server.UsageError
	if errors.As(err, &ue) {
		return usageError{ue.Err}
	}
	if err != nil {
		return err
	}
	cfg = srv.Config()
	// The room's memory is the process's: the collector works harder as the heap nears it, rather
	// than the process growing past it.
	debug.SetMemoryLimit(cfg.Memory)
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return err
	}
	if metricsAddr != "" {
		if err := srv.ServeMetrics(metricsAddr); err != nil {
			if metricsGiven {
				ln.Close()
				return err
			}
			cfg.Log.Warn("no metrics", "err", err)
		}
	}
	// SIGHUP reloads the picker: listen for it before saying "serving", or a reload sent as soon as
	// the server says it is up would find the default action (exit).
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	cfg.Log.Info("serving", "addr", ln.Addr().String(), "host_key", cfg.HostKey, "fingerprint", srv.Fingerprint(), "max_sessions", cfg.MaxSessions,
		"max_computing", cfg.MaxComputing, "memory", budget.Bytes(cfg.Memory).String(), "memory_from", cfg.MemoryFrom,
		"for_work", budget.Bytes(srv.Budget().Capacity).String(), "gomemlimit", "set to memory")
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	for {
		select {
		case <-hup:
			srv.Reload()
		case err := <-errc:
			srv.Close()
			if errors.Is(err, server.ErrClosed) {
				return nil
			}
			return err
		case <-ctx.Done():
			cfg.Log.Info("shutting down")
			sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			srv.Shutdown(sctx)
			// Exit status 130, as every interrupted command.
			return interrupted{"the server stopped; every session was closed"}
		}
	}
}
