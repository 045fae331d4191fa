package server

import (
	"bufio"
	"bytes"
	"crypto/subtle"
	"fmt"
	"maps"
	"net"
	"os"
	"slices"
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
			if len(ctx.User()) > maxUserBytes {
				s.refused(ctx, "publickey")
				return false // before a presenter's key too: no name that long is kept or shown
			}
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
			if len(ctx.User()) <= maxUserBytes && subtle.ConstantTimeCompare([]byte(pw), want) == 1 {
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

// maxUserBytes bounds a login name: a longer one is refused before it is kept (the backoff's
// tables, the room) or logged. 347 failed logins with 60 kB names in a minute grew the server by
// 21 MB and logged a 60 kB line each.
const maxUserBytes = 256

// userForLog is a login name as the log may hold it: cut to maxUserBytes, saying its length.
func userForLog(user string) string {
	if len(user) <= maxUserBytes {
		return user
	}
	return fmt.Sprintf("%s... (%d bytes)", strings.ToValidUTF8(user[:64], ""), len(user))
}

// refused counts and logs a refused login, and says how long to hold a wrong password's answer.
// A name over maxUserBytes is counted against its address only: it is never kept.
func (s *Server) refused(ctx ssh.Context, method string) time.Duration {
	s.metrics.authFailures.WithLabelValues(method).Inc()
	user, reason := ctx.User(), "login_"+method
	if len(user) > maxUserBytes {
		user, reason = "", "login_long_name"
	}
	n, wait := s.logins.failed(host(ctx.RemoteAddr()), user, time.Now())
	s.refusals.note(reason, "login refused", "client", ctx.RemoteAddr().String(), "user", userForLog(ctx.User()), "method", method, "failures", n)
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
	byAddr *failureTable[string]
	byUser *failureTable[string]
	byPair *failureTable[[2]string] // what a success takes back from the other two
	first  time.Duration            // the first wait
	most   time.Duration
	quiet  time.Duration // failures older than this are forgotten
}

type loginFailures struct {
	n    int
	last time.Time
}

// The backoff's tables are bounded: at most maxFailureKeys keys each, and maxFailureBytes of names
// and addresses in all (a name is at most maxUserBytes); past either, the quiet keys go, then the
// least recently failed. About 4096 x (256 + 64) x 3 bytes at the most: under 4 MB.
const (
	maxFailureKeys  = 4096
	maxFailureBytes = 1 << 20
)

func newLoginBackoff() *loginBackoff {
	return &loginBackoff{byAddr: newFailureTable(strSize), byUser: newFailureTable(strSize), byPair: newFailureTable(pairSize),
		first: 100 * time.Millisecond, most: 5 * time.Second, quiet: 10 * time.Minute}
}

// failureTable is one of the backoff's tables: failures by key, with the bytes its keys hold.
type failureTable[K comparable] struct {
	m     map[K]*loginFailures
	bytes int
	size  func(K) int
}

func newFailureTable[K comparable](size func(K) int) *failureTable[K] {
	return &failureTable[K]{m: map[K]*loginFailures{}, size: size}
}

// count adds a failure at now to k's (forgetting it first when quiet long enough) and returns it.
func (t *failureTable[K]) count(k K, now, quiet time.Time) int {
	f, ok := t.m[k]
	if !ok {
		t.bound(t.size(k), quiet)
		f = &loginFailures{}
		t.m[k] = f
		t.bytes += t.size(k)
	} else if f.last.Before(quiet) {
		*f = loginFailures{}
	}
	f.n++
	f.last = now
	return f.n
}

// bound makes room for a key of more bytes: the quiet keys go first, then the least recently
// failed eighth (at once, so that a flood of new names sorts the table once in many logins), until
// the table is within maxFailureKeys and maxFailureBytes with it.
func (t *failureTable[K]) bound(more int, quiet time.Time) {
	full := func() bool { return len(t.m)+1 > maxFailureKeys || t.bytes+more > maxFailureBytes }
	if !full() {
		return
	}
	for k, f := range t.m {
		if f.last.Before(quiet) {
			t.drop(k)
		}
	}
	if !full() {
		return
	}
	keys := slices.Collect(maps.Keys(t.m))
	slices.SortFunc(keys, func(a, b K) int { return t.m[a].last.Compare(t.m[b].last) })
	for i, k := range keys {
		if i >= max(len(keys)/8, 1) && !full() {
			break
		}
		t.drop(k)
	}
}

func (t *failureTable[K]) drop(k K) {
	if _, ok := t.m[k]; ok {
		delete(t.m, k)
		t.bytes -= t.size(k)
	}
}

// failureKeyBytes is what a key holds: its string and the map's entry.
const failureKeyBytes = 64

func strSize(k string) int     { return len(k) + failureKeyBytes }
func pairSize(k [2]string) int { return len(k[0]) + len(k[1]) + failureKeyBytes }

// failed records a failure of user from addr at now: the failures counted (the address's or the
// name's, whichever is more), and the wait before answering. user "" counts the address only (a
// name too long to keep).
func (b *loginBackoff) failed(addr, user string, now time.Time) (int, time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	quiet := now.Add(-b.quiet)
	n := b.byAddr.count(addr, now, quiet)
	if user != "" {
		n = max(n, b.byUser.count(user, now, quiet))
		b.byPair.count([2]string{addr, user}, now, quiet)
	}
	return n, min(b.first<<min(n-1, 16), b.most)
}

// size is the keys and bytes the backoff's tables hold, for tests.
func (b *loginBackoff) size() (keys, bytes int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.byAddr.m) + len(b.byUser.m) + len(b.byPair.m), b.byAddr.bytes + b.byUser.bytes + b.byPair.bytes
}

// succeeded forgets the failures of user from addr, and only those.
func (b *loginBackoff) succeeded(addr, user string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.byPair.m[[2]string{addr, user}]
	if !ok {
		return
	}
	b.byPair.drop([2]string{addr, user})
	for _, f := range []*loginFailures{b.byAddr.m[addr], b.byUser.m[user]} {
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
