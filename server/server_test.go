package server

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/cara-sim/cara/scenarios"
)

// startServer serves on a random loopback port and returns its address.
func startServer(t *testing.T, cfg Config) string {
	t.Helper()
	_, addr, _ := startServing(t, cfg)
	return addr
}

// startServing serves on a random loopback port, with metrics on another, and returns the server,
// its address and its log.
func startServing(t *testing.T, cfg Config) (*Server, string, *syncWriter) {
	t.Helper()
	return startServingHooks(t, cfg, hooks{})
}

// startServingHooks is startServing with a test's hooks in the server.
func startServingHooks(t *testing.T, cfg Config, h hooks) (*Server, string, *syncWriter) {
	t.Helper()
	dir := t.TempDir()
	cfg.Listen = "127.0.0.1:0"
	cfg.HostKey = filepath.Join(dir, "host_ed25519")
	if cfg.ScenariosDir == "" {
		cfg.ScenariosDir = "testdata"
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = time.Minute
	}
	cfg.CacheRuns = 4
	if cfg.MaxSessions == 0 {
		cfg.MaxSessions = 5
	}
	logs := &syncWriter{w: &bytes.Buffer{}}
	cfg.Log = slog.New(slog.NewTextHandler(logs, nil))
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv.hooks = h
	if err := srv.ServeMetrics("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(srv.Close)
	st, err := os.Stat(cfg.HostKey)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("host key %s: %v mode %v, want 0600", cfg.HostKey, err, st.Mode().Perm())
	}
	return srv, ln.Addr().String(), logs
}

type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.String()
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

func dial(t *testing.T, addr string, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	t.Helper()
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "student", Auth: auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
}

// screen is an interactive session's output, read in the background. It keeps the last few MB
// (a long session redraws a lot), and the first queue status it saw.
type screen struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	dropped int // bytes dropped from the front of buf
	queued  string
	in      io.WriteCloser
}

var queuedRe = regexp.MustCompile(`queued: \d+\w\w(, about \d+ (s|min))?`)

// Write records output and, like a terminal, answers the server's queries for the background
// colour (OSC 11) and the device attributes (DA1).
func (s *screen) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if bytes.Contains(b, []byte("\x1b]11;?")) {
		go s.in.Write([]byte("\x1b]11;rgb:0000/0000/0000\a"))
	}
	if bytes.Contains(b, []byte("\x1b[c")) {
		go s.in.Write([]byte("\x1b[?62;c"))
	}
	if q := queuedRe.Find(b); q != nil && s.queued == "" {
		s.queued = string(q)
	}
	n, err := s.buf.Write(b)
	if s.buf.Len() > 4<<20 {
		keep := s.buf.Bytes()[s.buf.Len()-1<<20:]
		s.dropped += s.buf.Len() - len(keep)
		s.buf = *bytes.NewBuffer(append([]byte(nil), keep...))
	}
	return n, err
}

// forget drops the output kept (a measurement of the server's memory leaves the client's out).
func (s *screen) forget() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropped += s.buf.Len()
	s.buf = bytes.Buffer{}
}

// String is the output kept.
func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// since is the output kept after mark.
func (s *screen) since(mark int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.buf.Bytes()[min(max(mark-s.dropped, 0), s.buf.Len()):])
}

// mark is the position of the output's end, for waitAfter.
func (s *screen) mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped + s.buf.Len()
}

func (s *screen) waitFor(t *testing.T, text string) {
	t.Helper()
	if err := s.wait(text, 15*time.Second); err != nil {
		t.Fatal(err)
	}
}

// wait is waitFor for goroutines other than the test's: it returns the failure.
func (s *screen) wait(text string, d time.Duration) error { return s.waitAfter(0, text, d) }

// waitAfter waits for text to appear in the output after mark. It looks only at what arrived since
// it last looked, so fifty sessions waiting at once stay cheap.
func (s *screen) waitAfter(mark int, text string, d time.Duration) error {
	deadline := time.Now().Add(d)
	from := mark // absolute position from which text may start
	for {
		s.mu.Lock()
		out := s.buf.Bytes()[min(max(from-s.dropped, 0), s.buf.Len()):]
		ok := bytes.Contains(out, []byte(text))
		end := s.dropped + s.buf.Len()
		tail := ""
		if !ok && time.Now().After(deadline) {
			tail = string(s.buf.Bytes()[max(s.buf.Len()-2000, 0):])
		}
		s.mu.Unlock()
		if ok {
			return nil
		}
		if tail != "" {
			return fmt.Errorf("%q did not appear; output ends with:\n%q", text, tail)
		}
		from = max(from, end-len(text)+1)
		time.Sleep(5 * time.Millisecond)
	}
}

// send types keys one at a time, as a person does (a burst arrives as one multi-rune key).
func (s *screen) send(keys string) {
	for _, k := range keys {
		s.in.Write([]byte(string(k)))
		time.Sleep(15 * time.Millisecond)
	}
}

func openPTY(t *testing.T, c *gossh.Client) (*gossh.Session, *screen) {
	t.Helper()
	sess, sc, err := startPTY(c)
	if err != nil {
		t.Fatal(err)
	}
	return sess, sc
}

