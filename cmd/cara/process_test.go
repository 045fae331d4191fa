package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cara-sim/cara/scenarios"
)

// caraBinary is the real binary, built once by the first test that runs it as a process (a run
// of tests that need none builds none) and removed by TestMain.
var caraBinary struct {
	once      sync.Once
	dir, path string
	err       error
}

func TestMain(m *testing.M) {
	if os.Getenv("CARA_TEST_MODEL") != "" { // the test binary as a model command (byo_test.go)
		os.Exit(serveTestModel())
	}
	code := m.Run()
	if caraBinary.dir != "" {
		os.RemoveAll(caraBinary.dir)
	}
	os.Exit(code)
}

// buildCara returns the real binary, building it on first use.
func buildCara(t *testing.T) string {
	t.Helper()
	b := &caraBinary
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "cara-test-bin-"); b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "cara")
		if out, err := exec.Command("go", "build", "-o", b.path, ".").CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// Same scenario and seed, same numbers: every embedded scenario gives byte-identical JSON from
// separate processes (map order, hashing) with GOMAXPROCS 1 and 8: one worker against more workers
// than this machine's cores, whose cells finish in any order (forests cut to 2 trees, scenarios in
// parallel, to keep it quick; sim's tests compare worker counts within one process).
func TestDeterministicAcrossProcesses(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the binary 22 times")
	}
	bin := buildCara(t)
	for _, info := range scenarios.Embedded() {
		t.Run(info.Name, func(t *testing.T) {
			t.Parallel()
			args := []string{"run", info.Name, "--format", "json"}
			s, err := scenarios.Load(info.Name, scenarios.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if s.Model.Name() == "random_forest" {
				args = append(args, "--trees", "2")
			}
			var first []byte
			for _, procs := range []string{"1", "8"} {
				cmd := exec.Command(bin, args...)
				cmd.Env = append(os.Environ(), "GOMAXPROCS="+procs)
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("GOMAXPROCS=%s: %v", procs, err)
				}
				if first == nil {
					first = out
				} else if !bytes.Equal(first, out) {
					t.Errorf("GOMAXPROCS=%s gives different JSON from GOMAXPROCS=1", procs)
				}
			}
		})
	}
}

// A sweep in two shards, as a scheduler runs it: one shard stopped by SIGTERM (as Slurm and
// Kubernetes stop a job) within a second, leaving only whole lines, and one killed by SIGKILL
// (perhaps a torn last line); the same commands resume both, and the merged shards equal the sweep
// run whole, byte for byte.
func TestSweepInterruptAndResume(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := buildCara(t)
	dir := t.TempDir()
	sweep := func(out string, extra ...string) []string {
		return append([]string{"sweep", "covcon-d", "--trees", "3", "--set", "data.size=500", "--seeds", "2", "--costs", "1:40:30", "-o", out}, extra...)
	}
	parts := []string{filepath.Join(dir, "part1.jsonl"), filepath.Join(dir, "part2.jsonl")}
	signals := []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL}
	cmds := make([]*exec.Cmd, 2)
	for i := range cmds {
		cmds[i] = exec.Command(bin, sweep(parts[i], "--shard", fmt.Sprintf("%d/2", i+1))...)
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, cmd := range cmds {
		// Stop it once some of its seed's 270 rows are written.
		stopped := make(chan error, 1)
		go func() { stopped <- cmd.Wait() }()
		deadline := time.After(30 * time.Second)
	wait:
		for {
			select {
			case err := <-stopped:
				t.Logf("shard %d/2 finished before %v (%v): nothing to interrupt", i+1, signals[i], err)
				stopped <- err
				break wait
			case <-deadline:
				cmd.Process.Kill()
				t.Fatalf("shard %d/2 wrote no rows in 30 s", i+1)
			case <-time.After(5 * time.Millisecond):
				if b, _ := os.ReadFile(parts[i]); bytes.Count(b, []byte("\n")) >= 50 {
					cmd.Process.Signal(signals[i])
					break wait
				}
			}
		}
		select {
		case err := <-stopped:
			var ee *exec.ExitError
			if signals[i] == syscall.SIGTERM && err != nil && (!errors.As(err, &ee) || ee.ExitCode() != 130) {
				t.Errorf("shard 1/2 after SIGTERM: %v, want exit status 130", err)
			}
		case <-time.After(time.Second):
			cmd.Process.Kill()
			t.Fatalf("shard %d/2 did not stop within a second of %v", i+1, signals[i])
		}
		b, _ := os.ReadFile(parts[i])
		if signals[i] == syscall.SIGTERM && len(b) > 0 && b[len(b)-1] != '\n' {
			t.Error("the shard stopped by SIGTERM left a torn last line")
		}
		t.Logf("shard %d/2 stopped by %v after %d rows", i+1, signals[i], bytes.Count(b, []byte("\n")))
	}
	// The same commands again, then merge: every row once, as the whole sweep has them.
	for i, p := range parts {
		if _, err := cara(t, sweep(p, "--shard", fmt.Sprintf("%d/2", i+1))...); err != nil {
			t.Fatalf("resuming shard %d/2: %v", i+1, err)
		}
	}
	whole, merged := filepath.Join(dir, "whole.jsonl"), filepath.Join(dir, "merged.jsonl")
	if _, err := cara(t, sweep(whole)...); err != nil {
		t.Fatal(err)
	}
	if _, err := cara(t, append([]string{"merge", "-o", merged}, parts...)...); err != nil {
		t.Fatal(err)
	}
	if rows := readLines(t, merged); len(rows) != 2*30*9 || !bytes.Equal(mustRead(t, merged), mustRead(t, whole)) {
		t.Errorf("%d rows merged (want 540), equal to the whole sweep: %v", len(rows), bytes.Equal(mustRead(t, merged), mustRead(t, whole)))
	}
}

