package server

import (
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// Defaults of the per-client limits (Config's zero values).
const (
	defaultSessionsPerConn = 3
	defaultConnectTimeout  = 20 * time.Second
	keepAliveMisses        = 3 // unanswered keepalives in a row that close a connection
)

// conn is one client connection as the limits see it.
type conn struct {
	net.Conn
	addr     string
	sessions atomic.Int32               // session channels open
	started  atomic.Bool                // a session was opened: the connect deadline is off
	deadline atomic.Pointer[time.Timer] // set as its callback may already run
	close    sync.Once
	release  func()
}

func (c *conn) Close() error {
	c.close.Do(func() {
		c.stopDeadline()
		c.release()
	})
	return c.Conn.Close()
}

func (c *conn) stopDeadline() {
	if t := c.deadline.Load(); t != nil {
		t.Stop()
	}
}

// connKey finds a connection's conn in its context.
type connKey struct{}

// addresses counts the open connections of each client address.
type addresses struct {
	mu sync.Mutex
	n  map[string]int
}

// accept admits a connection (ssh.Server.ConnCallback) unless its address has MaxPerAddress open
// already, and closes it unless it opens a session within the connect timeout: a connection that
// never speaks SSH, or stops in its handshake, holds nothing for long.
func (s *Server) accept(ctx ssh.Context, nc net.Conn) net.Conn {
	addr := host(nc.RemoteAddr())
	s.addrs.mu.Lock()
	if s.cfg.MaxPerAddress > 0 && s.addrs.n[addr] >= s.cfg.MaxPerAddress {
		s.addrs.mu.Unlock()
		s.metrics.refused.WithLabelValues("per_address").Inc()
		s.cfg.Log.Warn("connection refused: too many from one address", "client", nc.RemoteAddr().String(), "max_per_address", s.cfg.MaxPerAddress)
		return nil
	}
	s.addrs.n[addr]++
	s.addrs.mu.Unlock()
	c := &conn{Conn: nc, addr: addr, release: func() {
		s.addrs.mu.Lock()
		defer s.addrs.mu.Unlock()
		if s.addrs.n[addr]--; s.addrs.n[addr] <= 0 {
			delete(s.addrs.n, addr)
		}
	}}
	c.deadline.Store(time.AfterFunc(s.cfg.ConnectTimeout, func() {
		if !c.started.Load() {
			s.metrics.refused.WithLabelValues("connect_timeout").Inc()
			c.Close()
		}
	}))
	ctx.SetValue(connKey{}, c)
	return c
}

// admitSession counts a session channel on its connection: false (and the channel refused) over
// the connection's limit. The first session stops the connect deadline and starts the keepalives.
func (s *Server) admitSession(ctx ssh.Context, sc *gossh.ServerConn, nc gossh.NewChannel) (*conn, bool) {
	c, _ := ctx.Value(connKey{}).(*conn)
	if c == nil {
		return nil, true
	}
	if n := c.sessions.Add(1); int(n) > s.cfg.MaxSessionsPerConn {
		c.sessions.Add(-1)
		s.metrics.refused.WithLabelValues("per_connection").Inc()
		nc.Reject(gossh.ResourceShortage, "cara: at most "+strconv.Itoa(s.cfg.MaxSessionsPerConn)+" sessions on one connection")
		return nil, false
	}
	if c.started.CompareAndSwap(false, true) {
		c.stopDeadline()
		if s.cfg.KeepAlive > 0 {
			go s.keepAlive(ctx, sc)
		}
	}
	return c, true
}

// keepAlive asks the client every KeepAlive whether it is there, and closes its connection after
// keepAliveMisses unanswered questions in a row: a closed laptop frees its place in about a minute,
// not at the idle timeout. It ends with the connection.
func (s *Server) keepAlive(ctx ssh.Context, sc *gossh.ServerConn) {
	tick := time.NewTicker(s.cfg.KeepAlive)
	defer tick.Stop()
	missed := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		answer := make(chan error, 1)
		go func() { // returns when answered, or when the connection closes
			_, _, err := sc.SendRequest("keepalive@openssh.com", true, nil)
			answer <- err
		}()
		select {
		case err := <-answer:
			if err != nil {
				return
			}
			missed = 0
			continue
		case <-time.After(s.cfg.KeepAlive):
			missed++
		case <-ctx.Done():
			return
		}
		if missed >= keepAliveMisses {
			s.metrics.keepAliveClosed.Inc()
			s.cfg.Log.Info("connection closed: no answer to keepalives", "client", sc.RemoteAddr().String(), "missed", missed)
			sc.Close()
			return
		}
	}
}
