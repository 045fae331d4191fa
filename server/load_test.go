package server

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/cara-sim/cara/internal/budget"
)

// TestServeLoad is a room of 50 students on one server, measured: a measurement bounded in time,
// run with
//
//	CARA_LOAD=1 go test -run 'ServeLoad$' -v -timeout 30m ./server
//
// (CARA_LOAD_SESSIONS=N for a smaller room; CARA_LOAD_MEMORY=512MiB serves with --memory 512MiB,
// and CARA_LOAD_COMPUTING=15 computes 15 runs at once, a workers each, as a machine of 16 cores
// would: the budget, not the cores, then decides how many compute.)
// The server runs in a process of its own (this test binary again, as TestServeLoadServer), so its
// peak RSS and CPU are its own, not the SSH clients'. Two rooms:
//   - different seeds: each session opens covcon-d on a seed of its own (no sharing: 50 matrices,
//     at most --max-computing at once, the rest queued). Every session must get its matrix, none
//     be dropped, and the steps taken after a session's matrix is in (while the others' compute)
//     must show within 100 ms at the 99th percentile; peak RSS must stay within 512 MB, a held run
//     within 1.5 MB, and what the room's budget held within its capacity.
//   - one seed: 50 sessions on covcon-d's own seed share one run (and, in step, one replay per
//     batch and R).
func TestServeLoad(t *testing.T) {
	if os.Getenv("CARA_LOAD") == "" {
		t.Skip("a measurement: set CARA_LOAD=1 to run it")
	}
	n := 50
	if v, err := strconv.Atoi(os.Getenv("CARA_LOAD_SESSIONS")); err == nil && v > 0 {
		n = v // a smaller room for a quick try
	}
	t.Run("different seeds", func(t *testing.T) {
		r := loadRoom(t, n, func(i int) string { return "seed-" + strconv.Itoa(1000+i) })
		if r.started != n {
			t.Errorf("%d runs started for %d seeds, want %d", r.started, n, n)
		}
		if r.p99 > 100*time.Millisecond {
			t.Errorf("p99 step %v, want within 100 ms", r.p99)
		}
		if r.peakMB > 512 {
			t.Errorf("peak RSS %.0f MB, want within 512 MB", r.peakMB)
		}
		if r.heldMB > 1.5 {
			t.Errorf("%.2f MB a held run, want within 1.5 MB", r.heldMB)
		}
		if r.budgetPeak > r.budget {
			t.Errorf("the room's budget held %.0f MB at its most, over its %.0f MB", r.budgetPeak/1e6, r.budget/1e6)
		}
	})
	t.Run("one seed", func(t *testing.T) {
		r := loadRoom(t, n, func(int) string { return "student" })
		if r.started != 1 {
			t.Errorf("%d runs started for one scenario and seed, want 1 shared", r.started)
		}
		// Its steps are measured, not held to 100 ms: fifty sessions stepping in the same instant
		// (the test sends each key to all at once) queue for the two cores.
	})
}

// TestServeLoadServer is the server half of TestServeLoad, in its own process: it serves until its
// standard input closes, with a session's seed read from its user name (seed-N).
func TestServeLoadServer(t *testing.T) {
	if os.Getenv("CARA_LOAD_SERVER") == "" {
		t.Skip("the server process of TestServeLoad")
	}
	cfg := Config{MaxSessions: 60, IdleTimeout: 30 * time.Minute}
	if n, err := strconv.Atoi(os.Getenv("CARA_LOAD_SESSIONS")); err == nil && n+10 > cfg.MaxSessions {
		cfg.MaxSessions = n + 10 // a room of 100 students
	}
	if v := os.Getenv("CARA_LOAD_MEMORY"); v != "" {
		m, err := budget.ParseSize(v)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Memory = m
	}
	if n, err := strconv.Atoi(os.Getenv("CARA_LOAD_COMPUTING")); err == nil && n > 0 {
		cfg.MaxComputing, cfg.Workers = n, 1
	}
	srv, addr, _ := startServingHooks(t, cfg, hooks{seedFor: func(sess ssh.Session) (uint64, bool) {
		v, err := strconv.ParseUint(strings.TrimPrefix(sess.User(), "seed-"), 10, 64)
		return v, err == nil
	}})
	debug.SetMemoryLimit(srv.Config().Memory) // as cara serve does
	fmt.Printf("LISTEN %s %s\n", addr, srv.metricsURL)
	io.Copy(io.Discard, os.Stdin)
}

