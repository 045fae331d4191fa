package draw

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// PlaceOverlay lays box over body with its top-left corner at (x, y).
func PlaceOverlay(body, box string, x, y int) string {
	lines := strings.Split(body, "\n")
	for i, b := range strings.Split(box, "\n") {
		if y+i < 0 || y+i >= len(lines) {
			continue
		}
		lines[y+i] = OverlayAt(lines[y+i], b, x)
	}
	return strings.Join(lines, "\n")
}

// OverlayAt replaces the columns of line from x on by s.
func OverlayAt(line, s string, x int) string {
	lw := ansi.StringWidth(line)
	left := line
	if lw > x {
		left = ansi.Truncate(line, x, "")
	} else {
		left += Pad(x - lw)
	}
	right := ""
	if end := x + ansi.StringWidth(s); lw > end {
		right = ansi.TruncateLeft(line, end, "")
	}
	if !strings.Contains(line, "\x1b") && !strings.Contains(s, "\x1b") {
		return left + s + right
	}
	return left + "\x1b[0m" + s + "\x1b[0m" + right
}

func Pad(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(" ", n)
}

func Width(s string) int { return ansi.StringWidth(s) }

func StripANSI(s string) string { return ansi.Strip(s) }

// Box draws body in a w x h border with title in its top edge; a focused box's border is
// heavy and bright.
func Box(st *Styles, title, body string, w, h int, focus bool) string {
	b := lipgloss.RoundedBorder()
	edge, ts := st.Dim, st.Title
	if focus {
		b, edge, ts = lipgloss.ThickBorder(), st.Bold, st.TitleFocus
	}
	title = Truncate(title, max(w-4, 0))
	top := edge.Render(b.TopLeft+b.Top) + ts.Render(title) + edge.Render(strings.Repeat(b.Top, max(w-3-Width(title), 0))+b.TopRight)
	left, right := edge.Render(b.Left)+" ", " "+edge.Render(b.Right)
	out := make([]string, 0, h)
	out = append(out, top)
	for _, l := range strings.Split(padTo(body, max(w-4, 0), max(h-2, 0)), "\n") {
		out = append(out, left+l+right)
	}
	out = append(out, edge.Render(b.BottomLeft+strings.Repeat(b.Bottom, max(w-2, 0))+b.BottomRight))
	return strings.Join(out, "\n")
}

func FirstLine(s string) string {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

func Lines(s string) int {
	n := 1
	for i := range len(s) {
		if s[i] == '\n' {
			n++
		}
	}
	return n
}

// PackLine puts items on as few lines of width w as it can, two spaces apart.
func PackLine(items []string, w int) []string {
	var out []string
	cur := ""
	for _, it := range items {
		switch {
		case cur == "":
			cur = it
		case Width(cur)+2+Width(it) <= w:
			cur += "  " + it
		default:
			out = append(out, cur)
			cur = it
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

func PadRight(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}
