package server

import (
	"bufio"
	"bytes"
	"crypto/subtle"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	gossh "golang.org/x/crypto/ssh"
)

// readKeys reads an authorized_keys file: one public key a line (options and comments allowed as
// OpenSSH writes them), blank lines and # comments skipped. A line that is not a key is an error
// naming FILE:LINE.
func readKeys(path string) ([]ssh.PublicKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var keys []ssh.PublicKey
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		k, _, _, _, err := ssh.ParseAuthorizedKey(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: not a public key (%v); each line holds one, as in ~/.ssh/authorized_keys", path, n, err)
		}
		keys = append(keys, k)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return keys, nil
}

func hasKey(keys []ssh.PublicKey, k ssh.PublicKey) bool {
	for _, o := range keys {
		if ssh.KeysEqual(o, k) {
			return true
		}
	}
	return false
}

// authOptions are the server's authentication: a presenter's key gets in; the room's other clients
// authenticate with --authorized-keys (read at each login, so edits take effect), --password-file,
// or nothing in an open room (any key, or none, gets in). Which key a session authenticated with is
// what makes it a presenter (isPresenter). A refused login is counted, logged with its address (at
// a bounded rate), and a wrong password is answered more slowly each time from the same address or
// for the same user name (loginBackoff).
func (s *Server) authOptions() ([]ssh.Option, error) {
	var opts []ssh.Option
	if s.cfg.PresenterKeys != "" {
		keys, err := readKeys(s.cfg.PresenterKeys)
		if err != nil {
			return nil, fmt.Errorf("--presenter-keys: %w", err)
		}
		if len(keys) == 0 {
			return nil, fmt.Errorf("--presenter-keys %s: no public key in it", s.cfg.PresenterKeys)
		}
		s.presenters.Store(&keys)
	}
	open := s.cfg.AuthorizedKeys == "" && s.cfg.PasswordFile == ""
	if s.cfg.PresenterKeys != "" || s.cfg.AuthorizedKeys != "" {
		opts = append(opts, wish.WithPublicKeyAuth(func(ctx ssh.Context, k ssh.PublicKey) bool {
			if keys := s.presenters.Load(); keys != nil && hasKey(*keys, k) {
				return true
			}
			ok := open
			if s.cfg.AuthorizedKeys != "" {
				students, err := readKeys(s.cfg.AuthorizedKeys)
				if err != nil {
					s.cfg.Log.Warn("authorized keys", "err", err)
				}
				ok = hasKey(students, k)
			}
			if !ok {
				// Not slowed: a client offers each of its keys in turn before a password.
				s.refused(ctx, "publickey")
			}
			return ok
		}))
	}
	if s.cfg.PasswordFile != "" {
		b, err := os.ReadFile(s.cfg.PasswordFile)
		if err != nil {
			return nil, fmt.Errorf("--password-file: %w", err)
		}
		want := []byte(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
		if len(want) == 0 {
			return nil, fmt.Errorf("--password-file %s: the first line is empty", s.cfg.PasswordFile)
		}
		opts = append(opts, wish.WithPasswordAuth(func(ctx ssh.Context, pw string) bool {
			if subtle.ConstantTimeCompare([]byte(pw), want) == 1 {
				s.logins.succeeded(host(ctx.RemoteAddr()), ctx.User())
				return true
			}
			wait := s.refused(ctx, "password")
			t := time.NewTimer(wait)
			defer t.Stop()
			select {
			case <-t.C:
			case <-ctx.Done():
			}
			return false
		}))
	}
	if open && s.cfg.PresenterKeys != "" {
		// Clients without a key: keyboard-interactive with no questions, as no authentication was.
		opts = append(opts, wish.WithKeyboardInteractiveAuth(func(ssh.Context, gossh.KeyboardInteractiveChallenge) bool { return true }))
	}
	return opts, nil
}

// refused counts and logs a refused login, and says how long to hold a wrong password's answer.
func (s *Server) refused(ctx ssh.Context, method string) time.Duration {
	s.metrics.authFailures.WithLabelValues(method).Inc()
	n, wait := s.logins.failed(host(ctx.RemoteAddr()), ctx.User(), time.Now())
	s.refusals.note("login_"+method, "login refused", "client", ctx.RemoteAddr().String(), "user", ctx.User(), "method", method, "failures", n)
	return wait
}

func host(a net.Addr) string {
	h, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return h
}

// loginBackoff remembers recent login failures per address and per user name: each wrong password
// is answered twice as slowly as the one before from that address or for that name, whichever has
// failed more (from 100 ms, at most 5 s), until they have been quiet for ten minutes. A guesser's
// rate falls from about a thousand a second to one every few seconds, whether it cycles names from
// one address or one name from many; a student who mistypes once waits a tenth of a second. A
// successful login forgets only its own failures (that user's, from that address): another
// student's good login behind the same NAT does not speed the guesser up again.
type loginBackoff struct {
	mu     sync.Mutex
	byAddr map[string]*loginFailures
	byUser map[string]*loginFailures
	byPair map[[2]string]*loginFailures // what a success takes back from the other two
	first  time.Duration                // the first wait
	most   time.Duration
	quiet  time.Duration // failures older than this are forgotten
}

type loginFailures struct {
	n    int
	last time.Time
}

func newLoginBackoff() *loginBackoff {
	return &loginBackoff{byAddr: map[string]*loginFailures{}, byUser: map[string]*loginFailures{}, byPair: map[[2]string]*loginFailures{},
		first: 100 * time.Millisecond, most: 5 * time.Second, quiet: 10 * time.Minute}
}

// count adds a failure at now to m[k] (forgetting it first when quiet long enough) and returns it.
func count[K comparable](m map[K]*loginFailures, k K, now, quiet time.Time) int {
	if len(m) > 4096 { // many addresses or names: forget the quiet ones
		for o, f := range m {
			if f.last.Before(quiet) {
				delete(m, o)
			}
		}
	}
	f, ok := m[k]
	if !ok || f.last.Before(quiet) {
		f = &loginFailures{}
		m[k] = f
	}
	f.n++
	f.last = now
	return f.n
}

// failed records a failure of user from addr at now: the failures counted (the address's or the
// name's, whichever is more), and the wait before answering.
func (b *loginBackoff) failed(addr, user string, now time.Time) (int, time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	quiet := now.Add(-b.quiet)
	n := max(count(b.byAddr, addr, now, quiet), count(b.byUser, user, now, quiet))
	count(b.byPair, [2]string{addr, user}, now, quiet)
	return n, min(b.first<<min(n-1, 16), b.most)
}

// succeeded forgets the failures of user from addr, and only those.
func (b *loginBackoff) succeeded(addr, user string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.byPair[[2]string{addr, user}]
	if !ok {
		return
	}
	delete(b.byPair, [2]string{addr, user})
	for _, f := range []*loginFailures{b.byAddr[addr], b.byUser[user]} {
		if f != nil {
			f.n = max(f.n-p.n, 0)
		}
	}
}

// isPresenter reports whether a session authenticated with a presenter's key.
func (s *Server) isPresenter(sess ssh.Session) bool {
	keys := s.presenters.Load()
	return keys != nil && sess.PublicKey() != nil && hasKey(*keys, sess.PublicKey())
}
