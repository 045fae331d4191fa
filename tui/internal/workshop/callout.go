package workshop

import (
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/cara-sim/cara/internal/palette"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// Callout is a box over the panes that leaves the keys to the player: a tour's stop, a guess's
// reveal, a presenter's question as followers see it answered. It is placed where it covers
// least of what it points at (the focused pane, the matrix cell under the cursor).
type Callout struct {
	Kind  CalloutKind
	Title string   // in the top border ("tour 3/8")
	Head  []string // styled lines above the text (a guess's reveal)
	Text  string   // plain text, wrapped to the box
	Foot  string   // the keys that go on, dimmed, on the last line
	Pane  int      // the pane the callout is about (not to be covered); -1 for none
	// Batch: the callout answers a question about a batch (a quiz stop), whose pane is not to be
	// covered either: every algorithm saw that batch before deciding.
	Batch bool
	Stop  int // the tour's stop it shows (StopCallout)
	// fill, when set, writes text afresh at each draw: a tour stop's templates are filled from
	// the run as it stands (a what-if arriving, the matrix coming in, R changed).
	fill func(Frame) string
}

// CalloutKind says what put a callout up, so each thing clears only its own.
type CalloutKind int

const (
	StopCallout    CalloutKind = iota // a tour's stop
	RevealCallout                     // a guess's reveal
	WaitCallout                       // a follower's answer, waiting for the presenter's reveal
	SummaryCallout                    // the room's answers over a tour or a guess round, for its presenter
)

// View draws the callout bw columns wide and at most maxH lines tall.
func (c *Callout) View(st *draw.Styles, bw, maxH int) string {
	iw := max(bw-4, 10)
	var lines []string
	wrap := st.NewStyle().Width(iw)
	for _, h := range c.Head {
		lines = append(lines, strings.Split(wrap.Render(h), "\n")...)
	}
	if c.Text != "" {
		if len(c.Head) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, strings.Split(wrap.Render(c.Text), "\n")...)
	}
	// The foot says the keys that go on: wrapped rather than cut in a narrow box (a follower's
	// question docked at 80x24 ends "· p go free").
	var foot []string
	if c.Foot != "" {
		foot = strings.Split(wrap.Render(c.Foot), "\n")
		if len(foot) > 2 {
			foot = []string{draw.Truncate(c.Foot, iw)}
		}
	}
	room := max(maxH-2-max(len(foot), 1), 1) // the border and the foot
	if len(lines) > room {
		lines = append(lines[:room-1], st.Dim.Render("…"))
	}
	for _, l := range foot {
		lines = append(lines, st.Dim.Render(strings.TrimRight(l, " ")))
	}
	for i, l := range lines {
		lines[i] = draw.PadRight(draw.Truncate(l, iw), iw)
	}
	box := st.Overlay.Render(strings.Join(lines, "\n"))
	if c.Title == "" {
		return box
	}
	// The title goes in the top border, as the panes' titles do.
	rows := strings.Split(box, "\n")
	b := lipgloss.ThickBorder()
	t := " " + draw.Truncate(c.Title, max(iw-2, 1)) + " "
	edge := st.NewStyle().Foreground(st.Color(palette.FocusEdge))
	rows[0] = edge.Render(b.TopLeft+b.Top) + st.TitleFocus.Render(t) + edge.Render(strings.Repeat(b.Top, max(iw+2-1-draw.Width(t), 0))+b.TopRight)
	return strings.Join(rows, "\n")
}

// About is the panes the callout is about, which it keeps clear of: its pane (-1 for none) and,
// for a question about a batch, the batch pane.
func (c *Callout) About() []int {
	panes := []int{c.Pane}
	if c.Batch {
		panes = append(panes, pane.Batch)
	}
	return panes
}
