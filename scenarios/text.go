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

	"github.com/cara-sim/cara/scenarios/internal/format"
)

// validName is what a scenario may be called: it is written into YAML unquoted, shown in
// pickers and used in file names, so plain words only.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ValidName reports whether name is a usable scenario name: letters, digits, '.', '_' and '-',
// starting with a letter or digit (so never "..", a path or a hidden file), at most MaxNameLen
// characters.
func ValidName(name string) bool { return NameProblem(name) == "" }

// NameRule says what ValidName accepts, for messages.
const NameRule = "use letters, digits, '.', '_' and '-', starting with a letter or digit"

// MaxNameLen bounds a scenario's name: it names files (NAME-cumulative.png, NAME-seed3.json), and
// a file name of more than 255 bytes is refused by the file system, at the end of a long run.
const MaxNameLen = 100

// shortText is s cut to n bytes (at a rune's start) with "..." after it when it was longer: a long
// value named in a message.
func shortText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// NameProblem says what makes name unusable as a scenario's name, "" when nothing does.
func NameProblem(name string) string {
	switch {
	case !validName.MatchString(name):
		return NameRule
	case len(name) > MaxNameLen:
		return fmt.Sprintf("it is %d characters, and a name is at most %d (it names the files a run writes, NAME-cumulative.png and the like)", len(name), MaxNameLen)
	}
	return ""
}

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
func CleanText(s string, multiline bool) (string, int) { return format.CleanText(s, multiline) }
