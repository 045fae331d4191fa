package keys

import (
	"slices"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// The modes say which keys work: a question takes every key but its own (nothing is free), a
// follower leaves what the presenter drives alone, the split view has no pane to act in.
func TestModes(t *testing.T) {
	for _, tc := range []struct {
		name               string
		m                  Mode
		free, drives, pane bool
	}{
		{"free", Mode{}, true, true, true},
		{"a tour", Mode{Tour: true}, true, true, true},
		{"the bar open", Mode{Bar: true}, true, true, true},
		{"a question", Mode{Question: true}, false, false, false},
		{"following", Mode{Following: true}, true, false, true},
		{"a follower asked", Mode{Following: true, Question: true}, false, false, false},
		{"the split view", Mode{Split: true}, true, true, false},
	} {
		if f, d, p := tc.m.Free(), tc.m.Drives(), tc.m.Panes(); f != tc.free || d != tc.drives || p != tc.pane {
			t.Errorf("%s: free %v, drives %v, panes %v; want %v, %v, %v", tc.name, f, d, p, tc.free, tc.drives, tc.pane)
		}
	}
}

// A disabled binding matches no key and leaves the help; Pressed still tells its keys (what a
// follower pressed of the presenter's), and nothing else.
func TestEnableAndPressed(t *testing.T) {
	step, back := Bind([]string{"right", "l"}, "→/l", "step"), Bind([]string{"left", "h"}, "←/h", "back")
	Enable(false, &step, &back)
	if step.Enabled() || key.Matches(Msg("l"), step) {
		t.Error("a disabled binding matches l")
	}
	for _, k := range []string{"l", "right", "h"} {
		if !Pressed(Msg(k), &step, &back) {
			t.Errorf("%s not pressed of step and back", k)
		}
	}
	if Pressed(Msg("x"), &step, &back) || step.Enabled() {
		t.Error("x pressed of step and back, or Pressed enabled them")
	}
	Enable(true, &step)
	if !key.Matches(Msg("right"), step) || step.Help().Key != "→/l" || !slices.Equal(step.Keys(), []string{"right", "l"}) {
		t.Errorf("enabled step: matches right %v, help %q, keys %v", key.Matches(Msg("right"), step), step.Help().Key, step.Keys())
	}
}

// Msg is the message bubbletea delivers for each key as a binding names it.
func TestMsg(t *testing.T) {
	for _, k := range []string{"up", "down", "left", "right", "home", "end", "pgup", "pgdown", "enter", "esc", "tab",
		"shift+tab", "backspace", "ctrl+c", "ctrl+s", " ", "l", "N", "]"} {
		if got := Msg(k).String(); got != k {
			t.Errorf("Msg(%q) is %q", k, got)
		}
	}
	if got := Msg("space").String(); got != " " {
		t.Errorf(`Msg("space") is %q`, got)
	}
}
