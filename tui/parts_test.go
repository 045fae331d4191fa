package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/scenarios/tour"
)

// fakeStage is a stage without a Player: the synthetic run (synthetic_test.go), every column in,
// and a record of what the workshop's parts asked of it.
type fakeStage struct {
	shown   room.Shown
	s       *Session
	scen    *scenarios.Scenario
	rp      replay
	st      *Styles
	keys    keyMap
	overlay overlay
	ahead   int
	ws      workshop
	notice  string
	played  []string   // at each ticker: "batch: callout title"
	whatIfs [][]string // the tour's what-ifs applied
	undone  int        // and undone
}

func newFakeStage(t *testing.T, tour []tour.Stop) *fakeStage {
	t.Helper()
	scen, err := scenarios.Parse("synthetic", []byte(synthYAML), "", scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	scen.Tour = tour
	s, err := NewSession(scen, scen.Seed)
	if err != nil {
		t.Fatal(err)
	}
	s.Stream = synthStream{}
	for tt := range synthBatches {
		for tp := 0; tp <= tt; tp++ {
			s.Matrix.Set(tp, tt, synthCell(tp, tt))
		}
	}
	s.Computed, s.Done = synthBatches, true
	f := &fakeStage{shown: room.Shown{Speed: 2, Scale: 1}, s: s, scen: scen, st: asciiStyles(), keys: newKeys()}
	f.ws.tour.left = -1
	f.ws.guess.reset()
	f.refresh()
	return f
}

func (f *fakeStage) scene() scene {
	return scene{Shown: &f.shown, s: f.s, scen: f.scen, rp: &f.rp, st: f.st, keys: &f.keys, overlay: &f.overlay,
		ahead: &f.ahead, ws: &f.ws}
}
func (f *fakeStage) say(notice string) { f.notice = notice }

// goTo and setFocus are the player's.
func (f *fakeStage) goTo(t int) {
	t = min(max(t, 0), f.s.Computed-1)
	if t >= 0 && t != f.shown.Pos {
		f.shown.Pos, f.ahead = t, 0
		f.refresh()
	}
}

func (f *fakeStage) setFocus(i int) {
	if i != f.shown.Focus {
		f.shown.Zoomed = false
	}
	f.shown.Focus = i
}

func (f *fakeStage) ticker() tea.Cmd {
	title := ""
	if c := f.ws.callout; c != nil {
		title = c.title
	}
	f.played = append(f.played, fmt.Sprintf("%d: %s", f.shown.Pos, title))
	return nil
}

func (f *fakeStage) refresh() {
	rp, err := f.s.evaluate(f.shown.Pos, f.shown.Scale, f.scen.Algorithms)
	if err != nil {
		panic(err)
	}
	f.rp = rp
}

func (f *fakeStage) reopen(uint64) tea.Cmd                     { panic("no new run here") }
func (f *fakeStage) frame() *frame                             { panic("nothing drawn here") }
func (f *fakeStage) layout(*frame, int, int) screenLayout      { panic("nothing drawn here") }
func (f *fakeStage) followWhatIf(string, string, bool) tea.Cmd { panic("no room here") }

func (f *fakeStage) tourWhatIf(sets []string) (*whatifUndo, string, tea.Cmd) {
	f.whatIfs = append(f.whatIfs, sets)
	return &whatifUndo{}, "What-if: " + strings.Join(sets, ", "), nil
}

func (f *fakeStage) undoWhatif(*whatifUndo) tea.Cmd { f.undone++; return nil }

// play is the player's ticks, as Player.play takes them: a batch each while it plays, the tour
// and the guess round first to stop it (a stop that plays on leaves it playing).
func (f *fakeStage) play() {
	for f.shown.Playing && f.shown.Pos+1 < f.s.Computed {
		if _, stop := f.ws.tour.step(f); stop {
			continue
		}
		if _, stop := f.ws.guess.step(f); stop {
			continue
		}
		f.goTo(f.shown.Pos + 1)
		f.ws.tour.step(f)
	}
}

// key gives a key to the question up, as the player does, which closes when it is done with it.
func (f *fakeStage) key(t *testing.T, k string) {
	t.Helper()
	o := f.overlay
	if o == nil {
		t.Fatalf("%s: no question up", k)
	}
	if done, _ := o.Key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}); done && f.overlay == o {
		f.overlay = nil
	}
}

