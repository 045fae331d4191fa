package claims

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cara-sim/cara/scenarios/tour"
)

// A stop's text states things about its run in two ways: templates ({C 0 11}, {when Oracle}), which
// the player fills from the run, and the author's words around them. The words are held to the run
// by claims: each one names the span of the text it covers (as the player shows it, templates
// filled) and says whether the run makes it so. check then reads every literal word of the text:
// a number, or a word that states a pattern, a recurrence, a bound, an order or a quantity
// (claimWords: "every", "under", "last", "only", ...), must lie inside a span some claim has
// checked. So a sentence that states something about the run is a template, or a claim the test
// evaluates, or the test fails: it cannot be written unchecked.

// claim is one thing a stop's text says about its run: the span of words that says it, and whether
// the run makes it so.
type claim struct {
	span string // the words as the player shows them (templates filled); "" covers nothing, and is checked all the same
	ok   bool
	why  string // what the run says instead, when !ok
	// file: the span restates the scenario's file (its generator, its sizes), not the run: each
	// number in it must be one of the file's.
	file bool
	// computed: a fragment computed from the run that the text must contain (said) rather than a
	// span the author wrote; its absence means the text says something else.
	computed bool
	// words: the span may state no number (method, paper: what holds of any run); batches: its
	// numbers must be batches of the run (a reference to where, not a claim of what).
	words, batches bool
}

// said is a fragment built from the run (a number, a list of batches, a decision in words): the
// text must say it word for word.
func said(frag string) claim { return claim{span: frag, ok: true, computed: true} }

// holds is a span of the author's words and whether the run makes it so (what: what was checked,
// said when it is not so).
func holds(span string, ok bool, what string) claim {
	return claim{span: span, ok: ok, why: what}
}

// file is a span that restates the scenario's file: its generator, sizes and timeline, whose
// numbers must be the file's.
func file(span string) claim { return claim{span: span, ok: true, file: true} }

// method is a span that says what the method does on every run (the paper's definitions: every
// batch trains a model, the diagonal holds R): true of any run, it may state no number.
func method(span string) claim { return claim{span: span, ok: true, words: true} }

// batch is a span that points at batches of the run ("At 27", where a template then says what
// happened there): its numbers must be batches.
func batch(span string) claim { return claim{span: span, ok: true, batches: true} }

// claimWords are the words that state something about a run beyond a number: a pattern or a
// recurrence (every, whenever, again), a bound or a comparison (under, over, more, same), an order
// or an extreme (first, last, only, once), a quantity (all, none, no), a trend (grows, climbs).
// Written in a stop outside a template, each must be covered by a claim.
var claimWords = []string{
	"every", "each", "whenever", "always", "never", "again", "repeat", "repeats", "recur", "recurs",
	"stay", "stays", "stayed", "under", "over", "below", "above", "more", "less", "most", "least",
	"cheap", "cheaper", "cheapest", "dear", "dearer", "closest", "far", "exactly", "same", "only",
	"first", "last", "once", "twice", "all", "none", "no", "nothing", "grows", "grow", "climb",
	"climbs", "falls", "rise", "rises", "jumps", "back", "just", "hardly", "still", "already",
}

// check holds a stop's text, in pieces as the player fills them, to its claims: each claim's span
// must be in the text and so in the run; every number and claim word of the author's must lie in a
// span a claim checked (templates are the run's, and count as checked). fileNumbers are the numbers
// of the scenario's file; at is the stop's batch, of the run's batches. It returns what is wrong, one line each.
func check(pieces []tour.Piece, claims []claim, fileNumbers []string, at, batches int) []string {
	var text strings.Builder
	var literal []bool // byte i of the text is the author's (not filled from the run)
	for _, p := range pieces {
		text.WriteString(p.Text)
		for range len(p.Text) {
			literal = append(literal, !p.Filled)
		}
	}
	say := text.String()
	covered := make([]bool, len(say))
	for i, lit := range literal {
		covered[i] = !lit
	}
	var problems []string
	for _, c := range claims {
		if c.span == "" {
			// A condition the text's other words (or its templates) rely on, covering no words.
			if !c.ok {
				problems = append(problems, "not so: "+c.why)
			}
			continue
		}
		at := indexAll(say, c.span)
		switch {
		case len(at) == 0 && c.computed:
			problems = append(problems, fmt.Sprintf("the text should say %q, computed from the run", c.span))
			continue
		case len(at) == 0:
			problems = append(problems, fmt.Sprintf("a claim checks %q, which the text does not say", c.span))
			continue
		case !c.ok:
			problems = append(problems, fmt.Sprintf("%q is not so: %s", c.span, c.why))
			continue
		}
		for _, n := range numbers(c.span, true) {
			b, err := strconv.Atoi(n)
			switch {
			case c.file && !slices.Contains(fileNumbers, n):
				problems = append(problems, fmt.Sprintf("%q restates the scenario's file, but %s is not in it", c.span, n))
			case c.words:
				problems = append(problems, fmt.Sprintf("%q holds of any run and may state no number, but states %s", c.span, n))
			case c.batches && (err != nil || b < 0 || b >= batches):
				problems = append(problems, fmt.Sprintf("%q points at batch %s, which the run does not have", c.span, n))
			}
		}
		for _, i := range at {
			for k := i; k < i+len(c.span); k++ {
				covered[k] = true
			}
		}
	}
	for _, tok := range tokens(say) {
		if !literal[tok.start] || covered[tok.start] {
			continue
		}
		if tok.number && tok.text == strconv.Itoa(at) {
			continue // the stop's own batch: where it is, not what the run does there
		}
		what := "the number " + tok.text
		if !tok.number {
			what = fmt.Sprintf("%q", tok.text)
		}
		problems = append(problems, fmt.Sprintf("%s states something about the run that no claim checks (make it a template, or claim it): %q",
			what, sentence(say, tok.start)))
	}
	return problems
}

