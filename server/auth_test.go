package server

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// Failed logins with 60 kB names take no memory the budget does not count: the names are refused
// before they are kept (the backoff counts their address only) and cut before they are logged.
// 400 of them (347 in a minute grew main's server by 21 MB and logged 60 kB a line) grow the heap
// by under 8 MB, and no log line is over 2 kB; the address is still slowed.
func TestHostileLongNames(t *testing.T) {
	pw := filepath.Join(t.TempDir(), "pw")
	os.WriteFile(pw, []byte("tulip\n"), 0o600)
	srv, addr, logs := startServing(t, Config{PasswordFile: pw})
	srv.logins.mu.Lock()
	srv.logins.first, srv.logins.most = time.Millisecond, time.Millisecond // a minute's logins, quickly
	srv.logins.mu.Unlock()
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	before := heap()
	const n, par = 400, 8
	var wg sync.WaitGroup
	for g := range par {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n / par {
				name := fmt.Sprintf("%d-%d-", g, i) + strings.Repeat("m", 60<<10)
				c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: name, Auth: []gossh.AuthMethod{gossh.Password("rose")},
					HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
				if err == nil {
					c.Close()
					t.Error("a wrong password got in")
					return
				}
			}
		}()
	}
	wg.Wait()
	grew := int64(heap()) - int64(before)
	t.Logf("%d failed logins with 60 kB names: heap grew %.1f MB", n, float64(grew)/1e6)
	if grew > 8<<20 {
		t.Errorf("%d failed logins with 60 kB names grew the heap by %.1f MB, want under 8 MB", n, float64(grew)/1e6)
	}
	if keys, bytes := srv.logins.size(); keys != 1 || bytes > 1<<10 {
		t.Errorf("the backoff holds %d keys, %d bytes; want the address alone", keys, bytes)
	}
	if got := scrape(t, srv.metricsURL)[`cara_auth_failures_total{method="password"}`]; got != n {
		t.Errorf("cara_auth_failures_total %v, want %d", got, n)
	}
	sc := bufio.NewScanner(strings.NewReader(logs.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(sc.Text()) > 2<<10 {
			t.Errorf("a log line of %d bytes: %.200s...", len(sc.Text()), sc.Text())
		}
	}
	if !strings.Contains(logs.String(), "mmm... (614") {
		t.Errorf("no refusal logged with its name's length:\n%.2000s", logs.String())
	}
}

// The backoff's tables stay within maxFailureKeys keys and maxFailureBytes, forgetting the least
// recently failed first; a name's count survives while it keeps failing.
func TestLoginBackoffBounded(t *testing.T) {
	b := newLoginBackoff()
	now := time.Now()
	for i := range 3 * maxFailureKeys {
		b.failed(fmt.Sprintf("10.0.%d.%d", i/256, i%256), fmt.Sprintf("%04d", i)+strings.Repeat("x", maxUserBytes-4), now.Add(time.Duration(i)*time.Microsecond))
		if i%1000 == 0 {
			b.failed("10.9.9.9", "ana", now.Add(time.Duration(i)*time.Microsecond)) // keeps failing: kept
		}
	}
	for _, tb := range []int{len(b.byAddr.m), len(b.byUser.m), len(b.byPair.m)} {
		if tb > maxFailureKeys {
			t.Errorf("a table of %d keys, want at most %d", tb, maxFailureKeys)
		}
	}
	for name, by := range map[string]int{"addr": b.byAddr.bytes, "user": b.byUser.bytes, "pair": b.byPair.bytes} {
		if by > maxFailureBytes {
			t.Errorf("%s table holds %d bytes, want at most %d", name, by, maxFailureBytes)
		}
	}
	if _, ok := b.byUser.m["0000"+strings.Repeat("x", maxUserBytes-4)]; ok {
		t.Error("the least recently failed name kept")
	}
	if f := b.byUser.m["ana"]; f == nil || f.n != 13 {
		t.Errorf("a name failing all along: %+v, want 13 failures", f)
	}
	keys, bytes := b.size()
	t.Logf("after %d names: %d keys, %d bytes", 3*maxFailureKeys, keys, bytes)
}

// A room that asks no login bounds names at the session: a 1 kB name is refused, saying the
// limit; a 60 kB command line is logged cut, within 2 kB.
func TestOpenRoomLongNames(t *testing.T) {
	srv, addr, logs := startServing(t, Config{Exec: func(ctx context.Context, req ExecRequest) int { return 3 }})
	_, errOut, code := command(t, addr, strings.Repeat("n", 1<<10), "", "run covcon-d")
	if code != 1 || !strings.Contains(errOut, "a user name is at most 256 bytes") {
		t.Errorf("a 1 kB name: exit %d, %q", code, errOut)
	}
	if got := scrape(t, srv.metricsURL)[`cara_sessions_refused_total{reason="long_name"}`]; got != 1 {
		t.Errorf("refused for long_name: %v, want 1", got)
	}
	if _, _, code := command(t, addr, "ana", "", "run "+strings.Repeat("x", 60<<10)); code != 3 {
		t.Errorf("a long command: exit %d, want the command's 3", code)
	}
	for _, line := range strings.Split(logs.String(), "\n") {
		if len(line) > 2<<10 || strings.Contains(line, strings.Repeat("n", maxUserBytes+1)) {
			t.Errorf("a log line of %d bytes: %.200s...", len(line), line)
		}
	}
	if !strings.Contains(logs.String(), "xxx... (61444 bytes)") {
		t.Errorf("the long command not logged cut with its length:\n%.3000s", logs.String())
	}
}
