package scenarios

// Text a scenario supplies (its name, title, about, a tour's say, what-if names, a CSV's column
// names and categories) is untrusted: a scenario from elsewhere, or uploaded to a shared server,
// must not be able to drive the terminal that shows it (clear the screen, set the window title,
// reorder text with bidirectional controls) nor name a file outside the folder asked for.

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// validName is what a scenario may be called: it is written into YAML unquoted, shown in
// pickers and used in file names, so plain words only.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ValidName reports whether name is a usable scenario name: letters, digits, '.', '_' and '-',
// starting with a letter or digit (so never "..", a path or a hidden file).
func ValidName(name string) bool { return validName.MatchString(name) }

// NameRule says what ValidName accepts, for messages.
const NameRule = "use letters, digits, '.', '_' and '-', starting with a letter or digit"

// SafeFileName turns any text into a file name of one path element, made of what ValidName
// accepts: other characters become '_', and a leading '.' or '-' (a hidden file, a flag) too.
func SafeFileName(name string) string {
	var b strings.Builder
	for i, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' ||
			i > 0 && (r == '.' || r == '-')
		if ok {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

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

// clean is CleanText for a loaded field, with a note when anything was changed.
func (l *loader) clean(field, s string, multiline bool) string {
	out, n := CleanText(s, multiline)
	if n > 0 {
		l.notes = append(l.notes, fmt.Sprintf("%s: %d control character(s) or bytes that are not UTF-8 shown escaped (a terminal would have acted on them): %q", field, n, truncate(out, 60)))
	}
	return out
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "..."
	}
	return s
}
