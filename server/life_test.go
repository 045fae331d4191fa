package server

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/cara-sim/cara/internal/simtest"
	"github.com/cara-sim/cara/scenarios"
)

// scrape reads a Prometheus text page into series -> value (series with their labels as written).
func scrape(t *testing.T, url string) map[string]float64 {
	t.Helper()
	m, err := scrapeErr(url)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func scrapeErr(url string) (map[string]float64, error) {
	c := http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			return nil, fmt.Errorf("metrics line %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out, sc.Err()
}

// dialRaw connects over a TCP connection the test can drop, as a closed laptop does.
func dialRaw(addr string) (net.Conn, *gossh.Client, error) {
	raw, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	c, chans, reqs, err := gossh.NewClientConn(raw, addr, &gossh.ClientConfig{User: "student",
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
	if err != nil {
		raw.Close()
		return nil, nil, err
	}
	return raw, gossh.NewClient(c, chans, reqs), nil
}

// Twenty students open covcon-d, half of them press r five times, and all of them drop their
// connections without q. Within 5 s nothing is left: no session, no run computing or queued, and
// the goroutines are back within 5 of their idle count.
func TestServeLifetime(t *testing.T) {
	// Not parallel: go_goroutines counts the whole test process, so other tests' goroutines would
	// count as this room's (a CI run saw 31 more than idle from a neighbour), as for the hostile tests.
	const n = 20
	// One run computes at a time, on one worker: runs outlast the 5 s, so only cancelling ends them.
	srv, addr, _ := startServing(t, Config{MaxSessions: n, MaxComputing: 1, Workers: 1})
	idle := scrape(t, srv.metricsURL)["go_goroutines"]
	conns := make([]net.Conn, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			raw, c, err := dialRaw(addr)
			if err != nil {
				t.Errorf("session %d: %v", i, err)
				return
			}
			conns[i] = raw
			_, sc, err := startPTY(c)
			if err == nil {
				err = sc.wait("pick a scenario", 20*time.Second)
			}
			if err == nil {
				sc.send("\r") // covcon-d, the first choice
				err = sc.wait("covcon-d · seed 0 · ", 20*time.Second)
			}
			for k := 1; k <= 5 && i%2 == 1 && err == nil; k++ {
				sc.send("Ny") // a new run on the next seed, confirmed
				err = sc.wait("covcon-d · seed "+strconv.Itoa(k)+" · ", 20*time.Second)
			}
			if err != nil {
				t.Errorf("session %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	busy := scrape(t, srv.metricsURL)
	t.Logf("before the drop: %v sessions, %v runs computing, %v queued, %v started, %v goroutines (idle %v)",
		busy["cara_sessions"], busy["cara_runs_computing"], busy["cara_runs_queued"], busy["cara_runs_started_total"], busy["go_goroutines"], idle)
	if busy["cara_sessions"] != n {
		t.Fatalf("%v sessions open, want %d", busy["cara_sessions"], n)
	}
	// N replaces a session's run, never adds one: what is alive is seed 0 (ten sessions) and seed 5
	// (the other ten), once a run cancelled by the last r has seen it (within a model's fit).
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		live := busy["cara_runs_computing"] + busy["cara_runs_queued"]
		if live <= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%v runs alive for two seeds watched", live)
		}
		busy = scrape(t, srv.metricsURL)
	}
	start := time.Now()
	for _, c := range conns {
		c.Close()
	}
	var m map[string]float64
	for {
		m = scrape(t, srv.metricsURL)
		if m["cara_sessions"] == 0 && m["cara_runs_computing"] == 0 && m["cara_runs_queued"] == 0 && m["go_goroutines"] <= idle+5 {
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("5 s after the drop: %v sessions, %v runs computing, %v queued, %v goroutines (idle %v)",
				m["cara_sessions"], m["cara_runs_computing"], m["cara_runs_queued"], m["go_goroutines"], idle)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("all gone %v after the drop: %v goroutines (idle %v), %v runs cached (%.0f kB)",
		time.Since(start).Round(10*time.Millisecond), m["go_goroutines"], idle, m["cara_runs_cached"], m["cara_cache_bytes"]/1024)
}

// A panic in one session's Update, or in a command it started, ends that session with a one-line
// apology and a log line with the stack; another session keeps stepping.
func TestServePanicKeepsTheRoom(t *testing.T) {
	t.Parallel()
	srv, addr, logs := startServingHooks(t, Config{}, hooks{onMsg: func(_ ssh.Session, msg tea.Msg) tea.Cmd {
		if k, ok := msg.(tea.KeyMsg); ok {
			switch k.String() {
			case "!":
				panic("injected: a bug in Update")
			case "@":
				return func() tea.Msg { panic("injected: a bug in a command") }
			}
		}
		return nil
	}})
	c, _, sc := atPicker(t, addr)
	defer c.Close()
	sc.send(strings.Repeat("j", len(scenarios.Embedded())) + "\r")
	sc.waitFor(t, "computed all")
	for i, key := range []string{"!", "@"} {
		sess, bad := openPTY(t, c)
		bad.waitFor(t, "pick a scenario")
		bad.send(key)
		bad.waitFor(t, "sorry, this session hit a bug")
		done := make(chan error, 1)
		go func() { done <- sess.Wait() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the session was not closed", key)
		}
		// The other session still steps.
		sc.send("l")
		sc.waitFor(t, fmt.Sprintf("batch %d/11", i+1))
	}
	if got := scrape(t, srv.metricsURL)["cara_panics_recovered_total"]; got != 2 {
		t.Errorf("cara_panics_recovered_total %v, want 2", got)
	}
	log := logs.String()
	for _, want := range []string{"injected: a bug in Update", "injected: a bug in a command", "goroutine ", "guard.go"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
}

// scenarioDir is a folder of scenarios for a server, each file a copy of testdata/small.yaml (whose
// text it returns too). The picker shows a file's name, not its folder.
func scenarioDir(t *testing.T, files ...string) (string, []byte) {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "small.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		os.WriteFile(filepath.Join(dir, f), src, 0o644)
	}
	return dir, src
}

// The picker's entries are read once, not per connection; reload (SIGHUP) reads them again.
func TestServeReload(t *testing.T) {
	t.Parallel()
	dir, src := scenarioDir(t, "small.yaml")
	srv, addr, logs := startServing(t, Config{ScenariosDir: dir})
	os.WriteFile(filepath.Join(dir, "extra.yaml"), src, 0o644)
	look := func() string {
		c, _, sc := atPicker(t, addr)
		defer c.Close()
		sc.send("G") // the files come after the embedded scenarios, past the first page
		sc.waitFor(t, "small.yaml")
		time.Sleep(100 * time.Millisecond)
		return sc.String()
	}
	if strings.Contains(look(), "extra.yaml") {
		t.Error("a file added after start is offered without a reload: the entries were read again")
	}
	srv.Reload()
	if !strings.Contains(look(), "extra.yaml") {
		t.Error("after reload the new file is not offered")
	}
	if !strings.Contains(logs.String(), "scenarios read again") {
		t.Error("the reload is not logged")
	}
}

// SIGHUP keeps the runs of the scenarios whose files did not change: a student opening one after
// the reload watches the run computed before (no computation started); the run of a file edited
// is let go at once, and not counted any more.
func TestServeReloadKeepsRuns(t *testing.T) {
	t.Parallel()
	dir, src := scenarioDir(t, "a.yaml", "b.yaml")
	// Two files of one content would be one run (runs are keyed by content): b is another seed.
	src = bytes.Replace(src, []byte("seed: 3"), []byte("seed: 4"), 1)
	os.WriteFile(filepath.Join(dir, "b.yaml"), src, 0o644)
	srv, addr, _ := startServing(t, Config{ScenariosDir: dir})
	// open runs a file to its end, and leaves it.
	open := func(file string) {
		t.Helper()
		c, _, sc := atPicker(t, addr)
		defer c.Close()
		sc.send("/" + file + "\r\r") // filter the list down to it, and open it
		sc.waitFor(t, "computed all")
		backToPicker(t, sc)
	}
	open("a.yaml")
	open("b.yaml")
	cached := func() int { return srv.Runs().Len() }
	simtest.Eventually(t, "both runs idle in the cache", func() bool { return srv.Runs().Stats().Watchers == 0 && cached() == 2 })
	os.WriteFile(filepath.Join(dir, "b.yaml"), bytes.Replace(src, []byte("retrain_cost: 0.5"), []byte("retrain_cost: 0.7"), 1), 0o644)
	srv.Reload()
	if n := cached(); n != 1 {
		t.Errorf("%d runs held after the reload, want 1 (a.yaml's; b.yaml was edited)", n)
	}
	started := srv.Runs().Stats().Started
	open("a.yaml")
	if got := srv.Runs().Stats().Started; got != started {
		t.Errorf("a.yaml, unchanged, was computed again after the reload (%d runs started, %d before)", got, started)
	}
}
