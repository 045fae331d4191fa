package workshop

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/scenarios/tour"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/run"
	"github.com/cara-sim/cara/tui/internal/synth"
)

// fakePlayer is a player as the workshop sees it, without a Player: the synthetic run
// (synthetic_test.go), every column in, the view state the workshop's effects change, and a record
// of what it asked. It applies every effect there is, and none panics.
type fakePlayer struct {
	t       testing.TB
	ws      Workshop
	shown   room.Shown
	s       *run.Session
	scen    *scenarios.Scenario
	rp      run.Replay
	st      *draw.Styles
	ahead   int
	notice  string
	played  []string   // at each tick: "batch: callout title"
	whatIfs [][]string // the tour's what-ifs applied
	undone  int        // and undone
	follow  []effect.FollowWhatIf
	seeds   []uint64    // the runs reopened, by seed
	views   []room.View // the room's views handed back (following again)
	dropped int         // overlays the question took the keys from
}

func newFakePlayer(t testing.TB, tour []tour.Stop, m *room.Member) *fakePlayer {
	t.Helper()
	s := synth.Session(t)
	s.Scenario.Tour = tour
	f := &fakePlayer{t: t, shown: room.Shown{Speed: 2, Scale: 1}, s: s, scen: s.Scenario, st: draw.ForProfile(termenv.Ascii), ws: New(m)}
	f.refresh()
	return f
}

// frame is the fake as the workshop reads it.
func (f *fakePlayer) frame() Frame {
	s, scale := f.s, f.shown.Scale
	return Frame{Shown: f.shown, Scenario: f.scen, Seed: s.Seed, Computed: s.Computed, Batches: s.Matrix.Batches(), Done: s.Done,
		Matrix: s.Matrix, R: s.RetrainCost(scale), Results: f.rp.Results, Provisional: f.rp.Provisional, Styles: f.st,
		WholeBlock: func() []algos.Result { return s.WholeBlock(scale) }}
}

// apply makes the workshop's effects as the player does, recording what it cannot show.
func (f *fakePlayer) apply(effects effect.Effects) {
	for _, e := range effects {
		switch e := e.(type) {
		case effect.Play:
			f.shown.Playing = bool(e)
		case effect.GoTo:
			f.goTo(int(e))
		case effect.Ahead:
			f.ahead = int(e)
		case effect.Focus:
			if int(e) != f.shown.Focus {
				f.shown.Zoomed = false
			}
			f.shown.Focus = int(e)
		case effect.Cursor:
			f.shown.Cursor = room.Cursor(e)
		case effect.Zoom:
			f.shown.Zoomed = bool(e)
		case effect.Speed:
			f.shown.Speed = int(e)
		case effect.Visible:
			f.shown.Visible = int(e)
		case effect.Select:
			f.shown.Selected = algos.Name(e)
		case effect.Scale:
			f.shown.Scale = float64(e)
			f.refresh()
		case effect.Notice:
			f.notice = string(e)
		case effect.Tick:
			title := ""
			if c := f.ws.board.callout; c != nil {
				title = c.Title
			}
			f.played = append(f.played, fmt.Sprintf("%d: %s", f.shown.Pos, title))
		case effect.StopWhatIf:
			f.whatIfs = append(f.whatIfs, e)
		case effect.UndoStopWhatIf:
			f.undone++
		case effect.FollowWhatIf:
			f.follow = append(f.follow, e)
		case effect.Reopen:
			// The same hand-made matrix under another seed: a new run, shown from its start.
			f.seeds = append(f.seeds, uint64(e))
			f.s.Seed = uint64(e)
			f.shown.Pos, f.shown.Playing, f.ahead = -1, false, 0
			f.apply(f.ws.Reset())
			f.refresh()
		case effect.RoomView:
			f.views = append(f.views, room.View(e))
		case effect.TakeKeys:
			f.dropped++
		case Then:
			f.apply(e(f.frame()))
		default:
			f.t.Errorf("an effect the fake does not know: %T", e)
		}
	}
}

// goTo is the player's.
func (f *fakePlayer) goTo(t int) {
	t = min(max(t, 0), f.s.Computed-1)
	if t >= 0 && t != f.shown.Pos {
		f.shown.Pos, f.ahead = t, 0
		f.refresh()
	}
}