// The guess round without a player: each answer, given at the question the round asks before its
// batch, is revealed beside the Oracle's decision, scored, and priced for the player's own
// strategy. The synthetic Oracle retrains at 19, 24, 30, 36, 42, 48 and 54: in each concept's 12
// batches once at the drift and once halfway (R 4 twice and 0.25 x (0+...+5) twice, 15.5, beats
// one retrain, 4 + 0.25 x (0+...+11) = 20.5, and three, 12 + 0.25 x 2 x (0+...+3) = 16.5); in the
// first online batches, 15 to 23, once at 19.
func TestGuessRoundReveal(t *testing.T) {
	f := newFakeStage(t, nil)
	g := &f.ws.guess
	g.toggle(f)
	for _, tc := range []struct {
		t       int
		key     string
		mark    string // beside the answer
		agreed  int    // the score after it, of the answers so far
		yourTp  int    // the model the player's strategy keeps until t
		keepC   string // C[yourTp, t]: 0.25 a batch of age, 6 more across a drift
		oracleW string // the Oracle's decision as the reveal says it
	}{
		{19, "r", "✓ as the Oracle", 1, 15, "1", "RETRAINS"},        // 4 batches old, concept b
		{22, "k", "✓ as the Oracle", 2, 19, "0.75", "KEEPS"},        // M_19, 3 batches old
		{24, "k", "✗ not as the Oracle", 2, 19, "7.25", "RETRAINS"}, // across the drift at 24: 1.25 + 6
		{27, "r", "✗ not as the Oracle", 2, 19, "8", "KEEPS"},       // still M_19 (24 was KEEP): 2 + 6
	} {
		f.goTo(tc.t - 1)
		if _, asked := g.step(f); !asked {
			t.Fatalf("no question before batch %d", tc.t)
		}
		if q, ok := f.overlay.(*guessOverlay); !ok || q.t != tc.t || f.shown.Pos != tc.t-1 || f.shown.Focus != paneBatch {
			t.Fatalf("the question: %T at batch %d, focus %d; want batch %d asked at %d in the batch pane", f.overlay, f.shown.Pos, f.shown.Focus, tc.t, tc.t-1)
		}
		f.key(t, tc.key)
		c := f.ws.callout
		if f.overlay != nil || f.shown.Pos != tc.t || c == nil || c.kind != calloutReveal || len(c.head) != 3 {
			t.Fatalf("answered %s at %d: overlay %T, batch %d, callout %+v", tc.key, tc.t, f.overlay, f.shown.Pos, c)
		}
		head := ansi.Strip(strings.Join(c.head, "\n"))
		n := slices.Index([]int{19, 22, 24, 27}, tc.t) + 1
		word := map[string]string{"r": "RETRAIN", "k": "KEEP"}[tc.key]
		for _, want := range []string{
			fmt.Sprintf("At %d the Oracle %s", tc.t, tc.oracleW),
			fmt.Sprintf("You said %s: %s · score %d of %d", word, tc.mark, tc.agreed, n),
			fmt.Sprintf("For you: KEEP M_%d costs C[%d, %d] = %s, RETRAIN costs R = 4", tc.yourTp, tc.yourTp, tc.t, tc.keepC),
		} {
			if !strings.Contains(head, want) {
				t.Errorf("batch %d: the reveal lacks %q:\n%s", tc.t, want, head)
			}
		}
	}
	// The answers are a strategy: it retrains where they said RETRAIN, up to the batch shown.
	if r := g.result(f); r == nil || !slices.Equal(r.Strategy.Retrains, []int{19, 27}) {
		t.Errorf("the player's strategy: %+v, want retrains at 19 and 27", r)
	}
	g.toggle(f)
	if f.ws.callout != nil || f.notice != "guess round over: 2 of 4 as the Oracle decided; g starts it again" {
		t.Errorf("ending the round: callout %+v, notice %q", f.ws.callout, f.notice)
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
	f := newFakeStage(t, tour)
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
			ts.toggle(f)
		case "space":
			ts.space(f)
		default:
			f.key(t, tc.do)
		}
		f.play()
		title, ask := "", 0
		if c := f.ws.callout; c != nil {
			title = c.title
		}
		if q, ok := f.overlay.(*guessOverlay); ok {
			ask = q.t
		}
		if f.shown.Pos != tc.pos || title != tc.title || ask != tc.ask {
			t.Fatalf("after %s: batch %d, callout %q, asking %d; want %d, %q, %d", tc.do, f.shown.Pos, title, ask, tc.pos, tc.title, tc.ask)
		}
		switch tc.title {
		case "tour 1/4 · batch 19":
			if f.shown.Focus != paneMatrix || f.shown.Cursor != (room.Cursor{On: true, At: [2]int{15, 19}}) {
				t.Errorf("stop 1: focus %d, cursor %+v; want the matrix, on [15, 19]", f.shown.Focus, f.shown.Cursor)
			}
		case "tour 2/4 · batch 24":
			if head := ansi.Strip(strings.Join(f.ws.callout.head, "\n")); !strings.Contains(head, "You said KEEP: ✗ not as the Oracle") {
				t.Errorf("the quiz's stop lacks the reveal:\n%s", head)
			}
		case "tour 4/4 · batch 36":
			if c := f.ws.callout; !strings.Contains(c.text, "What-if: retrain_cost=8") || c.foot != "space end the tour · t leave" {
				t.Errorf("the last stop: text %q, foot %q", c.text, c.foot)
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
	ts.toggle(f)
	if ts.on() || ts.left != 0 || f.notice != "left the tour at stop 1 of 4; t takes it up there" {
		t.Errorf("leaving: on %v, left at %d, notice %q", ts.on(), ts.left, f.notice)
	}
}
