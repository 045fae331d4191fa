package tui

import (
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// typeInto opens the editor, pastes 4 kB (one line, as the hostile student did), then types keys,
// a newline every 60, each followed by a frame as the program draws after each message. It returns
// the time a key and its frame took, and what the heap kept of them.
func typeInto(t testing.TB, p *Player, keys int) (time.Duration, int64) {
	t.Helper()
	if p.edit == nil {
		drive(t, p, "e")
	}
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("abcdefgh ", 4<<10/9)), Paste: true})
	p.View()
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := int64(ms.HeapAlloc)
	start := time.Now()
	for i := range keys {
		k := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune('a' + i%26)}}
		if i%60 == 59 {
			k = tea.KeyMsg{Type: tea.KeyEnter}
		}
		p.Update(k)
		p.View()
	}
	took := time.Since(start) / time.Duration(keys)
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(p)
	return took, int64(ms.HeapAlloc) - before
}

// Typing costs the same at the end of a long text as at its start, and keeps no memory: a 4 kB
// paste then typing took 11 to 24 ms a key and frame, growing, and 27 kB a key with bubbles'
// textarea (RSS 134 to 563 MB in 70 s at the input rate). The text stays within its bounds
// whatever is pasted.
func TestEditorTypingCost(t *testing.T) {
	p := pumped(t, asciiStyles(), 120, 36)
	short, grewShort := typeInto(t, p, 600) // about 20 lines
	long, grewLong := typeInto(t, p, 6000)  // about 150 lines more
	t.Logf("a key and its frame: %v on a short text, %v on a long one; the heap kept %+.2f MB and %+.2f MB", short, long, float64(grewShort)/(1<<20), float64(grewLong)/(1<<20))
	if long > 3*short+100*time.Microsecond {
		t.Errorf("a key costs %v on a long text, %v on a short one: the cost grows with the text", long, short)
	}
	if grewLong > 1<<20 {
		t.Errorf("6000 keys left %.1f MB on the heap", float64(grewLong)/(1<<20))
	}
	a := p.edit.area
	for range 8 { // 64 kB more
		p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("x\n", 4<<10)), Paste: true})
	}
	if n := utf8.RuneCountInString(a.Value()); n > editMax || len(a.lines) > editLines {
		t.Errorf("after 64 kB of pastes: %d characters in %d lines, want at most %d in %d", n, len(a.lines), editMax, editLines)
	}
	if !strings.Contains(p.notice, "at most") {
		t.Errorf("a paste past the bounds, notice %q", p.notice)
	}
}

// The pause check runs once a pause, one timer for all the keys of a burst, whatever their number.
func TestEditorOnePauseTimer(t *testing.T) {
	p := pumped(t, asciiStyles(), 120, 36)
	drive(t, p, "e")
	timers := 0
	for range 100 {
		_, cmd := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'x'}})
		if cmd != nil {
			timers++
		}
	}
	if !p.edit.paused || timers > 2 { // the pause timer and the frame timer, once
		t.Errorf("100 keys started %d timers, want the pause and the frame timer once", timers)
	}
}

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
	st := asciiStyles()
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
