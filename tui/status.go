package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// statusPart is one part of the status line, in a long and a short form, and a tiny one for when
// parts are being dropped (a what-if's description: the bar and the help name it in full).
type statusPart struct {
	long, short, tiny string
	rank              int // dropped first when even the short line is too long: the highest
}

// status is the status line: every part in full when it fits, else shorter, else the least
// useful parts left out.
func (p *Player) status(f *pane.Frame) string {
	state, short := "paused", "paused"
	if p.Playing {
		state, short = "▶ playing", "playing"
	}
	comp := p.s.Status() // the queue's place, the columns computed, or all
	if p.ahead > 0 && p.ahead > p.Pos {
		comp += fmt.Sprintf(", to batch %d", p.ahead) // End, or a new run, on its way back to the batch
	}
	compShort := comp
	vis := visibleSets[p.Visible]
	n := len(p.visible())
	// The seed and R are what a room compares ("which run are you on?"): they stay while the play
	// state, the algorithms shown and the engine's progress go.
	parts := []statusPart{
		{p.opt.Scenario.Name, p.opt.Scenario.Name, "", 0},
		{fmt.Sprintf("seed %d", p.s.Seed), fmt.Sprintf("seed %d", p.s.Seed), "", 1},
		{fmt.Sprintf("batch %d/%d %s", max(p.Pos, 0), p.s.Matrix.Batches()-1, f.Phase()), fmt.Sprintf("batch %d/%d", max(p.Pos, 0), p.s.Matrix.Batches()-1), "", 0},
		{p.rText(f, false), p.rText(f, true), "R " + draw.Num(f.RNow()), 1},
		{fmt.Sprintf("%s, %g batches/s", state, speeds[p.Speed]), fmt.Sprintf("%s %g batches/s", short, speeds[p.Speed]), "", 3},
		{fmt.Sprintf("showing %s (%d)", vis.name, n), fmt.Sprintf("%s (%d)", vis.name, n), "", 4},
		{comp, compShort, "", 2},
	}
	if long, short := p.ws.Room().Status(); long != "" {
		tiny, _, _ := strings.Cut(short, " · ") // a presenter's "3 follow", without the free
		parts = slices.Insert(parts, 1, statusPart{long, short, tiny, 0})
	}
	if c := p.cmd.Status(); c != "" {
		parts = append(parts, statusPart{c, c, "run changed", 0})
	}
	if wi := p.wi.Status(p.host(), false); wi != "" {
		tiny := "what-if"
		if strings.Contains(wi, "computing") {
			tiny = "what-if…"
		}
		parts = append(parts, statusPart{wi, p.wi.Status(p.host(), true), tiny, 0})
	}
	// The forms, widest first: every part long; short; the algorithms shown, then the play state
	// left out; the tiny forms; the engine's progress, then R and the seed left out.
	type form struct {
		short, tiny bool
		drop        int // parts of a higher rank are left out
	}
	forms := []form{{false, false, 4}, {true, false, 4}, {true, false, 3}, {true, false, 2}, {true, true, 2}, {true, true, 1}, {true, true, 0}}
	line := func(parts []statusPart, f form) string {
		var keep []string
		for _, s := range parts {
			switch {
			case s.rank > f.drop:
			case f.tiny && s.tiny != "":
				keep = append(keep, s.tiny)
			case f.short:
				keep = append(keep, s.short)
			default:
				keep = append(keep, s.long)
			}
		}
		return " " + strings.Join(keep, " · ") + " "
	}
	// The form is chosen for the widest the parts get in this run (the last batch, "offline",
	// every column computed, playing at the top speed), so that it does not flip between two
	// wordings as the player steps, plays or pauses.
	widest := slices.Clone(parts)
	T := p.s.Matrix.Batches()
	for i, s := range widest {
		switch {
		case strings.HasPrefix(s.short, "batch "):
			widest[i] = statusPart{fmt.Sprintf("batch %d/%d offline", T-1, T-1), fmt.Sprintf("batch %d/%d", T-1, T-1), "", s.rank}
		case strings.HasSuffix(s.short, "batches/s"):
			widest[i] = statusPart{"▶ playing, 50 batches/s", "playing 50 batches/s", "", s.rank}
		case s.long == comp:
			n := max(draw.Width(comp), draw.Width(fmt.Sprintf("computed %d/%d", T, T)))
			widest[i] = statusPart{strings.Repeat("x", n), strings.Repeat("x", n), "", s.rank}
		}
	}
	k := 0
	for k < len(forms)-1 && draw.Width(line(widest, forms[k])) > p.w {
		k++
	}
	out := line(parts, forms[k])
	return p.st.Status.Width(p.w).Render(draw.Truncate(out, p.w))
}

// rText is R on the status line: the frame's words (pane.Frame.RText), unless a what-if sets R,
// when "the scenario's" would be the what-if's: then R is said as the what-if's, beside the
// scenario's own.
func (p *Player) rText(f *pane.Frame, short bool) string {
	own := p.opt.Scenario.RetrainCostText
	if f.Scen == nil || f.Scen.RetrainCostText == own {
		return f.RText(short)
	}
	now := draw.Num(f.RNow())
	switch same := math.Abs(f.RScale-1) < 1e-12; {
	case short && same:
		return "R " + now + " (what-if)"
	case short:
		return fmt.Sprintf("R %s x%.3g (what-if)", now, f.RScale)
	case same:
		return fmt.Sprintf("R %s (the what-if's; the scenario's %s)", now, own)
	}
	return fmt.Sprintf("R %s (x%.3g of the what-if's %s; the scenario's %s)", now, f.RScale, f.Scen.RetrainCostText, own)
}
