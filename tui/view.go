package tui

import (
	"fmt"

	"github.com/charmbracelet/lipgloss"

	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/sim"
)

// frame is what the panes draw: the what-if when one is shown, else the run itself.
func (p *Player) frame() *frame { return p.frameOfRun(p.s, p.s.WhatIf, p.rp) }

// frameOfRun is the frame of session s (the player's, or the one the command line changed away
// from: the split view's "before") under the what-if w (the run itself for nil) with its replay rp.
func (p *Player) frameOfRun(s *Session, w *live.WhatIf, rp replay) *frame {
	m, scen := s.view(w)
	var stream sim.Stream = s.Stream
	if w != nil && w.Batches != nil {
		stream = p.wi.streamOf(s.Stream, w)
	}
	f := &frame{st: p.st, scen: scen, m: m, stream: stream, drifts: s.Stream.Drifts(),
		pos: p.Pos, computed: s.Computed, done: s.Done, rp: rp, r: s.retrainCostOf(w, p.Scale), rScale: p.Scale,
		selected: p.selected(), visible: p.visible(), heat: p.colours.of(p.s, p.opt.Scenario), bounds: p.bounds,
		features: featureNames(s.Stream), zoomed: p.Zoomed, cursor: p.Cursor, you: p.ws.You(p.workshopFrame()), ask: -1}
	if t, ok := p.ws.Asking(); ok {
		f.ask, f.askModel = t, p.ws.YourModel(t, p.opt.Scenario.Offline)
	}
	return f
}

// footerLines: the status, the explanation and the help.
const footerLines = 3

// bodyHeight is what the panes get: the screen but the footer and, when open, the what-if bar.
func (p *Player) bodyHeight() int {
	if p.wi.showing() {
		return p.h - footerLines - barLines
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
		return p.edit.view(p.host(), p.st, p.w)
	}
	if p.Zoomed && p.Focus == paneMatrix && !p.split.isOn() {
		// The maximised matrix reads out a cell: its cursor comes on with it, and stays.
		p.Cursor = cursorOn(p.frame())
	}
	f := p.frame()
	bodyH := p.bodyHeight()
	var body string
	var l screenLayout // the split view's panes are not the layout's: a callout there avoids nothing
	if p.split.isOn() {
		body = p.split.view(p.host(), &p.wi, &p.cmd, f, p.w, bodyH)
	} else {
		l = p.layout(f, p.w, bodyH)
		body = p.panes.body(p.st, f, l, p.Focus, p.w, bodyH)
	}
	if c := p.ws.Callout(p.workshopFrame()); c != nil {
		box, x, y := p.panes.callout(f, l, c.about(), func(bw int) string { return c.view(p.st, bw, bodyH) }, p.w, bodyH)
		body = placeOverlay(body, box, x, y)
	}
	if p.wi.showing() {
		body += "\n" + p.wi.view(p.host(), p.st, p.w)
	}
	if q := p.ws.Question(p.workshopFrame()); q != nil {
		// Drawn as the overlays are, over the panes of a frame of its own.
		qf := p.frame()
		box, x, y := p.panes.callout(qf, p.layout(qf, p.w, bodyH), q.about(), func(bw int) string { return q.view(p.st, bw, bodyH) }, p.w, bodyH)
		body = placeOverlay(body, box, x, y)
	}
	if p.overlay != nil {
		box, x, y := p.overlay.View(p.st, p.w, bodyH)
		body = placeOverlay(body, box, x, y)
	}
	line := ""
	if e := explain(f); e != "" {
		line = " " + e
	}
	if p.s.WhatIfErr != nil && !p.wi.showing() {
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
	if p.cmd.typing() {
		return body + "\n" + p.status(f) + "\n" + p.cmd.view(p.st, p.w)
	}
	help := helpLine(p.st, p.contextKeys(f), p.w)
	return body + "\n" + p.status(f) + "\n" + truncate(line, p.w) + "\n" + help
}

// layout decides what goes where. Wide terminals: the cost matrix on the left, as large as a
// square heat map allows, and on the right a stack whose panes take what their content needs (the
// results a row per algorithm, the decisions too) and share the rest; a pane that does not fit
// shrinks to its title bar, the focused one never does. Small terminals: a tab line and the
// focused pane, with the results under it when there is room.
func (p *Player) layout(f *frame, w, h int) screenLayout {
	return p.panes.layout(f, w, h, p.Focus, p.Zoomed)
}
