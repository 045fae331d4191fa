package main

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// TestServeHostileClient is the hostile client against the real binary: a measurement, each
// attack bounded in time, run with
//
//	CARA_HOSTILE=1 go test -run 'ServeHostileClient$' -v -timeout 20m ./cmd/cara
//
// One `cara serve` as a room would run it (a password, a presenter's key, --answers, --memory
// 800MiB, one compute slot) takes, one after another: garbage (not SSH), bigwin (a 9000x5000
// terminal and a storm of resizes), idle (silent sockets past the per-address limit), zombie
// (sessions that never read), cmdflood (one student's commands), upflood (uploads, by password and
// by key, under key churn), editor (a paste and a minute of typing), colonset (:set floods),
// auth (a minute of failed logins with 60 kB names), impersonate (a student named as the
// presenter, with escapes in the name), the presenter's races (two at once, one away past the
// grace) and SIGHUP under load. After each, a student must still reach the picker within 10 s,
// the server's RSS is logged, and what must hold is checked.
func TestServeHostileClient(t *testing.T) {
	if os.Getenv("CARA_HOSTILE") == "" {
		t.Skip("a measurement: set CARA_HOSTILE=1 to run it")
	}
	h := startHostile(t)
	defer h.stop()
	attacks := []struct {
		name string
		run  func(t *testing.T, h *hostile) string
	}{
		{"garbage", attackGarbage}, {"bigwin", attackBigwin}, {"idle", attackIdle}, {"zombie", attackZombie},
		{"cmdflood", attackCmdflood}, {"upflood", attackUpflood}, {"editor", attackEditor}, {"colonset", attackColonset},
		{"auth", attackAuth}, {"impersonate", attackImpersonate}, {"presenter", attackPresenter}, {"sighup", attackSighup},
	}
	var table []string
	for _, a := range attacks {
		before, _ := h.rss()
		start := time.Now()
		var what string
		t.Run(a.name, func(t *testing.T) { what = a.run(t, h) })
		took := time.Since(start)
		probe, err := h.probe()
		if err != nil {
			t.Errorf("after %s a student cannot reach the picker: %v", a.name, err)
		}
		after, peak := h.rss()
		table = append(table, fmt.Sprintf("| %s | %v | %.0f -> %.0f MB (peak %.0f) | %v | %s |", a.name, took.Round(100*time.Millisecond),
			before, after, peak, probe.Round(time.Millisecond), what))
	}
	t.Logf("| attack | took | server RSS | a student to the picker after | what happened |\n|---|---|---|---|---|\n%s", strings.Join(table, "\n"))
	t.Logf("longest log line %d bytes of %d lines", h.longestLine(), h.lines())
	if h.longestLine() > 2<<10 {
		t.Errorf("a log line of %d bytes", h.longestLine())
	}
}

// hostile is the server under attack and what the attacks share.
type hostile struct {
	cmd          *exec.Cmd
	dir, addr    string
	metrics      string
	presKeys     string
	pres, other  gossh.Signer
	mu           sync.Mutex
	log          []string
	longest      int
	answers      string
	knn          string // a kNN scenario file within --max-command-work that computes for minutes
	guestCounter int
}

func newSigner(t *testing.T) (gossh.Signer, string) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := gossh.NewPublicKey(pub)
	return s, string(gossh.MarshalAuthorizedKey(p))
}

