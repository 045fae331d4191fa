package workshop

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// The room's answers, for its presenter: after each question the reveal says who answered as the
// Oracle decided, by login name (roomRight); at the end of a tour or a guess round a summary
// ranks the students by their score and their answers' cost, each student's "You" (summary).
// The room keeps every answer (room.Member.Answers); the presenter's player scores them on its
// own run, the one the room follows.

// maxNames is how many names a reveal lists on a side before it counts the rest.
const maxNames = 12

// tallyLines are the room's answers to the question about t, for its presenter's reveal: how many
// said each, and who answered as the Oracle (who: as the callout names it; oracle, its decision)
// decided and who did not; none before the presenter answered, or for anyone else.
func (r *Room) tallyLines(t int, oracle bool, who string, since time.Time) []string {
	n, ok := r.tally[t]
	if !r.Presenting() || !ok {
		return nil
	}
	return append([]string{fmt.Sprintf("The room said %d RETRAIN / %d KEEP", n[0], n[1])}, r.right(t, oracle, who, since)...)
}

// right says which students answered the question about t as the Oracle (who: as the callout
// names it) decided, and which did not, of the answers given since the round started.
func (r *Room) right(t int, oracle bool, who string, since time.Time) []string {
	var right, wrong []string
	for _, a := range r.m.Answers() {
		if a.Batch != t || a.None || a.Time.Before(since) {
			continue
		}
		if a.Retrain == oracle {
			right = append(right, a.Student)
		} else {
			wrong = append(wrong, a.Student)
		}
	}
	if len(right)+len(wrong) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("As %s: %s · not: %s", who, names(right), names(wrong))}
}

// names lists names, the first maxNames of them and a count of the rest; "nobody" for none.
func names(v []string) string {
	switch {
	case len(v) == 0:
		return "nobody"
	case len(v) > maxNames:
		return strings.Join(v[:maxNames], ", ") + fmt.Sprintf(" and %d more", len(v)-maxNames)
	}
	return strings.Join(v, ", ")
}

// standing is one student's line of the room's summary.
type standing struct {
	student string
	you     *pane.You
}

// summary is the room's summary over the questions the presenter asked (asked, each with the run
// it was asked on) in the tour or guess round just ended (what: its name; since: its start, the
// answers before it an earlier round's): each student who
// answered, ranked by answers as the Oracle decided, then by the answers' cost (their "You", each
// answer scored and priced on the run its question was asked on, at the model in use it was about:
// the Oracle's in a tour, their own path in a guess round, own; score.go), over the questions
// someone answered; then the students who answered none of them. Nil when the player does not
// present or nobody answered.
func (r *Room) summary(f Frame, what string, own bool, asked map[int]*askedOn, since time.Time) *Callout {
	if !r.Presenting() || len(asked) == 0 {
		return nil
	}
	by := map[string][]room.Answer{}
	var order []string
	answered := map[int]bool{} // the questions someone answered
	silent := map[string]bool{}
	for _, a := range r.m.Answers() {
		if asked[a.Batch] == nil || a.Time.Before(since) {
			continue // not asked in this round, or answered in an earlier one
		}
		if a.None {
			silent[a.Student] = true
			continue
		}
		answered[a.Batch] = true
		if _, ok := by[a.Student]; !ok {
			order = append(order, a.Student)
		}
		by[a.Student] = append(by[a.Student], a)
	}
	if len(order) == 0 {
		return nil
	}
	off := f.Scenario.Offline
	var table []standing
	for _, name := range order {
		given := by[name]
		slices.SortFunc(given, func(a, b room.Answer) int { return cmp.Compare(a.Batch, b.Batch) })
		answers := map[int]answer{}
		for _, a := range given {
			on := asked[a.Batch]
			o, _ := on.oracleIn(f)
			answers[a.Batch] = answer{retrain: a.Retrain, model: modelIn(answers, a.Batch, off, own, o), on: on}
		}
		if y := youOf(f, answers, f.Computed-1); y != nil {
			table = append(table, standing{name, y})
		}
	}
	if len(table) == 0 {
		return nil
	}
	slices.SortStableFunc(table, func(a, b standing) int {
		if c := cmp.Compare(b.you.Agreed, a.you.Agreed); c != 0 {
			return c
		}
		return cmp.Compare(a.you.Cost, b.you.Cost)
	})
	st := f.Styles
	who := "the Oracle"
	if f.Provisional {
		who = pane.BestSoFar
	}
	wide := 0
	for _, s := range table {
		wide = max(wide, draw.Width(s.student))
	}
	lines := []string{st.Bold.Render(fmt.Sprintf("The room over the %s: %s, %s", what, count(len(table), "student"), count(len(answered), "question")))}
	for i, s := range table {
		y := s.you
		lines = append(lines, fmt.Sprintf("%2d %s %d of %d as %s · You %s (%s %s there)", i+1, draw.PadRight(s.student, wide),
			y.Agreed, y.Answers, who, draw.Cost(y.Cost), who, draw.Cost(y.Oracle)))
	}
	// Who answered none: silent at a question they followed, or in the room now.
	for _, name := range r.m.Students() {
		silent[name] = true
	}
	var none []string
	for name := range silent {
		if _, ok := by[name]; !ok {
			none = append(none, name)
		}
	}
	slices.Sort(none)
	if len(none) > 0 {
		lines = append(lines, "No answer from "+names(none))
	}
	if shown := runOf(f); !allOn(asked, shown) {
		lines = append(lines, st.Dim.Render("Each answer scored and priced on the run it was asked on, not the what-if or R shown now."))
	}
	return &Callout{Kind: SummaryCallout, Pane: -1, Title: "room · " + what + " over", Head: lines, Foot: "esc closes this"}
}

// allOn reports whether every question was asked on the run f shows (shown).
func allOn(asked map[int]*askedOn, shown *askedOn) bool {
	for _, on := range asked {
		if on.m != shown.m || on.scale != shown.scale || on.whatIf != shown.whatIf {
			return false
		}
	}
	return true
}

// count writes n things: "1 student", "3 students".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
