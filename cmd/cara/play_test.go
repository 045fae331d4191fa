package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// How a player's end reaches the exit status: a panic bubbletea caught is a bug (1, never 0), an
// interruption 130, a kill after a clean end 0, anything else 1 with its words.
func TestTeaErr(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"clean", nil, 0},
		{"panic", fmt.Errorf("%w: %w", tea.ErrProgramKilled, tea.ErrProgramPanic), 1},
		{"interrupted", fmt.Errorf("%w: %w", tea.ErrProgramKilled, context.Canceled), 130},
		{"killed", tea.ErrProgramKilled, 0},
		{"other", errors.New("cannot open the terminal"), 1},
	} {
		var stderr bytes.Buffer
		got := exitOf(teaErr(tc.err), &stderr)
		if got != tc.want {
			t.Errorf("%s: exit %d, want %d (%s)", tc.name, got, tc.want, stderr.String())
		}
	}
}
