// Package room owns a workshop's room: the presenter's Stage (what the presenter shows, as a
// value), who is in the room, following or free, and their answers to the presenter's question.
// It knows nothing of terminals: the player (tui) publishes its stage and turns the room's changes
// into messages.
package room

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
)

// Room is a workshop's broadcast hub: the presenter's Stage (what the presenter shows, as a value
// with a version) and who is in the room, following or free, with their answers to the
// presenter's question. It knows nothing of terminals: a player publishes its stage after each
// message it handles, and each session's relay (tui.Relay) hands the room's changes to its player as
// messages. Safe for concurrent use; idle, it holds no goroutine.
//
// One presenter at a time: a presenter who joins while another is on takes over (the instructor's
// reconnected laptop while the old connection has not yet timed out), and the one before becomes a
// free member. A presenter who joins while another is on, or within the grace after one left, finds
// the room where it was: the stage stays, and its view says to take it up (Resume). Members who
// join while a presenter is on follow; the others are free until they choose to follow.
type Room struct {
	// Grace is how long followers keep following after the presenter leaves, for a presenter who
	// reconnects (a laptop that slept, Wi-Fi that dropped): within it the next presenter has the
	// room; after it the followers go free. Set it before the first Join; 0 frees them at once.
	Grace time.Duration

	mu        sync.Mutex
	grace     *time.Timer // running while the room waits for its presenter to come back
	version   uint64      // counts every change a member may want to see
	stageVer  uint64      // counts the presenter's stage changes
	stage     Stage
	presenter *Member
	members   map[*Member]struct{}
	answers   map[*Member]bool // answers to the stage's Quiz, RETRAIN true
	changed   chan struct{}    // closed and replaced at every change
	// ledger is every answer given in the room, in order (at most maxLedger: a room's worth of
	// workshops); the presenter's player scores the room from it.
	ledger []Answer

	// Record, when set, is called with every answer as it is given, outside the room's lock (the
	// server appends it to its answers file). Set it before the first Join.
	Record func(Answer)
}

// maxLedger bounds the answers a room keeps: 200 students answering 500 questions. The Record hook
// sees every answer all the same.
const maxLedger = 100_000

// Answer is one student's answer to the presenter's question, as the room keeps it (and the
// server's answers file writes it).
type Answer struct {
	Time     time.Time
	Student  string // the member's name in the room: their login name
	Scenario string
	Seed     uint64
	Batch    int
	Retrain  bool // RETRAIN, or KEEP
	// Oracle is the Oracle's decision at Batch (RETRAIN true), in hindsight over the whole online
	// block, as the student's player knew it when they answered; Known is false while the run was
	// still being computed (the best so far is not the Oracle).
	Oracle, Known bool
	// None marks a student who did not answer: they followed the presenter when the question
	// closed (the presenter answered it, put it off or moved on) and gave no answer to it. Retrain,
	// Oracle and Known mean nothing then.
	None bool
}

// Right reports whether the answer was the Oracle's decision (false when that is not known, or
// for no answer).
func (a Answer) Right() bool { return a.Known && !a.None && a.Retrain == a.Oracle }

// Shown is what a player shows of its run: the batch, whether it plays and how fast, R's scale,
// the algorithm selected, the pane in focus, the matrix cursor. A player embeds it and a Stage
// carries it, so following a presenter is applying the fields of Shown that changed.
type Shown struct {
	Pos      int
	Playing  bool
	Speed    int     // index into the player's speeds
	Scale    float64 // R as a multiple of the scenario's
	Selected algos.Name
	Visible  int // index into the visible sets
	Focus    int // the focused pane
	Zoomed   bool
	Cursor   Cursor
}

// Cursor is the matrix's cell cursor.
type Cursor struct {
	On bool
	At [2]int // (t', t)
}

// Stage is what a presenter shows, as followers apply it. It is a value: a follower that missed
// versions loses nothing by applying the newest.
type Stage struct {
	Scenario *scenarios.Scenario // nil while the presenter chooses a scenario
	Seed     uint64
	Shown
	Whatif string // the what-if in force: its --set overrides, one a line ("" for none)
	// WhatifName is how the presenter's player names that what-if ("queries follow the data
	// (20 % of each batch)"), so the followers read the same words.
	WhatifName string
	Stop       int // the tour stop whose callout shows; -1 when none does
	Quiz       int // the batch the presenter asks "RETRAIN or KEEP?" about; -1 when none
	// Asked numbers the presenter's questions: the same batch asked again (another round, the
	// tour again) is another question, asked of everyone again.
	Asked int
}

// View is a member's snapshot of the room.
type View struct {
	Version      uint64
	Stage        Stage
	StageVersion uint64
	On           bool // a presenter is in the room (or may come back: Grace)
	Presenter    bool // this member presents
	// Resume says this member presents after taking over from a presenter on, or one who left
	// within the grace (a reconnect): it shows the stage it finds, and takes it from there; Resumed
	// says it has.
	Resume    bool
	Following bool // this member follows
	Followers int  // members following (the presenter not counted)
	Free      int  // members not following
	Retrain   int  // answers to the stage's Quiz
	Keep      int
}

