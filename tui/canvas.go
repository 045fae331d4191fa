package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// canvas is a grid of terminal cells, each a rune and an ink, that the heat map, the charts and
// the scatter draw into. It writes its own escape sequences, one per change of ink along a line:
// rendering a 100x50 heat map cell by cell through lipgloss would cost a style render per cell.
type canvas struct {
	w, h  int
	cells []cell
}

type cell struct {
	r rune
	k ink
}

func newCanvas(w, h int) *canvas {
	w, h = max(w, 0), max(h, 0)
	c := &canvas{w: w, h: h, cells: make([]cell, w*h)}
	for i := range c.cells {
		c.cells[i].r = ' '
	}
	return c
}

func (c *canvas) in(x, y int) bool { return x >= 0 && y >= 0 && x < c.w && y < c.h }

// at returns the cell at (x, y); nil outside the canvas.
func (c *canvas) at(x, y int) *cell {
	if !c.in(x, y) {
		return nil
	}
	return &c.cells[y*c.w+x]
}

func (c *canvas) set(x, y int, r rune, k ink) {
	if p := c.at(x, y); p != nil {
		p.r, p.k = r, k
	}
}

// text writes s from (x, y) on one line, clipped at the right edge, and returns the column after
// it. Every rune is taken as one column wide, which holds for every glyph the panes use.
func (c *canvas) text(x, y int, s string, k ink) int {
	for _, r := range s {
		c.set(x, y, r, k)
		x++
	}
	return x
}

// runeAt is the rune at (x, y), or 0 outside.
func (c *canvas) runeAt(x, y int) rune {
	if p := c.at(x, y); p != nil {
		return p.r
	}
	return 0
}

// lines renders the canvas, one string per row.
func (c *canvas) lines(st *Styles) []string {
	out := make([]string, c.h)
	var b strings.Builder
	for y := range c.h {
		b.Reset()
		open := false
		var cur ink
		for x := range c.w {
			p := &c.cells[y*c.w+x]
			if x == 0 || p.k != cur {
				if open {
					b.WriteString("\x1b[0m")
					open = false
				}
				if seq := st.seq(p.k); seq != "" {
					b.WriteString("\x1b[")
					b.WriteString(seq)
					b.WriteByte('m')
					open = true
				}
				cur = p.k
			}
			b.WriteRune(p.r)
		}
		if open {
			b.WriteString("\x1b[0m")
		}
		out[y] = b.String()
	}
	return out
}

// String renders the canvas as one block.
func (c *canvas) String(st *Styles) string { return strings.Join(c.lines(st), "\n") }

// truncate cuts a possibly styled line to w terminal columns, with an ellipsis when it cuts.
func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// clip cuts a block to at most w columns and h lines, so a pane never breaks the layout.
func clip(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:max(h, 0)]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	return strings.Join(lines, "\n")
}

// padTo pads or cuts every line of a block to exactly w columns and h lines.
func padTo(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lw := ansi.StringWidth(l)
		switch {
		case lw > w:
			lines[i] = ansi.Truncate(l, w, "")
		case lw < w:
			lines[i] = l + strings.Repeat(" ", w-lw)
		}
	}
	return strings.Join(lines, "\n")
}
