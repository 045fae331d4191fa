package server

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/cara-sim/cara/internal/simtest"
	"github.com/cara-sim/cara/room"
)

// logged collects an answersFile's log lines.
type logged struct {
	mu    sync.Mutex
	lines []string
}

func (l *logged) log(msg string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprint(append([]any{msg}, args...)...))
}

func (l *logged) has(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, x := range l.lines {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}

func answer(name string) room.Answer {
	return room.Answer{Time: time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC), Student: name, Scenario: "covcon-d", Seed: 3, Batch: 27}
}

// students reads the answers file's students, in order.
func students(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if i := strings.Index(line, `"student":"`); i >= 0 {
			out = append(out, strings.SplitN(line[i+11:], `"`, 2)[0])
		}
	}
	return strings.Join(out, " ")
}

// The answers file is the one its path names: moved away (logrotate) or deleted, the next answer
// goes to a new file at the path; SIGHUP opens the path again at once (creating it, as logrotate's
// create expects).
func TestAnswersReopen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "answers.jsonl")
	var l logged
	a, err := openAnswers(path, l.log)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	a.record(answer("ana"))
	os.Rename(path, path+".1") // logrotate's rename
	a.record(answer("bob"))
	os.Remove(path)
	a.record(answer("cy"))
	if got := students(t, path+".1") + " | " + students(t, path); got != "ana | cy" {
		t.Errorf("rotated | current: %q, want ana | cy (bob went to the file deleted)", got)
	}
	// bob was written to the moved file's successor, deleted since: the point is that nothing
	// went to an unlinked file after the path named another.
	os.Rename(path, path+".2")
	a.reopen() // SIGHUP
	if _, err := os.Stat(path); err != nil {
		t.Errorf("after SIGHUP the path is not there: %v", err)
	}
	a.record(answer("dee"))
	if got := students(t, path+".2") + " | " + students(t, path); got != "cy | dee" {
		t.Errorf("after SIGHUP, rotated | current: %q, want cy | dee", got)
	}
	if st := a.state(); st.Written != 4 || st.Failures != 0 || st.Err != nil {
		t.Errorf("state %+v, want 4 written", st)
	}
	if !l.has("answers file opened again") {
		t.Errorf("no word of the file opened again: %q", l.lines)
	}
}

// On a full disk answers are kept in memory, counted, logged once, and the presenter's note says
// so; when the path works again (the next answer, or the retry) they are written in order. Past
// the memory's bound an answer is lost, counted and logged whole; at the stop the file is synced
// and what still fails is logged a line each.
func TestAnswersFull(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "answers.jsonl")
	if err := os.Symlink("/dev/full", path); err != nil {
		t.Fatal(err)
	}
	var l logged
	a, err := openAnswers(path, l.log)
	if err != nil {
		t.Fatal(err)
	}
	a.every = 50 * time.Millisecond
	changes := make(chan struct{}, 100)
	a.onChange = func() { changes <- struct{}{} }
	a.record(answer("ana"))
	a.record(answer("bob"))
	st := a.state()
	if !errors.Is(st.Err, syscall.ENOSPC) || st.Pending != 2 || st.Failures < 2 || st.Written != 0 {
		t.Fatalf("on a full disk: %+v, want ENOSPC, 2 kept, 2 failures", st)
	}
	if got, want := st.note(path), "answers.jsonl NOT written (no space left on device): 2 kept in memory"; got != want {
		t.Errorf("the presenter reads %q, want %q", got, want)
	}
	select {
	case <-changes:
	case <-time.After(5 * time.Second):
		t.Error("nobody told of the failure")
	}
	n := 0
	for _, line := range l.lines {
		if strings.Contains(line, "answers not written") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d lines of the failure, want 1 (the same error again is counted): %q", n, l.lines)
	}
	// The disk has room again: the path names a file that works. The retry writes both.
	os.Remove(path)
	os.WriteFile(path, nil, 0o600)
	simtest.Eventually(t, "the kept answers written by the retry", func() bool { return a.state().Pending == 0 })
	a.record(answer("cy"))
	if got := students(t, path); got != "ana bob cy" {
		t.Errorf("written again: %q, want ana bob cy in order", got)
	}
	if st := a.state(); st.Err != nil || st.note(path) != "" || st.Written != 3 {
		t.Errorf("after: %+v, note %q", st, st.note(path))
	}
	if !l.has("answers written again") {
		t.Errorf("no word of the answers written again: %q", l.lines)
	}

	// Full again, past the bound: answers lost are counted and logged whole.
	os.Remove(path)
	os.Symlink("/dev/full", path)
	var lost int
	for i := 0; a.state().Lost == 0; i++ {
		a.record(answer(fmt.Sprintf("s%d", i)))
		lost = i
	}
	st = a.state()
	t.Logf("kept %d answers (%d bytes at most) before the first was lost", st.Pending, maxPending)
	if st.Pending < 4000 || !l.has(fmt.Sprintf("s%d", lost)) {
		t.Errorf("kept %d, lost %d; the lost answer not in the log", st.Pending, st.Lost)
	}
	if note := st.note(path); !strings.Contains(note, "1 lost (in the server's log)") {
		t.Errorf("the presenter reads %q", note)
	}
	a.close()
	if st := a.state(); st.Pending != 0 || st.Lost <= 1 || !l.has("answer not written at the stop") {
		t.Errorf("at the stop: %+v; each unwritten answer logged: %v", st, l.has("answer not written at the stop"))
	}
}

// The presenter reads, under the screen, when the answers file fails, and the line goes when it
// works again; the metrics count the failures and what is kept.
func TestServeAnswersFailTold(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	keys, signer := presenterKey(t)
	path := filepath.Join(t.TempDir(), "answers.jsonl")
	os.Symlink("/dev/full", path)
	srv, addr, _ := startServing(t, Config{PresenterKeys: keys, Answers: path})
	_, prof := openPTY(t, dialUser(t, addr, "prof", gossh.PublicKeys(signer)))
	prof.waitFor(t, "You present")
	srv.answers.record(answer("ana")) // as the room hands it over
	prof.waitFor(t, "answers.jsonl NOT written (no space left on device): 1 kept in memory")
	m := scrape(t, srv.metricsURL)
	if m["cara_answers_failing"] != 1 || m["cara_answers_pending"] != 1 || m["cara_answers_write_failures_total"] < 1 {
		t.Errorf("metrics: failing %v, pending %v, failures %v", m["cara_answers_failing"], m["cara_answers_pending"], m["cara_answers_write_failures_total"])
	}
	os.Remove(path)
	os.WriteFile(path, nil, 0o600)
	mark := prof.mark()
	srv.Reload() // SIGHUP
	if got := students(t, path); got != "ana" {
		t.Errorf("after SIGHUP the file holds %q, want ana", got)
	}
	simtest.Eventually(t, "the screen laid out again without the note", func() bool {
		out := prof.since(mark)
		return strings.Contains(out, "filter") && !strings.Contains(out, "NOT written (") && scrape(t, srv.metricsURL)["cara_answers_failing"] == 0
	})
}
