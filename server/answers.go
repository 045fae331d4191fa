package server

import (
	"encoding/json"
	"fmt"
	"os"
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

// answersFile appends answers to a file, one JSON line each.
type answersFile struct {
	mu     sync.Mutex
	f      *os.File
	failed bool // a write failed: said once in the log
	log    func(msg string, args ...any)
}

// openAnswers opens (creating it, mode 0600) the answers file for appending.
func openAnswers(path string, log func(string, ...any)) (*answersFile, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("--answers: %w", err)
	}
	return &answersFile{f: f, log: log}, nil
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
	if a.f == nil {
		return
	}
	// One write a line, unbuffered: what has been answered is in the file.
	if _, err := a.f.Write(append(b, '\n')); err != nil && !a.failed {
		a.failed = true
		a.log("answers not written", "file", a.f.Name(), "err", err)
	}
}

// close closes the file; later answers are dropped.
func (a *answersFile) close() {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.f != nil {
		a.f.Close()
		a.f = nil
	}
}
