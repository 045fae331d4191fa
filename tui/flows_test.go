package tui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/synth"
)

// The workshop's flows as a class sees them, screen by screen: a tour with a quiz, a guess round,
// a presenter with a follower, on the synthetic run (synthetic_test.go) at 120x36, without colours
// and in 256 colours. Each screen is the whole view after a key (or the room's message), so a
// change to what the tour, the guess round or the room shows, or to when, changes a golden
// (go test ./tui -run TestGoldenWorkshop -update rewrites testdata/TestGoldenWorkshop).

// playOut delivers the player's ticks while it plays, at once (the synthetic run has every
// column, so a tick never waits for the engine).
func playOut(t *testing.T, p *Player) {
	t.Helper()
	for n := 0; p.Playing; n++ {
		if n > synth.Batches {
			t.Fatal("still playing after every batch")
		}
		p.Update(tickMsg{p.tick})
	}
}

// screens collects a flow's screens under names, for golden files.
type screens struct {
	names []string
	views map[string]string
}

func (s *screens) add(name, view string) {
	if s.views == nil {
		s.views = map[string]string{}
	}
	if _, dup := s.views[name]; dup {
		panic("screen " + name + " twice")
	}
	s.names = append(s.names, name)
	s.views[name] = view
}

func (s *screens) check(t *testing.T, prefix string) {
	for i, name := range s.names {
		t.Run(fmt.Sprintf("%s/%d-%s", prefix, i+1, name), func(t *testing.T) {
			golden.RequireEqual(t, []byte(s.views[name]+"\n"))
		})
	}
}

func TestGoldenWorkshop(t *testing.T) {
	t.Parallel()
	for _, prof := range profiles {
		t.Run("tour/"+prof.name, func(t *testing.T) { tourFlow(t, prof.st()).check(t, "") })
		t.Run("guess/"+prof.name, func(t *testing.T) { guessFlow(t, prof.st()).check(t, "") })
		t.Run("room/"+prof.name, func(t *testing.T) { roomFlow(t, prof.st()).check(t, "") })
	}
}

// tourFlow: t plays to the first stop; space runs to the quiz, which asks before its batch; k
// answers and the stop shows the reveal; space plays through the stop that plays on to the stop
// with a what-if; space ends the tour.
func tourFlow(t *testing.T, st *draw.Styles) *screens {
	s := syntheticScenario(t)
	s.Tour = synth.Tour()
	p := syntheticPlayerOf(t, s, Options{Styles: st, Width: 120, Height: 36})
	var out screens
	for _, step := range []struct{ key, name string }{
		{"t", "first-stop"}, {" ", "quiz-asks"}, {"k", "quiz-reveal"}, {" ", "whatif-stop"}, {" ", "tour-over"},
	} {
		press(p, step.key)
		playOut(t, p)
		out.add(step.name, p.View())
	}
	return &out
}

// guessFlow: g at batch 17 asks about 18; r answers and reveals; → asks about 19; r reveals with
// the score; g ends the round, and the results (5) show the row "You".
func guessFlow(t *testing.T, st *draw.Styles) *screens {
	p := syntheticPlayer(t, st, 120, 36)
	goTo(p, 17)
	var out screens
	for _, step := range []struct{ key, name string }{
		{"g", "asks-18"}, {"r", "reveal-18"}, {"right", "asks-19"}, {"r", "reveal-19"}, {"g", "round-over"}, {"5", "you-row"},
	} {
		press(p, step.key)
		out.add(step.name, p.View())
	}
	return &out
}

// roomFlow: a presenter and a follower (ana) in one room on the synthetic run. The presenter at
// 20 starts a guess round; the follower is asked too and answers KEEP; the presenter sees the
// room's answer, answers RETRAIN and reveals who answered as the Oracle; the follower sees the
// reveal, then goes free; the presenter ends the round and sees the room's summary.
func roomFlow(t *testing.T, st *draw.Styles) *screens {
	s := syntheticScenario(t)
	rm := room.New()
	mp, mf := rm.JoinAs(true, "prof"), rm.JoinAs(false, "ana")
	pres := syntheticPlayerOf(t, s, Options{Styles: st, Width: 120, Height: 36, Member: mp})
	fol := syntheticPlayerOf(t, s, Options{Styles: st, Width: 120, Height: 36, Member: mf})
	// deliver hands a player its member's view of the room, as the relay does.
	deliver := func(p *Player, m *room.Member) {
		if np, _ := p.Update(roomMsg{m.View()}); np != p {
			t.Fatalf("the room opened another player: %T", np)
		}
	}
	deliver(fol, mf)
	deliver(pres, mp)
	var out screens
	goTo(pres, 20)
	press(pres, "g")
	deliver(fol, mf)
	out.add("follower-asked", fol.View())
	press(fol, "k")
	out.add("follower-waits", fol.View())
	deliver(pres, mp)
	out.add("presenter-sees-the-room", pres.View())
	press(pres, "r")
	out.add("presenter-reveal", pres.View())
	deliver(fol, mf)
	out.add("follower-reveal", fol.View())
	press(fol, "p")
	out.add("follower-free", fol.View())
	press(pres, "g")
	out.add("presenter-summary", pres.View())
	return &out
}
