package tui

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/scenarios/tour"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/workshop"
)

// covcon-d's tour played as a user plays it (cara play covcon-d --tour, then space twice): the
// third stop's callout shows its text under "tour 3/8", its template filled from the run, and the
// cursor is on the cell it quotes, C[6, 9], whose value the readout gives as the text says.
func TestTourCovconToThirdStop(t *testing.T) {
	t.Parallel()
	s, err := scenarios.Load("covcon-d", scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlayer(Options{Scenario: s, Seed: s.Seed, Styles: asciiStyles(), Tour: true, Width: 120, Height: 36, Runs: testRuns()})
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(120, 36))
	wait := func(text string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(text)) },
			teatest.WithDuration(3*time.Minute), teatest.WithCheckInterval(20*time.Millisecond))
	}
	space := tea.KeyMsg{Type: tea.KeySpace, Runes: []rune(" ")}
	wait("tour 1/8 · batch 0")
	tm.Send(space)
	wait("tour 2/8 · batch 11")
	tm.Send(space)
	wait("tour 3/8 · batch 24")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	fp := tm.FinalModel(t).(*Player)
	if fp.Pos != 24 || !fp.ws.Tour().On() || stopOf(fp) != 2 || !arrivedAt(fp) {
		t.Fatalf("at batch %d, tour %+v; want the third stop, at 24", fp.Pos, stopOf(fp))
	}
	c69 := draw.Num(fp.s.Matrix.Cell(6, 9).C())
	if calloutOf(fp) == nil || !strings.Contains(calloutOf(fp).Text, "C[6, 9] = "+c69+",") || calloutOf(fp).Title != "tour 3/8 · batch 24" {
		t.Errorf("callout %+v, want the third stop's text with C[6, 9] = %s", calloutOf(fp), c69)
	}
	if !fp.Cursor.On || fp.Cursor.At != [2]int{6, 9} || fp.Focus != pane.Matrix {
		t.Errorf("cursor on %v at %v, focus %d; want the stop's cell [6, 9] in the focused matrix", fp.Cursor.On, fp.Cursor.At, fp.Focus)
	}
	view := draw.StripANSI(fp.View())
	for _, want := range []string{"tour 3/8 · batch 24", "The offline block, batches 0 to", "t'=6 t=9  C " + c69} {
		if !strings.Contains(view, want) {
			t.Errorf("the screen lacks %q:\n%s", want, view)
		}
	}
}

// smallTour is small.yaml with a tour of every kind of stop.
func smallTour(t testing.TB) *scenarios.Scenario {
	s := loadSmall(t)
	s.Tour = []tour.Stop{
		{At: 2, Say: "the cell", Focus: tour.Focus{Pane: tour.PaneMatrix, Cell: &tour.Cell{Model: 1, Batch: 2}}, Pause: true},
		{At: 6, Say: "keep or retrain?", Quiz: true, Pause: true},
		{At: 8, Say: "passing by", Focus: tour.Focus{Pane: tour.PaneCumulative}},
		{At: 10, Say: "a dearer retrain", Whatif: []tour.Override{{Path: "retrain_cost", Value: "1"}}, Pause: true},
		{At: 11, Say: "other queries", Whatif: []tour.Override{{Path: "queries.size", Value: "5"}}, Pause: true},
	}
	return s
}