func startHostile(t *testing.T) *hostile {
	bin := buildCara(t)
	h := &hostile{dir: t.TempDir()}
	var presPub string
	h.pres, presPub = newSigner(t)
	h.other, _ = newSigner(t)
	pw := filepath.Join(h.dir, "room.txt")
	os.WriteFile(pw, []byte("tulip\n"), 0o600)
	h.presKeys = filepath.Join(h.dir, "presenters")
	os.WriteFile(h.presKeys, []byte(presPub), 0o600)
	h.answers = filepath.Join(h.dir, "answers.jsonl")
	h.cmd = exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--host-key", filepath.Join(h.dir, "key"), "--metrics", "127.0.0.1:0",
		"--password-file", pw, "--presenter-keys", h.presKeys, "--answers", h.answers, "--memory", "800MiB", "--max-computing", "1",
		"--presenter-grace", "3s", "--keepalive", "2s", "--command-timeout", "90s", "--command-queue", "20s")
	stderr, _ := h.cmd.StderrPipe()
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	up := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(nil, 4<<20)
		var once sync.Once
		for sc.Scan() {
			l := sc.Text()
			h.mu.Lock()
			h.longest = max(h.longest, len(l))
			h.log = append(h.log, l[:min(len(l), 300)])
			if m := regexp.MustCompile(`msg=metrics url=(\S+)`).FindStringSubmatch(l); m != nil {
				h.metrics = m[1]
			}
			if m := regexp.MustCompile(`msg=serving addr=(\S+)`).FindStringSubmatch(l); m != nil {
				h.addr = m[1]
				once.Do(func() { close(up) })
			}
			h.mu.Unlock()
		}
	}()
	select {
	case <-up:
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not start")
	}
	h.knn = filepath.Join(h.dir, "knn.yaml")
	b, _ := os.ReadFile(filepath.Join("..", "..", "scenarios", "embedded", "covcon-d.yaml"))
	s := regexp.MustCompile(`(?m)^model: .*$`).ReplaceAllString(string(b), "model: {knn: {k: 39}}")
	s = regexp.MustCompile(`(?ms)^whatif:.*`).ReplaceAllString(s, "")
	s = strings.Replace(s, "name: covcon-d", "name: knn39", 1)
	os.WriteFile(h.knn, []byte(s), 0o600)
	return h
}

func (h *hostile) stop() {
	h.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { h.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		h.cmd.Process.Kill()
	}
}

func (h *hostile) longestLine() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.longest
}

func (h *hostile) lines() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.log)
}

// logged counts the log lines matching re.
func (h *hostile) logged(re string) int {
	r := regexp.MustCompile(re)
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, l := range h.log {
		if r.MatchString(l) {
			n++
		}
	}
	return n
}

// rss is the server's resident memory and its peak, in MB.
func (h *hostile) rss() (now, peak float64) {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", h.cmd.Process.Pid))
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "VmRSS:":
			now = kb / 1024
		case "VmHWM:":
			peak = kb / 1024
		}
	}
	return now, peak
}

func (h *hostile) metric(t *testing.T, name string) float64 {
	t.Helper()
	m := metricsText(t, h.metrics)
	for _, l := range strings.Split(m, "\n") {
		if strings.HasPrefix(l, name+" ") {
			v, _ := strconv.ParseFloat(strings.TrimPrefix(l, name+" "), 64)
			return v
		}
	}
	return -1
}

func password(pw string) []gossh.AuthMethod { return []gossh.AuthMethod{gossh.Password(pw)} }

func (h *hostile) dial(user string, auth []gossh.AuthMethod) (*gossh.Client, error) {
	return gossh.Dial("tcp", h.addr, &gossh.ClientConfig{User: user, Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
}

// term is a session's screen, kept bounded, that answers the terminal queries cara asks.
type term struct {
	mu  sync.Mutex
	buf []byte
	in  io.WriteCloser
}

func (s *term) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if bytes.Contains(b, []byte("\x1b]11;?")) {
		go s.in.Write([]byte("\x1b]11;rgb:0000/0000/0000\a"))
	}
	if bytes.Contains(b, []byte("\x1b[c")) {
		go s.in.Write([]byte("\x1b[?62;c"))
	}
	s.buf = append(s.buf, b...)
	if len(s.buf) > 1<<20 {
		s.buf = append([]byte(nil), s.buf[len(s.buf)-256<<10:]...)
	}
	return len(b), nil
}

func (s *term) has(text string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Contains(s.buf, []byte(text))
}

func (s *term) wait(text string, d time.Duration) error {
	for end := time.Now().Add(d); !s.has(text); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			s.mu.Lock()
			tail := string(s.buf[max(len(s.buf)-600, 0):])
			s.mu.Unlock()
			return fmt.Errorf("%q not shown within %v; the screen ends %q", text, d, tail)
		}
	}
	return nil
}

