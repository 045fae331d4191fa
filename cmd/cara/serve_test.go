package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
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
		"--metrics", "127.0.0.1:0", "--scenarios", "testdata", "--max-computing", "3", "--memory", "300MiB",
		"--answers", filepath.Join(dir, "answers.jsonl"))
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
	fp := expect(`msg=serving .*fingerprint=(SHA256:[A-Za-z0-9+/]{43}) .*max_computing=3 memory="300 MiB" memory_from=--memory for_work="225 MiB"`)[1]
	m := metricsText(t, url)
	if !strings.Contains(m, `cara_host_key_info{fingerprint="`+fp+`"} 1`) {
		t.Errorf("the metrics page does not show the fingerprint %s", fp)
	}
	// cara serve --fingerprint prints the same, as ssh-keygen -lf does.
	out, err := exec.Command(bin, "serve", "--fingerprint", "--host-key", filepath.Join(dir, "key")).Output()
	if err != nil || strings.TrimSpace(string(out)) != fp {
		t.Errorf("cara serve --fingerprint: %q, %v; want %s", out, err, fp)
	}
	if kg, err := exec.Command("ssh-keygen", "-lf", filepath.Join(dir, "key")).Output(); err == nil && !strings.Contains(string(kg), " "+fp+" ") {
		t.Errorf("ssh-keygen -lf says %q; cara logged %s", kg, fp)
	}
	if !strings.Contains(m, "\ncara_gomemlimit_bytes 3.145728e+08\n") || !strings.Contains(m, "\ncara_memory_bytes 3.145728e+08\n") {
		t.Error("GOMEMLIMIT and the room's memory are not --memory 300MiB")
	}
	for _, name := range []string{"cara_sessions", "cara_runs_computing", "cara_runs_started_total", "cara_runs_queued", "cara_runs_cached", "cara_cache_bytes",
		`cara_sessions_refused_total{reason="room_full"}`, "cara_panics_recovered_total", "go_goroutines"} {
		if !strings.Contains(m, "\n"+name+" ") {
			t.Errorf("metrics lack %s", name)
		}
	}
	// logrotate moves the answers away; SIGHUP opens the path again (and reads the scenarios).
	if err := os.Rename(filepath.Join(dir, "answers.jsonl"), filepath.Join(dir, "answers.jsonl.1")); err != nil {
		t.Fatal(err)
	}
	cmd.Process.Signal(syscall.SIGHUP)
	expect(`msg="answers file opened again"`)
	expect(fmt.Sprintf(`msg="scenarios read again" entries=%d`, len(scenarios.Embedded())+1))
	if _, err := os.Stat(filepath.Join(dir, "answers.jsonl")); err != nil {
		t.Errorf("after SIGHUP: %v", err)
	}
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

// cara serve --fingerprint creates the host key when there is none, as serve would (mode 0600),
// and prints its fingerprint as ssh-keygen -lf does; the same again for the same key.
func TestServeFingerprint(t *testing.T) {
	key := filepath.Join(t.TempDir(), "state", "ssh_host_ed25519")
	out, _, err := caraIO(t, "serve", "--fingerprint", "--host-key", key)
	if err != nil || !regexp.MustCompile(`^SHA256:[A-Za-z0-9+/]{43}\n$`).MatchString(out) {
		t.Fatalf("cara serve --fingerprint: %q, %v", out, err)
	}
	if st, err := os.Stat(key); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the key made: %v, %v; want mode 0600", st, err)
	}
	if again, _, _ := caraIO(t, "serve", "--fingerprint", "--host-key", key); again != out {
		t.Errorf("a second --fingerprint: %q, want %q", again, out)
	}
	if kg, err := exec.Command("ssh-keygen", "-lf", key).Output(); err == nil && !strings.Contains(string(kg), " "+strings.TrimSpace(out)+" ") {
		t.Errorf("ssh-keygen -lf says %q; cara %q", kg, out)
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