// Member is one session in a room.
type Member struct {
	room      *Room
	name      string // unique in the room while the member is in it
	presenter bool
	following bool
	left      bool
	resume    bool // a presenter who found the room's stage: to take it up
}

// Name is the member's name in the room: the login name it joined with, numbered when another
// member has it ("ana (2)").
func (m *Member) Name() string { return m.name }

// maxName bounds a member's name, as it is shown in a presenter's panels.
const maxName = 24

// cleanName makes a login name fit to show: printable characters only (a client chooses it), at
// most maxName of them; "guest" for none.
func cleanName(name string) string {
	var b strings.Builder
	n := 0
	for _, r := range name {
		if n == maxName {
			break
		}
		if unicode.IsPrint(r) && (r == ' ' || !unicode.IsSpace(r)) {
			b.WriteRune(r)
			n++
		}
	}
	if s := strings.TrimSpace(b.String()); s != "" {
		return s
	}
	return "guest"
}

// New returns an empty room.
func New() *Room {
	return &Room{members: map[*Member]struct{}{}, answers: map[*Member]bool{}, changed: make(chan struct{}), version: 1,
		stage: Stage{Stop: -1, Quiz: -1}}
}

// Join adds a member: the presenter when presenter is true (taking over from one already on),
// otherwise a member who follows if a presenter is on. The member must Leave.
func (r *Room) Join(presenter bool) *Member { return r.JoinAs(presenter, "") }

// JoinAs is Join for a member named name (a login name): cleaned to printable characters, and
// numbered when a member in the room has it already.
func (r *Room) JoinAs(presenter bool, name string) *Member {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := &Member{room: r, presenter: presenter, following: !presenter && (r.presenter != nil || r.grace != nil)}
	m.name = cleanName(name)
	for k := 2; r.named(m.name); k++ {
		m.name = fmt.Sprintf("%s (%d)", cleanName(name), k)
	}
	r.members[m] = struct{}{}
	if presenter {
		back := r.presenter != nil || r.grace != nil // a reconnect: the room is where it was
		if old := r.presenter; old != nil {
			old.presenter = false
		}
		if r.grace != nil {
			r.grace.Stop() // back in time: the followers follow the presenter again
			r.grace = nil
		}
		r.presenter = m
		if back && r.stage.Scenario != nil {
			m.resume = true
		} else {
			r.stage = Stage{Stop: -1, Quiz: -1}
			r.stageVer++
		}
	}
	r.changedLocked()
	return m
}

// named reports whether a member in the room has name.
func (r *Room) named(name string) bool {
	for o := range r.members {
		if o.name == name {
			return true
		}
	}
	return false
}

// Leave removes the member. A presenter leaving frees every follower: they keep what they show.
// Only the first call counts.
func (m *Member) Leave() {
	r := m.room
	r.mu.Lock()
	defer r.mu.Unlock()
	if m.left {
		return
	}
	m.left = true
	delete(r.members, m)
	delete(r.answers, m)
	if r.presenter == m {
		r.presenter = nil
		clear(r.answers)
		if r.Grace > 0 {
			// The followers keep following (and the room shows on) for the grace.
			r.grace = time.AfterFunc(r.Grace, r.endGrace)
		} else {
			r.freeLocked()
		}
	}
	r.changedLocked()
}

// endGrace frees the followers of a presenter who did not come back in time.
func (r *Room) endGrace() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.grace == nil || r.presenter != nil {
		return
	}
	r.grace = nil
	r.freeLocked()
	r.changedLocked()
}

func (r *Room) freeLocked() {
	for o := range r.members {
		o.following = false
	}
}

// Publish sets the room's stage; it is ignored unless m presents, and changes nothing (no version)
// when the stage is the same.
func (m *Member) Publish(st Stage) {
	r := m.room
	r.mu.Lock()
	if r.presenter != m || st == r.stage {
		r.mu.Unlock()
		return
	}
	var none []Answer
	if st.Quiz != r.stage.Quiz || st.Asked != r.stage.Asked {
		none = r.closeLocked()
		clear(r.answers) // a new question, or none
	}
	r.stage = st
	r.stageVer++
	r.changedLocked()
	record := r.Record
	r.mu.Unlock()
	if record != nil {
		for _, a := range none {
			record(a)
		}
	}
}