func (s *term) send(keys string) {
	for _, k := range keys {
		s.in.Write([]byte(string(k)))
		time.Sleep(10 * time.Millisecond)
	}
}

// player opens an interactive session of cols x rows as user.
func (h *hostile) player(user string, auth []gossh.AuthMethod, cols, rows int) (*gossh.Client, *gossh.Session, *term, error) {
	c, err := h.dial(user, auth)
	if err != nil {
		return nil, nil, nil, err
	}
	sess, err := c.NewSession()
	if err != nil {
		c.Close()
		return nil, nil, nil, err
	}
	tm := &term{}
	tm.in, _ = sess.StdinPipe()
	sess.Stdout, sess.Stderr = tm, tm
	if err := sess.RequestPty("xterm-256color", rows, cols, gossh.TerminalModes{}); err != nil {
		c.Close()
		return nil, nil, nil, err
	}
	if err := sess.Shell(); err != nil {
		c.Close()
		return nil, nil, nil, err
	}
	return c, sess, tm, nil
}

// probe is a good student's login: the time to the picker (or, while a presenter is on or within
// its grace, to the presenter's stage).
func (h *hostile) probe() (time.Duration, error) {
	h.guestCounter++
	start := time.Now()
	c, _, tm, err := h.player(fmt.Sprintf("probe%d", h.guestCounter), password("tulip"), 120, 40)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if tm.has("pick a scenario") || tm.has("· following") || tm.has("you are free now") {
			return time.Since(start), nil
		}
	}
	return time.Since(start), tm.wait("pick a scenario", 0)
}

// command runs a headless command on a connection of its own: stderr and exit status.
func (h *hostile) command(user string, auth []gossh.AuthMethod, stdin, line string) (string, int) {
	c, err := h.dial(user, auth)
	if err != nil {
		return err.Error(), -1
	}
	defer c.Close()
	return sessionCommand(c, stdin, line)
}

// sessionCommand runs a headless command in a new session of c.
func sessionCommand(c *gossh.Client, stdin, line string) (string, int) {
	sess, err := c.NewSession()
	if err != nil {
		return err.Error(), -1
	}
	var errOut bytes.Buffer
	sess.Stdin, sess.Stdout, sess.Stderr = strings.NewReader(stdin), io.Discard, &errOut
	err = sess.Run(line)
	var ee *gossh.ExitError
	switch {
	case err == nil:
		return errOut.String(), 0
	case isExit(err, &ee):
		return errOut.String(), ee.ExitStatus()
	}
	return errOut.String() + err.Error(), -1
}

func isExit(err error, ee **gossh.ExitError) bool {
	e, ok := err.(*gossh.ExitError)
	*ee = e
	return ok
}