// A tour of every kind of stop, driven as the program drives it: the ticks run the player to each
// stop and stop there; a quiz asks before its batch; a stop that does not pause plays on; a
// what-if holds for its stop only; the last space ends the tour.
func TestTourStops(t *testing.T) {
	t.Parallel()
	s0 := smallTour(t)
	p := pumpedScenario(t, s0, asciiStyles(), 120, 36)
	pumpCmd(t, p, p.apply(p.ws.ToggleTour(p.workshopFrame())))
	if p.Pos != 2 || calloutOf(p) == nil || calloutOf(p).Title != "tour 1/5 · batch 2" || p.Focus != pane.Matrix {
		t.Fatalf("first stop: batch %d callout %+v focus %d", p.Pos, calloutOf(p), p.Focus)
	}
	if !p.Cursor.On || p.Cursor.At != [2]int{1, 2} {
		t.Errorf("cursor %v at %v, want on [1, 2]", p.Cursor.On, p.Cursor.At)
	}
	// The words were checked on the tour's R: under another, the callout says so.
	press(p, "]")
	if c := calloutOf(p); !strings.Contains(c.Text, "(R is ×1.25 here: the numbers are this view's; the words were written for the tour's R.)") {
		t.Errorf("] at a stop: the callout does not say its words were written for another R:\n%s", c.Text)
	}
	press(p, "[")
	if c := calloutOf(p); strings.Contains(c.Text, "R is ×") {
		t.Errorf("back at the tour's R, the callout still says:\n%s", c.Text)
	}
	pumpCmd(t, p, p.apply(p.ws.TourNext(p.workshopFrame())))
	q, ok := p.ws.Asking()
	if !ok || q != 6 || p.Pos != 5 {
		t.Fatalf("the quiz: overlay %T at batch %d, want the question about 6 at 5", p.overlay, p.Pos)
	}
	if v := draw.StripANSI(p.View()); !strings.Contains(v, "keep or retrain?") || !strings.Contains(v, "RETRAIN or KEEP at 6?") {
		t.Errorf("the question lacks the stop's words:\n%s", v)
	}
	// The quiz is about the model the tour follows, the Oracle's in use at 5 (covcon-s's quiz at
	// 70 asked about M_60 and graded M_25, the You of a player who had never answered).
	c := algos.Costs{M: p.s.Matrix, R: s0.RetrainCost}
	o := algos.Oracle(c, s0.Offline, s0.Batches-1)
	tp := o.Model[5-o.Start]
	press(p, "r")
	if p.Pos != 6 || calloutOf(p) == nil || !strings.HasPrefix(calloutOf(p).Title, "tour 2/5") || len(calloutOf(p).Head) < 3 {
		t.Fatalf("after answering: batch %d callout %+v", p.Pos, calloutOf(p))
	}
	// Priced as the paper prices a strategy, until the Oracle retrains next (where the paths meet).
	last := s0.Batches - 1
	for _, r := range o.Retrains {
		if r > 6 {
			last = r - 1
			break
		}
	}
	keep := 0.0
	for j := 6; j <= last; j++ {
		keep += c.At(tp, j)
	}
	if want := fmt.Sprintf("KEEP M_%d costs %s, RETRAIN", tp, draw.Num(keep)); !strings.Contains(strings.Join(calloutOf(p).Head, "\n"), want) {
		t.Errorf("the quiz's reveal lacks %q:\n%s", want, strings.Join(calloutOf(p).Head, "\n"))
	}
	// Space: the stop at 8 does not pause; its callout shows while the player plays on to 10,
	// where the what-if makes R 1 (twice the scenario's 0.5).
	pumpCmd(t, p, p.apply(p.ws.TourNext(p.workshopFrame())))
	if p.Pos != 10 || stopOf(p) != 3 || p.frame().RNow() != 1 || !strings.Contains(calloutOf(p).Text, "What-if: retrain_cost=1") {
		t.Fatalf("at %d stop %d R %v callout %+v", p.Pos, stopOf(p), p.frame().RNow(), calloutOf(p))
	}
	// The stop at 8 pointed at the chart: the first stop's cell is no longer read out under the
	// matrix (covcon-d's last stops, on the results, kept C[40, 41] there).
	if p.Cursor.On || strings.Contains(draw.StripANSI(p.View()), "t'=1 t=2") {
		t.Errorf("the first stop's cell is still read out at batch %d: cursor %+v", p.Pos, p.Cursor)
	}
	// The next stop undoes it and applies its own, on the queries: the panes show the run with 5
	// queries a batch, R the scenario's again.
	pumpCmd(t, p, p.apply(p.ws.TourNext(p.workshopFrame())))
	if p.Pos != 11 || p.frame().RNow() != 0.5 || p.s.WhatIf == nil || !slices.Equal(p.s.WhatIf.Sets, []string{"queries.size=5"}) {
		t.Fatalf("at %d R %v what-if %+v", p.Pos, p.frame().RNow(), p.s.WhatIf)
	}
	if m, _ := p.s.Shown(); m == p.s.Matrix || m.Cell(3, 11).A == p.s.Matrix.Cell(3, 11).A {
		t.Error("the queries' what-if left the matrix as it was")
	}
	if calloutOf(p).Foot != "space end the tour · t leave" {
		t.Errorf("last stop's foot %q", calloutOf(p).Foot)
	}
	pumpCmd(t, p, p.apply(p.ws.TourNext(p.workshopFrame())))
	if p.ws.Tour().On() || calloutOf(p) != nil || !strings.Contains(p.notice, "end of the tour") {
		t.Errorf("after the last stop: tour %v callout %v notice %q", stopOf(p), calloutOf(p), p.notice)
	}
	// t starts it again from its first stop, back at batch 2; t leaves, and t takes it up there.
	pumpCmd(t, p, p.apply(p.ws.ToggleTour(p.workshopFrame())))
	if p.Pos != 2 || stopOf(p) != 0 {
		t.Errorf("t again: batch %d stop %d", p.Pos, stopOf(p))
	}
	// A tour from its start asks its quizzes again: the room's summary scores what is answered now.
	pumpCmd(t, p, p.apply(p.ws.TourNext(p.workshopFrame())))
	if q, asked := p.ws.Asking(); !asked || q != 6 || p.Pos != 5 {
		t.Errorf("the tour again: the quiz at 6 not asked again (asking %d %v at %d)", q, asked, p.Pos)
	}
	press(p, "k")
	press(p, "t")
	if p.ws.Tour().On() || calloutOf(p) != nil || !strings.Contains(p.notice, "left the tour at stop 2 of 5") {
		t.Errorf("t did not leave the tour: %q", p.notice)
	}
	press(p, "home")
	pumpCmd(t, p, p.apply(p.ws.ToggleTour(p.workshopFrame())))
	if !p.ws.Tour().On() || stopOf(p) != 1 || p.Pos != 6 {
		t.Errorf("t after leaving at stop 2: stop %v at batch %d", stopOf(p), p.Pos)
	}
	// A scenario without a tour says so.
	q2 := pumped(t, asciiStyles(), 100, 32)
	press(q2, "t")
	if q2.ws.Tour().On() || !strings.Contains(q2.notice, "has no tour") {
		t.Errorf("no tour: %q", q2.notice)
	}
}

