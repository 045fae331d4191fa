package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// statusPart is one part of the status line, in a long and a short form.
type statusPart struct {
	long, short string
	rank        int // dropped first when even the short line is too long: the highest
}

// status is the status line: every part in full when it fits, else shorter, else the least
// useful parts left out.
func (p *Player) status(f *pane.Frame) string {
	state, short := "paused", "paused"
	if p.Playing {
		state, short = "▶ playing", "playing"
	}
	comp := p.s.Status() // the queue's place, the columns computed, or all
	compShort := comp
	vis := visibleSets[p.Visible]
	n := len(p.visible())
	parts := []statusPart{
		{p.opt.Scenario.Name, p.opt.Scenario.Name, 0},
		{fmt.Sprintf("seed %d", p.s.Seed), fmt.Sprintf("seed %d", p.s.Seed), 3},
		{fmt.Sprintf("batch %d/%d %s", max(p.Pos, 0), p.s.Matrix.Batches()-1, f.Phase()), fmt.Sprintf("batch %d/%d", max(p.Pos, 0), p.s.Matrix.Batches()-1), 0},
		{f.RText(false), f.RText(true), 1},
		{fmt.Sprintf("%s, %g batches/s", state, speeds[p.Speed]), fmt.Sprintf("%s %g batches/s", short, speeds[p.Speed]), 3},
		{fmt.Sprintf("showing %s (%d)", vis.name, n), fmt.Sprintf("%s (%d)", vis.name, n), 4},
		{comp, compShort, 2},
	}
	if long, short := p.ws.Room().Status(); long != "" {
		parts = slices.Insert(parts, 1, statusPart{long, short, 0})
	}
	if c := p.cmd.Status(); c != "" {
		parts = append(parts, statusPart{c, c, 0})
	}
	if wi := p.wi.Status(p.host(), false); wi != "" {
		parts = append(parts, statusPart{wi, p.wi.Status(p.host(), true), 0})
	}
	line := func(parts []statusPart, short bool, drop int) string {
		var keep []string
		for _, s := range parts {
			switch {
			case s.rank > drop:
			case short:
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
			widest[i] = statusPart{fmt.Sprintf("batch %d/%d offline", T-1, T-1), fmt.Sprintf("batch %d/%d", T-1, T-1), s.rank}
		case strings.HasSuffix(s.short, "batches/s"):
			widest[i] = statusPart{"▶ playing, 50 batches/s", "playing 50 batches/s", s.rank}
		case s.long == comp:
			n := max(draw.Width(comp), draw.Width(fmt.Sprintf("computed %d/%d", T, T)))
			widest[i] = statusPart{strings.Repeat("x", n), strings.Repeat("x", n), s.rank}
		}
	}
	terse, drop := false, 5
	for draw.Width(line(widest, terse, drop)) > p.w {
		if !terse {
			terse = true
			continue
		}
		if drop == 0 {
			break
		}
		drop--
	}
	out := line(parts, terse, drop)
	return p.st.Status.Width(p.w).Render(draw.Truncate(out, p.w))
}