func (f *fakePlayer) refresh() {
	rp, err := f.s.Evaluate(f.shown.Pos, f.shown.Scale, f.scen.Algorithms)
	if err != nil {
		f.t.Fatal(err)
	}
	f.rp = rp
}

// play is the player's ticks, as Player.play takes them: a batch each while it plays, the tour
// and the guess round first to stop it (a stop that plays on leaves it playing).
func (f *fakePlayer) play() {
	for f.shown.Playing && f.shown.Pos+1 < f.s.Computed {
		if e, stop := f.ws.TourStep(f.frame()); stop {
			f.apply(e)
			continue
		}
		if e, stop := f.ws.Step(f.frame()); stop {
			f.apply(e)
			continue
		}
		f.goTo(f.shown.Pos + 1)
		if e, stop := f.ws.TourStep(f.frame()); stop {
			f.apply(e)
		}
	}
}

// key gives a key to the question up, as the player does.
func (f *fakePlayer) key(t *testing.T, k string) {
	t.Helper()
	if _, ok := f.ws.Asking(); !ok {
		t.Fatalf("%s: no question up", k)
	}
	f.ws.Keys().Enable(keys.Mode{Question: true, Following: f.ws.Room().Following()})
	f.apply(f.ws.QuestionKey(f.frame(), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}))
}

