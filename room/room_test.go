package room

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/cara-sim/cara/scenarios"
)

// The room counts who follows and who is free, keeps answers to the question asked only, frees
// the followers when the presenter leaves, and lets a second presenter take over.
func TestRoom(t *testing.T) {
	r := New()
	early := r.Join(false)
	if v := early.View(); v.On || v.Following || v.Free != 1 {
		t.Fatalf("no presenter yet: %+v", v)
	}
	pr := r.Join(true)
	a, b := r.Join(false), r.Join(false)
	if v := pr.View(); !v.Presenter || v.Followers != 2 || v.Free != 1 {
		t.Fatalf("presenter's view: %+v, want 2 following (joined after) and 1 free (joined before)", v)
	}
	if p, f, free := r.Counts(); p != 1 || f != 2 || free != 1 {
		t.Errorf("counts %d presenter, %d following, %d free; want 1, 2, 1", p, f, free)
	}
	s := &scenarios.Scenario{Name: "small"}
	v0 := a.View().Version
	pr.Publish(Stage{Scenario: s, Seed: 3, Shown: Shown{Pos: 5}, Stop: -1, Quiz: -1})
	v, ok := a.Wait(t.Context(), v0)
	if !ok || v.Stage.Pos != 5 || v.Stage.Scenario != s {
		t.Fatalf("follower's view after a publish: %+v", v)
	}
	pr.Publish(v.Stage) // the same stage: no change
	if a.View().Version != v.Version {
		t.Error("publishing the same stage made a version")
	}
	a.Publish(Stage{Shown: Shown{Pos: 9}}) // not the presenter: ignored
	if a.View().Stage.Pos != 5 {
		t.Error("a follower's publish changed the stage")
	}
	a.Answer(6, true, true, true) // no question yet
	st := v.Stage
	st.Quiz = 6
	pr.Publish(st)
	a.Answer(6, true, true, true)
	b.Answer(6, false, true, true)
	b.Answer(7, true, false, true) // another batch than asked: dropped
	if v := pr.View(); v.Retrain != 1 || v.Keep != 1 {
		t.Errorf("answers %d/%d, want 1 RETRAIN / 1 KEEP", v.Retrain, v.Keep)
	}
	b.Follow(false)
	if v := pr.View(); v.Keep != 0 || v.Followers != 1 || v.Free != 2 {
		t.Errorf("after one went free: %+v", v)
	}
	st.Quiz = -1
	pr.Publish(st)
	if v := pr.View(); v.Retrain != 0 {
		t.Error("answers outlived their question")
	}
	// A second presenter takes over (the instructor's laptop back, the old connection not yet
	// gone); the first is free, and the room stays where it was for the new one to take up.
	pr2 := r.Join(true)
	if v := pr.View(); v.Presenter || v.Following || v.Resume {
		t.Errorf("the first presenter after a takeover: %+v", v)
	}
	if v := pr2.View(); !v.Resume || v.Stage != st || a.View().Stage != st {
		t.Errorf("after a takeover the new presenter sees %+v (resume %v), a follower %+v; want the stage as it was", v.Stage, v.Resume, a.View().Stage)
	}
	pr2.Resumed()
	if pr2.View().Resume {
		t.Error("resumed, and still told to resume")
	}
	pr2.Leave()
	if v := a.View(); v.On || v.Following {
		t.Errorf("after the presenter left: %+v, want free with no presenter", v)
	}
	pr2.Leave() // twice: nothing
	for _, m := range []*Member{early, pr, a, b} {
		m.Leave()
	}
	if v := pr2.View(); v.Followers+v.Free != 0 {
		t.Errorf("an empty room counts %d", v.Followers+v.Free)
	}
}

// A presenter who reconnects within the grace has the room back: the followers never went free.
// One who does not come back in time leaves them free.
func TestRoomGrace(t *testing.T) {
	r := New()
	r.Grace = 100 * time.Millisecond
	pr := r.Join(true)
	if pr.View().Resume {
		t.Error("the first presenter of a room told to resume")
	}
	a := r.Join(false)
	st := Stage{Scenario: &scenarios.Scenario{Name: "small"}, Seed: 4, Shown: Shown{Pos: 37, Scale: 2}, Whatif: "kernel.gamma=3", Stop: 2, Quiz: -1}
	pr.Publish(st)
	pr.Leave()
	if v := a.View(); !v.On || !v.Following {
		t.Fatalf("within the grace: %+v, want still following", v)
	}
	late := r.Join(false) // joins while the room waits: follows too
	back := r.Join(true)  // the reconnected laptop
	time.Sleep(2 * r.Grace)
	for _, m := range []*Member{a, late} {
		if v := m.View(); !v.On || !v.Following {
			t.Errorf("after the presenter came back: %+v, want following", v)
		}
	}
	if v := back.View(); v.Followers != 2 || !v.Resume || v.Stage != st {
		t.Errorf("the presenter back: %+v; want 2 following, and the room's stage to take up", v)
	}
	if v := a.View(); v.Stage != st {
		t.Errorf("the presenter's return pulled the room from %+v to %+v", st, v.Stage)
	}
	back.Leave()
	v0 := a.View().Version
	v, ok := a.Wait(t.Context(), v0) // the grace ends: a change
	if !ok || v.On || v.Following {
		t.Errorf("after the grace: %+v, want free with no presenter", v)
	}
	// After the grace, a presenter starts afresh.
	fresh := r.Join(true)
	if v := fresh.View(); v.Resume || v.Stage.Scenario != nil {
		t.Errorf("a presenter after the grace: %+v, want a new stage", v)
	}
}

