package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/cara-sim/cara/internal/simtest"
)

// The hostile clients of issue 22, each a golang.org/x/crypto/ssh client on loopback, bounded in
// count and time (the whole suite runs in a few seconds, -short included). After each, the
// server's goroutines go back to where they were: nothing outlives its connection.

// goroutinesBack waits up to 5 s for the process's goroutines to come back within slack of idle.
func goroutinesBack(t *testing.T, what string, idle int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= idle+3 {
			t.Logf("%s: %d goroutines (idle %d)", what, n, idle)
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%s: %d goroutines 5 s after the clients left, idle %d\n%s", what, n, idle, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// heapSlack is how much more than before a hostile client may leave on the heap: the caches a
// served room keeps (a run kept, the scenarios loaded), not what a client sent.
const heapSlack = 16 << 20

// heapBack waits up to 5 s for the live heap to come back within heapSlack of before.
func heapBack(t *testing.T, what string, before uint64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		now := heapInUse()
		if now <= before+heapSlack {
			t.Logf("%s: heap %.1f MB (before %.1f MB)", what, float64(now)/(1<<20), float64(before)/(1<<20))
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: heap %.1f MB 5 s after the clients left, %.1f MB before", what, float64(now)/(1<<20), float64(before)/(1<<20))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// atPicker connects a 120x40 session and waits for the picker.
func atPicker(t *testing.T, addr string) (*gossh.Client, *gossh.Session, *screen) {
	t.Helper()
	c, err := dial(t, addr)
	if err != nil {
		t.Fatal(err)
	}
	sess, sc := openPTY(t, c)
	sc.waitFor(t, "pick a scenario")
	return c, sess, sc
}

// withPTY connects and asks for a cols x rows terminal, but does not start the shell.
func withPTY(t *testing.T, addr string, cols, rows int) (*gossh.Client, *gossh.Session, *screen) {
	t.Helper()
	c, err := dial(t, addr)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	sc := &screen{}
	sc.in, _ = sess.StdinPipe()
	sess.Stdout, sess.Stderr = sc, sc
	if err := sess.RequestPty("xterm-256color", rows, cols, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	return c, sess, sc
}

// request sends a channel request and fails unless it is answered, as want, within 2 s.
func request(t *testing.T, s *gossh.Session, name string, payload []byte, want bool) {
	t.Helper()
	type answer struct {
		ok  bool
		err error
	}
	got := make(chan answer, 1)
	go func() {
		ok, err := s.SendRequest(name, true, payload)
		got <- answer{ok, err}
	}()
	select {
	case a := <-got:
		if a.err != nil || a.ok != want {
			t.Errorf("%s: answered %v (%v), want %v", name, a.ok, a.err, want)
		}
	case <-time.After(2 * time.Second):
		t.Errorf("%s: no answer in 2 s", name)
	}
}

func resize(cols, rows int) []byte {
	return gossh.Marshal(windowChange{Cols: uint32(cols), Rows: uint32(rows)})
}

// A terminal of 8000x4000 (or stty cols 9000 rows 5000 later) gets a screen of at most 500x200 and
// a line saying so; a normal size again and the line goes. The heap stays far from the 547 MB one
// unclamped 4000x2000 session took.
func TestHostileHugeTerminal(t *testing.T) {
	_, addr, _ := startServing(t, Config{})
	idle := runtime.NumGoroutine()
	c, sess, sc := withPTY(t, addr, 8000, 4000)
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	sc.waitFor(t, "pick a scenario")
	sc.waitFor(t, "cara draws at most 500x200; this terminal is 8000x4000")
	sc.send("\r") // covcon-d: every pane drawn at 500x199
	sc.waitFor(t, "covcon-d · seed 0 · ")
	mark := sc.mark()
	request(t, sess, "window-change", resize(9000, 5000), true)
	if err := sc.waitAfter(mark, "this terminal is 9000x5000", 5*time.Second); err != nil {
		t.Error(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("heap in use with a 9000x5000 terminal: %.0f MB", float64(ms.HeapInuse)/(1<<20))
	if ms.HeapInuse > 200<<20 {
		t.Errorf("heap in use %.0f MB with one huge terminal", float64(ms.HeapInuse)/(1<<20))
	}
	request(t, sess, "window-change", resize(120, 40), true)
	mark = sc.mark()
	sc.send("l")
	if err := sc.waitAfter(mark, "batch 1/", 5*time.Second); err != nil {
		t.Error(err)
	}
	mark = sc.mark() // every frame from here is drawn at 120x40
	sc.send("l")
	if err := sc.waitAfter(mark, "batch 2/", 5*time.Second); err != nil {
		t.Error(err)
	}
	if strings.Contains(sc.since(mark), "cara draws at most") {
		t.Error("the note stayed at 120x40")
	}
	sess.Close()
	c.Close()
	goroutinesBack(t, "huge terminal", idle)
}

// Every channel request is answered, before the shell and after a refused session, and the
// session still starts: a window-change between pty-req and shell (upstream blocked on it for
// good), agent forwarding (refused, not "success"), a signal, a storm of resizes; and after an
// exec the server refused, more window-changes. Then nothing is left of them.
func TestHostileRequests(t *testing.T) {
	srv, addr, _ := startServing(t, Config{MaxSessions: 10})
	idle := runtime.NumGoroutine()
	c, sess, sc := withPTY(t, addr, 120, 40)
	for i := range 3 {
		request(t, sess, "window-change", resize(100+i, 30), true)
	}
	request(t, sess, "auth-agent-req@openssh.com", nil, false)
	request(t, sess, "signal", gossh.Marshal(struct{ Signal string }{"INT"}), false)
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	sc.waitFor(t, "pick a scenario")
	// A storm: 200 resizes as fast as the client sends them; the session answers a key after it.
	for i := range 200 {
		request(t, sess, "window-change", resize(80+i%100, 24+i%40), true)
	}
	mark := sc.mark()
	sc.send("j\r")
	if err := sc.waitAfter(mark, " · seed ", 5*time.Second); err != nil {
		t.Errorf("after the storm: %v", err)
	}

	// An exec refused, then window-changes on the refused session: each answered.
	refused, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, _ := refused.CombinedOutput("ls /")
	if !strings.Contains(string(out), "terminal UI only") {
		t.Errorf("exec: %q", out)
	}
	for range 5 { // the channel is closed by then (an error at once), or open and answered: never a hang
		done := make(chan struct{})
		go func() { refused.SendRequest("window-change", true, resize(90, 30)); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			t.Fatal("a window-change after a refused exec hung")
		}
	}
	// A second connection that asks for a pty and changes its size but never starts a shell.
	c2, err := dial(t, addr)
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := c2.NewSession()
	s2.RequestPty("xterm", 24, 80, gossh.TerminalModes{})
	for range 10 {
		request(t, s2, "window-change", resize(81, 25), true)
	}
	if n := srv.sessions.Load(); n != 1 {
		t.Errorf("%d sessions admitted, want the one with a shell", n)
	}
	sess.Close()
	c.Close()
	c2.Close()
	goroutinesBack(t, "requests", idle)
}

// A paste that never ends (ESC[200~ and a megabyte, no end) does not freeze the session: a second
// later q quits as it should, and the megabyte cost a linear scan, not a quadratic one.
func TestHostilePaste(t *testing.T) {
	_, addr, _ := startServing(t, Config{})
	idle := runtime.NumGoroutine()
	c, sess, sc := atPicker(t, addr)
	defer c.Close()
	start := time.Now()
	sc.in.Write([]byte("\x1b[200~"))
	sc.in.Write(bytes.Repeat([]byte("x"), 1<<20))
	time.Sleep(pasteTimeout + 200*time.Millisecond)
	sc.send("q")
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	select {
	case <-done:
		t.Logf("q quit %v after the paste began", time.Since(start).Round(10*time.Millisecond))
	case <-time.After(5 * time.Second):
		t.Fatal("q did not quit 5 s after an unterminated paste")
	}
	c.Close()
	goroutinesBack(t, "paste", idle)
}

// Wrong passwords are counted (cara_auth_failures_total), logged with the address (the first at
// once, the rest as a count), and answered more slowly each time from the same address: four take
// at least 0.1 + 0.2 + 0.4 + 0.8 s. The right one still gets in, and starts its own count again.
func TestHostileLogins(t *testing.T) {
	pw := filepath.Join(t.TempDir(), "pw")
	os.WriteFile(pw, []byte("tulip\n"), 0o600)
	srv, addr, logs := startServing(t, Config{PasswordFile: pw})
	idle := runtime.NumGoroutine()
	start := time.Now()
	for range 4 {
		if c, err := dial(t, addr, gossh.Password("rose")); err == nil {
			c.Close()
			t.Fatal("a wrong password got in")
		}
	}
	took := time.Since(start)
	if took < 1500*time.Millisecond {
		t.Errorf("four wrong passwords answered in %v, want at least 1.5 s", took)
	}
	if got := scrape(t, srv.metricsURL)[`cara_auth_failures_total{method="password"}`]; got != 4 {
		t.Errorf("cara_auth_failures_total %v, want 4", got)
	}
	if n := strings.Count(logs.String(), `msg="login refused" client=127.0.0.1:`); n != 1 {
		t.Errorf("%d login refusals logged, want the first (the others counted):\n%s", n, logs.String())
	}
	c, err := dial(t, addr, gossh.Password("tulip"))
	if err != nil {
		t.Fatalf("the right password after four wrong ones: %v", err)
	}
	c.Close()
	if n, wait := srv.logins.failed("127.0.0.1", "student", time.Now()); n != 1 || wait != 100*time.Millisecond {
		t.Errorf("after a login: failure %d waits %v, want the count started again", n, wait)
	}
	t.Logf("four wrong passwords: %v", took.Round(10*time.Millisecond))
	goroutinesBack(t, "logins", idle)
}

// One client cannot fill the room: a fourth session on one connection is refused; an address
// with a limit of two has at most two connections with sessions, a third is closed at once; a
// connection that never speaks SSH is closed within two seconds, one that stops in its login at the
// connect timeout.
func TestHostileCaps(t *testing.T) {
	srv, addr, _ := startServing(t, Config{MaxPerAddress: 2, MaxSessions: 10, ConnectTimeout: 300 * time.Millisecond})
	idle := runtime.NumGoroutine()
	c, err := dial(t, addr)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		s, err := c.NewSession()
		if i < 3 && err != nil {
			t.Fatalf("session %d: %v", i+1, err)
		}
		if i == 3 {
			if err == nil || !strings.Contains(err.Error(), "at most 3 sessions on one connection") {
				t.Errorf("a fourth session on one connection: %v", err)
			}
			continue
		}
		defer s.Close()
	}
	second, err := dial(t, addr)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := second.NewSession() // settled: two from this address now
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, err := dial(t, addr); err == nil {
		t.Error("a third connection from one address got in")
	}
	second.Close()
	simtest.Eventually(t, "the second connection's place given back", func() bool {
		srv.addrs.mu.Lock()
		defer srv.addrs.mu.Unlock()
		a := srv.addrs.by["127.0.0.1"]
		return a != nil && a.settled == 1 && len(a.waiting) == 0
	})
	// A connection that speaks SSH but never logs in (stops after its version) is closed at the
	// connect timeout.
	stuck, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	stuck.Write([]byte("SSH-2.0-stuck\r\n"))
	stuck.SetReadDeadline(time.Now().Add(5 * time.Second))
	start := time.Now()
	io.Copy(io.Discard, stuck) // the server's version and key exchange, then the close
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("a connection stuck in its handshake lasted %v, connect timeout 300 ms", d)
	}
	m := scrape(t, srv.metricsURL)
	for _, reason := range []string{"per_connection", "per_address", "connect_timeout"} {
		if m[`cara_sessions_refused_total{reason="`+reason+`"}`] != 1 {
			t.Errorf("refused for %s: %v, want 1", reason, m[`cara_sessions_refused_total{reason="`+reason+`"}`])
		}
	}
	c.Close()
	stuck.Close()
	goroutinesBack(t, "caps", idle)
}

// Silent sockets cannot lock a NAT out: twenty connections from one address that never say a word
// (the address's whole limit) give their places to a real client as it comes, and are closed
// within two seconds anyway; the refusals are logged as a few lines, not one each; and what they
// held goes: goroutines and heap back to where they were.
func TestHostileSilentSockets(t *testing.T) {
	srv, addr, logs := startServing(t, Config{MaxPerAddress: 20, MaxSessions: 10})
	idle := runtime.NumGoroutine()
	heap := heapInUse()
	var silent []net.Conn
	for range 20 {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		silent = append(silent, nc)
	}
	simtest.Eventually(t, "twenty silent sockets counted", func() bool {
		srv.addrs.mu.Lock()
		defer srv.addrs.mu.Unlock()
		a := srv.addrs.by["127.0.0.1"]
		return a != nil && len(a.waiting) == 20
	})
	var students []*gossh.Client
	for i := range 3 { // three students behind the same NAT
		c, err := dial(t, addr)
		if err != nil {
			t.Fatalf("student %d behind twenty silent sockets: %v", i, err)
		}
		defer c.Close()
		students = append(students, c)
		if _, err := c.NewSession(); err != nil {
			t.Fatalf("student %d: %v", i, err)
		}
	}
	start := time.Now()
	for _, nc := range silent {
		nc.SetReadDeadline(time.Now().Add(5 * time.Second))
		io.Copy(io.Discard, nc)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("silent sockets lasted %v, want at most about 2 s", d)
	}
	if got := scrape(t, srv.metricsURL)[`cara_sessions_refused_total{reason="silent"}`]; got != 20 {
		t.Errorf("%v silent sockets counted, want 20", got)
	}
	if n := strings.Count(logs.String(), "connection refused"); n != 1 {
		t.Errorf("%d refusals logged one by one, want the first (the rest counted)", n)
	}
	for _, nc := range silent {
		nc.Close()
	}
	for _, c := range students {
		c.Close()
	}
	goroutinesBack(t, "silent sockets", idle)
	heapBack(t, "silent sockets", heap)
}

// Login backoff is per address and per user name, and one client's good login does not reset it
// for another: a guesser's wrong passwords beside a student who logs in again and again still slow
// down (60 of them took 6.7 s when a good login reset the address's count).
func TestHostileLoginsBesideAGoodClient(t *testing.T) {
	pw := filepath.Join(t.TempDir(), "pw")
	os.WriteFile(pw, []byte("tulip\n"), 0o600)
	srv, addr, _ := startServing(t, Config{PasswordFile: pw})
	idle := runtime.NumGoroutine()
	guess := func(user, password string) error {
		c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user, Auth: []gossh.AuthMethod{gossh.Password(password)},
			HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
		if err == nil {
			c.Close()
		}
		return err
	}
	start := time.Now()
	for i := range 5 {
		if guess("mallory", "rose") == nil {
			t.Fatal("a wrong password got in")
		}
		if err := guess("student"+strconv.Itoa(i), "tulip"); err != nil {
			t.Fatalf("a good login: %v", err)
		}
	}
	took := time.Since(start)
	// 0.1 + 0.2 + 0.4 + 0.8 + 1.6 s for the guesses, whatever the good logins between them.
	if took < 3*time.Second {
		t.Errorf("five wrong passwords beside five good logins took %v, want at least 3 s", took)
	}
	// Cycling names from one address is slowed as much.
	n, wait := srv.logins.failed("127.0.0.1", "eve", time.Now())
	if n != 6 || wait != 3200*time.Millisecond {
		t.Errorf("a new name from the guesser's address: failure %d waits %v, want the address's 6th, 3.2 s", n, wait)
	}
	// A good login forgets its own failures only.
	srv.logins.failed("10.0.0.9", "alice", time.Now())
	srv.logins.succeeded("10.0.0.9", "alice")
	if n, _ := srv.logins.failed("10.0.0.9", "alice", time.Now()); n != 1 {
		t.Errorf("after alice's good login her next failure is the %dth, want the 1st", n)
	}
	goroutinesBack(t, "logins beside a good client", idle)
}

// A client that stops answering (a closed laptop: here, one that never reads the server's
// requests) is closed after three unanswered keepalives, and counted.
func TestHostileKeepAlive(t *testing.T) {
	srv, addr, _ := startServing(t, Config{KeepAlive: 100 * time.Millisecond})
	idle := runtime.NumGoroutine()
	raw, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	cc, chans, _, err := gossh.NewClientConn(raw, addr, &gossh.ClientConfig{User: "student", HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		t.Fatal(err)
	}
	c := gossh.NewClient(cc, chans, make(chan *gossh.Request)) // the server's requests are never read
	sess, sc := openPTY(t, c)
	sc.waitFor(t, "pick a scenario")
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a client that answers no keepalive was still connected after 5 s")
	}
	if got := scrape(t, srv.metricsURL)["cara_keepalive_closed_total"]; got != 1 {
		t.Errorf("cara_keepalive_closed_total %v, want 1", got)
	}
	raw.Close()
	goroutinesBack(t, "keepalive", idle)
}

// On shutdown every student reads why their session ended, and their ssh exits with status 1
// (not 0, as if they had quit).
func TestShutdownMessage(t *testing.T) {
	srv, addr, _ := startServing(t, Config{})
	c, sess, sc := atPicker(t, addr)
	defer c.Close()
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	go srv.Shutdown(ctx)
	select {
	case err := <-done:
		var ee *gossh.ExitError
		if !errors.As(err, &ee) || ee.ExitStatus() != 1 {
			t.Errorf("ssh ended with %v, want exit status 1", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the session outlived the shutdown")
	}
	sc.waitFor(t, goodbye)
}
