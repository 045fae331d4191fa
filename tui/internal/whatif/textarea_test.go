package whatif

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/tui/internal/draw"
)

// fuzzKeys turns bytes into keys: a byte picks a key, or starts runes (a paste among them) made of
// the bytes that follow, so any byte sequence, control and escape bytes and broken UTF-8 included,
// reaches the editor.
func fuzzKeys(b []byte) []tea.KeyMsg {
	types := []tea.KeyType{tea.KeyEnter, tea.KeyBackspace, tea.KeyDelete, tea.KeyLeft, tea.KeyRight, tea.KeyUp, tea.KeyDown,
		tea.KeyHome, tea.KeyEnd, tea.KeyPgUp, tea.KeyPgDown, tea.KeyTab, tea.KeySpace, tea.KeyCtrlK, tea.KeyCtrlU,
		tea.KeyCtrlHome, tea.KeyCtrlEnd, tea.KeyCtrlA, tea.KeyCtrlE}
	var keys []tea.KeyMsg
	for i := 0; i < len(b); i++ {
		c := b[i]
		if int(c) < len(types) {
			keys = append(keys, tea.KeyMsg{Type: types[c]})
			continue
		}
		n := min(int(c)%64+1, len(b)-i)
		keys = append(keys, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(string(b[i : i+n])), Paste: c%2 == 0})
		i += n - 1
	}
	return keys
}

// No byte sequence a client sends crashes the editor or takes it past its bounds, and what it draws
// fits its screen and carries no character a terminal would act on but the styles' own.
func FuzzEditor(f *testing.F) {
	f.Add([]byte("name: x\nbatches: 3\n"))
	f.Add([]byte("\x1b[31m\x1b]52;c;AAAA\x07\x00\x7f\xc2\x85\xff\xfe\r\n\t"))
	f.Add([]byte(strings.Repeat("界", 300) + "\x05\x06\x07"))
	f.Add([]byte{0, 1, 2, 3, 200, 'a', 'b', 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18})
	st := draw.ForProfile(termenv.Ascii)
	f.Fuzz(func(t *testing.T, b []byte) {
		a := newTextArea()
		a.SetValue(string(b))
		a.SetSize(40, 8)
		for _, k := range fuzzKeys(b) {
			a.Update(k)
			if a.row >= len(a.lines) || a.col > len(a.lines[a.row]) || a.size > editMax || len(a.lines) > editLines {
				t.Fatalf("%d lines, %d characters, cursor %d:%d", len(a.lines), a.size, a.row, a.col)
			}
		}
		n := 0
		for _, l := range a.lines {
			if len(l) > editLine {
				t.Fatalf("a line of %d characters", len(l))
			}
			n += len(l)
		}
		if n += len(a.lines) - 1; n != a.size {
			t.Fatalf("%d characters, counted %d", n, a.size)
		}
		v := a.View(st)
		lines := strings.Split(v, "\n")
		if len(lines) != 8 {
			t.Fatalf("%d rows drawn, want 8", len(lines))
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > 41 { // the cursor may stand after a full row
				t.Fatalf("a row %d wide: %q", w, l)
			}
			for _, r := range ansi.Strip(l) {
				if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
					t.Fatalf("a control character %U drawn: %q", r, l)
				}
			}
		}
	})
}