func attackGarbage(t *testing.T, h *hostile) string {
	var wg sync.WaitGroup
	var mu sync.Mutex
	n, shut := 200, 0
	sem := make(chan struct{}, 20)
	for range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c, err := net.DialTimeout("tcp", h.addr, 5*time.Second)
			if err != nil {
				return
			}
			defer c.Close()
			junk := make([]byte, 64<<10)
			rand.Read(junk)
			c.SetDeadline(time.Now().Add(10 * time.Second))
			c.Write(junk)
			if _, err := io.Copy(io.Discard, c); !errors.Is(err, os.ErrDeadlineExceeded) {
				mu.Lock()
				shut++ // the server closed it
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if shut < n*9/10 {
		t.Errorf("%d of %d garbage connections closed by the server within 10 s", shut, n)
	}
	return fmt.Sprintf("%d connections of 64 kB random bytes: %d closed by the server", n, shut)
}

func attackBigwin(t *testing.T, h *hostile) string {
	var notes int
	for i := range 5 {
		c, sess, tm, err := h.player(fmt.Sprintf("big%d", i), password("tulip"), 9000, 5000)
		if err != nil {
			t.Fatal(err)
		}
		for k := range 500 {
			sess.WindowChange(5000-k, 9000-k)
		}
		if err := tm.wait("cara draws at most 500x200", 15*time.Second); err == nil {
			notes++
		} else {
			t.Error(err)
		}
		c.Close()
	}
	return fmt.Sprintf("5 sessions at 9000x5000, 500 resizes each: %d told `cara draws at most 500x200`", notes)
}

func attackIdle(t *testing.T, h *hostile) string {
	var conns []net.Conn
	for range 40 {
		if c, err := net.Dial("tcp", h.addr); err == nil {
			conns = append(conns, c)
		}
	}
	d, err := h.probe() // past the per-address limit of 20, silent sockets give their place
	if err != nil {
		t.Errorf("a student beside 40 silent sockets: %v", err)
	}
	time.Sleep(3 * time.Second)
	open := 0
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err != nil && !strings.Contains(err.Error(), "EOF") && !strings.Contains(err.Error(), "reset") {
			open++
		}
		c.Close()
	}
	if open > 0 {
		t.Errorf("%d silent sockets still open after 3 s", open)
	}
	return fmt.Sprintf("40 silent sockets: a student in beside them in %v; %d still open 3 s later", d.Round(time.Millisecond), open)
}

func attackZombie(t *testing.T, h *hostile) string {
	var cs []*gossh.Client
	for i := range 10 {
		c, err := h.dial(fmt.Sprintf("zombie%d", i), password("tulip"))
		if err != nil {
			t.Fatal(err)
		}
		sess, _ := c.NewSession()
		in, _ := sess.StdinPipe()
		sess.StdoutPipe() // never read: the server's writes fill the channel's window and wait
		sess.RequestPty("xterm-256color", 200, 500, gossh.TerminalModes{})
		sess.Shell()
		go func() {
			for range 200 { // keys that redraw, while nothing is read
				in.Write([]byte("j"))
				time.Sleep(20 * time.Millisecond)
			}
		}()
		cs = append(cs, c)
	}
	time.Sleep(3 * time.Second)
	d, err := h.probe()
	if err != nil {
		t.Errorf("beside 10 zombies: %v", err)
	}
	g := h.metric(t, "go_goroutines")
	for _, c := range cs {
		c.Close()
	}
	time.Sleep(2 * time.Second)
	g2 := h.metric(t, "go_goroutines")
	return fmt.Sprintf("10 sessions that never read, typing: a student in beside them in %v; goroutines %v, %v after they closed", d.Round(time.Millisecond), g, g2)
}

func attackCmdflood(t *testing.T, h *hostile) string {
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[string]int{}
	knn, _ := os.ReadFile(h.knn)
	for range 17 { // one student's 17 connections, 3 commands on each
		c, err := h.dial("mallory", password("tulip"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		for range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errOut, code := sessionCommand(c, string(knn), "run -")
				key := fmt.Sprint(code)
				switch {
				case strings.Contains(errOut, "commands running or queued, the most one client may"):
					key = "per-client refusal"
				case strings.Contains(errOut, "at most 16 commands"):
					key = "room refusal"
				case strings.Contains(errOut, "stopped after"):
					key = "time limit"
				case strings.Contains(errOut, "waited"):
					key = "queue time limit"
				}
				mu.Lock()
				codes[key]++
				mu.Unlock()
			}()
		}
	}
	time.Sleep(5 * time.Second) // the commands in: one computing, two queued
	computing := h.metric(t, "cara_runs_computing")
	// Another student opens a scenario nobody computed: the command gives up its slot.
	start := time.Now()
	c, _, tm, err := h.player("ana", password("tulip"), 120, 40)
	if err != nil {
		t.Fatal(err)
	}
	tm.wait("pick a scenario", 10*time.Second)
	tm.send("/gauss-d\r\r")
	err = tm.wait("computed all", 40*time.Second)
	took := time.Since(start)
	if err != nil {
		t.Errorf("a student's matrix beside one student's kNN commands: %v", err)
	}
	yielded := h.metric(t, "cara_commands_yielded_total")
	c.Close()
	// Over the bound: a k=1000 kNN is refused at once, saying what would fit.
	big := strings.Replace(string(knn), "k: 39", "k: 1000", 1)
	refusal, code := h.command("eve", password("tulip"), big, "run -")
	wg.Wait()
	return fmt.Sprintf("mallory's 17 connections x 3 k=39 kNN commands (1.97e10 each, within --max-command-work): %v; cara_runs_computing %v while one computed; "+
		"ana's gauss-d matrix in %v beside them (commands yielded %v times); a k=1000 kNN: exit %d, %q", codes, computing, took.Round(100*time.Millisecond),
		yielded, code, strings.TrimSpace(refusal))
}

