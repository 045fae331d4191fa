package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/cara-sim/cara/room"
)

// The room's answers kept (cara serve --answers FILE): every answer a student gives to the
// presenter's question, appended to FILE as one JSON line as it is given, written straight to the
// file (no buffer), so that a crash loses nothing already answered. docs/answers.md says how to
// turn the file into a class table.

// answerLine is one line of the answers file.
type answerLine struct {
	Time     string  `json:"time"`     // RFC 3339, with the server's offset
	Student  string  `json:"student"`  // the login name, numbered when two share one ("ana (2)")
	Scenario string  `json:"scenario"` // the scenario's name
	Seed     uint64  `json:"seed"`
	Batch    int     `json:"batch"`
	Answer   *string `json:"answer"` // RETRAIN or KEEP; null: the student followed the question and did not answer
	Oracle   *string `json:"oracle"` // the Oracle's decision there, RETRAIN or KEEP; null while the run was computing
	Right    *bool   `json:"right"`  // the answer was the Oracle's decision; null when that was not known
}

func decision(retrain bool) string {
	if retrain {
		return "RETRAIN"
	}
	return "KEEP"
}

// answersFile appends answers to a file, one JSON line each. The file is the one its path names:
// opened again on SIGHUP (reopen) and before a write when the path no longer names the open file
// (logrotate moved it away, someone deleted it). An answer that cannot be written (a full disk, a
// folder gone) is kept in memory, at most maxPending bytes of them, and written, in order, when the
// file works again: at the next answer, a retry every retryPending, a SIGHUP, or the stop. Failures
// are counted (metrics), logged when they start and end, and told to the presenter (onChange, then
// state).
type answersFile struct {
	mu      sync.Mutex
	path    string
	f       *os.File
	pending [][]byte // lines not yet written, oldest first
	bytes   int      // of pending
	err     error    // why the last write failed; nil while answers are written
	retry   *time.Timer
	every   time.Duration // retryPending; tests make it shorter
	closed  bool
	// counts, ever: lines written, writes that failed, answers lost (pending full, or unwritten at
	// the stop: those are logged whole)
	written, failures, lost int64
	log                     func(msg string, args ...any)
	// onChange, when set, is called (on a goroutine of its own) when answers stop or start being
	// written, or the count kept in memory changes while they are not.
	onChange func()
}

// maxPending bounds the answers kept in memory while the file fails: 4096 answers of about 200
// bytes, a class of 50 answering 80 questions.
const maxPending = 1 << 20

// retryPending is how often answers kept in memory are tried again without a new answer.
const retryPending = 5 * time.Second

// openAnswers opens (creating it, mode 0600) the answers file for appending.
func openAnswers(path string, log func(string, ...any)) (*answersFile, error) {
	f, err := openAnswersFile(path)
	if err != nil {
		return nil, fmt.Errorf("--answers: %w", err)
	}
	return &answersFile{path: path, f: f, log: log, every: retryPending}, nil
}

func openAnswersFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
}

// record writes one answer as a line (room.Room.Record).
func (a *answersFile) record(ans room.Answer) {
	line := answerLine{Time: ans.Time.Format(time.RFC3339Nano), Student: ans.Student, Scenario: ans.Scenario, Seed: ans.Seed,
		Batch: ans.Batch}
	if !ans.None {
		d := decision(ans.Retrain)
		line.Answer = &d
	}
	if ans.Known && !ans.None {
		o, right := decision(ans.Oracle), ans.Right()
		line.Oracle, line.Right = &o, &right
	}
	b, err := json.Marshal(line)
	if err != nil {
		return // nothing in a line fails to marshal
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return
	}
	b = append(b, '\n')
	if a.bytes+len(b) > maxPending {
		a.lost++
		a.log("answer lost: the answers file fails and the answers kept in memory are at their bound", "file", a.path,
			"kept", len(a.pending), "line", string(b[:len(b)-1]))
		a.changedLocked()
		return
	}
	a.pending = append(a.pending, b)
	a.bytes += len(b)
	a.flushLocked()
}

// sameFile reports whether path still names the open file.
func (a *answersFile) sameFile() bool {
	if a.f == nil {
		return false
	}
	at, err := os.Stat(a.path)
	if err != nil {
		return false
	}
	open, err := a.f.Stat()
	return err == nil && os.SameFile(at, open)
}

