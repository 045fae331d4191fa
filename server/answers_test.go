package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/cara-sim/cara/room"
)

// dialUser is dial with a login name of one's own.
func dialUser(t *testing.T, addr, user string, auth ...gossh.AuthMethod) *gossh.Client {
	t.Helper()
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user, Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// The room's answers kept, over SSH: a presenter (prof) and two students (ana, bob) in a room
// with --answers. On scenario1-near's tour the students answer the quiz at 2 (ana as the Oracle
// decided, bob not) and the presenter's reveal names them; the end of the tour shows the room's
// summary with both; then a guess round over 3, and its summary with both students' scores. The answers file holds every answer, one JSON line each with the time, the student,
// the scenario, the seed, the batch, the answer, the Oracle's decision and whether it was right.
func TestServeAnswers(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("three SSH sessions through a tour and a guess round")
	}
	keys, signer := presenterKey(t)
	file := filepath.Join(t.TempDir(), "answers.jsonl")
	addr := startServer(t, Config{PresenterKeys: keys, Answers: file})

	_, prof := openPTY(t, dialUser(t, addr, "prof", gossh.PublicKeys(signer)))
	prof.waitFor(t, "You present")
	prof.send("/scenario1-near\r\r")
	prof.waitFor(t, "computed all")
	students := map[string]*screen{}
	for _, name := range []string{"ana", "bob"} {
		_, sc := openPTY(t, dialUser(t, addr, name, gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })))
		sc.waitFor(t, "scenario1-near · following")
		students[name] = sc
	}
	prof.waitFor(t, "2 follow · 0 free")

	// ask has the presenter ask (keys), each student answer, and the presenter answer: the room
	// said what it said before the presenter's answer closes the question.
	ask := func(keys string, batch int, ana, bob, pres string, tally string) {
		t.Helper()
		marks := map[string]int{}
		for name, sc := range students {
			marks[name] = sc.mark()
		}
		prof.send(keys)
		for name, sc := range students {
			if err := sc.waitAfter(marks[name], fmt.Sprintf("RETRAIN or KEEP at %d?", batch), 10*time.Second); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		// One after the other, so that the file's order is known.
		m := prof.mark()
		students["ana"].send(ana)
		if err := prof.waitAfter(m, "(1 of 2 following)", 10*time.Second); err != nil {
			t.Fatal(err)
		}
		students["bob"].send(bob)
		if err := prof.waitAfter(m, tally, 10*time.Second); err != nil {
			t.Fatal(err)
		}
		prof.send(pres)
	}

	// The tour: stops at 0 and 1, then the quiz at 2, where the Oracle retrains.
	prof.send("t")
	prof.waitFor(t, "tour 1/5")
	prof.send(" ")
	prof.waitFor(t, "tour 2/5")
	ask(" ", 2, "r", "k", "r", "The room: 1 RETRAIN / 1 KEEP")
	prof.waitFor(t, "As the Oracle: ana · not: bob")
	for range 3 {
		prof.send(" ")
		time.Sleep(100 * time.Millisecond)
	}
	prof.waitFor(t, "The room over the tour: 2 students, 1 question")
	prof.waitFor(t, "1 ana 1 of 1 as the Oracle")
	prof.waitFor(t, "2 bob 0 of 1 as the Oracle")
	prof.send("\x1b") // esc closes the summary

	// The guess round from batch 2 (the presenter answered 2 in the tour: the round asks about 3),
	// where the Oracle retrains: ana as it decided, bob not.
	m := prof.mark()
	prof.send("h")
	if err := prof.waitAfter(m, "batch 2/3", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	ask("g", 3, "r", "k", "r", "The room: 1 RETRAIN / 1 KEEP")
	prof.waitFor(t, "As the Oracle: ana · not: bob")
	m = prof.mark()
	prof.send("g")
	for _, want := range []string{"The room over the guess round: 2 students, 1 question", "1 ana 1 of 1 as the Oracle", "2 bob 0 of 1 as the Oracle"} {
		if err := prof.waitAfter(m, want, 10*time.Second); err != nil {
			t.Fatal(err)
		}
	}

	// The file: every answer, as given.
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type line struct {
		Time     string  `json:"time"`
		Student  string  `json:"student"`
		Scenario string  `json:"scenario"`
		Seed     *uint64 `json:"seed"`
		Batch    int     `json:"batch"`
		Answer   string  `json:"answer"`
		Oracle   string  `json:"oracle"`
		Right    *bool   `json:"right"`
	}
	var got []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l line
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		if _, err := time.Parse(time.RFC3339Nano, l.Time); err != nil || l.Scenario != "scenario1-near" || l.Seed == nil || *l.Seed != 0 || l.Oracle != "RETRAIN" || l.Right == nil ||
			*l.Right != (l.Answer == l.Oracle) {
			t.Errorf("line %q", sc.Text())
		}
		got = append(got, fmt.Sprintf("%s %d %s", l.Student, l.Batch, l.Answer))
	}
	want := []string{"ana 2 RETRAIN", "bob 2 KEEP", "ana 3 RETRAIN", "bob 3 KEEP"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the answers file holds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// An answer given while the run was still computing has no Oracle's decision: null, and so is
// whether it was right; a student who followed the question and did not answer has a line with
// answer, oracle and right null; an answers file that cannot be opened stops the server from starting.
func TestAnswersFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a.jsonl")
	a, err := openAnswers(file, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	a.record(room.Answer{Time: at, Student: "ana", Scenario: "covcon-d", Seed: 3, Batch: 27, Retrain: true})
	a.record(room.Answer{Time: at, Student: "bob", Scenario: "covcon-d", Seed: 3, Batch: 27, Oracle: true, Known: true})
	a.record(room.Answer{Time: at, Student: "dan", Scenario: "covcon-d", Seed: 3, Batch: 27, None: true, Oracle: true, Known: true})
	a.close()
	a.record(room.Answer{Student: "late"}) // after close: dropped
	b, _ := os.ReadFile(file)
	want := `{"time":"2025-03-01T10:00:00Z","student":"ana","scenario":"covcon-d","seed":3,"batch":27,"answer":"RETRAIN","oracle":null,"right":null}
{"time":"2025-03-01T10:00:00Z","student":"bob","scenario":"covcon-d","seed":3,"batch":27,"answer":"KEEP","oracle":"RETRAIN","right":false}
{"time":"2025-03-01T10:00:00Z","student":"dan","scenario":"covcon-d","seed":3,"batch":27,"answer":null,"oracle":null,"right":null}
`
	if string(b) != want {
		t.Errorf("the file:\n%s\nwant\n%s", b, want)
	}
	if st, _ := os.Stat(file); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600: the students' names", st.Mode().Perm())
	}
	_, err = New(Config{Listen: "127.0.0.1:0", HostKey: filepath.Join(t.TempDir(), "k"), MaxSessions: 1, Answers: filepath.Join(t.TempDir(), "no", "such", "dir", "a.jsonl")})
	if err == nil || !strings.Contains(err.Error(), "--answers") {
		t.Errorf("an answers file in no folder: %v", err)
	}
}
