package format

// Text a scenario supplies (its name, title, about, a tour's say, what-if names, a CSV's column
// names and categories) is untrusted: a scenario from elsewhere, or uploaded to a shared server,
// must not be able to drive the terminal that shows it (clear the screen, set the window title,
// reorder text with bidirectional controls).

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// CleanText makes untrusted text safe to print or draw: control characters (C0 but line feeds
// where multiline allows them, DEL, C1) and the bidirectional overrides and isolates are written
// as visible escapes (ESC as \x1b, U+202E as \u202e), a tab as a space, and bytes that are not
// UTF-8 as U+FFFD. It returns the text and how many characters it changed.
func CleanText(s string, multiline bool) (string, int) {
	if isClean(s, multiline) {
		return s, 0
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
			n++
		case r == '\n' && multiline:
			b.WriteRune(r)
		case r == '\t':
			b.WriteByte(' ')
		case unsafeRune(r):
			if r < 0x100 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
			n++
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String(), n
}

func isClean(s string, multiline bool) bool {
	for _, r := range s { // a byte that is not UTF-8 comes as utf8.RuneError
		if r == utf8.RuneError || r == '\t' || r == '\n' && !multiline || unsafeRune(r) {
			return false
		}
	}
	return true
}

// unsafeRune reports a character a terminal acts on rather than shows.
func unsafeRune(r rune) bool {
	return r < 0x20 || r >= 0x7f && r < 0xa0 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// Notes are what the user should know about how a scenario was read (scenarios.Scenario.Notes),
// in the order the loader met them.
type Notes []string

// Add appends a note.
func (n *Notes) Add(format string, args ...any) { *n = append(*n, fmt.Sprintf(format, args...)) }

// Clean is CleanText for a field of the file, with a note when anything was changed.
func (n *Notes) Clean(field, s string, multiline bool) string {
	out, k := CleanText(s, multiline)
	if k > 0 {
		n.Add("%s: %d control character(s) or bytes that are not UTF-8 shown escaped (a terminal would have acted on them): %q", field, k, truncate(out, 60))
	}
	return out
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "..."
	}
	return s
}