// The guess round: scripted answers, some the Oracle's decision and some not, give the score
// they should, and the results pane's "You" row costs what replaying those answers through algos
// as a fixed strategy costs, with its SCPE against the Oracle.
func TestGuessRound(t *testing.T) {
	p := pumped(t, asciiStyles(), 120, 40)
	s := p.opt.Scenario
	off, T := s.Offline, s.Batches
	c := algos.Costs{M: p.s.Matrix, R: s.RetrainCost}
	oracle := algos.OracleRetrains(c, off, T-1)
	goTo(p, off)
	press(p, "g")
	// Answer each batch off+1..T-1: the Oracle's decision, except at two batches, where the
	// opposite.
	wrong := []int{off + 2, T - 2}
	var retrains []int
	for b := off + 1; b < T; b++ {
		press(p, "l")
		if q, ok := p.ws.Asking(); !ok || q != b || p.Pos != b-1 {
			t.Fatalf("step into %d: overlay %T at %d, want the question first", b, p.overlay, p.Pos)
		}
		answer := slices.Contains(oracle, b) != slices.Contains(wrong, b)
		if answer {
			press(p, "r")
			retrains = append(retrains, b)
		} else {
			press(p, "k")
		}
		if p.Pos != b || calloutOf(p) == nil || calloutOf(p).Kind != workshop.RevealCallout {
			t.Fatalf("after answering %d: batch %d callout %+v", b, p.Pos, calloutOf(p))
		}
	}
	agreed, of := p.ws.Guess().Score()
	if want := T - 1 - off; of != want || agreed != want-len(wrong) {
		t.Errorf("score %d of %d, want %d of %d", agreed, of, want-len(wrong), want)
	}
	head := strings.Join(calloutOf(p).Head, "\n")
	if want := fmt.Sprintf("score %d of %d", agreed, of); !strings.Contains(head, want) {
		t.Errorf("the reveal lacks %q:\n%s", want, head)
	}
	// The reveal's costs are the matrix's: at the last batch, where no later batch pays for the
	// choice, keeping the model in use, or R.
	last := T - 1
	tp := off
	for _, b := range retrains {
		if b < last {
			tp = b
		}
	}
	if want := fmt.Sprintf("at %d (until the Oracle decides again): KEEP M_%d costs %s, RETRAIN %s (R = %s at %d)", last, tp, draw.Num(c.At(tp, last)),
		draw.Num(c.R(last)), draw.Num(c.R(last)), last); !strings.Contains(head, want) {
		t.Errorf("the reveal lacks %q:\n%s", want, head)
	}
	// "You" is over the batches answered, off+1..last: the fixed strategy's cost but the first
	// model's R at off, which no answer decided, against the Oracle's over the same batches.
	you := algos.Replay(c, off, last, algos.Fixed(retrains)).Cost() - c.R(off)
	b := algos.Oracle(c, off, last).Cost() - c.R(off)
	r := p.ws.Guess().You(p.workshopFrame())
	if r == nil || math.Abs(r.Cost-you) > 1e-9 || math.Abs(r.Oracle-b) > 1e-9 || r.Retrains != len(retrains) || r.Answers != T-1-off || r.Agreed != agreed {
		t.Fatalf("You: %+v, want %d answers (%d as the Oracle) retraining at %v, costing %v against %v", r, T-1-off, agreed, retrains, you, b)
	}
	if b > 0 && math.Abs(r.SCPE-100*math.Abs(you-b)/b) > 1e-9 {
		t.Errorf("You's SCPE %v, want %v", r.SCPE, 100*math.Abs(you-b)/b)
	}
	// The row shows, named for its answers, with its cost as the table writes costs, and its line.
	view := draw.StripANSI(p.panes.Results.View(p.frame(), 100, 20))
	row := ""
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, fmt.Sprintf(" You (%d answers) ", T-1-off)) {
			row = l
		}
	}
	if !strings.Contains(row, draw.Cost(r.Cost)) {
		t.Errorf("the You row %q lacks its cost %s:\n%s", row, draw.Cost(r.Cost), view)
	}
	if want := fmt.Sprintf("You (%d answers): %d of %d as the Oracle", T-1-off, agreed, T-1-off); !strings.Contains(view, want) {
		t.Errorf("the results lack %q:\n%s", want, view)
	}
	// g ends the round: steps no longer ask.
	press(p, "g", "home", "end")
	if p.overlay != nil || !strings.Contains(p.notice, "") {
		t.Error("a question after the round ended")
	}
}

// roomPlayers are a presenter's and a follower's players on one registry and room, the presenter's
// engine finished, every message delivered on this goroutine.
func roomPlayers(t *testing.T, s *scenarios.Scenario) (pres, fol *Player, rm *room.Room) {
	t.Helper()
	runs := live.NewRuns(live.RunsConfig{MaxComputing: 1, Cache: 2})
	t.Cleanup(runs.Close)
	rm = room.New()
	mp, mf := rm.Join(true), rm.Join(false)
	return memberPlayer(t, s, runs, mp), memberPlayer(t, s, runs, mf), rm
}

// memberPlayer is the player of room member m on s, in runs, its engine finished.
func memberPlayer(t *testing.T, s *scenarios.Scenario, runs *live.Runs, m *room.Member) *Player {
	t.Helper()
	p, err := NewPlayer(Options{Scenario: s, Seed: s.Seed, Styles: asciiStyles(), Width: 120, Height: 40, Runs: runs, Member: m})
	if err != nil {
		t.Fatal(err)
	}
	pump(t, p)
	return p
}

// deliver hands a player its member's view of the room, as the relay does, and runs what follows.
func deliver(t *testing.T, p *Player) *Player {
	t.Helper()
	m, cmd := p.Update(roomMsg{p.opt.Member.View()})
	np := m.(*Player)
	pumpCmd(t, np, cmd)
	return np
}

