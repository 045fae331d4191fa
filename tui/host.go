package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/scenarios"
)

// host is the player as its what-if parts (the bar, the command line, the editor, the split view)
// see it: what they read of it, and the few things they ask it to do.
type host struct{ p *Player }

func (p *Player) host() host { return host{p} }

func (h host) session() *Session             { return h.p.s }
func (h host) scenario() *scenarios.Scenario { return h.p.opt.Scenario }
func (h host) frame() *frame                 { return h.p.frame() }
func (h host) pair() [2]int                  { return h.p.panes.batch.Pair() }
func (h host) refresh()                      { h.p.refresh() }
func (h host) say(notice string)             { h.p.notice = notice }
func (h host) fail(err error)                { h.p.err = err }

// whatIfShown redraws with the what-if shown (or the scenario): the algorithms are replayed on it
// (the heat map's scale follows the what-if shown: colours.go).
func (h host) whatIfShown() { h.p.refresh() }

func (h host) frameOfRun(s *Session, w *live.WhatIf, rp replay) *frame {
	return h.p.frameOfRun(s, w, rp)
}

// trusted is s as the player may change it: confined to the embedded data and the offered folder
// when the player is served.
func (h host) trusted(s *scenarios.Scenario) *scenarios.Scenario {
	if o := h.p.opt; o.Untrusted {
		return s.Confined(o.FilesDir)
	}
	return s
}

func (h host) check(s *scenarios.Scenario) error {
	if check := h.p.opt.Check; check != nil {
		return check(s)
	}
	return nil
}

// rerun runs s, the scenario the player opens from now on, on the seed shown.
func (h host) rerun(s *scenarios.Scenario) tea.Cmd {
	h.p.opt.Scenario = s
	return h.p.reopen(h.p.s.Seed)
}