// The guess round without a player: each answer, given at the question the round asks before its
// batch, is revealed beside the Oracle's decision, scored, and priced for the model in use: the
// player's own path after an answer to the batch before, the Oracle's where the player joins it
// (the round's first question, or after batches left unanswered). The synthetic Oracle retrains at
// 19, 24, 30, 36, 42, 48 and 54: in each concept's 12 batches once at the drift and once halfway
// (R 4 twice and 0.25 x (0+...+5) twice, 15.5, beats one retrain, 4 + 0.25 x (0+...+11) = 20.5,
// and three, 12 + 0.25 x 2 x (0+...+3) = 16.5); in the first online batches, 15 to 23, once at 19.
// The reveal prices both choices as the paper prices a strategy, over the batches until the Oracle
// retrains next (its paths meet the Oracle's there): C[tp, j] = 0.25 (j - tp), 6 more across the
// drift at 24, and R = 4.
func TestGuessRoundReveal(t *testing.T) {
	f := newFakePlayer(t, nil, nil)
	f.apply(f.ws.ToggleGuess(f.frame()))
	batches := []int{19, 22, 23, 24, 25, 27}
	for _, tc := range []struct {
		t       int
		key     string
		mark    string // beside the answer
		agreed  int    // the score after it, of the answers so far
		yourTp  int    // the model in use the question is about
		price   string // over t..the Oracle's next retrain - 1: KEEP M_yourTp, RETRAIN, the Oracle
		oracleW string // the Oracle's decision as the reveal says it
	}{
		// joins the Oracle's M_15 (18 unanswered); 19..23: 0.25 x (4+...+8); 4 + 0.25 x (1+...+4)
		{19, "r", "✓ as the Oracle", 1, 15, "over 19..23 (until the Oracle decides again): KEEP M_15 costs 7.5, RETRAIN 6.5 (R = 4 at 19); the Oracle pays 6.5", "RETRAINS"},
		// joins the Oracle's M_19 (21 unanswered); 22..23: 0.25 x (3+4); 4 + 0.25
		{22, "k", "✓ as the Oracle", 2, 19, "over 22..23 (until the Oracle decides again): KEEP M_19 costs 1.75, RETRAIN 4.25 (R = 4 at 22); the Oracle pays 1.75", "KEEPS"},
		// its own M_19: 22 was KEEP; 23 alone, the Oracle retrains at 24
		{23, "k", "✓ as the Oracle", 3, 19, "at 23 (until the Oracle decides again): KEEP M_19 costs 1, RETRAIN 4 (R = 4 at 23); the Oracle pays 1", "KEEPS"},
		// across the drift at 24: 0.25 x (5+...+10) + 6 x 6 kept, against 4 + 0.25 x (1+...+5)
		{24, "k", "✗ not as the Oracle", 3, 19, "over 24..29 (until the Oracle decides again): KEEP M_19 costs 47.25, RETRAIN 7.75 (R = 4 at 24); the Oracle pays 7.75", "RETRAINS"},
		// still M_19 (24 was KEEP): 0.25 x (6+...+10) + 6 x 5; the Oracle's M_24, 0.25 x (1+...+5)
		{25, "r", "✗ not as the Oracle", 3, 19, "over 25..29 (until the Oracle decides again): KEEP M_19 costs 40, RETRAIN 6.5 (R = 4 at 25); the Oracle pays 3.75", "KEEPS"},
		// joins the Oracle's M_24 (26 unanswered): 0.25 x (3+4+5)
		{27, "r", "✗ not as the Oracle", 3, 24, "over 27..29 (until the Oracle decides again): KEEP M_24 costs 3, RETRAIN 4.75 (R = 4 at 27); the Oracle pays 3", "KEEPS"},
	} {
		f.goTo(tc.t - 1)
		e, asked := f.ws.Step(f.frame())
		if !asked {
			t.Fatalf("no question before batch %d", tc.t)
		}
		f.apply(e)
		if q, ok := f.ws.Asking(); !ok || q != tc.t || f.shown.Pos != tc.t-1 || f.shown.Focus != pane.Batch {
			t.Fatalf("the question: %d (%v) at batch %d, focus %d; want batch %d asked at %d in the batch pane", q, ok, f.shown.Pos, f.shown.Focus, tc.t, tc.t-1)
		}
		if q := f.ws.Question(f.frame()); q == nil || !strings.Contains(q.Text, fmt.Sprintf("M_%d", tc.yourTp)) {
			t.Errorf("batch %d: the question does not name M_%d: %+v", tc.t, tc.yourTp, q)
		}
		f.key(t, tc.key)
		c := f.ws.board.callout
		if _, asked := f.ws.Asking(); asked || f.shown.Pos != tc.t || c == nil || c.Kind != RevealCallout || len(c.Head) != 3 {
			t.Fatalf("answered %s at %d: asking %v, batch %d, callout %+v", tc.key, tc.t, asked, f.shown.Pos, c)
		}
		head := ansi.Strip(strings.Join(c.Head, "\n"))
		n := slices.Index(batches, tc.t) + 1
		word := map[string]string{"r": "RETRAIN", "k": "KEEP"}[tc.key]
		for _, want := range []string{
			fmt.Sprintf("At %d the Oracle %s", tc.t, tc.oracleW),
			fmt.Sprintf("You said %s: %s · score %d of %d", word, tc.mark, tc.agreed, n),
			"For you, " + tc.price,
		} {
			if !strings.Contains(head, want) {
				t.Errorf("batch %d: the reveal lacks %q:\n%s", tc.t, want, head)
			}
		}
	}
	// "You" is the answers alone, each over its batches until the next decision (the Oracle's next
	// retrain, or the next answer), cut at the batch shown: 19..21 retrained, 4 + 0.25 + 0.5; 22 and
	// 23 kept, 0.75 + 1; 24 kept across the drift, 7.25; 25..26 retrained, 4 + 0.25; 27 retrained, 4:
	// 22 in all, against the Oracle's 4.75 + 0.75 + 1 + 4 (R at 24) + 0.25 + 0.5 + 0.75 = 12 over
	// the same batches. The batches before 19 count for nobody.
	y := f.ws.guess.You(f.frame())
	if y == nil || y.Answers != 6 || y.Agreed != 3 || y.Retrains != 3 || y.Cost != 22 || y.Oracle != 12 || y.Now != "RETRAIN" {
		t.Fatalf("You: %+v, want 6 answers, 3 as the Oracle, 3 retrains, 22 against 12, RETRAIN now", y)
	}
	if want := 100 * (22 - 12.0) / 12; y.SCPE != want || y.Line() != "You (6 answers): 3 of 6 as the Oracle" {
		t.Errorf("You's SCPE %v (want %v), line %q", y.SCPE, want, y.Line())
	}
	// Before the last answer's batch, the row is over the five answered up to the batch shown.
	f.goTo(26)
	if y := f.ws.guess.You(f.frame()); y == nil || y.Answers != 5 || y.Cost != 18 || y.Now != "" {
		t.Errorf("You at 26: %+v, want 5 answers costing 18, none at 26", y)
	}
	f.apply(f.ws.ToggleGuess(f.frame()))
	if f.ws.board.callout != nil || f.notice != "guess round over: 3 of 6 as the Oracle decided; g starts it again" {
		t.Errorf("ending the round: callout %+v, notice %q", f.ws.board.callout, f.notice)
	}
}