func scenarioText(name string, size int) string {
	pad := strings.Repeat("# padding\n", max(size/10-20, 0))
	return fmt.Sprintf("name: %s\nbatches: 30\noffline: 5\ndata: {size: 200, features: 2, gaussian: {mean: 0.5, std: 0.1}, concepts: [{at: 0, label: \"x1 > x2\"}]}\nqueries: {from: data, size: 20}\nmodel: {random_forest: {trees: 5}}\nretrain_cost: 5\n%s", name, pad)
}

func attackUpflood(t *testing.T, h *hostile) string {
	text := scenarioText("mine", 60<<10)
	byPassword, code := h.command("ana", password("tulip"), text, "upload mine")
	ok, refused, lastRefusal := 0, 0, ""
	for i := range 80 {
		user := fmt.Sprintf("u%d", i%10)
		out, code := h.command(user, []gossh.AuthMethod{gossh.PublicKeys(h.pres)}, text, fmt.Sprintf("upload up%d", i))
		if code == 0 {
			ok++
		} else {
			refused++
			lastRefusal = strings.TrimSpace(out)
		}
	}
	held := h.metric(t, "cara_upload_bytes")
	// Key churn: the presenter's key replaced by another, and SIGHUP; the old key is a presenter no
	// more, the new one uploads.
	p, _ := gossh.NewPublicKey(h.other.PublicKey().(gossh.CryptoPublicKey).CryptoPublicKey())
	os.WriteFile(h.presKeys, gossh.MarshalAuthorizedKey(p), 0o600)
	h.cmd.Process.Signal(syscall.SIGHUP)
	time.Sleep(500 * time.Millisecond)
	_, oldCode := h.command("prof", []gossh.AuthMethod{gossh.PublicKeys(h.pres)}, text, "upload after")
	newOut, newCode := h.command("prof", []gossh.AuthMethod{gossh.PublicKeys(h.other)}, text, "upload after")
	// Back to the first key for the presenter's attacks.
	pp, _ := gossh.NewPublicKey(h.pres.PublicKey().(gossh.CryptoPublicKey).CryptoPublicKey())
	os.WriteFile(h.presKeys, gossh.MarshalAuthorizedKey(pp), 0o600)
	h.cmd.Process.Signal(syscall.SIGHUP)
	time.Sleep(500 * time.Millisecond)
	if code == 0 || newCode != 0 || oldCode == 0 {
		t.Errorf("upload by password exit %d; after churn, old key %d, new key %d", code, oldCode, newCode)
	}
	return fmt.Sprintf("by password: exit %d (%s); 80 uploads of 60 kB by key: %d kept, %d refused (%q), %.1f MB held; after key churn + SIGHUP the old key's upload exit %d, the new key's %d %s",
		code, strings.TrimSpace(byPassword), ok, refused, lastRefusal, held/1e6, oldCode, newCode, strings.TrimSpace(newOut))
}