// indexAll is every place sub starts in s.
func indexAll(s, sub string) []int {
	var out []int
	for i := 0; ; {
		k := strings.Index(s[i:], sub)
		if k < 0 {
			return out
		}
		out = append(out, i+k)
		i += k + 1
	}
}

// token is a number or a claim word of a text, at byte start.
type token struct {
	text   string
	start  int
	number bool
}

// tokens are the numbers (but those in names and cells: M_25, x1, C[25, 27], 7e) and the claim
// words (but those in compound names: Never-retrain, CARA-T) of s.
func tokens(s string) []token {
	var out []token
	depth := 0
	letter := func(b byte) bool { return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
	digit := func(b byte) bool { return b >= '0' && b <= '9' }
	at := func(i int) byte {
		if i < 0 || i >= len(s) {
			return ' '
		}
		return s[i]
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '[':
			depth++
		case c == ']':
			depth = max(depth-1, 0)
		case digit(c):
			j := i
			for j < len(s) && (digit(s[j]) || s[j] == '.' && digit(at(j+1))) {
				j++
			}
			if depth == 0 && !letter(at(i-1)) && !letter(at(j)) {
				out = append(out, token{text: s[i:j], start: i, number: true})
			}
			i = j
			continue
		case letter(c):
			j := i
			for j < len(s) && (letter(s[j]) || digit(s[j])) {
				j++
			}
			w := strings.ToLower(s[i:j])
			if at(i-1) != '-' && at(j) != '-' && at(i-1) != '\'' && slices.Contains(claimWords, w) {
				out = append(out, token{text: s[i:j], start: i})
			}
			i = j
			continue
		}
		i++
	}
	return out
}

// sentence is the sentence of s around byte i.
func sentence(s string, i int) string {
	from := 0
	for _, end := range []string{". ", "? ", "! ", ": "} {
		if k := strings.LastIndex(s[:i], end); k >= 0 && k+len(end) > from {
			from = k + len(end)
		}
	}
	to := len(s)
	for _, end := range []string{". ", "? ", "! "} {
		if k := strings.Index(s[i:], end); k >= 0 && i+k+1 < to {
			to = i + k + 1
		}
	}
	return strings.TrimSpace(s[from:to])
}

// check on hand-made texts: what it lets pass and what it names.
func TestCheck(t *testing.T) {
	lit := func(s string) tour.Piece { return tour.Piece{Text: s} }
	run := func(s string) tour.Piece { return tour.Piece{Text: s, Filled: true} }
	for _, tc := range []struct {
		name   string
		pieces []tour.Piece
		claims []claim
		want   []string // each a part of one problem, in order; none for a pass
	}{
		{"templates and names pass", []tour.Piece{lit("Never-retrain keeps M_25: C[25, 27] = "), run("34.96"), lit(", "), run("12"), lit(" retrains.")}, nil, nil},
		{"a pattern unclaimed", []tour.Piece{lit("It retrains every 7 batches.")}, nil,
			[]string{`"every" states something`, "the number 7 states something"}},
		{"a pattern claimed", []tour.Piece{lit("It retrains every 7 batches.")}, []claim{holds("every 7 batches", true, "")}, nil},
		{"a pattern claimed, false", []tour.Piece{lit("It retrains every 7 batches.")}, []claim{holds("every 7 batches", false, "not at 48")},
			[]string{`"every 7 batches" is not so: not at 48`, `"every" states`, "the number 7 states"}},
		{"a claim of words the text lacks", []tour.Piece{lit("It retrains.")}, []claim{holds("every 7", true, ""), said("12 times")},
			[]string{`a claim checks "every 7"`, `the text should say "12 times"`}},
		{"the file's numbers only", []tour.Piece{lit("1000 points from N(m, 0.2)")}, []claim{file("1000 points from N(m, 0.2)")},
			[]string{"but 0.2 is not in it"}},
		{"a method states no number", []tour.Piece{lit("each of the 3 retrains pays R")}, []claim{method("each of the 3 retrains pays R")},
			[]string{"may state no number, but states 3"}},
		{"batches exist", []tour.Piece{lit("At 27 and at 200")}, []claim{batch("At 27 and at 200")}, []string{"points at batch 200"}},
		{"the stop's own batch", []tour.Piece{lit("Batch 41 opens the block.")}, nil, nil},
		{"a condition with no words", []tour.Piece{lit("It keeps.")}, []claim{holds("", false, "the same errors")}, []string{"not so: the same errors"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := check(tc.pieces, tc.claims, []string{"1000", "0.1"}, 41, 100)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d problems, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d: %q, want it to say %q", i, got[i], w)
				}
			}
		})
	}
}