// closeLocked closes the stage's question: every member who follows and did not answer it is
// kept in the ledger as not answering (Answer.None), and returned for Record.
func (r *Room) closeLocked() []Answer {
	st := r.stage
	if st.Quiz < 0 || st.Scenario == nil {
		return nil
	}
	var none []Answer
	now := time.Now()
	for o := range r.members {
		if _, answered := r.answers[o]; o == r.presenter || !o.following || answered {
			continue
		}
		none = append(none, Answer{Time: now, Student: o.name, Scenario: st.Scenario.Name, Seed: st.Seed, Batch: st.Quiz, None: true})
	}
	// In name order: the file and the ledger read the same on every run.
	slices.SortFunc(none, func(a, b Answer) int { return strings.Compare(a.Student, b.Student) })
	if room := maxLedger - len(r.ledger); len(none) > room {
		r.ledger = append(r.ledger, none[:max(room, 0)]...)
	} else {
		r.ledger = append(r.ledger, none...)
	}
	return none
}

// Resumed says the presenter shows the stage it found on joining: from now on its stage is what it
// publishes.
func (m *Member) Resumed() {
	r := m.room
	r.mu.Lock()
	defer r.mu.Unlock()
	if m.resume {
		m.resume = false
		r.changedLocked()
	}
}

// Follow makes the member follow the presenter (on) or go free.
func (m *Member) Follow(on bool) {
	r := m.room
	r.mu.Lock()
	defer r.mu.Unlock()
	if m.presenter || m.left || m.following == on {
		return
	}
	m.following = on
	if !on {
		delete(r.answers, m)
	}
	r.changedLocked()
}

// Answer records the member's answer to the presenter's question about batch t, with the
// Oracle's decision there as the member's player knows it (known false while the run computes):
// counted for the question, kept in the room's ledger, handed to Record. An answer to another
// batch than the one asked (a question closed meanwhile) is dropped, and so is the same answer
// twice.
func (m *Member) Answer(t int, retrain, oracle, known bool) {
	r := m.room
	r.mu.Lock()
	if m.presenter || m.left || r.presenter == nil || r.stage.Quiz != t || r.stage.Scenario == nil {
		r.mu.Unlock()
		return
	}
	if old, ok := r.answers[m]; ok && old == retrain {
		r.mu.Unlock()
		return
	}
	r.answers[m] = retrain
	a := Answer{Time: time.Now(), Student: m.name, Scenario: r.stage.Scenario.Name, Seed: r.stage.Seed, Batch: t, Retrain: retrain,
		Oracle: oracle, Known: known}
	if len(r.ledger) < maxLedger {
		r.ledger = append(r.ledger, a)
	}
	record := r.Record
	r.changedLocked()
	r.mu.Unlock()
	if record != nil {
		record(a)
	}
}

// Answers are the answers given in the room on the stage's scenario and seed, the last of each
// student for each batch, in the order given, a silence (Answer.None) included: what a presenter
// scores the room from.
func (m *Member) Answers() []Answer {
	r := m.room
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.stage
	if st.Scenario == nil {
		return nil
	}
	type key struct {
		student string
		batch   int
	}
	last := map[key]int{}
	for i, a := range r.ledger {
		if a.Scenario != st.Scenario.Name || a.Seed != st.Seed {
			continue
		}
		last[key{a.Student, a.Batch}] = i
	}
	var out []Answer
	for i, a := range r.ledger {
		if j, ok := last[key{a.Student, a.Batch}]; ok && j == i {
			out = append(out, a)
		}
	}
	return out
}

// Students are the names of the members in the room now who do not present, in name order.
func (m *Member) Students() []string {
	r := m.room
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for o := range r.members {
		if o != r.presenter {
			out = append(out, o.name)
		}
	}
	slices.Sort(out)
	return out
}

// View returns the member's snapshot of the room now.
func (m *Member) View() View {
	r := m.room
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.viewLocked(m)
}

// Wait returns the member's view once the room's version is past after (at once when it already
// is); false when ctx ends first.
func (m *Member) Wait(ctx context.Context, after uint64) (View, bool) {
	r := m.room
	for {
		r.mu.Lock()
		if r.version > after {
			v := r.viewLocked(m)
			r.mu.Unlock()
			return v, true
		}
		ch := r.changed
		r.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return View{}, false
		}
	}
}

// Counts are who is in the room: a presenter (0 or 1), members following, members free.
func (r *Room) Counts() (presenters, followers, free int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.countsLocked()
}

func (r *Room) countsLocked() (presenters, followers, free int) {
	for o := range r.members {
		switch {
		case o == r.presenter:
			presenters++
		case o.following:
			followers++
		default:
			free++
		}
	}
	return presenters, followers, free
}

func (r *Room) viewLocked(m *Member) View {
	v := View{Version: r.version, Stage: r.stage, StageVersion: r.stageVer, On: r.presenter != nil || r.grace != nil,
		Presenter: r.presenter == m, Resume: r.presenter == m && m.resume, Following: m.following}
	_, v.Followers, v.Free = r.countsLocked()
	for _, retrain := range r.answers {
		if retrain {
			v.Retrain++
		} else {
			v.Keep++
		}
	}
	return v
}

func (r *Room) changedLocked() {
	r.version++
	close(r.changed)
	r.changed = make(chan struct{})
}