// A follower shows the presenter's batch, R, cursor, tour stop and question; its keys leave what
// the presenter drives alone; p goes free and p again rejoins where the presenter is; the room's
// answers reach the presenter; the presenter leaving frees the follower with a notice.
func TestFollowPresenter(t *testing.T) {
	t.Parallel()
	s := smallTour(t)
	pres, fol, _ := roomPlayers(t, s)
	fol = deliver(t, fol)
	pres = deliver(t, pres)
	if !fol.ws.Room().Following() || !pres.ws.Room().Presenting() {
		t.Fatalf("following %v presenting %v", fol.ws.Room().Following(), pres.ws.Room().Presenting())
	}
	goTo(pres, 5)
	press(pres, "]")
	fol = deliver(t, fol)
	if fol.Pos != 5 || fol.frame().RNow() != pres.frame().RNow() || fol.s == pres.s {
		t.Fatalf("follower at %d R %v, presenter at %d R %v", fol.Pos, fol.frame().RNow(), pres.Pos, pres.frame().RNow())
	}
	if fol.s.Matrix != pres.s.Matrix { // sessions of one finished run show its one matrix
		t.Error("the follower's and the presenter's sessions each hold a copy of the run's matrix")
	}
	if !strings.Contains(draw.StripANSI(fol.status(fol.frame())), "· following ·") {
		t.Errorf("follower's status: %q", draw.StripANSI(fol.status(fol.frame())))
	}
	dp := deliver(t, pres)
	if st := draw.StripANSI(dp.status(dp.frame())); !strings.Contains(st, "1 follow · 0 free") {
		t.Errorf("presenter's status: %q", st)
	}
	if h := helpLine(fol.st, fol.contextKeys(fol.frame()), 200); strings.Contains(h, "step") || !strings.Contains(h, "p go free") {
		t.Errorf("a follower's help line: %q", h)
	}
	press(fol, "l", "]")
	if fol.Pos != 5 || fol.frame().RNow() != pres.frame().RNow() || !strings.Contains(fol.notice, "p to go free") {
		t.Errorf("a follower's keys moved it: batch %d R %v notice %q", fol.Pos, fol.frame().RNow(), fol.notice)
	}
	// Free, back two batches, then rejoin: at the presenter's batch again.
	press(fol, "p", "h", "h")
	if fol.Pos != 3 || fol.ws.Room().Following() || !strings.Contains(draw.StripANSI(fol.status(fol.frame())), "free: p to follow") {
		t.Fatalf("free: batch %d following %v status %q", fol.Pos, fol.ws.Room().Following(), draw.StripANSI(fol.status(fol.frame())))
	}
	if v := pres.opt.Member.View(); v.Free != 1 || v.Followers != 0 {
		t.Errorf("the room counts %d following, %d free", v.Followers, v.Free)
	}
	goTo(pres, 7)
	fol = deliver(t, fol)
	if fol.Pos != 3 {
		t.Errorf("a free follower moved with the presenter to %d", fol.Pos)
	}
	m, cmd := fol.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("p")})
	fol = m.(*Player)
	m, _ = fol.Update(cmd())
	fol = m.(*Player)
	if !fol.ws.Room().Following() || fol.Pos != 7 || fol.frame().RNow() != pres.frame().RNow() {
		t.Fatalf("rejoined at %d R %v, presenter at %d R %v", fol.Pos, fol.frame().RNow(), pres.Pos, pres.frame().RNow())
	}
	// The presenter's tour: its stop's callout and cell.
	press(pres, "home")
	pumpCmd(t, pres, pres.apply(pres.ws.ToggleTour(pres.workshopFrame())))
	fol = deliver(t, fol)
	if calloutOf(fol) == nil || calloutOf(fol).Title != "tour 1/5 · batch 2" || !fol.Cursor.On || fol.Cursor.At != [2]int{1, 2} {
		t.Fatalf("follower at the first stop: callout %+v cursor %v %v", calloutOf(fol), fol.Cursor.On, fol.Cursor.At)
	}
	if calloutOf(fol).Foot != "the presenter goes on · p to go free" {
		t.Errorf("follower's callout foot %q", calloutOf(fol).Foot)
	}
	// The quiz: the follower is asked, answers KEEP, the presenter sees it counted, then reveals.
	pumpCmd(t, pres, pres.apply(pres.ws.TourNext(pres.workshopFrame())))
	fol = deliver(t, fol)
	if q, ok := fol.ws.Asking(); !ok || q != 6 {
		t.Fatalf("the follower is not asked: overlay %T", fol.overlay)
	}
	press(fol, "k")
	pres = deliver(t, pres)
	if v := draw.StripANSI(pres.View()); !strings.Contains(v, "The room: 0 RETRAIN / 1 KEEP") {
		t.Errorf("the presenter does not see the room's answer:\n%s", v)
	}
	press(pres, "r")
	fol = deliver(t, fol)
	head := strings.Join(calloutOf(pres).Head, "\n")
	if !strings.Contains(head, "The room said 0 RETRAIN / 1 KEEP") {
		t.Errorf("the presenter's reveal lacks the room's answers:\n%s", head)
	}
	if fol.Pos != 6 || calloutOf(fol) == nil || !strings.Contains(strings.Join(calloutOf(fol).Head, "\n"), "You said KEEP") {
		t.Errorf("the follower's reveal at %d: %+v", fol.Pos, calloutOf(fol))
	}
	// The presenter's what-if: the follower shows it too, the very matrix the presenter's computed.
	pumpCmd(t, pres, pres.apply(effect.Effects{effect.WhatIf{Sets: []string{"queries.size=5"}}}))
	fol = deliver(t, fol)
	if pres.s.WhatIf == nil || fol.s.WhatIf == nil || fol.s.WhatIf.Matrix != pres.s.WhatIf.Matrix {
		t.Errorf("the follower's what-if %+v, the presenter's %+v: want one, computed once", fol.s.WhatIf, pres.s.WhatIf)
	}
	if !strings.Contains(draw.StripANSI(fol.status(fol.frame())), "what-if: queries.size=5") {
		t.Errorf("the follower's status does not name the what-if: %q", draw.StripANSI(fol.status(fol.frame())))
	}
	// The presenter leaves: the follower keeps batch 6 and is free, told so.
	pres.opt.Member.Leave()
	fol = deliver(t, fol)
	if fol.ws.Room().Following() || fol.Pos != 6 || !strings.Contains(fol.notice, "the presenter left") {
		t.Errorf("after the presenter left: following %v batch %d notice %q", fol.ws.Room().Following(), fol.Pos, fol.notice)
	}
	if calloutOf(fol) == nil || calloutOf(fol).Foot != "esc closes this" {
		t.Fatalf("the last stop's callout after the presenter left: %+v", calloutOf(fol))
	}
	press(fol, "esc")
	if calloutOf(fol) != nil {
		t.Error("esc did not close the callout the presenter left")
	}
	if !strings.Contains(helpLine(fol.st, fol.contextKeys(fol.frame()), 200), "step") {
		t.Error("a free follower's help lacks the step keys")
	}
}

// Following into another scenario opens it in a new player on the presenter's run.
func TestFollowIntoScenario(t *testing.T) {
	s := loadSmall(t)
	pres, fol, _ := roomPlayers(t, s)
	other := loadSmall(t) // another loaded scenario: another run
	pres.s.Stop()
	np, err := NewPlayer(Options{Scenario: other, Seed: 9, Styles: asciiStyles(), Width: 120, Height: 40, Runs: pres.opt.Runs, Member: pres.opt.Member})
	if err != nil {
		t.Fatal(err)
	}
	pump(t, np)
	goTo(np, 4)
	fol = deliver(t, fol)
	if fol.opt.Scenario != other || fol.s.Seed != 9 || fol.Pos != 4 || !fol.ws.Room().Following() {
		t.Fatalf("follower on %p seed %d batch %d, want %p seed 9 batch 4", fol.opt.Scenario, fol.s.Seed, fol.Pos, other)
	}
	if st := pres.opt.Runs.Stats(); st.Started != 2 {
		t.Errorf("%d runs started, want 2: the follower shares the presenter's", st.Started)
	}
	// N, confirmed: the presenter's next seed, and the follower's.
	np.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("N")})
	_, cmd := np.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	pumpCmd(t, np, cmd)
	fol = deliver(t, fol)
	if fol.s.Seed != 10 || fol.opt.Scenario != other {
		t.Errorf("after the presenter's N: follower on seed %d", fol.s.Seed)
	}
	if st := pres.opt.Runs.Stats(); st.Started != 3 || st.Watchers != 2 {
		t.Errorf("%d runs started, %d watchers: want 3 and the two players on the last", st.Started, st.Watchers)
	}
}