// A tour without a player, stop by stop: it plays to each stop and stops there; a quiz asks
// before its batch and its stop shows the reveal; a stop that does not pause plays on with its
// callout up; a stop's what-if is applied there and stays when the tour ends.
func TestTourStopOrder(t *testing.T) {
	tour := []tour.Stop{
		{At: 19, Say: "the first retrain", Focus: tour.Focus{Pane: tour.PaneMatrix, Cell: &tour.Cell{Model: 15, Batch: 19}}, Pause: true},
		{At: 24, Say: "keep or retrain?", Quiz: true, Pause: true},
		{At: 30, Say: "passing by", Focus: tour.Focus{Pane: tour.PaneCumulative}},
		{At: 36, Say: "a dearer retrain", Whatif: []tour.Override{{Path: "retrain_cost", Value: "8"}}, Pause: true},
	}
	f := newFakePlayer(t, tour, nil)
	ts := &f.ws.tour
	for _, tc := range []struct {
		do    string // t, space, or a key to the question
		pos   int    // the batch shown after it
		title string // the callout's ("" for none)
		ask   int    // the batch asked about (0 for no question)
	}{
		{"t", 19, "tour 1/4 · batch 19", 0},
		{"space", 23, "", 24},
		{"k", 24, "tour 2/4 · batch 24", 0},
		{"space", 36, "tour 4/4 · batch 36", 0},
		{"space", 36, "", 0},
		{"t", 19, "tour 1/4 · batch 19", 0}, // again from the start, back at once
	} {
		switch tc.do {
		case "t":
			f.apply(f.ws.ToggleTour(f.frame()))
		case "space":
			f.apply(f.ws.TourNext(f.frame()))
		default:
			f.key(t, tc.do)
		}
		f.play()
		title, ask := "", 0
		if c := f.ws.board.callout; c != nil {
			title = c.Title
		}
		if q, ok := f.ws.Asking(); ok {
			ask = q
		}
		if f.shown.Pos != tc.pos || title != tc.title || ask != tc.ask {
			t.Fatalf("after %s: batch %d, callout %q, asking %d; want %d, %q, %d", tc.do, f.shown.Pos, title, ask, tc.pos, tc.title, tc.ask)
		}
		switch tc.title {
		case "tour 1/4 · batch 19":
			if f.shown.Focus != pane.Matrix || f.shown.Cursor != (room.Cursor{On: true, At: [2]int{15, 19}}) {
				t.Errorf("stop 1: focus %d, cursor %+v; want the matrix, on [15, 19]", f.shown.Focus, f.shown.Cursor)
			}
		case "tour 2/4 · batch 24":
			if head := ansi.Strip(strings.Join(f.ws.board.callout.Head, "\n")); !strings.Contains(head, "You said KEEP: ✗ not as the Oracle") {
				t.Errorf("the quiz's stop lacks the reveal:\n%s", head)
			}
		case "tour 4/4 · batch 36":
			if c := f.ws.board.callout; !strings.Contains(c.Text, "What-if: retrain_cost=8") || c.Foot != "space end the tour · t leave" {
				t.Errorf("the last stop: text %q, foot %q", c.Text, c.Foot)
			}
		}
	}
	// Where it played from, with what up: the stop at 30 played on to 36 with its callout.
	want := []string{"0: ", "19: ", "24: ", "30: tour 3/4 · batch 30"}
	if !slices.Equal(f.played, want) {
		t.Errorf("played from %q, want %q", f.played, want)
	}
	if len(f.whatIfs) != 1 || !slices.Equal(f.whatIfs[0], []string{"retrain_cost=8"}) || f.undone != 0 {
		t.Errorf("what-ifs applied %q, undone %d; want the last stop's, kept after the tour", f.whatIfs, f.undone)
	}
	f.apply(f.ws.ToggleTour(f.frame()))
	if ts.On() || ts.left != 0 || f.notice != "left the tour at stop 1 of 4; t takes it up there" {
		t.Errorf("leaving: on %v, left at %d, notice %q", ts.On(), ts.left, f.notice)
	}
}

