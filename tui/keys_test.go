package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// TestKeysByMode: in each mode a key matches the binding of that mode and no other, and the help
// lists only what works there.
func TestKeysByMode(t *testing.T) {
	// Every component's key map: the player's, the workshop's, a pane's, the what-if bar's.
	k, w, c, b := newPlayerKeys(), newWorkshopKeys(), &chartPane{keys: newChartKeys()}, newBarKeys()
	name := map[*key.Binding]string{&k.Play: "Play", &w.TourNext: "TourNext", &w.Tour: "Tour", &w.LeaveTour: "LeaveTour",
		&w.Guess: "Guess", &b.GammaDown: "WIGammaDown", &w.AnswerRetrain: "AnswerRetrain", &w.AnswerKeep: "AnswerKeep",
		&w.NotNow: "NotNow", &k.Escape: "Escape", &w.Follow: "Follow", &w.GoFree: "GoFree", &k.Step: "Step",
		&k.RUp: "RUp", &k.Restart: "Restart", &k.Quit: "Quit", &k.ForceQuit: "ForceQuit", &c.keys.Gap: "Gap", &k.Help: "Help"}
	for _, tc := range []struct {
		mode mode
		key  string
		want []string // the enabled bindings the key matches
	}{
		{mode{}, " ", []string{"Play"}},
		{mode{}, "r", nil}, // r answers a question, never restarts a run
		{mode{}, "N", []string{"Restart"}},
		{mode{}, "t", []string{"Tour"}},
		{mode{}, "g", []string{"Guess"}},
		{mode{}, "p", []string{"Follow"}},
		{mode{tour: true}, " ", []string{"TourNext"}},
		{mode{tour: true}, "t", []string{"LeaveTour"}},
		{mode{bar: true}, "g", []string{"WIGammaDown"}},
		{mode{following: true}, " ", nil},
		{mode{following: true}, "l", nil},
		{mode{following: true}, "]", nil},
		{mode{following: true}, "N", nil},
		{mode{following: true}, "p", []string{"GoFree"}},
		{mode{following: true}, "o", []string{"Gap"}}, // what a follower only looks at stays theirs
		{mode{question: true}, "r", []string{"AnswerRetrain"}},
		{mode{question: true}, "k", []string{"AnswerKeep"}},
		{mode{question: true}, "esc", []string{"NotNow"}},
		{mode{question: true}, "q", []string{"NotNow"}},
		{mode{question: true}, "l", nil},
		{mode{question: true}, "ctrl+c", []string{"ForceQuit"}},
		{mode{question: true, following: true}, "p", []string{"GoFree"}},
		{mode{split: true}, "o", nil}, // no pane to act in
		{mode{split: true}, " ", []string{"Play"}},
	} {
		k.enable(tc.mode)
		w.enable(tc.mode)
		c.Enable(tc.mode)
		b.enable(tc.mode)
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
	p := pumped(t, asciiStyles(), 120, 36)
	st := p.st
	for _, tc := range []struct {
		name      string
		set       func()
		has, hasn []string
	}{
		{"free", func() {}, []string{"play/pause", "? help", "q quit"}, []string{"answer RETRAIN", "go free"}},
		{"question", func() { p.ws.asked = 5 }, []string{"answer RETRAIN", "answer KEEP", "not now"},
			[]string{"play/pause", "step", "q quit"}},
		{"following", func() { p.ws.asked = -1; p.ws.room.following = true }, []string{"go free", "next algorithm"},
			[]string{"play/pause", "raise R", "step"}},
	} {
		tc.set()
		line := stripANSI(helpLine(st, p.contextKeys(p.frame()), 200))
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