// The room keeps every answer, named by the member's login name (printable, numbered when two
// share one), with the stage's scenario and seed and the Oracle's decision as the member's player
// knew it; Record sees each as it is given; a question closing keeps each follower who did not
// answer it as not answering (None), in name order; Answers gives the last of each student for
// each batch on the stage's run, a silence only where no answer was given.
func TestRoomKeepsAnswers(t *testing.T) {
	r := New()
	var recorded []Answer
	r.Record = func(a Answer) { recorded = append(recorded, a) }
	pr := r.JoinAs(true, "prof")
	ana, ana2, bob, esc := r.JoinAs(false, "ana"), r.JoinAs(false, "ana"), r.JoinAs(false, "bob"), r.JoinAs(false, "\x1b[31mev\x07e\n")
	for m, want := range map[*Member]string{ana: "ana", ana2: "ana (2)", bob: "bob", esc: "[31meve"} {
		if m.Name() != want {
			t.Errorf("name %q, want %q", m.Name(), want)
		}
	}
	if g := r.JoinAs(false, ""); g.Name() != "guest" {
		t.Errorf("no name: %q", g.Name())
	}
	s := &scenarios.Scenario{Name: "covcon-d"}
	st := Stage{Scenario: s, Seed: 0, Stop: -1, Quiz: 27}
	pr.Publish(st)
	ana.Answer(27, true, true, true)
	bob.Answer(27, false, true, true)
	bob.Answer(27, false, true, true) // the same again: nothing
	ana2.Answer(27, true, false, false)
	st.Quiz = 41
	pr.Publish(st)
	bob.Answer(41, true, true, true)
	st.Quiz = 27 // asked again: bob changes his mind
	pr.Publish(st)
	bob.Answer(27, true, true, true)
	// 5 answers; 27 closing finds eve and guest silent, 41 closing ana, ana (2), eve and guest.
	var none []string
	for _, a := range slices.Clone(recorded) {
		if a.None {
			none = append(none, fmt.Sprintf("%s@%d", a.Student, a.Batch))
			if a.Right() {
				t.Errorf("no answer counted right: %+v", a)
			}
		}
	}
	recorded = slices.DeleteFunc(recorded, func(a Answer) bool { return a.None })
	if want := []string{"[31meve@27", "guest@27", "[31meve@41", "ana@41", "ana (2)@41", "guest@41"}; !slices.Equal(none, want) {
		t.Errorf("no answer from %q, want %q", none, want)
	}
	if len(recorded) != 5 {
		t.Fatalf("%d answers recorded, want 5: %+v", len(recorded), recorded)
	}
	a := recorded[0]
	if a.Student != "ana" || a.Scenario != "covcon-d" || a.Batch != 27 || !a.Retrain || !a.Right() || a.Time.IsZero() {
		t.Errorf("the first answer: %+v", a)
	}
	if recorded[1].Right() || recorded[2].Right() || recorded[2].Known {
		t.Errorf("bob's KEEP against RETRAIN, ana (2)'s while the run computed: %+v, %+v", recorded[1], recorded[2])
	}
	got := pr.Answers()
	var line []string
	for _, a := range got {
		if a.None {
			line = append(line, fmt.Sprintf("%s@%d:-", a.Student, a.Batch))
			continue
		}
		line = append(line, fmt.Sprintf("%s@%d:%v", a.Student, a.Batch, a.Retrain))
	}
	if want := []string{"ana@27:true", "ana (2)@27:true", "[31meve@27:-", "guest@27:-", "bob@41:true", "[31meve@41:-", "ana@41:-",
		"ana (2)@41:-", "guest@41:-", "bob@27:true"}; !slices.Equal(line, want) {
		t.Errorf("the room's answers: %q, want %q", line, want)
	}
	if got := pr.Students(); !slices.Equal(got, []string{"[31meve", "ana", "ana (2)", "bob", "guest"}) {
		t.Errorf("the students: %q", got)
	}
	pr.Publish(Stage{Scenario: s, Seed: 1, Stop: -1, Quiz: -1})
	if got := pr.Answers(); len(got) != 0 {
		t.Errorf("on another seed the answers of seed 0: %+v", got)
	}
}