// startPTY opens an interactive session with a 120x40 terminal.
func startPTY(c *gossh.Client) (*gossh.Session, *screen, error) {
	sess, err := c.NewSession()
	if err != nil {
		return nil, nil, err
	}
	sc := &screen{}
	if sc.in, err = sess.StdinPipe(); err != nil {
		return nil, nil, err
	}
	sess.Stdout, sess.Stderr = sc, sc
	if err := sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
		return nil, nil, err
	}
	if err := sess.Shell(); err != nil {
		return nil, nil, err
	}
	return sess, sc, nil
}

func TestServeEndToEnd(t *testing.T) {
	t.Parallel()
	addr := startServer(t, Config{})
	c, sess, sc := atPicker(t, addr)
	defer c.Close()
	// The offered file comes after the embedded scenarios.
	sc.send(strings.Repeat("j", len(scenarios.Embedded())))
	sc.waitFor(t, "Small: a test scenario")
	sc.send("\r")
	sc.waitFor(t, "computed all")
	sc.send("lll")
	sc.waitFor(t, "batch 3/11")
	sc.send("]")
	sc.waitFor(t, "R 0.625")
	backToPicker(t, sc)
	sc.send("q")
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the session did not end after q")
	}
}

func TestServeRefusals(t *testing.T) {
	t.Parallel()
	srv, addr, _ := startServing(t, Config{MaxSessions: 1})
	c, err := dial(t, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// No PTY: one line, then closed.
	s1, _ := c.NewSession()
	out, _ := s1.CombinedOutput("")
	if !strings.Contains(string(out), "cara needs a terminal") {
		t.Errorf("without a PTY: %q", out)
	}
	// A command: refused.
	s2, _ := c.NewSession()
	out, _ = s2.CombinedOutput("cat /etc/passwd")
	if !strings.Contains(string(out), "terminal UI only") || strings.Contains(string(out), "root:") {
		t.Errorf("exec: %q", out)
	}
	// Over --max-sessions.
	first, sc := openPTY(t, c)
	defer first.Close()
	sc.waitFor(t, "pick a scenario")
	second, sc2 := openPTY(t, c)
	defer second.Close()
	sc2.waitFor(t, "The room is full")
	m := scrape(t, srv.metricsURL)
	for _, reason := range []string{"exec", "no_pty", "room_full"} {
		if got := m[`cara_sessions_refused_total{reason="`+reason+`"}`]; got != 1 {
			t.Errorf("refused %s: %v, want 1", reason, got)
		}
	}
	if m["cara_sessions"] != 1 {
		t.Errorf("cara_sessions %v, want 1 (the one admitted)", m["cara_sessions"])
	}
}

func TestServeAuth(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pubA, privA, _ := ed25519.GenerateKey(rand.Reader)
	_, privB, _ := ed25519.GenerateKey(rand.Reader)
	sshPub, _ := gossh.NewPublicKey(pubA)
	keys := filepath.Join(dir, "authorized_keys")
	os.WriteFile(keys, gossh.MarshalAuthorizedKey(sshPub), 0o600)
	addr := startServer(t, Config{AuthorizedKeys: keys})
	signerB, _ := gossh.NewSignerFromKey(privB)
	if c, err := dial(t, addr, gossh.PublicKeys(signerB)); err == nil {
		c.Close()
		t.Error("an unknown key got in")
	}
	signerA, _ := gossh.NewSignerFromKey(privA)
	c, err := dial(t, addr, gossh.PublicKeys(signerA))
	if err != nil {
		t.Fatalf("the authorized key was refused: %v", err)
	}
	c.Close()

	pw := filepath.Join(dir, "room.txt")
	os.WriteFile(pw, []byte("tulip\n"), 0o600)
	addr = startServer(t, Config{PasswordFile: pw})
	if c, err := dial(t, addr, gossh.Password("rose")); err == nil {
		c.Close()
		t.Error("a wrong password got in")
	}
	if c, err := dial(t, addr, gossh.Password("tulip")); err != nil {
		t.Errorf("the right password was refused: %v", err)
	} else {
		c.Close()
	}
}

func TestServeNeedsAuthOffLoopback(t *testing.T) {
	t.Parallel()
	_, err := New(Config{Listen: "0.0.0.0:0", HostKey: filepath.Join(t.TempDir(), "k"), MaxSessions: 1})
	if err == nil || !strings.Contains(err.Error(), "needs --authorized-keys or --password-file, or --open") {
		t.Errorf("error %v", err)
	}
	if _, err := New(Config{Listen: "0.0.0.0:0", HostKey: filepath.Join(t.TempDir(), "k"), MaxSessions: 1, Open: true}); err != nil {
		t.Errorf("--open: %v", err)
	}
}

var _ = ssh.ErrServerClosed

// The server's budget refuses a scenario too big for it, in the picker, and the session goes on.
func TestServeBudget(t *testing.T) {
	t.Parallel()
	addr := startServer(t, Config{MaxWork: 1000})
	c, _, sc := atPicker(t, addr)
	defer c.Close()
	sc.send("\r") // covcon-d: 1e7 units of work
	sc.waitFor(t, "too big for this machine's budget")
	sc.send("q")
}

// backToPicker leaves the player with q and waits for the picker drawn after it: waiting from the
// output's start would find the first picker, and keys sent before the new one arrive in the player.
func backToPicker(t *testing.T, sc *screen) {
	t.Helper()
	at := sc.mark()
	sc.send("q")
	if err := sc.waitAfter(at, "pick a scenario", 15*time.Second); err != nil {
		t.Fatal(err)
	}
}