// The picker in a room: a student still choosing follows a presenter who comes on, and opens the
// presenter's scenario when the presenter does; one who opens a scenario of their own is free.
func TestPickerFollows(t *testing.T) {
	s := loadSmall(t)
	runs := live.NewRuns(live.RunsConfig{MaxComputing: 1, Cache: 2})
	defer runs.Close()
	rm := room.New()
	m := rm.Join(false)
	st := asciiStyles()
	open := func(stage room.Stage, w, h int, back func() (tea.Model, tea.Cmd)) (*Player, error) {
		return NewPlayer(Options{Scenario: stage.Scenario, Seed: stage.Seed, Styles: st, Width: w, Height: h, Runs: runs, Member: m, Back: back})
	}
	pk := NewPicker(scenarios.Entries("testdata", nil), st, func(e scenarios.Entry, w, h int, back func() (tea.Model, tea.Cmd)) (*Player, error) {
		return NewPlayer(Options{Scenario: s, Seed: s.Seed, Styles: st, Width: w, Height: h, Runs: runs, Member: m, Back: back})
	})
	pk.Join(m, open)
	pk.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if v := m.View(); v.Following {
		t.Fatal("following with no presenter")
	}
	pres := rm.Join(true)
	pk.Update(roomMsg{m.View()})
	if v := m.View(); !v.Following || !strings.Contains(draw.StripANSI(pk.View()), "You follow the presenter") {
		t.Fatalf("a presenter came on: following %v\n%s", v.Following, draw.StripANSI(pk.View()))
	}
	pres.Publish(room.Stage{Scenario: s, Seed: 5, Shown: room.Shown{Pos: 2}, Stop: -1, Quiz: -1})
	model, cmd := pk.Update(roomMsg{m.View()})
	pl, ok := model.(*Player)
	if !ok || pl.opt.Scenario != s || pl.s.Seed != 5 || !pl.ws.Room().Following() {
		t.Fatalf("the presenter's scenario did not open: %T", model)
	}
	pumpCmd(t, pl, cmd)
	if pl.Pos != 2 {
		t.Errorf("opened at batch %d, the presenter's is 2", pl.Pos)
	}
	// q asks first; y: back in the picker, free; a scenario of one's own stays free.
	if back, _ := pl.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")}); back != tea.Model(pl) || !m.View().Following {
		t.Fatalf("q from a followed scenario left at once: %T, following %v", back, m.View().Following)
	}
	back, _ := pl.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	if back != tea.Model(pk) || m.View().Following {
		t.Fatalf("q from a followed scenario: %T, following %v", back, m.View().Following)
	}
	pk.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("p")})
	if !m.View().Following {
		t.Error("p in the picker did not follow")
	}
	model, _ = pk.openSelected()
	if _, ok := model.(*Player); !ok || m.View().Following {
		t.Errorf("opening a scenario of one's own: %T, following %v", model, m.View().Following)
	}
	model.(*Player).s.Stop()
}

// calloutOf is the callout over the player's panes, as drawn (nil when none is up).
func calloutOf(p *Player) *workshop.Callout { return p.ws.Callout(p.workshopFrame()) }

// stopOf is the stop of the tour the player plays (-1 for none); arrivedAt, whether it is at it.
func stopOf(p *Player) int     { i, _ := p.ws.Tour().Stop(); return i }
func arrivedAt(p *Player) bool { _, at := p.ws.Tour().Stop(); return at }

// A tour plays on the seed it was written for: t on another seed asks to switch; any key but y
// keeps the seed, y opens the tour's seed and starts the tour there, its words about the run on
// screen. During the tour N (a new run) is refused. A presenter's switch takes the room along.
func TestTourOnItsSeed(t *testing.T) {
	t.Parallel()
	s := smallTour(t)
	p, err := NewPlayer(Options{Scenario: s, Seed: s.Seed + 3, Styles: asciiStyles(), Width: 120, Height: 36, Runs: testRuns()})
	if err != nil {
		t.Fatal(err)
	}
	pump(t, p)
	press(p, "t")
	want := fmt.Sprintf("This tour was written for seed %d: switch to it?", s.TourSeed())
	if v := draw.StripANSI(p.View()); !strings.Contains(v, want) || p.ws.Tour().On() {
		t.Fatalf("t on seed %d: tour on %v, the screen lacks %q:\n%s", p.s.Seed, p.ws.Tour().On(), want, v)
	}
	press(p, "n")
	if p.s.Seed != s.Seed+3 || p.ws.Tour().On() || !strings.Contains(p.notice, fmt.Sprintf("kept seed %d", s.Seed+3)) {
		t.Fatalf("n: seed %d, tour on %v, notice %q", p.s.Seed, p.ws.Tour().On(), p.notice)
	}
	press(p, "t")
	_, cmd := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	pumpCmd(t, p, cmd)
	playOut(t, p)
	if p.s.Seed != s.TourSeed() || !p.ws.Tour().On() || stopOf(p) != 0 || !arrivedAt(p) || p.Pos != s.Tour[0].At {
		t.Fatalf("y: seed %d tour on %v stop %d at batch %d; want the tour's first stop on seed %d", p.s.Seed, p.ws.Tour().On(), stopOf(p), p.Pos, s.TourSeed())
	}
	if c := calloutOf(p); c == nil || c.Text != s.Tour[0].Say {
		t.Errorf("the first stop's callout: %+v", c)
	}
	press(p, "N")
	if _, ok := p.overlay.(*restartOverlay); ok || !strings.Contains(p.notice, "waits for the tour") {
		t.Errorf("N during the tour: overlay %T, notice %q", p.overlay, p.notice)
	}

	// cara play --seed 3 --tour asks first, too.
	q, err := NewPlayer(Options{Scenario: s, Seed: s.Seed + 3, Styles: asciiStyles(), Width: 120, Height: 36, Runs: testRuns(), Tour: true})
	if err != nil {
		t.Fatal(err)
	}
	pump(t, q)
	if _, ok := q.overlay.(*confirmOverlay); !ok || q.ws.Tour().On() {
		t.Errorf("--tour on another seed: overlay %T, tour on %v", q.overlay, q.ws.Tour().On())
	}

	// A presenter on another seed switches, and the room with them.
	pres, fol, _ := roomPlayers(t, s)
	fol = deliver(t, fol)
	press(pres, "N")
	_, cmd = pres.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	pumpCmd(t, pres, cmd)
	fol = deliver(t, fol)
	if pres.s.Seed != s.Seed+1 || fol.s.Seed != s.Seed+1 {
		t.Fatalf("after N: presenter on %d, follower on %d", pres.s.Seed, fol.s.Seed)
	}
	press(pres, "t")
	if o, ok := pres.overlay.(*confirmOverlay); !ok || !strings.Contains(o.c.Text, "The whole room follows you there") {
		t.Errorf("the presenter is not told the room follows: %+v", pres.overlay)
	}
	_, cmd = pres.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	pumpCmd(t, pres, cmd)
	playOut(t, pres)
	fol = deliver(t, fol)
	if pres.s.Seed != s.TourSeed() || fol.s.Seed != s.TourSeed() || calloutOf(fol) == nil || calloutOf(fol).Title != "tour 1/5 · batch 2" {
		t.Errorf("after the presenter's switch: presenter on %d, follower on %d, the follower's callout %+v", pres.s.Seed, fol.s.Seed, calloutOf(fol))
	}
}