// roomResult is what one room measured.
type roomResult struct {
	started    int           // runs started on the server
	slowest    time.Duration // slowest step shown, over every session, after its matrix was in
	p99        time.Duration // the 99th percentile of those steps
	peakMB     float64       // server's peak RSS
	heldMB     float64       // what a held run holds, in MB
	budget     float64       // the room's budget for work, bytes
	budgetPeak float64       // the most it held, bytes
}

// loadRoom starts a server process, connects n sessions at once (user names from user), and has each
// open covcon-d, wait for its matrix, then step: three steps forward, End, three steps back from the
// end (each replaying every algorithm over the online block) and R raised once, timing each.
func loadRoom(t *testing.T, n int, user func(i int) string) roomResult {
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeLoadServer$")
	cmd.Env = append(os.Environ(), "CARA_LOAD_SERVER=1")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	var addr, metricsURL string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 3 && f[0] == "LISTEN" {
			addr, metricsURL = f[1], f[2]
			break
		}
	}
	if addr == "" {
		t.Fatal("the server process did not start")
	}
	go io.Copy(io.Discard, stdout)
	pid := cmd.Process.Pid
	cpu0 := cpuTime(pid)
	start := time.Now()

	var mu sync.Mutex
	var steps, toMatrix []time.Duration
	slowestBy := map[string]time.Duration{} // slowest step by key
	var queuedSeen []string
	longest, longestQueued := time.Duration(0), "" // the longest wait for a matrix, and what it first showed
	peakSessions := 0.0
	// Students stay: every session stays open, its matrix held, until the whole room is done.
	var wg, stepped sync.WaitGroup
	release := make(chan struct{})
	for i := range n {
		wg.Add(1)
		stepped.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				select {
				case <-release:
				default:
					stepped.Done() // a session that failed does not hold the room
				}
			}()
			err := func() error {
				c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user(i), HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
				if err != nil {
					return err
				}
				defer c.Close()
				sess, scr, err := startPTY(c)
				if err != nil {
					return err
				}
				defer sess.Close()
				if err := scr.wait("pick a scenario", time.Minute); err != nil {
					return err
				}
				t0 := time.Now()
				scr.send("\r")
				if err := scr.wait("computed all", 20*time.Minute); err != nil {
					return err
				}
				took := time.Since(t0)
				scr.mu.Lock()
				q := scr.queued
				scr.mu.Unlock()
				var mine []time.Duration
				for _, k := range []struct{ key, shows string }{
					{"l", "batch 1/99"}, {"l", "batch 2/99"}, {"l", "batch 3/99"},
					{"\x1b[F", "batch 99/99"}, {"h", "batch 98/99"}, {"h", "batch 97/99"}, {"h", "batch 96/99"},
					{"]", "R 25 "},
				} {
					mark := scr.mark()
					t1 := time.Now()
					scr.in.Write([]byte(k.key))
					if err := scr.waitAfter(mark, k.shows, 30*time.Second); err != nil {
						return err
					}
					d := time.Since(t1)
					mine = append(mine, d)
					mu.Lock()
					slowestBy[k.key] = max(slowestBy[k.key], d)
					mu.Unlock()
				}
				mu.Lock()
				steps = append(steps, mine...)
				toMatrix = append(toMatrix, took)
				if q != "" {
					queuedSeen = append(queuedSeen, q)
				}
				if took > longest {
					longest, longestQueued = took, q
				}
				mu.Unlock()
				stepped.Done()
				<-release
				return nil
			}()
			if err != nil {
				t.Errorf("session %d (%s): %v", i, user(i), err)
			}
		}()
	}
	// Watch the room from the metrics while it works.
	done := make(chan struct{})
	var halfway map[string]float64 // the metrics when half the sessions have their matrix
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(200 * time.Millisecond):
			}
			if m, err := scrapeErr(metricsURL); err == nil {
				mu.Lock()
				peakSessions = max(peakSessions, m["cara_sessions"])
				if halfway == nil && len(toMatrix) >= n/2 {
					halfway = m
				}
				mu.Unlock()
			}
		}
	}()
	stepped.Wait()
	// Measured with the whole room still connected.
	m := scrape(t, metricsURL)
	close(done)
	wall := time.Since(start)
	cpu := cpuTime(pid) - cpu0
	peak := peakRSS(pid)
	close(release)
	wg.Wait()
	slices.Sort(steps)
	slices.Sort(toMatrix)
	res := roomResult{started: int(m["cara_runs_started_total"]), peakMB: peak, budget: m["cara_memory_work_bytes"], budgetPeak: m["cara_memory_used_peak_bytes"]}
	if c := m["cara_runs_cached"]; c > 0 {
		res.heldMB = m["cara_cache_bytes"] / c / 1e6
	}
	if len(steps) > 0 {
		res.slowest = steps[len(steps)-1]
	}
	refused := m[`cara_sessions_refused_total{reason="room_full"}`] + m[`cara_sessions_refused_total{reason="no_pty"}`] + m[`cara_sessions_refused_total{reason="exec"}`]
	if int(peakSessions) != n || refused != 0 || len(toMatrix) != n {
		t.Errorf("peak %v sessions, %v refused, %d matrices in; want %d, 0, %d", peakSessions, refused, len(toMatrix), n, n)
	}
	pct := func(d []time.Duration, p float64) time.Duration {
		if len(d) == 0 {
			return 0
		}
		return d[min(int(p*float64(len(d))), len(d)-1)].Round(time.Millisecond)
	}
	example := ""
	if longestQueued != "" {
		example = fmt.Sprintf(" (the last to get its matrix first showed %q)", longestQueued)
	}
	t.Logf("%d sessions in %v: matrix in after %v (median) to %v (last); %d of them shown queued%s; %d runs started, %v cached (%.1f MB); "+
		"steps after the matrix: median %v, p99 %v, slowest %v (%d steps); server peak RSS %.0f MB; server CPU %v (%v per session)",
		n, wall.Round(time.Second), pct(toMatrix, 0.5), pct(toMatrix, 1), len(queuedSeen), example, res.started, m["cara_runs_cached"],
		m["cara_cache_bytes"]/1e6, pct(steps, 0.5), pct(steps, 0.99), res.slowest.Round(time.Millisecond), len(steps), peak,
		cpu.Round(time.Second), (cpu / time.Duration(n)).Round(10*time.Millisecond))
	res.p99 = pct(steps, 0.99)
	t.Logf("the room's memory: %.0f MB for work (of --memory %.0f MB), %.0f MB held at its most; %.2f MB a held run",
		res.budget/1e6, m["cara_memory_bytes"]/1e6, res.budgetPeak/1e6, res.heldMB)
	var by []string
	for _, k := range []string{"l", "\x1b[F", "h", "]"} {
		by = append(by, fmt.Sprintf("%q %v", k, slowestBy[k].Round(time.Millisecond)))
	}
	t.Logf("slowest by key: %s; load average at the end %s", strings.Join(by, ", "), loadAverage())
	mu.Lock()
	var lines []string
	label := "when half the room had its matrix"
	if halfway == nil {
		halfway, label = m, "with the whole room in" // all the matrices came at once
	}
	for k, v := range halfway {
		if strings.HasPrefix(k, "cara_") || k == "go_goroutines" {
			lines = append(lines, fmt.Sprintf("%s %g", k, v))
		}
	}
	mu.Unlock()
	slices.Sort(lines)
	t.Logf("the metrics %s:\n%s", label, strings.Join(lines, "\n"))
	return res
}

// loadAverage is the machine's 1-minute load average (the machine may be shared).
func loadAverage() string {
	b, _ := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "?"
}

// cpuTime is a process's user + system CPU time, from /proc (Linux; 0 elsewhere).
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return time.Duration((ut + st) * float64(time.Second) / 100) // USER_HZ is 100 on Linux
}

// peakRSS is a process's peak resident memory in MB, from /proc (Linux; 0 elsewhere).
func peakRSS(pid int) float64 {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			f := strings.Fields(l)
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}