// The room side without a player: a follower joining shows the presenter's stage (another seed is a
// new run, the what-if is the presenter's, every field of the view is applied, the stop's callout
// is the follower's); the presenter's quiz asks the follower, whose answer the room counts; p goes
// free and p again asks the room for the stage.
func TestFollowOverAFake(t *testing.T) {
	rm := room.New()
	mp, mf := rm.Join(true), rm.Join(false)
	f := newFakePlayer(t, synth.Tour(), mf)
	receive := func() {
		t.Helper()
		show, e := f.ws.Receive(mf.View())
		f.apply(e)
		if show {
			f.apply(f.ws.Follow(f.frame(), mf.View().Stage))
		}
	}
	sh := room.Shown{Pos: 20, Speed: 3, Scale: 1.25, Selected: "markov", Visible: 1, Focus: pane.Chart, Zoomed: true,
		Cursor: room.Cursor{On: true, At: [2]int{15, 19}}}
	mp.Publish(room.Stage{Scenario: f.scen, Seed: 7, Shown: sh, Whatif: "retrain_cost=8", WhatifName: "R doubled", Stop: 0, Quiz: -1})
	receive()
	if !slices.Equal(f.seeds, []uint64{7}) || len(f.follow) != 1 || f.follow[0] != (effect.FollowWhatIf{Sets: "retrain_cost=8", Name: "R doubled", Joining: true}) {
		t.Fatalf("joining: runs reopened %v, what-ifs followed %+v", f.seeds, f.follow)
	}
	if want := sh; f.shown != want {
		t.Errorf("the view %+v, want the presenter's %+v", f.shown, want)
	}
	if c := f.ws.board.callout; c == nil || c.Title != "tour 1/4 · batch 19" || c.Foot != "the presenter goes on · p to go free" ||
		!strings.Contains(c.Text, "retraining R = 5.") {
		t.Errorf("the stop's callout %+v, want stop 1 at R 4 x 1.25", c)
	}
	// The presenter's quiz about 24, from 23: the follower is asked, the stop's callout goes.
	sh.Pos, sh.Focus = 23, pane.Matrix
	mp.Publish(room.Stage{Scenario: f.scen, Seed: 7, Shown: sh, Whatif: "retrain_cost=8", WhatifName: "R doubled", Stop: -1, Quiz: 24})
	receive()
	if q, ok := f.ws.Asking(); !ok || q != 24 || f.dropped != 1 || f.shown.Focus != pane.Batch || f.ws.board.callout != nil || len(f.follow) != 1 {
		t.Fatalf("the quiz: asking %d %v, keys taken %d times, focus %d, callout %+v, what-ifs %d", q, ok, f.dropped, f.shown.Focus, f.ws.board.callout, len(f.follow))
	}
	f.key(t, "k")
	if c := f.ws.board.callout; c == nil || c.Kind != WaitCallout || mp.View().Keep != 1 || f.shown.Pos != 23 {
		t.Errorf("answered KEEP: callout %+v, the room counts %d KEEP, batch %d", c, mp.View().Keep, f.shown.Pos)
	}
	f.apply(f.ws.room.toggle(&f.ws.board))
	if f.ws.Room().Following() || f.ws.board.callout != nil || f.notice != "free: explore on your own; p follows the presenter again" {
		t.Errorf("free: following %v, callout %+v, notice %q", f.ws.Room().Following(), f.ws.board.callout, f.notice)
	}
	f.apply(f.ws.room.toggle(&f.ws.board))
	if len(f.views) != 1 || !f.views[0].Following || f.views[0].Stage.Quiz != 24 {
		t.Errorf("following again: the room's views handed back %+v", f.views)
	}
}

// A new run (N) waits for the tour, for the guess round and for an answer shown (a reveal left up
// when the round ended, a follower's answer waiting for the presenter's), and for nothing else.
func TestRestartRefused(t *testing.T) {
	f := newFakePlayer(t, synth.Tour(), nil)
	if why := f.ws.RestartRefused(); why != "" {
		t.Fatalf("nothing on: %q", why)
	}
	f.apply(f.ws.ToggleGuess(f.frame()))
	if why := f.ws.RestartRefused(); why != "N (a new run) waits for the guess round: g ends it" {
		t.Errorf("the guess round on: %q", why)
	}
	f.goTo(20)
	f.apply(f.ws.board.ask(f.frame(), 21, f.ws.room.Presenting()))
	f.key(t, "k")
	f.ws.guess.on = false // the round over, its answer still shown
	if why := f.ws.RestartRefused(); why != "N (a new run) waits for the answer shown: esc closes it" {
		t.Errorf("an answer shown: %q", why)
	}
	f.ws.CloseCallout()
	f.apply(f.ws.ToggleTour(f.frame()))
	if why := f.ws.RestartRefused(); why != "N (a new run) waits for the tour: t leaves it" {
		t.Errorf("a tour on: %q", why)
	}
}

