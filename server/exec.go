package server

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/ssh"

	"github.com/cara-sim/cara/scenarios"
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
	// Slot waits for one of the server's compute slots (saying on Stderr that the command is
	// queued when none is free) and returns its release. A command takes one once its arguments
	// are checked, so a refusal never waits.
	Slot func(ctx context.Context) (release func(), err error)
}

// exec runs a session's command: admitted as a player is (the room's session limit); it computes
// in one of MaxComputing compute slots, waited for in a queue that says so on stderr; the
// command's context ends with the connection.
func (s *Server) exec(sess ssh.Session) {
	if n := s.sessions.Add(1); n > int64(s.cfg.MaxSessions) {
		s.sessions.Add(-1)
		s.metrics.refused.WithLabelValues("room_full").Inc()
		fmt.Fprintf(sess.Stderr(), "cara: the room is full (%d sessions); try again in a moment\n", s.cfg.MaxSessions)
		sess.Exit(1)
		return
	}
	defer s.sessions.Add(-1)
	ctx := sess.Context()
	s.metrics.execs.Inc()
	if sess.Command()[0] == "upload" {
		sess.Exit(s.upload(sess))
		return
	}
	s.cfg.Log.Info("command", "user", sess.User(), "addr", sess.RemoteAddr().String(), "command", strings.Join(sess.Command(), " "))
	code := s.cfg.Exec(ctx, ExecRequest{Args: sess.Command(), Stdin: sess, Stdout: sess, Stderr: sess.Stderr(),
		Offered: s.catalogFor(sess), FilesDir: s.cfg.ScenariosDir, MaxWork: s.cfg.MaxWork, Workers: s.cfg.Workers,
		Slot: func(ctx context.Context) (func(), error) { return s.execSlot(ctx, sess.Stderr()) }})
	sess.Exit(code)
}

// execSlot waits for a compute slot for a headless command.
func (s *Server) execSlot(ctx context.Context, stderr io.Writer) (func(), error) {
	release := func() { <-s.execSlots }
	select {
	case s.execSlots <- struct{}{}:
		return release, nil
	default:
	}
	fmt.Fprintf(stderr, "cara: queued: %d commands are computing, the most this server runs at once; yours starts when one ends\n", cap(s.execSlots))
	select {
	case s.execSlots <- struct{}{}:
		return release, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
