package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/run"
)

// host is the player as its what-if parts (the bar, the command line, the editor, the split view)
// see it: what they read of it, and the few things they ask it to do.
type host struct{ p *Player }

func (p *Player) host() host { return host{p} }

func (h host) Session() *run.Session         { return h.p.s }
func (h host) Scenario() *scenarios.Scenario { return h.p.opt.Scenario }
func (h host) Frame() *pane.Frame            { return h.p.frame() }
func (h host) Pair() [2]int                  { return h.p.panes.Batch.Pair() }
func (h host) Refresh()                      { h.p.refresh() }
func (h host) Say(notice string)             { h.p.notice = notice }
func (h host) Fail(err error)                { h.p.err = err }

// WhatIfShown redraws with the what-if shown (or the scenario): the algorithms are replayed on it
// (the heat map's scale follows the what-if shown: matrix.Colours).
func (h host) WhatIfShown() { h.p.refresh() }

func (h host) FrameOfRun(s *run.Session, w *live.WhatIf, rp run.Replay) *pane.Frame {
	return h.p.frameOfRun(s, w, rp)
}

// Trusted is s as the player may change it: confined to the embedded data and the offered folder
// when the player is served.
func (h host) Trusted(s *scenarios.Scenario) *scenarios.Scenario {
	if o := h.p.opt; o.Untrusted {
		return s.Confined(o.FilesDir)
	}
	return s
}

func (h host) Check(s *scenarios.Scenario) error {
	if check := h.p.opt.Check; check != nil {
		return check(s)
	}
	return nil
}

func (h host) Reparse(from *scenarios.Scenario, text []byte) (*scenarios.Scenario, error) {
	if reparse := h.p.opt.Reparse; reparse != nil {
		return reparse(from, text)
	}
	return from.Reparse(text)
}

// Rerun runs s, the scenario the player opens from now on, on the seed shown, and goes back to
// the batch shown once the new run has computed it (the status line counts the way there).
func (h host) Rerun(s *scenarios.Scenario) tea.Cmd {
	pos := h.p.Pos
	h.p.opt.Scenario = s
	cmd := h.p.reopen(h.p.s.Seed)
	h.p.ahead = min(max(pos, 0), s.Batches-1)
	return cmd
}
