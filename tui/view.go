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
	var l screen.Layout // the split view's panes are not the layout's: a callout there avoids nothing
	if p.split.On() {
		sides := whatif.Sides{Changed: p.cmd.Status(), WhatIf: p.wi.Describe(p.host(), p.wi.Current(), true), Waiting: p.wi.Status(p.host(), false)}
		body = p.split.View(p.host(), f, sides, p.w, bodyH)
	} else {
		l = p.layout(f, p.w, bodyH)
		body = p.panes.Body(p.st, f, l, p.Focus, p.w, bodyH)
	}
	if c := p.ws.Callout(p.workshopFrame()); c != nil {
		box, x, y := p.panes.Callout(f, l, c.About(), func(bw int) string { return c.View(p.st, bw, bodyH) }, p.w, bodyH)
		body = draw.PlaceOverlay(body, box, x, y)
	}
	if p.wi.Showing() {
		body += "\n" + p.wi.View(p.host(), p.st, p.w)
	}
	if q := p.ws.Question(p.workshopFrame()); q != nil {
		// Drawn as the overlays are, over the panes of a frame of its own.
		qf := p.frame()
		box, x, y := p.panes.Callout(qf, p.layout(qf, p.w, bodyH), q.About(), func(bw int) string { return q.View(p.st, bw, bodyH) }, p.w, bodyH)
		body = draw.PlaceOverlay(body, box, x, y)
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

// layout decides what goes where. Wide terminals: the cost matrix on the left, as large as a
// square heat map allows, and on the right a stack whose panes take what their content needs (the
// results a row per algorithm, the decisions too) and share the rest; a pane that does not fit
// shrinks to its title bar, the focused one never does. Small terminals: a tab line and the
// focused pane, with the results under it when there is room.
func (p *Player) layout(f *pane.Frame, w, h int) screen.Layout {
	return p.panes.Layout(f, w, h, p.Focus, p.Zoomed)
}
