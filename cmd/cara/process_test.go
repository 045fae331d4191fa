package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cara-sim/cara/experiment"
	"github.com/cara-sim/cara/scenarios"
)

// buildCara builds the real binary once for the tests that run it as a process.
func buildCara(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "cara")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// Same scenario and seed, same numbers: every embedded scenario gives byte-identical JSON from
// separate processes with GOMAXPROCS 1, 2 and 8 (forests cut to 2 trees to keep it quick).
func TestDeterministicAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary 33 times")
	}
	bin := buildCara(t)
	for _, info := range scenarios.Embedded() {
		args := []string{"run", info.Name, "--format", "json"}
		s, err := scenarios.Load(info.Name, scenarios.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if s.Model.Name() == "random_forest" {
			args = append(args, "--trees", "2")
		}
		var first []byte
		for _, procs := range []string{"1", "2", "8"} {
			cmd := exec.Command(bin, args...)
			cmd.Env = append(os.Environ(), "GOMAXPROCS="+procs)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s GOMAXPROCS=%s: %v", info.Name, procs, err)
			}
			if first == nil {
				first = out
			} else if !bytes.Equal(first, out) {
				t.Errorf("%s: GOMAXPROCS=%s gives different JSON from GOMAXPROCS=1", info.Name, procs)
			}
		}
	}
}

// Ctrl-C during a sweep stops it within a second and leaves only whole lines; the same command
// then resumes and completes the file with every row exactly once.
func TestSweepInterruptAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := buildCara(t)
	out := filepath.Join(t.TempDir(), "r.jsonl")
	args := []string{"sweep", "covcon-d", "--trees", "3", "--seeds", "3", "--costs", "1:40:10", "-o", out}
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupt once some rows are written.
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if b, _ := os.ReadFile(out); bytes.Count(b, []byte("\n")) >= 20 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	stopped := make(chan error, 1)
	go func() { stopped <- cmd.Wait() }()
	select {
	case <-stopped:
	case <-time.After(time.Second):
		cmd.Process.Kill()
		t.Fatal("the sweep did not stop within a second of SIGINT")
	}
	b, _ := os.ReadFile(out)
	if len(b) > 0 && b[len(b)-1] != '\n' {
		t.Error("the interrupted sweep left a torn last line")
	}
	partial, err := readSweepFile(out)
	if err != nil {
		t.Fatalf("the interrupted file is not valid: %v", err)
	}
	if len(partial) == 0 || len(partial) >= 3*10*9 {
		t.Logf("interrupted after %d rows", len(partial))
	}
	if res, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, res)
	}
	rows, err := readSweepFile(out)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[experiment.RowKey]bool{}
	for _, r := range rows {
		if seen[r.Key()] {
			t.Fatalf("row %v twice after resuming", r.Key())
		}
		seen[r.Key()] = true
	}
	if len(rows) != 3*10*9 {
		t.Errorf("%d rows after resuming, want 3 seeds x 10 costs x 9 algorithms = 270 (interrupted at %d)", len(rows), len(partial))
	}
}

// Ctrl-C during `cara run` and `cara reproduce` (seconds of work) stops them within a second, with
// a clear exit status and no stack trace.
func TestRunInterrupt(t *testing.T) {
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
