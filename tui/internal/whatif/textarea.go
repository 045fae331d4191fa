package whatif

import (
	"strconv"
	"strings"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/cara-sim/cara/tui/internal/draw"
)

// textArea is the editor's text: lines of characters and a cursor, bounded (editMax characters,
// editLines lines of editLine characters), drawn a screen at a time. A key costs what it changes (a
// line at most) and a drawing what it shows (a screen), whatever the text's length: bubbles'
// textarea hashed every line above the cursor at each key and drew every line of the text at each
// frame, and remembered each line it ever wrapped (27 kB a key on a long line). Characters a
// client sends that a terminal would act on (escapes, other controls) are not taken; those in a
// scenario's own text are drawn as a visible mark, never sent to the terminal as they are.
type textArea struct {
	lines    [][]rune // at least one
	row, col int      // the cursor: before character col of line row
	top      int      // the first line drawn
	size     int      // characters, the newlines between lines included
	w, h     int      // the screen it draws in: columns (line numbers included) and rows
}

func newTextArea() *textArea { return &textArea{lines: [][]rune{nil}} }

// SetValue replaces the text (cut to the bounds) and puts the cursor at its start.
func (a *textArea) SetValue(s string) {
	a.lines, a.size = nil, 0
	for _, l := range strings.Split(s, "\n") {
		if len(a.lines) == editLines {
			break
		}
		r := []rune(l)
		if len(r) > editLine {
			r = r[:editLine]
		}
		if a.size+len(r)+len(a.lines) > editMax {
			r = r[:max(editMax-a.size-len(a.lines), 0)]
		}
		a.lines = append(a.lines, r)
		a.size += len(r)
	}
	if len(a.lines) == 0 {
		a.lines = [][]rune{nil}
	}
	a.size += len(a.lines) - 1
	a.row, a.col, a.top = 0, 0, 0
}

// Value is the text.
func (a *textArea) Value() string {
	var b strings.Builder
	b.Grow(a.size)
	for i, l := range a.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(string(l))
	}
	return b.String()
}

// Line is the cursor's line.
func (a *textArea) Line() int { return a.row }

// SetSize fits the area to w columns and h rows.
func (a *textArea) SetSize(w, h int) { a.w, a.h = max(w, 1), max(h, 1) }

// Update takes a key; it reports whether the text changed, and says why a key was not taken (""
// when it was).
func (a *textArea) Update(k tea.KeyMsg) (changed bool, refused string) {
	switch k.Type {
	case tea.KeyRunes, tea.KeySpace:
		runes := k.Runes
		if k.Type == tea.KeySpace {
			runes = []rune{' '}
		}
		return a.insert(runes)
	case tea.KeyTab:
		return a.insert([]rune("  "))
	case tea.KeyEnter:
		return a.insert([]rune{'\n'})
	case tea.KeyBackspace, tea.KeyCtrlH:
		return a.backspace(), ""
	case tea.KeyDelete, tea.KeyCtrlD:
		return a.delete(), ""
	case tea.KeyCtrlK: // to the end of the line
		if a.col < len(a.lines[a.row]) {
			a.size -= len(a.lines[a.row]) - a.col
			a.lines[a.row] = a.lines[a.row][:a.col]
			return true, ""
		}
	case tea.KeyCtrlU: // to the start of the line
		if a.col > 0 {
			a.size -= a.col
			a.lines[a.row] = append(a.lines[a.row][:0:0], a.lines[a.row][a.col:]...)
			a.col = 0
			return true, ""
		}
	case tea.KeyLeft, tea.KeyCtrlB:
		if a.col > 0 {
			a.col--
		} else if a.row > 0 {
			a.row--
			a.col = len(a.lines[a.row])
		}
	case tea.KeyRight, tea.KeyCtrlF:
		if a.col < len(a.lines[a.row]) {
			a.col++
		} else if a.row+1 < len(a.lines) {
			a.row, a.col = a.row+1, 0
		}
	case tea.KeyUp, tea.KeyCtrlP:
		a.moveTo(a.row - 1)
	case tea.KeyDown, tea.KeyCtrlN:
		a.moveTo(a.row + 1)
	case tea.KeyPgUp:
		a.moveTo(a.row - a.h)
	case tea.KeyPgDown:
		a.moveTo(a.row + a.h)
	case tea.KeyHome, tea.KeyCtrlA:
		a.col = 0
	case tea.KeyEnd, tea.KeyCtrlE:
		a.col = len(a.lines[a.row])
	case tea.KeyCtrlHome:
		a.row, a.col = 0, 0
	case tea.KeyCtrlEnd:
		a.row = len(a.lines) - 1
		a.col = len(a.lines[a.row])
	}
	return false, ""
}

// moveTo puts the cursor on line row (within the text), at its column or the line's end.
func (a *textArea) moveTo(row int) {
	a.row = min(max(row, 0), len(a.lines)-1)
	a.col = min(a.col, len(a.lines[a.row]))
}

// Why a key was not taken.
const (
	refusedFull  = "the editor holds at most 16 kB"
	refusedLong  = "a line holds at most 500 characters here"
	refusedLines = "the editor holds at most 400 lines"
)

