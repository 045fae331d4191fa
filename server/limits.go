package server

import (
	"net"
	"slices"
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
	defaultConnectTimeout  = 10 * time.Second
	keepAliveMisses        = 3 // unanswered keepalives in a row that close a connection
	// silentTimeout is how long a connection may say nothing at all: an SSH client sends its
	// version at once.
	silentTimeout = 2 * time.Second
)

// conn is one client connection as the limits see it.
type conn struct {
	net.Conn
	addr     string
	sessions atomic.Int32               // session channels open
	started  atomic.Bool                // a session was opened: the connect deadline is off
	settled  bool                       // counted as a client with a session, not a handshake (guarded by addresses.mu)
	evicted  bool                       // counted no more: its place went to another (guarded by addresses.mu)
	spoke    atomic.Bool                // the client sent something (its SSH version, at least)
	deadline atomic.Pointer[time.Timer] // set as its callback may already run
	close    sync.Once
	release  func()
}

func (c *conn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && !c.spoke.Load() {
		c.spoke.Store(true)
	}
	return n, err
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

// addresses counts each client address's connections: those that opened a session (settled), and
// those still in their handshake or login, oldest first.
type addresses struct {
	mu sync.Mutex
	by map[string]*address
}

type address struct {
	settled int
	waiting []*conn // not yet with a session, oldest first
}

// accept admits a connection (ssh.Server.ConnCallback). An address has at most MaxPerAddress
// connections, with a session or on their way to one; one on its way has the connect timeout to
// open a session, and one that has not said a word (an SSH client sends its version at once) two
// seconds. At the limit, the address's oldest silent connection gives its place to the new one:
// silent sockets cannot keep a campus NAT's students out. A connection that never speaks SSH, or
// stops in its handshake, holds nothing for long.
func (s *Server) accept(ctx ssh.Context, nc net.Conn) net.Conn {
	addr := host(nc.RemoteAddr())
	c := &conn{Conn: nc, addr: addr}
	c.release = func() {
		s.addrs.mu.Lock()
		defer s.addrs.mu.Unlock()
		a := s.addrs.by[addr]
		if a == nil || c.evicted {
			return
		}
		if c.settled {
			a.settled--
		} else {
			a.waiting = slices.DeleteFunc(a.waiting, func(o *conn) bool { return o == c })
		}
		if a.settled <= 0 && len(a.waiting) == 0 {
			delete(s.addrs.by, addr)
		}
	}
	s.addrs.mu.Lock()
	a := s.addrs.by[addr]
	if a == nil {
		a = &address{}
		s.addrs.by[addr] = a
	}
	var evict *conn
	if max := s.cfg.MaxPerAddress; max > 0 && a.settled+len(a.waiting) >= max {
		i := slices.IndexFunc(a.waiting, func(o *conn) bool { return !o.spoke.Load() })
		if i < 0 {
			if a.settled+len(a.waiting) == 0 {
				delete(s.addrs.by, addr)
			}
			s.addrs.mu.Unlock()
			s.refusal("per_address", nc.RemoteAddr().String())
			return nil
		}
		evict = a.waiting[i]
		a.waiting = slices.Delete(a.waiting, i, i+1) // its place is the new one's from now
		evict.evicted = true
	}
	a.waiting = append(a.waiting, c)
	s.addrs.mu.Unlock()
	if evict != nil {
		s.refusal("silent", evict.RemoteAddr().String())
		evict.Close()
	}
	first := min(silentTimeout, s.cfg.ConnectTimeout)
	c.deadline.Store(time.AfterFunc(first, func() {
		switch {
		case !c.spoke.Load():
			s.refusal("silent", c.RemoteAddr().String())
			c.Close()
		case !c.started.Load():
			c.deadline.Store(time.AfterFunc(s.cfg.ConnectTimeout-first, func() {
				if !c.started.Load() {
					s.refusal("connect_timeout", c.RemoteAddr().String())
					c.Close()
				}
			}))
		}
	}))
	ctx.SetValue(connKey{}, c)
	return c
}

// settle counts a connection whose first session opened as settled.
func (s *Server) settle(c *conn) {
	s.addrs.mu.Lock()
	defer s.addrs.mu.Unlock()
	a := s.addrs.by[c.addr]
	if a == nil || c.settled {
		return
	}
	a.waiting = slices.DeleteFunc(a.waiting, func(o *conn) bool { return o == c })
	a.settled++
	c.settled = true
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
		s.settle(c)
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
