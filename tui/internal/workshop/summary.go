package workshop

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

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
func (r *Room) tallyLines(t int, oracle bool, who string) []string {
	n, ok := r.tally[t]
	if !r.Presenting() || !ok {
		return nil
	}
	return append([]string{fmt.Sprintf("The room said %d RETRAIN / %d KEEP", n[0], n[1])}, r.right(t, oracle, who)...)
}

// right says which students answered the question about t as the Oracle (who: as the callout
// names it) decided, and which did not.
func (r *Room) right(t int, oracle bool, who string) []string {
	var right, wrong []string
	for _, a := range r.m.Answers() {
		if a.Batch != t {
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

// summary is the room's summary over the questions the presenter asked (asked) in the tour or guess
// round just ended (what: its name): each student who answered, ranked by answers as the Oracle
// decided, then by the answers' cost (their "You", each answer priced at the model in use it was
// about: the Oracle's in a tour, their own path in a guess round, own); nil when the player does
// not present or nobody answered.
func (r *Room) summary(f Frame, what string, own bool, asked map[int]bool) *Callout {
	if !r.Presenting() || len(asked) == 0 {
		return nil
	}
	by := map[string][]room.Answer{}
	var order []string
	for _, a := range r.m.Answers() {
		if !asked[a.Batch] {
			continue
		}
		if _, ok := by[a.Student]; !ok {
			order = append(order, a.Student)
		}
		by[a.Student] = append(by[a.Student], a)
	}
	if len(order) == 0 {
		return nil
	}
	oracle := oracleOf(f)
	var table []standing
	for _, name := range order {
		given := by[name]
		slices.SortFunc(given, func(a, b room.Answer) int { return cmp.Compare(a.Batch, b.Batch) })
		answers := map[int]answer{}
		for _, a := range given {
			answers[a.Batch] = answer{retrain: a.Retrain, model: modelIn(answers, a.Batch, f.Scenario.Offline, own, oracle)}
		}
		if y := youOf(f, answers); y != nil {
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
	lines := []string{st.Bold.Render(fmt.Sprintf("The room over the %s: %s, %s", what, count(len(table), "student"), count(len(asked), "question")))}
	for i, s := range table {
		y := s.you
		lines = append(lines, fmt.Sprintf("%2d %s %d of %d as %s · You %s (%s %s there)", i+1, draw.PadRight(s.student, wide),
			y.Agreed, y.Answers, who, draw.Cost(y.Cost), who, draw.Cost(y.Oracle)))
	}
	return &Callout{Kind: SummaryCallout, Pane: -1, Title: "room · " + what + " over", Head: lines, Foot: "esc closes this"}
}

// count writes n things: "1 student", "3 students".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