// A guess round does not skip a batch answered in it without a word: stepping into it again shows
// its own reveal, in place of the reveal of the batch before, and says so; a new round asks about
// it again, and its answer replaces the old; g with the round's question up ends the round.
func TestGuessRoundSaysAnswered(t *testing.T) {
	f := newFakePlayer(t, nil, nil)
	f.goTo(19)
	f.apply(f.ws.ToggleGuess(f.frame()))
	f.key(t, "r") // 20
	f.apply(effect.Effects{effect.GoTo(21)})
	e, asked := f.ws.Step(f.frame())
	f.apply(e)
	f.key(t, "k") // 22
	f.goTo(19)
	e, stepped := f.ws.Step(f.frame())
	if !stepped {
		t.Fatal("stepping into 20, answered in this round: the step was left to the player, silently")
	}
	f.apply(e)
	c := f.ws.board.callout
	if _, q := f.ws.Asking(); q || f.shown.Pos != 20 || c == nil || c.Title != "guess · batch 20" || !strings.Contains(f.notice, "batch 20 was answered in this round (RETRAIN)") {
		t.Fatalf("into 20 again: asking %v, batch %d, callout %+v, notice %q", q, f.shown.Pos, c, f.notice)
	}
	if !asked {
		t.Fatal("no question about 22")
	}
	// A new round asks about 20 again; g with its question up ends the round.
	f.apply(f.ws.ToggleGuess(f.frame()))
	f.goTo(19)
	f.apply(f.ws.ToggleGuess(f.frame()))
	if q, ok := f.ws.Asking(); !ok || q != 20 {
		t.Fatalf("a new round at 19: asking %d %v, want 20 asked again", q, ok)
	}
	f.key(t, "g")
	if _, ok := f.ws.Asking(); ok || f.ws.guess.On() || !strings.Contains(f.notice, "guess round over") {
		t.Errorf("g with the question up: asking %v, round %v, notice %q", ok, f.ws.guess.On(), f.notice)
	}
}

// A callout's foot, the keys that go on, wraps in a narrow box rather than losing its last key.
func TestCalloutFootWraps(t *testing.T) {
	st := draw.ForProfile(termenv.Ascii)
	c := &Callout{Title: "guess · batch 27", Text: "RETRAIN or KEEP at 27?", Foot: "r retrain · k keep · esc not now · p go free"}
	narrow := ansi.Strip(c.View(st, 38, 20))
	if !strings.Contains(narrow, "p go free") || strings.Contains(narrow, "…") {
		t.Errorf("at 38 columns the foot lost a key:\n%s", narrow)
	}
	if wide := ansi.Strip(c.View(st, 66, 20)); strings.Count(wide, "\n") != strings.Count(narrow, "\n")-1 {
		t.Errorf("at 66 columns the foot is not one line:\n%s", wide)
	}
}

// The room's summary at the end of a round of 10 questions answered by 30 students, on the
// synthetic run: each answer priced on its question's run.
func BenchmarkSummary(b *testing.B) {
	rm := room.New()
	pres := rm.JoinAs(true, "prof")
	var members []*room.Member
	for i := range 30 {
		members = append(members, rm.JoinAs(false, fmt.Sprintf("s%02d", i)))
	}
	f := newFakePlayer(b, nil, pres)
	f.ws.room.view = pres.View()
	f.goTo(29)
	fr := f.frame()
	f.ws.board.newRound()
	for q := 30; q < 40; q++ {
		f.ws.board.questions[q] = runOf(fr)
		pres.Publish(room.Stage{Scenario: f.scen, Seed: f.s.Seed, Stop: -1, Quiz: q})
		for i, m := range members {
			m.Answer(q, (i+q)%3 == 0, true, true)
		}
	}
	pres.Publish(room.Stage{Scenario: f.scen, Seed: f.s.Seed, Stop: -1, Quiz: -1})
	f.goTo(59)
	fr = f.frame()
	b.ReportAllocs()
	for b.Loop() {
		if c := f.ws.room.summary(fr, "guess round", true, f.ws.board.questions, f.ws.board.since); c == nil || len(c.Head) != 31 {
			b.Fatalf("summary: %+v", c)
		}
	}
}
