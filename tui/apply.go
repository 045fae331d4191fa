package tui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// whatifUndo is the what-if in force before a tour's stop applied its own, to put back when the
// tour moves on.
type whatifUndo struct{ state whatIfState }

// tourWhatIf applies a tour stop's what-if (--set overrides) through the player's one what-if path,
// ApplyWhatIf, and returns how to undo it, a line for the callout, and the command that computes it.
func (p *Player) tourWhatIf(sets []string) (*whatifUndo, string, tea.Cmd) {
	undo := &whatifUndo{state: p.wi.state}
	cmd := p.ApplyWhatIf(sets)
	note := "What-if: " + strings.Join(sets, ", ") + ", recomputed from the run without training again."
	if !p.s.Done {
		note = "What-if: " + strings.Join(sets, ", ") + ", shown once the run is computed."
	}
	return undo, note, cmd
}

// undoWhatif puts back the what-if that was in force before tourWhatIf.
func (p *Player) undoWhatif(u *whatifUndo) tea.Cmd { return p.setWhatIf(u.state) }

// shownSets are the what-if the panes show, as --set overrides, one a line ("" for the scenario).
func (p *Player) shownSets() string {
	if w := p.s.WhatIf; w != nil {
		return strings.Join(w.Sets, "\n")
	}
	return ""
}