// At 100 columns or fewer the status line keeps the seed and R, a follower's included after the
// presenter's what-if: the play state and the algorithms shown go first, the what-if's
// description shrinks to a word (the bar and the presenter's words name it).
func TestStatusKeepsSeedAndR(t *testing.T) {
	t.Parallel()
	pres, fol, _ := roomPlayers(t, smallTour(t))
	fol, pres = deliver(t, fol), deliver(t, pres)
	press(pres, "]")
	pumpCmd(t, pres, pres.apply(effect.Effects{effect.WhatIf{Sets: []string{"queries={size: 5, gaussian: {mean: [0.5, 0.5], std: 0.05}}"}}}))
	fol = deliver(t, fol)
	if fol.s.WhatIf == nil {
		t.Fatal("the follower shows no what-if")
	}
	for _, p := range []*Player{pres, fol} {
		for _, w := range []int{120, 100, 90, 80, 70} {
			resize(p, w, 36)
			st := draw.StripANSI(p.status(p.frame()))
			for _, want := range []string{fmt.Sprintf("seed %d", p.s.Seed), "R 0.625", "what-if"} {
				if !strings.Contains(st, want) {
					t.Errorf("%d columns: the status lacks %q: %q", w, want, st)
				}
			}
		}
	}
}

// The room's answers kept, for the presenter: after the tour's quiz the reveal says who answered
// as the Oracle decided, by login name; at the end of the tour, and of a guess round, the room's
// summary ranks the students by score and gives each one's You, priced as their own row would be.
func TestRoomAnswersKept(t *testing.T) {
	t.Parallel()
	s := smallTour(t)
	runs := live.NewRuns(live.RunsConfig{MaxComputing: 1, Cache: 2})
	t.Cleanup(runs.Close)
	rm := room.New()
	var recorded []room.Answer
	rm.Record = func(a room.Answer) { recorded = append(recorded, a) }
	mk := func(m *room.Member) *Player { return memberPlayer(t, s, runs, m) }
	pres, ana, bob := mk(rm.JoinAs(true, "prof")), mk(rm.JoinAs(false, "ana")), mk(rm.JoinAs(false, "bob"))
	sync := func() {
		ana, bob, pres = deliver(t, ana), deliver(t, bob), deliver(t, pres)
	}
	sync()
	oracle := algos.OracleRetrains(algos.Costs{M: pres.s.Matrix, R: s.RetrainCost}, s.Offline, s.Batches-1)
	retrains := func(t int) bool { return slices.Contains(oracle, t) }
	right, wrong := map[bool]string{true: "r", false: "k"}, map[bool]string{true: "k", false: "r"}

	// The tour's quiz at 6: ana answers as the Oracle, bob not.
	pumpCmd(t, pres, pres.apply(pres.ws.ToggleTour(pres.workshopFrame())))
	pumpCmd(t, pres, pres.apply(pres.ws.TourNext(pres.workshopFrame())))
	sync()
	press(ana, right[retrains(6)])
	press(bob, wrong[retrains(6)])
	pres = deliver(t, pres)
	press(pres, right[retrains(6)])
	head := strings.Join(calloutOf(pres).Head, "\n")
	if !strings.Contains(head, "As the Oracle: ana · not: bob") {
		t.Errorf("the presenter's reveal does not say who was right:\n%s", head)
	}
	for stopOf(pres) >= 0 && pres.ws.Tour().On() {
		pumpCmd(t, pres, pres.apply(pres.ws.TourNext(pres.workshopFrame())))
		playOut(t, pres)
	}
	c := calloutOf(pres)
	if c == nil || c.Kind != workshop.SummaryCallout {
		t.Fatalf("the end of the tour: callout %+v, want the room's summary", c)
	}
	sum := draw.StripANSI(strings.Join(c.Head, "\n"))
	if !strings.Contains(sum, "The room over the tour: 2 students, 1 question") || !strings.Contains(sum, " 1 ana 1 of 1 as the Oracle") ||
		!strings.Contains(sum, " 2 bob 0 of 1 as the Oracle") {
		t.Errorf("the tour's summary:\n%s", sum)
	}
	// ana's You in the summary is what her own row says.
	sync()
	if y := ana.ws.Guess().You(ana.workshopFrame()); y == nil || !strings.Contains(sum, "You "+draw.Cost(y.Cost)) {
		t.Errorf("ana's own You %+v, the summary:\n%s", y, sum)
	}
	press(pres, "esc")

	// A guess round over 7 and 8: ana right twice, bob right once.
	goTo(pres, 6)
	press(pres, "g")
	for _, b := range []int{7, 8} {
		if b == 8 {
			press(pres, "l")
		}
		sync()
		press(ana, right[retrains(b)])
		press(bob, map[int]string{7: right[retrains(7)], 8: wrong[retrains(8)]}[b])
		pres = deliver(t, pres)
		press(pres, right[retrains(b)])
	}
	press(pres, "g")
	sum = draw.StripANSI(strings.Join(calloutOf(pres).Head, "\n"))
	if !strings.Contains(sum, "The room over the guess round: 2 students, 2 questions") || !strings.Contains(sum, " 1 ana 2 of 2 as the Oracle") ||
		!strings.Contains(sum, " 2 bob 1 of 2 as the Oracle") {
		t.Errorf("the guess round's summary:\n%s", sum)
	}
	// Every answer was recorded, as given, with the Oracle's decision and whether it was right.
	if len(recorded) != 6 {
		t.Fatalf("%d answers recorded, want 6: %+v", len(recorded), recorded)
	}
	for _, a := range recorded {
		if a.Scenario != s.Name || a.Seed != s.Seed || !a.Known || a.Oracle != retrains(a.Batch) || a.Right() != (a.Student == "ana" || a.Batch == 7) {
			t.Errorf("recorded %+v", a)
		}
	}
}

