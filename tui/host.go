package tui

import (
	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/run"
)

// host is the player as its what-if parts (the bar, the command line, the editor, the split view)
// read it: its runs, its scenario, what its panes draw, and the checks a served player makes. It
// changes nothing: the parts ask for changes by the effects they return (Player.apply).
type host struct{ p *Player }

func (p *Player) host() host { return host{p} }

func (h host) Session() *run.Session         { return h.p.s }
func (h host) Before() *run.Session          { return h.p.before }
func (h host) Scenario() *scenarios.Scenario { return h.p.opt.Scenario }
func (h host) Frame() *pane.Frame            { return h.p.frame() }
func (h host) Pair() [2]int                  { return h.p.panes.Batch.Pair() }

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