// flushLocked writes the pending lines, opening the file again first when its path names another
// (or none); one write a line, unbuffered: what has been answered is in the file. A line written
// in part (a disk that fills) is cut off again, so the file holds whole lines only.
func (a *answersFile) flushLocked() {
	if len(a.pending) == 0 {
		return
	}
	if !a.sameFile() && !a.openAgainLocked("answers file opened again: its path named another file, or none") {
		return
	}
	for len(a.pending) > 0 {
		b := a.pending[0]
		var size int64 = -1
		if st, err := a.f.Stat(); err == nil {
			size = st.Size()
		}
		if n, err := a.f.Write(b); err != nil {
			if n > 0 && size >= 0 {
				a.f.Truncate(size)
			}
			a.failedLocked(err)
			return
		}
		a.pending, a.bytes = a.pending[1:], a.bytes-len(b)
		a.written++
	}
	a.pending = nil
	if a.err != nil {
		a.log("answers written again", "file", a.path, "written", a.written)
		a.err = nil
		a.changedLocked()
	}
}

// failedLocked counts a failure, says it when it is new, and retries later.
func (a *answersFile) failedLocked(err error) {
	a.failures++
	if a.err == nil || a.err.Error() != err.Error() {
		a.log("answers not written: kept in memory until the file works again", "file", a.path, "err", err, "kept", len(a.pending))
	}
	a.err = err
	a.changedLocked()
	if a.retry == nil && !a.closed {
		a.retry = time.AfterFunc(a.every, func() {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.retry = nil
			if !a.closed {
				a.flushLocked()
			}
		})
	}
}

func (a *answersFile) changedLocked() {
	if a.onChange != nil {
		go a.onChange()
	}
}

// reopen closes the file and opens its path again (SIGHUP: after logrotate), writing what is kept.
func (a *answersFile) reopen() {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return
	}
	if a.openAgainLocked("answers file opened again") {
		a.flushLocked()
	}
}

// openAgainLocked closes the file and opens its path again, saying why; a failure is counted and
// retried, as a failed write is.
func (a *answersFile) openAgainLocked(why string) bool {
	if a.f != nil {
		a.f.Close()
		a.f = nil
	}
	f, err := openAnswersFile(a.path)
	if err != nil {
		a.failedLocked(err)
		return false
	}
	a.f = f
	a.log(why, "file", a.path)
	return true
}

// answersState is what the presenter and the metrics are told.
type answersState struct {
	Err                     error // why answers are not being written; nil when they are
	Pending                 int   // answers kept in memory, not yet written
	Written, Failures, Lost int64
}

func (a *answersFile) state() answersState {
	if a == nil {
		return answersState{}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return answersState{Err: a.err, Pending: len(a.pending), Written: a.written, Failures: a.failures, Lost: a.lost}
}

// note is the line the presenter reads while answers are not being written ("" while they are).
func (st answersState) note(path string) string {
	if st.Err == nil && st.Lost == 0 {
		return ""
	}
	why := "failed"
	var pe *os.PathError
	if errors.As(st.Err, &pe) {
		why = pe.Err.Error()
	} else if st.Err != nil {
		why = st.Err.Error()
	}
	// Short: it fits an 80-column screen with a long error.
	s := fmt.Sprintf("%s NOT written (%s): %d kept in memory", filepath.Base(path), why, st.Pending)
	if st.Err == nil {
		s = fmt.Sprintf("answers written to %s again", filepath.Base(path))
	}
	if st.Lost > 0 {
		s += fmt.Sprintf(", %d lost (in the server's log)", st.Lost)
	}
	return s
}

// close writes what is kept (opening the path again if need be), syncs the file to disk and closes
// it; answers it still cannot write are logged, a line each, so none is lost without a word. Later
// answers are dropped.
func (a *answersFile) close() {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return
	}
	a.flushLocked()
	a.closed = true
	if a.retry != nil {
		a.retry.Stop()
		a.retry = nil
	}
	for _, b := range a.pending {
		a.lost++
		a.log("answer not written at the stop", "file", a.path, "line", string(b[:len(b)-1]))
	}
	a.pending, a.bytes = nil, 0
	if a.f != nil {
		// A device (--answers /dev/stdout) has nothing to sync, and says EINVAL.
		if st, err := a.f.Stat(); err == nil && st.Mode().IsRegular() {
			if err := a.f.Sync(); err != nil {
				a.log("answers file not synced", "file", a.path, "err", err)
			}
		}
		a.f.Close()
		a.f = nil
	}
}
