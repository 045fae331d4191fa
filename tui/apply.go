package tui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// whatifUndo is the what-if in force before a tour's stop applied its own, to put back when the
// tour moves on.
type whatifUndo struct{ state whatIfState }

// tourWhatIf applies a tour stop's what-if (--set overrides) through the bar's one what-if path,
// apply, and returns how to undo it, a line for the callout, and the command that computes it.
func (b *whatIfBar) tourWhatIf(h whatIfHost, sets []string) (*whatifUndo, string, tea.Cmd) {
	undo := &whatifUndo{state: b.state}
	cmd := b.apply(h, sets, "")
	note := "What-if: " + strings.Join(sets, ", ") + ", recomputed from the run without training again."
	if !h.session().Done {
		note = "What-if: " + strings.Join(sets, ", ") + ", shown once the run is computed."
	}
	return undo, note, cmd
}

// undoWhatif puts back the what-if that was in force before tourWhatIf.
func (b *whatIfBar) undoWhatif(h whatIfHost, u *whatifUndo) tea.Cmd { return b.set(h, u.state) }

// shownSets are the what-if the panes show of run s, as --set overrides, one a line ("" for the
// scenario).
func shownSets(s *Session) string {
	if w := s.WhatIf; w != nil {
		return strings.Join(w.Sets, "\n")
	}
	return ""
}
