package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cara-sim/cara/scenarios"
)

// metricsText is the body of a metrics page.
func metricsText(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The real command: --metrics serves on the given address, --memory is the room's memory (said at
// start, and the process's GOMEMLIMIT), SIGHUP reads the scenarios again, and SIGINT shuts down
// cleanly.
func TestServeProcess(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := buildCara(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--host-key", filepath.Join(dir, "key"),
		"--metrics", "127.0.0.1:0", "--scenarios", "testdata", "--max-computing", "3", "--memory", "300MiB")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	expect := func(re string) []string {
		t.Helper()
		r := regexp.MustCompile(re)
		timeout := time.After(10 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the server ended before logging %q", re)
				}
				if m := r.FindStringSubmatch(l); m != nil {
					return m
				}
			case <-timeout:
				t.Fatalf("no log line matching %q", re)
			}
		}
	}
	url := expect(`msg=metrics url=(\S+)`)[1]
	expect(`msg=serving .*max_computing=3 memory="300 MiB" memory_from=--memory for_work="225 MiB"`)
	m := metricsText(t, url)
	if !strings.Contains(m, "\ncara_gomemlimit_bytes 3.145728e+08\n") || !strings.Contains(m, "\ncara_memory_bytes 3.145728e+08\n") {
		t.Error("GOMEMLIMIT and the room's memory are not --memory 300MiB")
	}
	for _, name := range []string{"cara_sessions", "cara_runs_computing", "cara_runs_started_total", "cara_runs_queued", "cara_runs_cached", "cara_cache_bytes",
		`cara_sessions_refused_total{reason="room_full"}`, "cara_panics_recovered_total", "go_goroutines"} {
		if !strings.Contains(m, "\n"+name+" ") {
			t.Errorf("metrics lack %s", name)
		}
	}
	cmd.Process.Signal(syscall.SIGHUP)
	expect(fmt.Sprintf(`msg="scenarios read again" entries=%d`, len(scenarios.Embedded())+1))
	cmd.Process.Signal(syscall.SIGINT)
	// What an interrupted server says is its own, not a sweep's.
	expect(`^cara: interrupted: the server stopped; every session was closed$`)
	go func() {
		for range lines {
		}
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("exit after SIGINT: %v, want status 130 (interrupted)", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no exit 10 s after SIGINT")
	}
	if _, err := http.Get(url); err == nil {
		t.Error("metrics still served after shutdown")
	}
}

// --memory takes a size, and a room too small for anything is a usage mistake.
func TestServeMemoryFlag(t *testing.T) {
	for _, tc := range []struct{ arg, want string }{
		{"12 parsecs", `--memory: "12 parsecs" is not a size`},
		{"64MiB", "--memory 64 MiB is too little for a room (--memory); give at least 128 MiB"},
	} {
		if _, _, err := caraIO(t, "serve", "--listen", "127.0.0.1:0", "--host-key", filepath.Join(t.TempDir(), "k"), "--metrics", "", "--memory", tc.arg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--memory %s: %v, want %q", tc.arg, err, tc.want)
		}
	}
}
