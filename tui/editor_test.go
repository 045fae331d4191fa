package tui

import (
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
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
	for range 8 { // 64 kB more
		p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("x\n", 4<<10)), Paste: true})
	}
	if text := p.edit.Text(); utf8.RuneCountInString(text) > 16<<10 || strings.Count(text, "\n") >= 400 {
		t.Errorf("after 64 kB of pastes: %d characters in %d lines, want at most 16 kB in 400", utf8.RuneCountInString(text), strings.Count(text, "\n")+1)
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
	if timers > 2 { // the pause timer and the frame timer, once
		t.Errorf("100 keys started %d timers, want the pause and the frame timer once", timers)
	}
}