// Ctrl-C during `cara run` and `cara reproduce` (seconds of work) stops them within a second, with
// a clear exit status and no stack trace.
func TestRunInterrupt(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := buildCara(t)
	// Five seeds of covcon-d: one alone now computes in about the half second the test waits.
	for _, args := range [][]string{{"run", "covcon-d", "--seeds", "5"}, {"reproduce", "--seeds", "1"}} {
		interrupt(t, bin, args)
	}
}

func interrupt(t *testing.T, bin string, args []string) {
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	expectInterrupted(t, fmt.Sprint(args), cmd, &stderr, syscall.SIGINT, time.Second, "cara: interrupted")
}

// expectInterrupted starts cmd, sends sig after half a second and wants exit status 130 within
// the time given, with want on stderr and no stack trace.
func expectInterrupted(t *testing.T, name string, cmd *exec.Cmd, stderr *bytes.Buffer, sig os.Signal, within time.Duration, want string) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(sig)
	stopped := make(chan error, 1)
	go func() { stopped <- cmd.Wait() }()
	select {
	case err := <-stopped:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("%s: exit %v, want status 130", name, err)
		}
		if strings.Contains(stderr.String(), "goroutine") || !strings.Contains(stderr.String(), want) {
			t.Errorf("%s: stderr %q, want %q", name, stderr.String(), want)
		}
	case <-time.After(within):
		cmd.Process.Kill()
		t.Errorf("%s did not stop within %v of %v", name, within, sig)
	}
}

// Issue 26, item 9: SIGTERM ends cara with 130 while it waits on a FIFO given as the data CSV
// (nobody writes to it) and while a sweep writes into a pipe nobody reads (-o /dev/stdout), and
// -o /dev/full is a write error, not a read until memory runs out (item 8).
func TestInterruptWhileBlocked(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := buildCara(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "d.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	scenario := filepath.Join(dir, "fifo.yaml")
	os.WriteFile(scenario, []byte("name: fifo\nbatches: 4\noffline: 2\ndata: {csv: d.csv, label: y}\nqueries: {from: data, size: 2}\nmodel: {nearest_centroid: {}}\nretrain_cost: 1\n"), 0o644)

	stopped := func(name string, cmd *exec.Cmd, stderr *bytes.Buffer, how string) {
		t.Helper()
		expectInterrupted(t, name, cmd, stderr, syscall.SIGTERM, interruptGrace+time.Second, how)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "run", scenario)
	cmd.Stderr = &stderr
	stopped("a FIFO as the data CSV", cmd, &stderr, "cara: interrupted; files")

	// A pipe that is never read: 225 rows of about 400 bytes fill its 64 KiB.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	stderr.Reset()
	cmd = exec.Command(bin, "sweep", small, "-o", "/dev/stdout")
	cmd.Stdout, cmd.Stderr = w, &stderr
	stopped("a sweep into a full pipe", cmd, &stderr, "cara: interrupted; files")
	// stdout itself into a pipe filled beforehand: a write cara cannot reach ends at main's grace
	// period.
	r, w, err = os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := w.Write(make([]byte, 64<<10)); err != nil { // a Linux pipe's default capacity
		t.Fatal(err)
	}
	stderr.Reset()
	cmd = exec.Command(bin, "matrix", small, "--format", "json")
	cmd.Stdout, cmd.Stderr = w, &stderr
	stopped("matrix JSON into a full pipe", cmd, &stderr, "cara: interrupted while blocked on output")
	w.Close()

	out, err := exec.Command(bin, "sweep", small, "--costs", "1:2:2", "-o", "/dev/full").CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "no space left on device") {
		t.Errorf("-o /dev/full: %v\n%s", err, out)
	}
}