// pressPumped presses keys, running what each asks for (a what-if computed) before the next.
func pressPumped(t *testing.T, p *Player, keys ...string) {
	t.Helper()
	for _, k := range keys {
		msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		if k == " " {
			msg = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune(" ")}
		}
		_, cmd := p.Update(msg)
		pumpCmd(t, p, cmd)
	}
}

// scenario1-far's tour, as `cara play scenario1-far --tour` and space, r, space x3: the wrong
// RETRAIN at 2 (the Oracle keeps M_1 there: the queries hardly see the wedges) is 0 of 1 in the
// reveal, and still 0 of 1 at the end of the tour, which ends on a what-if (the queries inside a
// wedge) whose Oracle retrains at 2: an answer is scored and priced on the run it was asked on.
func TestTourScoresOnTheRunAsked(t *testing.T) {
	t.Parallel()
	s := loadEmbedded(t, "scenario1-far")
	p := pumpedScenario(t, s, asciiStyles(), 120, 36)
	pumpCmd(t, p, p.apply(p.ws.ToggleTour(p.workshopFrame())))
	pressPumped(t, p, " ")
	if q, ok := p.ws.Asking(); !ok || q != 2 {
		t.Fatalf("the quiz: asking %d %v", q, ok)
	}
	c := algos.Costs{M: p.s.Matrix, R: s.RetrainCost}
	o := algos.Oracle(c, s.Offline, s.Batches-1)
	if slices.Contains(o.Retrains, 2) {
		t.Fatalf("scenario1-far's Oracle retrains at 2 (%v): the test wants a wrong RETRAIN", o.Retrains)
	}
	pressPumped(t, p, "r")
	if head := draw.StripANSI(strings.Join(calloutOf(p).Head, "\n")); !strings.Contains(head, "✗ not as the Oracle · score 0 of 1") {
		t.Fatalf("the reveal:\n%s", head)
	}
	// Priced on the run: R at 2 and M_2's staleness until the Oracle's next retrain, against the
	// Oracle's M_1 over the same batches.
	last := s.Batches - 1
	for _, r := range o.Retrains {
		if r > 2 {
			last = r - 1
			break
		}
	}
	cost, oracle := 0.0, o.Cumulative[last-o.Start]-o.Cumulative[1-o.Start]
	for j := 2; j <= last; j++ {
		cost += c.At(2, j)
	}
	pressPumped(t, p, " ", " ", " ")
	if p.ws.Tour().On() || p.s.WhatIf == nil {
		t.Fatalf("the tour did not end on its what-if: tour %v, what-if %+v", p.ws.Tour().On(), p.s.WhatIf)
	}
	if w := p.workshopFrame().WholeBlock(); !slices.Contains(oracleOf(w).Retrains, 2) {
		t.Fatalf("under the last stop's what-if the Oracle does not retrain at 2 (%v): the test needs one that does", oracleOf(w).Retrains)
	}
	y := p.ws.Guess().You(p.workshopFrame())
	if y == nil || y.Answers != 1 || y.Agreed != 0 || y.Retrains != 1 {
		t.Fatalf("You at the end: %+v, want the one RETRAIN, 0 of 1 as the Oracle", y)
	}
	// At the end (batch 3), the span is cut at the batch shown.
	cut, oc := 0.0, o.Cumulative[min(last, 3)-o.Start]-o.Cumulative[1-o.Start]
	for j := 2; j <= min(last, 3); j++ {
		cut += c.At(2, j)
	}
	if math.Abs(y.Cost-cut) > 1e-9 || math.Abs(y.Oracle-oc) > 1e-9 {
		t.Errorf("You at the end: %v against %v, want %v against %v (the run asked, to batch 3; %v against %v to %d)", y.Cost, y.Oracle, cut, oc, cost, oracle, last)
	}
}

// oracleOf is the Oracle's strategy in results.
func oracleOf(results []algos.Result) algos.Strategy {
	for _, r := range results {
		if r.Algorithm == algos.NameOracle {
			return r.Strategy
		}
	}
	return algos.Strategy{}
}

