package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"

	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane/chart"
	"github.com/cara-sim/cara/tui/internal/whatif"
	"github.com/cara-sim/cara/tui/internal/workshop"
)

// TestKeysByMode: in each mode a key matches the binding of that mode and no other, and the help
// lists only what works there.
func TestKeysByMode(t *testing.T) {
	// Every component's key map: the player's, the workshop's, a pane's, the what-if bar's.
	ws := workshop.New(nil)
	k, w, c, b := newPlayerKeys(), ws.Keys(), chart.NewKeyMap(), whatif.NewBarKeys()
	name := map[*key.Binding]string{&k.Play: "Play", &w.Tour.TourNext: "TourNext", &w.Tour.Tour: "Tour", &w.Tour.LeaveTour: "LeaveTour",
		&w.Guess.Guess: "Guess", &b.GammaDown: "WIGammaDown", &w.Guess.AnswerRetrain: "AnswerRetrain", &w.Guess.AnswerKeep: "AnswerKeep",
		&w.Guess.NotNow: "NotNow", &k.Escape: "Escape", &w.Room.Follow: "Follow", &w.Room.GoFree: "GoFree", &k.Step: "Step",
		&k.RUp: "RUp", &k.Restart: "Restart", &k.Quit: "Quit", &k.ForceQuit: "ForceQuit", &c.Gap: "Gap", &k.Help: "Help"}
	for _, tc := range []struct {
		mode keys.Mode
		key  string
		want []string // the enabled bindings the key matches
	}{
		{keys.Mode{}, " ", []string{"Play"}},
		{keys.Mode{}, "r", nil}, // r answers a question, never restarts a run
		{keys.Mode{}, "N", []string{"Restart"}},
		{keys.Mode{}, "t", []string{"Tour"}},
		{keys.Mode{}, "g", []string{"Guess"}},
		{keys.Mode{}, "p", []string{"Follow"}},
		{keys.Mode{Tour: true}, " ", []string{"TourNext"}},
		{keys.Mode{Tour: true}, "t", []string{"LeaveTour"}},
		{keys.Mode{Bar: true}, "g", []string{"WIGammaDown"}},
		{keys.Mode{Following: true}, " ", nil},
		{keys.Mode{Following: true}, "l", nil},
		{keys.Mode{Following: true}, "]", nil},
		{keys.Mode{Following: true}, "N", nil},
		{keys.Mode{Following: true}, "p", []string{"GoFree"}},
		{keys.Mode{Following: true}, "o", []string{"Gap"}}, // what a follower only looks at stays theirs
		{keys.Mode{Question: true}, "r", []string{"AnswerRetrain"}},
		{keys.Mode{Question: true}, "k", []string{"AnswerKeep"}},
		{keys.Mode{Question: true}, "esc", []string{"NotNow"}},
		{keys.Mode{Question: true}, "q", []string{"NotNow"}},
		{keys.Mode{Question: true}, "l", nil},
		{keys.Mode{Question: true}, "ctrl+c", []string{"ForceQuit"}},
		{keys.Mode{Question: true, Following: true}, "p", []string{"GoFree"}},
		{keys.Mode{Split: true}, "o", nil}, // no pane to act in
		{keys.Mode{Split: true}, " ", []string{"Play"}},
	} {
		k.enable(tc.mode)
		w.Enable(tc.mode)
		c.Enable(tc.mode)
		b.Enable(tc.mode)
		var got []string
		for b, n := range name {
			if b.Enabled() && slices.Contains(b.Keys(), tc.key) {
				got = append(got, n)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%+v: %q matches %v, want %v", tc.mode, tc.key, got, tc.want)
		}
	}
}

// TestHelpFollowsTheMode: the help line of a question names its answers and no key that does
// nothing then; a follower's names no key the presenter drives.
func TestHelpFollowsTheMode(t *testing.T) {
	free := pumped(t, asciiStyles(), 120, 36)
	asked := pumped(t, asciiStyles(), 120, 36)
	goTo(asked, asked.opt.Scenario.Offline)
	press(asked, "g", "l")
	_, fol, _ := roomPlayers(t, loadSmall(t))
	fol = deliver(t, fol)
	for _, tc := range []struct {
		name      string
		p         *Player
		has, hasn []string
	}{
		{"free", free, []string{"play/pause", "? help", "q quit"}, []string{"answer RETRAIN", "go free"}},
		{"question", asked, []string{"answer RETRAIN", "answer KEEP", "not now"}, []string{"play/pause", "step", "q quit"}},
		{"following", fol, []string{"go free", "next algorithm"}, []string{"play/pause", "raise R", "step"}},
	} {
		line := draw.StripANSI(helpLine(tc.p.st, tc.p.contextKeys(tc.p.frame()), 200))
		for _, s := range tc.has {
			if !strings.Contains(line, s) {
				t.Errorf("%s: help line %q lacks %q", tc.name, line, s)
			}
		}
		for _, s := range tc.hasn {
			if strings.Contains(line, s) {
				t.Errorf("%s: help line %q has %q", tc.name, line, s)
			}
		}
	}
}