// insert puts runes at the cursor (a newline splits the line), as far as the bounds allow;
// characters a terminal would act on are dropped (a tab is two spaces, a return a newline).
func (a *textArea) insert(runes []rune) (changed bool, refused string) {
	for i, r := range runes {
		switch {
		case r == '\r' && i+1 < len(runes) && runes[i+1] == '\n':
			continue // a paste's CRLF
		case r == '\r' || r == '\n':
			if len(a.lines) >= editLines {
				return changed, refusedLines
			}
			if a.size >= editMax {
				return changed, refusedFull
			}
			l := a.lines[a.row]
			rest := append([]rune(nil), l[a.col:]...)
			a.lines[a.row] = l[:a.col:a.col] // the rest moves to its own array
			a.lines = append(a.lines, nil)
			copy(a.lines[a.row+2:], a.lines[a.row+1:])
			a.lines[a.row+1] = rest
			a.row, a.col = a.row+1, 0
			a.size++
			changed = true
			continue
		case r == '\t':
			r = ' '
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError:
			continue
		}
		if a.size >= editMax {
			return changed, refusedFull
		}
		l := a.lines[a.row]
		if len(l) >= editLine {
			return changed, refusedLong
		}
		l = append(l, 0)
		copy(l[a.col+1:], l[a.col:])
		l[a.col] = r
		a.lines[a.row] = l
		a.col++
		a.size++
		changed = true
	}
	return changed, ""
}

// backspace deletes the character before the cursor, or joins the line to the one above.
func (a *textArea) backspace() bool {
	switch {
	case a.col > 0:
		l := a.lines[a.row]
		a.lines[a.row] = append(l[:a.col-1], l[a.col:]...)
		a.col--
		a.size--
		return true
	case a.row > 0:
		a.row--
		a.col = len(a.lines[a.row])
		return a.join()
	}
	return false
}

// delete deletes the character at the cursor, or joins the next line to this one.
func (a *textArea) delete() bool {
	l := a.lines[a.row]
	if a.col < len(l) {
		a.lines[a.row] = append(l[:a.col], l[a.col+1:]...)
		a.size--
		return true
	}
	return a.join()
}

// join appends the next line to the cursor's, as far as the line's bound allows (the rest stays).
func (a *textArea) join() bool {
	if a.row+1 >= len(a.lines) {
		return false
	}
	l, next := a.lines[a.row], a.lines[a.row+1]
	n := min(len(next), editLine-len(l))
	a.lines[a.row] = append(l, next[:n]...)
	if n < len(next) {
		a.lines[a.row+1] = append(next[:0:0], next[n:]...)
		return n > 0
	}
	a.lines = append(a.lines[:a.row+1], a.lines[a.row+2:]...)
	a.size--
	return true
}

// View draws the area's h rows: line numbers, then each line wrapped at the width left, from the
// first line drawn, moved so the cursor shows. It looks at no more lines than it draws.
func (a *textArea) View(st *draw.Styles) string {
	gutter := len(strconv.Itoa(len(a.lines))) + 1
	tw := max(a.w-gutter, 1)
	// The cursor's line shows: the first line drawn is at most the cursor's, and the lines from it
	// to the cursor's row (each at least a row) fit.
	a.top = min(a.top, a.row)
	for i, rows := a.row, 0; i >= a.top; i-- { // back from the cursor's line, while they fit
		if rows += a.rowsOf(i, tw); rows > a.h && i < a.row {
			a.top = i + 1
			break
		}
	}
	out := make([]string, 0, a.h)
	for i := a.top; i < len(a.lines) && len(out) < a.h; i++ {
		l := a.lines[i]
		for start := 0; len(out) < a.h; {
			end, width := start, 0
			for end < len(l) && width+runeWidth(l[end]) <= tw {
				width += runeWidth(l[end])
				end++
			}
			if end == start && start < len(l) {
				end++ // a character wider than the line: alone on its row
			}
			num := strings.Repeat(" ", gutter)
			if start == 0 {
				num = padLeft(strconv.Itoa(i+1), gutter-1) + " "
			}
			cur := -1
			if i == a.row && a.col >= start && (a.col < end || a.col == len(l) && end == len(l)) {
				cur = a.col - start
			}
			out = append(out, st.Dim.Render(num)+drawRow(st, l[start:end], cur))
			start = end
			if start >= len(l) {
				break
			}
		}
	}
	for len(out) < a.h {
		out = append(out, st.Dim.Render("~"))
	}
	return strings.Join(out, "\n")
}

// rowsOf is how many rows line i takes at tw columns of text.
func (a *textArea) rowsOf(i, tw int) int {
	w := 0
	for _, r := range a.lines[i] {
		w += runeWidth(r)
	}
	return max(1, (w+tw-1)/tw)
}

// drawRow writes a row of characters, the cursor before character cur (-1: not on this row), each
// character a terminal would act on as a dim mark.
func drawRow(st *draw.Styles, row []rune, cur int) string {
	var b strings.Builder
	for i, r := range row {
		s := string(r)
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			s = st.Dim.Render("?")
		}
		if i == cur {
			s = st.StatusKey.Render(string(printable(r)))
		}
		b.WriteString(s)
	}
	if cur == len(row) {
		b.WriteString(st.StatusKey.Render(" "))
	}
	return b.String()
}

// printable is r, or a mark for a character a terminal would act on.
func printable(r rune) rune {
	if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
		return '?'
	}
	return r
}

// runeWidth is the columns a character takes (0 for one that takes none; 1 for controls, drawn
// as a mark).
func runeWidth(r rune) int {
	if r < 0x1100 {
		return 1
	}
	return ansi.StringWidth(string(r))
}

func padLeft(s string, w int) string {
	if len(s) >= w {
		return s
	}
	return strings.Repeat(" ", w-len(s)) + s
}
