package tui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/cara-sim/cara/internal/palette"
)

// callout is a box over the panes that leaves the keys to the player: a tour's stop, a guess's
// reveal, a presenter's question as followers see it answered. It is placed where it covers
// least of what it points at (the focused pane, the matrix cell under the cursor).
type callout struct {
	kind  calloutKind
	title string   // in the top border ("tour 3/8")
	head  []string // styled lines above the text (a guess's reveal)
	text  string   // plain text, wrapped to the box
	foot  string   // the keys that go on, dimmed, on the last line
	pane  int      // the pane the callout is about (not to be covered); -1 for none
	// batch: the callout answers a question about a batch (a quiz stop), whose pane is not to be
	// covered either: every algorithm saw that batch before deciding.
	batch bool
	stop  int // the tour's stop it shows (calloutTour)
	// fill, when set, writes text afresh at each draw: a tour stop's templates are filled from
	// the run as it stands (a what-if arriving, the matrix coming in, R changed).
	fill func(Frame) string
}

// calloutKind says what put a callout up, so each thing clears only its own.
type calloutKind int

const (
	calloutTour   calloutKind = iota // a tour's stop
	calloutReveal                    // a guess's reveal
	calloutWait                      // a follower's answer, waiting for the presenter's reveal
)

// view draws the callout bw columns wide and at most maxH lines tall.
func (c *callout) view(st *Styles, bw, maxH int) string {
	iw := max(bw-4, 10)
	var lines []string
	wrap := st.NewStyle().Width(iw)
	for _, h := range c.head {
		lines = append(lines, strings.Split(wrap.Render(h), "\n")...)
	}
	if c.text != "" {
		if len(c.head) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, strings.Split(wrap.Render(c.text), "\n")...)
	}
	room := max(maxH-3, 1) // the border and the foot
	if len(lines) > room {
		lines = append(lines[:room-1], st.Dim.Render("…"))
	}
	if c.foot != "" {
		lines = append(lines, st.Dim.Render(truncate(c.foot, iw)))
	}
	for i, l := range lines {
		lines[i] = padRight(truncate(l, iw), iw)
	}
	box := st.Overlay.Render(strings.Join(lines, "\n"))
	if c.title == "" {
		return box
	}
	// The title goes in the top border, as the panes' titles do.
	rows := strings.Split(box, "\n")
	b := lipgloss.ThickBorder()
	t := " " + truncate(c.title, max(iw-2, 1)) + " "
	edge := st.NewStyle().Foreground(st.color(palette.FocusEdge))
	rows[0] = edge.Render(b.TopLeft+b.Top) + st.TitleFocus.Render(t) + edge.Render(strings.Repeat(b.Top, max(iw+2-1-width(t), 0))+b.TopRight)
	return strings.Join(rows, "\n")
}

// about is the panes the callout is about, which it keeps clear of: its pane (-1 for none) and,
// for a question about a batch, the batch pane.
func (c *callout) about() []int {
	panes := []int{c.pane}
	if c.batch {
		panes = append(panes, paneBatch)
	}
	return panes
}