// Guess rounds in a room: a second round over a batch answered asks everyone again and records
// the answers; the first g after → (the next question up) ends the round; the summary counts
// only the questions someone answered, and lists the student who never answered; the answers
// kept mark who followed a question and did not answer it. q in the room asks before leaving it.
func TestRoomRoundsAndSilence(t *testing.T) {
	t.Parallel()
	s := loadSmall(t)
	runs := live.NewRuns(live.RunsConfig{MaxComputing: 1, Cache: 2})
	t.Cleanup(runs.Close)
	rm := room.New()
	var recorded []room.Answer
	rm.Record = func(a room.Answer) { recorded = append(recorded, a) }
	mk := func(m *room.Member) *Player { return memberPlayer(t, s, runs, m) }
	pres, ana, bob, dan := mk(rm.JoinAs(true, "prof")), mk(rm.JoinAs(false, "ana")), mk(rm.JoinAs(false, "bob")), mk(rm.JoinAs(false, "dan"))
	sync := func() {
		ana, bob, dan, pres = deliver(t, ana), deliver(t, bob), deliver(t, dan), deliver(t, pres)
	}
	sync()
	asked := func(p *Player, want int) {
		t.Helper()
		if q, ok := p.ws.Asking(); !ok || q != want {
			t.Fatalf("%s: asking %d %v, want the question about %d", p.opt.Member.Name(), q, ok, want)
		}
	}
	// Round one over 7: ana and bob answer, dan does not.
	goTo(pres, 6)
	press(pres, "g")
	sync()
	asked(ana, 7)
	asked(dan, 7)
	press(ana, "r")
	press(bob, "k")
	pres = deliver(t, pres)
	press(pres, "r")
	press(pres, "g", "esc")
	// Round two over 7 again: everyone is asked again; bob answers, ana and dan do not.
	goTo(pres, 6)
	press(pres, "g")
	asked(pres, 7)
	sync()
	asked(ana, 7)
	asked(bob, 7)
	oracle := algos.OracleRetrains(algos.Costs{M: pres.s.Matrix, R: s.RetrainCost}, s.Offline, s.Batches-1)
	press(bob, map[bool]string{true: "r", false: "k"}[slices.Contains(oracle, 7)])
	pres = deliver(t, pres)
	press(pres, "r")
	// → asks about 8; nobody answers, and the first g ends the round.
	press(pres, "right")
	asked(pres, 8)
	sync()
	press(pres, "g")
	if _, ok := pres.ws.Asking(); ok || pres.ws.Guess().On() {
		t.Fatal("g with the round's question up did not end the round")
	}
	c := calloutOf(pres)
	if c == nil || c.Kind != workshop.SummaryCallout {
		t.Fatalf("the end of round two: callout %+v", c)
	}
	sum := draw.StripANSI(strings.Join(c.Head, "\n"))
	if !strings.Contains(sum, "The room over the guess round: 1 student, 1 question") || !strings.Contains(sum, " 1 bob 1 of 1 as the Oracle") ||
		!strings.Contains(sum, "No answer from ana, dan") || strings.Contains(sum, " ana ") {
		t.Errorf("round two's summary:\n%s", sum)
	}
	var lines []string
	for _, a := range recorded {
		switch {
		case a.None:
			lines = append(lines, fmt.Sprintf("%s@%d:-", a.Student, a.Batch))
		default:
			lines = append(lines, fmt.Sprintf("%s@%d:%v", a.Student, a.Batch, a.Retrain))
		}
	}
	if want := []string{"ana@7:true", "bob@7:false", "dan@7:-", fmt.Sprintf("bob@7:%v", slices.Contains(oracle, 7)), "ana@7:-", "dan@7:-", "ana@8:-", "bob@8:-", "dan@8:-"}; !slices.Equal(lines, want) {
		t.Errorf("the answers kept:\n%q\nwant\n%q", lines, want)
	}
	// q asks before a follower leaves the room: any key but y stays, y leaves, free.
	sync()
	press(dan, "q")
	if _, ok := dan.overlay.(*confirmOverlay); !ok || !strings.Contains(draw.StripANSI(dan.View()), "Leave the room?") {
		t.Fatalf("q in the room: overlay %T", dan.overlay)
	}
	press(dan, "n")
	if !dan.ws.Room().Following() || !strings.Contains(dan.notice, "still following") {
		t.Fatalf("n: following %v, notice %q", dan.ws.Room().Following(), dan.notice)
	}
	press(dan, "q")
	_, cmd := dan.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	if cmd == nil || dan.ws.Room().Following() {
		t.Fatalf("y: quit %v, following %v", cmd != nil, dan.ws.Room().Following())
	}
	if v := dan.opt.Member.View(); v.Following {
		t.Error("the room still counts dan as following")
	}
}

// gauss-d's quiz at 29: the Oracle retrains though C[25, 29] = 3.613 is far under R = 10, because
// M_25's cells climb in the batches after. A KEEP there is priced as the paper prices a strategy,
// over 29 up to the Oracle's next retrain (33): M_25's cells, against the Oracle's R at 29 and
// M_29's cells. Over that one batch alone the KEEP looked cheaper than the Oracle ("You 3.61 (the
// Oracle 10.00 there)"); priced until the paths meet it is dearer, in the reveal and in You.
func TestWrongKeepPaysForTheBatchesAfter(t *testing.T) {
	t.Parallel()
	s := loadEmbedded(t, "gauss-d")
	p := pumpedScenario(t, s, asciiStyles(), 120, 36)
	pumpCmd(t, p, p.apply(p.ws.ToggleTour(p.workshopFrame())))
	for n := 0; n < 6; n++ {
		if _, ok := p.ws.Asking(); ok {
			break
		}
		pressPumped(t, p, " ")
	}
	if q, ok := p.ws.Asking(); !ok || q != 29 {
		t.Fatalf("gauss-d's quiz: asking %d %v", q, ok)
	}
	c := algos.Costs{M: p.s.Matrix, R: s.RetrainCost}
	o := algos.Oracle(c, s.Offline, s.Batches-1)
	tp := o.Model[28-o.Start]
	next := -1
	for _, r := range o.Retrains {
		if r > 29 {
			next = r
			break
		}
	}
	if tp != 25 || !slices.Contains(o.Retrains, 29) || next != 33 {
		t.Fatalf("gauss-d's Oracle: M_%d in use at 28, retrains %v: the test wants M_25, a retrain at 29 and the next at 33", tp, o.Retrains)
	}
	keep := 0.0
	for j := 29; j < next; j++ {
		keep += c.At(25, j)
	}
	oracle := o.Cumulative[next-1-o.Start] - o.Cumulative[28-o.Start]
	if keep <= oracle || c.At(25, 29) >= c.R(29) {
		t.Fatalf("KEEP M_25 over 29..32 costs %v, the Oracle %v; C[25, 29] %v: the lesson does not hold on this run", keep, oracle, c.At(25, 29))
	}
	t.Logf("KEEP M_25 over 29..32: %.2f; the Oracle (R at 29, M_29 after): %.2f; C[25, 29] alone %.3f", keep, oracle, c.At(25, 29))
	pressPumped(t, p, "k")
	want := fmt.Sprintf("over 29..32 (until the Oracle decides again): KEEP M_25 costs %s, RETRAIN %s (R = 10 at 29); the Oracle pays %s",
		draw.Num(keep), draw.Num(oracle), draw.Num(oracle))
	if head := draw.StripANSI(strings.Join(calloutOf(p).Head, "\n")); !strings.Contains(strings.Join(strings.Fields(head), " "), want) {
		t.Errorf("the reveal lacks %q:\n%s", want, head)
	}
	// You at the last batch: the one KEEP, dearer than the Oracle over the same batches.
	pumpCmd(t, p, p.apply(effect.Effects{effect.GoTo(s.Batches - 1)}))
	y := p.ws.Guess().You(p.workshopFrame())
	if y == nil || y.Answers != 1 || y.Agreed != 0 || math.Abs(y.Cost-keep) > 1e-9 || math.Abs(y.Oracle-oracle) > 1e-9 || y.Cost <= y.Oracle {
		t.Errorf("You at the end: %+v, want the KEEP at %v against the Oracle's %v", y, keep, oracle)
	}
}
