package main

import (
	"bytes"
	"errors"
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
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	stopped := make(chan error, 1)
	go func() { stopped <- cmd.Wait() }()
	select {
	case err := <-stopped:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("%v: exit %v, want status 130", args, err)
		}
		if strings.Contains(stderr.String(), "goroutine") || !strings.Contains(stderr.String(), "cara: interrupted") {
			t.Errorf("%v: stderr %q", args, stderr.String())
		}
	case <-time.After(time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v did not stop within a second of SIGINT", args)
	}
}
