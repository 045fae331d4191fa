package tui

import (
	"fmt"

	"github.com/charmbracelet/lipgloss"

	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/pane/matrix"
	"github.com/cara-sim/cara/tui/internal/run"
	"github.com/cara-sim/cara/tui/internal/screen"
	"github.com/cara-sim/cara/tui/internal/whatif"
	"github.com/cara-sim/cara/tui/internal/workshop"
)

// frame is what the panes draw: the what-if when one is shown, else the run itself.
func (p *Player) frame() *pane.Frame { return p.frameOfRun(p.s, p.s.WhatIf, p.rp) }

// frameOfRun is the frame of session s (the player's, or the one the command line changed away
// from: the split view's "before") under the what-if w (the run itself for nil) with its replay rp.
func (p *Player) frameOfRun(s *run.Session, w *live.WhatIf, rp run.Replay) *pane.Frame {
	m, scen := s.ViewOf(w)
	var stream sim.Stream = s.Stream
	if w != nil && w.Batches != nil {
		stream = p.wi.StreamOf(s.Stream, w)
	}
	f := &pane.Frame{St: p.st, Scen: scen, M: m, Stream: stream, Drifts: s.Stream.Drifts(),
		Pos: p.Pos, Computed: s.Computed, Done: s.Done, RP: rp, R: s.RetrainCostOf(w, p.Scale), RScale: p.Scale,
		Selected: p.selected(), Visible: p.visible(), Heat: p.colours.Of(p.s, p.opt.Scenario), Bounds: p.bounds,
		Features: run.FeatureNames(s.Stream), Zoomed: p.Zoomed, Cursor: p.Cursor, You: p.ws.Guess().You(p.workshopFrame()), Ask: -1}
	if t, ok := p.ws.Asking(); ok {
		f.Ask, f.AskModel = t, p.ws.Model(p.workshopFrame(), t)
	}
	return f
}

// footerLines: the status, the explanation and the help.
const footerLines = 3

// bodyHeight is what the panes get: the screen but the footer and, when open, the what-if bar.
func (p *Player) bodyHeight() int {
	if p.wi.Showing() {
		return p.h - footerLines - whatif.BarLines
	}
	return p.h - footerLines
}

// View implements tea.Model.
func (p *Player) View() string {
	if p.w < MinWidth || p.h < MinHeight {
		msg := fmt.Sprintf("cara needs a terminal of at least %dx%d; this one is %dx%d.\nEnlarge the terminal, or press q to quit.", MinWidth, MinHeight, p.w, p.h)
		return lipgloss.Place(p.w, p.h, lipgloss.Center, lipgloss.Center, msg)
	}
	if p.edit != nil {
		return p.edit.View(p.host(), p.st, p.w)
	}
	if p.Zoomed && p.Focus == pane.Matrix && !p.split.On() {
		// The maximised matrix reads out a cell: its cursor comes on with it, and stays.
		p.Cursor = matrix.CursorOn(p.frame())
	}
	f := p.frame()
	bodyH := p.bodyHeight()
	var body string
	c, q := p.ws.Callout(p.workshopFrame()), p.ws.Question(p.workshopFrame())
	if p.split.On() {
		// The split view's panes are not the layout's: a callout there avoids nothing.
		sides := whatif.Sides{Changed: p.cmd.Status(), WhatIf: p.wi.Describe(p.host(), p.wi.Current(), true), Waiting: p.wi.Status(p.host(), false)}
		body = p.split.View(p.host(), f, sides, p.w, bodyH)
		for _, c := range []*workshop.Callout{c, q} {
			if c != nil {
				box, x, y := p.panes.Callout(f, screen.Layout{}, c.About(), func(bw int) string { return c.View(p.st, bw, bodyH) }, p.w, bodyH)
				body = draw.PlaceOverlay(body, box, x, y)
			}
		}
	} else {
		// The question, else the callout, is placed first: about the batch, it may take a side of
		// the body (screen.Placed.Docked); the other goes over the panes left.
		pl, top := p.placed(f, c, q, bodyH)
		body = p.panes.Body(p.st, f, pl.Layout, p.Focus, pl.PanesW, pl.PanesH)
		if top != nil {
			body = pl.Compose(body, p.w, bodyH)
		}
		if c != nil && q != nil {
			box, x, y := p.panes.Callout(f, pl.Layout, c.About(), func(bw int) string { return c.View(p.st, bw, pl.PanesH) }, pl.PanesW, pl.PanesH)
			body = draw.PlaceOverlay(body, box, x, y)
		}
	}
	if p.wi.Showing() {
		body += "\n" + p.wi.View(p.host(), p.st, p.w)
	}
	if p.overlay != nil {
		box, x, y := p.overlay.View(p.st, p.w, bodyH)
		body = draw.PlaceOverlay(body, box, x, y)
	}
	line := ""
	if e := pane.Explain(f); e != "" {
		line = " " + e
	}
	if p.s.WhatIfErr != nil && !p.wi.Showing() {
		line = p.st.Error.Render(" what-if: " + p.s.WhatIfErr.Error())
	}
	if p.notice != "" {
		line = " " + p.st.Bold.Render(p.notice)
	}
	if p.err != nil {
		line = p.st.Error.Render(" " + p.err.Error())
	}
	if p.s.Err != nil {
		line = p.st.Error.Render(" engine: " + p.s.Err.Error())
	}
	if p.cmd.Typing() {
		return body + "\n" + p.status(f) + "\n" + p.cmd.View(p.st, p.w)
	}
	help := helpLine(p.st, p.contextKeys(f), p.w)
	return body + "\n" + p.status(f) + "\n" + draw.Truncate(line, p.w) + "\n" + help
}

// placed lays out the panes in a body bodyH tall with the question q (else the callout c, the one
// returned; nil when neither is up) placed on it: over the panes, or docked beside or under them
// when over them it would hide the batch it is about.
func (p *Player) placed(f *pane.Frame, c, q *workshop.Callout, bodyH int) (screen.Placed, *workshop.Callout) {
	top := q
	if top == nil {
		top = c
	}
	if top == nil {
		return screen.Placed{Layout: p.layout(f, p.w, bodyH), PanesW: p.w, PanesH: bodyH}, nil
	}
	return p.panes.Place(f, p.Focus, p.Zoomed, top.About(), func(bw, maxH int) string { return top.View(p.st, bw, maxH) }, p.w, bodyH), top
}

// layout decides what goes where. Wide terminals: the cost matrix on the left, as large as a
// square heat map allows, and on the right a stack whose panes take what their content needs (the
// results a row per algorithm, the decisions too) and share the rest; a pane that does not fit
// shrinks to its title bar, the focused one never does. Small terminals: a tab line and the
// focused pane, with the results under it when there is room.
func (p *Player) layout(f *pane.Frame, w, h int) screen.Layout {
	return p.panes.Layout(f, w, h, p.Focus, p.Zoomed)
}