// playingCovconD is a student who logs in by password and has covcon-d's matrix in: where the
// attacks that need a player start.
func (h *hostile) playingCovconD(t *testing.T, user string) (*gossh.Client, *term) {
	t.Helper()
	c, _, tm, err := h.player(user, password("tulip"), 120, 40)
	if err != nil {
		t.Fatal(err)
	}
	tm.wait("pick a scenario", 10*time.Second)
	tm.send("/covcon-d\r\r")
	if err := tm.wait("computed all", 60*time.Second); err != nil {
		c.Close()
		t.Fatal(err)
	}
	return c, tm
}

func attackEditor(t *testing.T, h *hostile) string {
	c, tm := h.playingCovconD(t, "ed")
	defer c.Close()
	before, _ := h.rss()
	tm.send("e")
	time.Sleep(500 * time.Millisecond)
	tm.in.Write(append(append([]byte("\x1b[200~"), bytes.Repeat([]byte("x: 1\n"), 200<<10)...), []byte("\x1b[201~")...)) // 1 MB paste
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); {
		tm.in.Write([]byte("abcdefghij"))
		time.Sleep(10 * time.Millisecond) // 1 kB/s
	}
	after, _ := h.rss()
	return fmt.Sprintf("a 1 MB paste into the editor, then 20 s of typing at 1 kB/s: RSS %+.0f MB", after-before)
}

func attackColonset(t *testing.T, h *hostile) string {
	c, tm := h.playingCovconD(t, "colon")
	defer c.Close()
	maxComputing, maxQueued := 0.0, 0.0
	for i := range 100 {
		tm.in.Write([]byte(fmt.Sprintf(":set data.noise=0.%04d\r", i+1)))
		time.Sleep(30 * time.Millisecond)
		if i%10 == 0 {
			maxComputing = max(maxComputing, h.metric(t, "cara_runs_computing"))
			maxQueued = max(maxQueued, h.metric(t, "cara_runs_queued"))
		}
	}
	time.Sleep(2 * time.Second)
	started := h.metric(t, "cara_runs_started_total")
	if maxComputing > 1 || maxQueued > 1 {
		t.Errorf("100 :sets: %v computing, %v queued at most; want one run of the student's", maxComputing, maxQueued)
	}
	// A 100 kB :set: the input is read at 1 kB/s past its first kB, so it holds back this session
	// only; another student is in at once.
	before, _ := h.rss()
	tm.in.Write([]byte(":set data.size=" + strings.Repeat("9", 100<<10) + "\r"))
	d, err := h.probe()
	if err != nil {
		t.Error(err)
	}
	after, _ := h.rss()
	return fmt.Sprintf("100 :sets in 3 s: at most %v computing, %v queued (each replaces the student's own run; %v runs started so far); then a 100 kB :set: another student in after %v, RSS %+.0f MB",
		maxComputing, maxQueued, started, d.Round(time.Millisecond), after-before)
}

func attackAuth(t *testing.T, h *hostile) string {
	before, _ := h.rss()
	linesBefore := h.lines()
	var wg sync.WaitGroup
	var mu sync.Mutex
	n := 0
	end := time.Now().Add(time.Minute)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; time.Now().Before(end); i++ {
				name := fmt.Sprintf("%d-%d-", g, i) + strings.Repeat("m", 60<<10)
				if c, err := h.dial(name, password("rose")); err == nil {
					c.Close()
				}
				mu.Lock()
				n++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	after, _ := h.rss()
	if after-before > 8 {
		t.Errorf("a minute of failed logins with 60 kB names grew the server by %.1f MB", after-before)
	}
	return fmt.Sprintf("%d failed logins with 60 kB names in a minute, 8 at a time: RSS %+.1f MB, %d log lines, the longest %d bytes",
		n, after-before, h.lines()-linesBefore, h.longestLine())
}

func attackImpersonate(t *testing.T, h *hostile) string {
	pc, _, prof, err := h.player("prof", []gossh.AuthMethod{gossh.PublicKeys(h.pres)}, 120, 40)
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	if err := prof.wait("You present", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	prof.send("/covcon-d\r\r")
	if err := prof.wait("computed all", 60*time.Second); err != nil {
		t.Fatal(err)
	}
	var shown []string
	for _, name := range []string{"prof", "\x1b[31mprof\x1b]0;pwned\a", "prof\r\nYou present"} {
		c, _, tm, err := h.player(name, password("tulip"), 120, 40)
		if err != nil {
			t.Fatal(err)
		}
		err = tm.wait("· following", 10*time.Second)
		shown = append(shown, fmt.Sprintf("%q follows: %v (presents: %v)", name, err == nil, tm.has("You present")))
		c.Close()
	}
	presenters := h.metric(t, "cara_room_presenters")
	if presenters != 1 {
		t.Errorf("%v presenters with students named as the presenter", presenters)
	}
	if prof.has("pwned") || prof.has("\x1b]0;") {
		t.Error("a name's escape reached the presenter's terminal")
	}
	return fmt.Sprintf("students named as the presenter (with escapes): %s; presenters %v; no escape reached the presenter's screen", strings.Join(shown, ", "), presenters)
}

func attackPresenter(t *testing.T, h *hostile) string {
	key := []gossh.AuthMethod{gossh.PublicKeys(h.pres)}
	c1, _, p1, err := h.player("prof", key, 120, 40)
	if err != nil {
		t.Fatal(err)
	}
	p1.wait("You present", 10*time.Second)
	p1.send("/covcon-d\r\r")
	p1.wait("computed all", 60*time.Second)
	sc, _, st, _ := h.player("stu", password("tulip"), 120, 40)
	defer sc.Close()
	st.wait("· following", 10*time.Second)
	c2, _, p2, err := h.player("prof", key, 120, 40) // the laptop reconnects while the old connection lingers
	if err != nil {
		t.Fatal(err)
	}
	err2 := p2.wait("you are back: the room is where you left it", 10*time.Second)
	two := h.metric(t, "cara_room_presenters")
	c1.Close()
	c2.Close()
	time.Sleep(time.Second)
	within := h.metric(t, "cara_room_followers")
	time.Sleep(3 * time.Second) // past the grace
	after := h.metric(t, "cara_room_followers")
	if two != 1 || err2 != nil || within != 1 || after != 0 {
		t.Errorf("two presenters: %v (second presents: %v); followers within the grace %v, after %v", two, err2, within, after)
	}
	return fmt.Sprintf("a second presenter login takes over, told `you are back: the room is where you left it` (presenters %v); both away: followers %v within the 3 s grace, %v after it", two, within, after)
}

func attackSighup(t *testing.T, h *hostile) string {
	var wg sync.WaitGroup
	var cs []*gossh.Client
	for i := range 20 {
		c, _, tm, err := h.player(fmt.Sprintf("load%d", i), password("tulip"), 120, 40)
		if err != nil {
			continue
		}
		cs = append(cs, c)
		wg.Add(1)
		go func() {
			defer wg.Done()
			tm.wait("pick a scenario", 10*time.Second)
			tm.send("/covcon-s\r\r")
		}()
	}
	os.Rename(h.answers, h.answers+".1")
	before := h.logged(`msg="scenarios read again"`)
	reopened := h.logged(`msg="answers file opened again"`)
	for range 20 {
		h.cmd.Process.Signal(syscall.SIGHUP)
		time.Sleep(100 * time.Millisecond)
	}
	wg.Wait()
	time.Sleep(time.Second)
	reads := h.logged(`msg="scenarios read again"`) - before
	_, err := os.Stat(h.answers)
	for _, c := range cs {
		c.Close()
	}
	if reads != 20 || err != nil || h.cmd.ProcessState != nil {
		t.Errorf("20 SIGHUPs under load: %d reloads logged, answers file %v", reads, err)
	}
	return fmt.Sprintf("20 SIGHUPs 100 ms apart while 20 students open covcon-s, the answers file moved away: %d reloads, answers file opened again (%d times), the path there again: %v",
		reads, h.logged(`msg="answers file opened again"`)-reopened, err == nil)
}
