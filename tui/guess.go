package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

// guessRound is "guess the decision" (key g, or a tour's quiz stop): before an online batch t is
// shown the player asks "RETRAIN or KEEP at t?", then shows the batch with the Oracle's decision
// and what each choice costs the player's own strategy there (C[t', t] to keep its model t', R_t to
// retrain), and keeps a score. The answers are a strategy of their own, replayed through algos
// (Fixed) as the results pane's row "You": unanswered batches count as KEEP.
type guessRound struct {
	on      bool
	answers map[int]bool // batch -> RETRAIN
	agreed  map[int]bool // batch -> the answer was the Oracle's decision (set when revealed)
	you     youCache
}

// youCache keeps the "You" row for one position, R and set of answers.
type youCache struct {
	pos, answers int
	scale        float64
	m            *sim.Matrix // the run's, or a what-if's
	provisional  bool        // compared with the best so far, not yet the Oracle
	res          *algos.Result
}

func (g *guessRound) reset() {
	*g = guessRound{answers: map[int]bool{}, agreed: map[int]bool{}}
}

// score is the number of revealed answers that were the Oracle's decision, and of revealed answers.
func (g *guessRound) score() (agreed, of int) {
	for _, ok := range g.agreed {
		if ok {
			agreed++
		}
	}
	return agreed, len(g.agreed)
}

// toggle starts or ends the guess round.
func (g *guessRound) toggle(s stage) tea.Cmd {
	sc := s.scene()
	g.on = !g.on
	if !g.on {
		if c := sc.ws.callout; c != nil && c.kind == calloutReveal {
			sc.ws.callout = nil // the round's last answer goes with it
		}
		a, n := g.score()
		s.say(fmt.Sprintf("guess round over: %d of %d as the Oracle decided; g starts it again", a, n))
		return nil
	}
	sc.Playing = false
	s.say(fmt.Sprintf("guess round: each step into batches %d..%d asks RETRAIN or KEEP first; g ends it", sc.scen.Offline+1, sc.s.Matrix.Batches()-1))
	if g.needs(sc, sc.Pos+1) {
		return g.ask(s, sc.Pos+1)
	}
	return nil
}

// needs reports whether the round asks about batch t before showing it.
func (g *guessRound) needs(sc scene, t int) bool {
	_, answered := g.answers[t]
	return g.on && !answered && t > sc.scen.Offline && t < sc.s.Matrix.Batches() && sc.Pos == t-1
}

// step is called before the player steps or plays into the next batch: true when it asks first.
func (g *guessRound) step(s stage) (tea.Cmd, bool) {
	sc := s.scene()
	if !g.needs(sc, sc.Pos+1) {
		return nil, false
	}
	sc.Playing = false
	return g.ask(s, sc.Pos+1), true
}

// ask puts up the question about batch t.
func (g *guessRound) ask(s stage, t int) tea.Cmd {
	sc := s.scene()
	sc.Playing = false
	if c := sc.ws.callout; c != nil && c.kind != calloutTour {
		sc.ws.callout = nil
	}
	*sc.overlay = &guessOverlay{s: s, t: t}
	// The batch asked about is what the question is about: its pane shows whatever the layout.
	s.setFocus(paneBatch)
	return nil
}

// yourModel is the model the player's own strategy uses before batch t: the last batch before t
// answered RETRAIN, or the first online batch (offline, the offline block's size), where every
// strategy trains.
func (g *guessRound) yourModel(t, offline int) int {
	tp := offline
	for b, retrain := range g.answers {
		if retrain && b < t && b > tp {
			tp = b
		}
	}
	return tp
}

// answer records the answer about batch t and shows the batch; a follower waits for the
// presenter to show it, and the room counts the answer.
func (g *guessRound) answer(s stage, t int, retrain bool) tea.Cmd {
	sc := s.scene()
	g.answers[t] = retrain
	g.you = youCache{}
	r := &sc.ws.room
	if r.presenting() {
		// The room's answers as they stand when the presenter answers: the question closes with it.
		v := r.m.View()
		r.tally[t] = [2]int{v.Retrain, v.Keep}
	}
	if r.following {
		r.m.Answer(t, retrain)
		sc.ws.callout = &callout{kind: calloutWait, pane: paneMatrix, title: fmt.Sprintf("guess · batch %d", t),
			text: fmt.Sprintf("You said %s at %d. The presenter shows the batch and the Oracle's decision.", word(retrain), t),
			foot: "p to go free"}
		return nil
	}
	s.goTo(t)
	if sc.Pos < t {
		*sc.ahead = t // shown, and revealed, when the engine has it
		return nil
	}
	return g.reveal(s, t)
}

// reveal shows the Oracle's decision at t next to the answer, in the tour's callout at a quiz stop.
func (g *guessRound) reveal(s stage, t int) tea.Cmd {
	sc := s.scene()
	if _, ok := g.answers[t]; ok {
		if _, done := g.agreed[t]; !done {
			g.agreed[t] = g.answers[t] == oracleRetrains(sc.rp, t)
		}
	}
	if at, ok := sc.ws.tour.quizAhead(); ok && at == t {
		return sc.ws.tour.showStop(s)
	}
	c := &callout{kind: calloutReveal, pane: paneBatch, title: fmt.Sprintf("guess · batch %d", t), head: g.revealLines(s, t)}
	if g.on {
		c.foot = "→ next question · g end the round"
	}
	sc.ws.callout = c
	return nil
}

// revealDue reveals an answered batch once it is shown (a follower's, when the presenter shows
// it; an answer given before the engine had the batch).
func (g *guessRound) revealDue(s stage) {
	sc := s.scene()
	t := sc.Pos
	if _, ok := g.answers[t]; !ok {
		return
	}
	if _, done := g.agreed[t]; done {
		return
	}
	if c := sc.ws.callout; c == nil || c.kind == calloutWait || c.kind == calloutReveal {
		g.reveal(s, t)
	} else {
		g.agreed[t] = g.answers[t] == oracleRetrains(sc.rp, t)
	}
}

// oracleRetrains reports whether the Oracle retrains at t (t <= the batch shown) as every pane
// shows it, from the one replay they all read: in hindsight over the whole online block once the
// matrix is in, the best so far while it computes.
func oracleRetrains(rp *replay, t int) bool {
	for _, r := range rp.results {
		if r.Algorithm == algos.NameOracle {
			_, ok := slices.BinarySearch(r.Strategy.Retrains, t)
			return ok
		}
	}
	return false
}

// revealLines say what the Oracle did at t, what the answer was and the score, what each choice
// costs the player's own strategy at t, and, to a presenter, the room's answers.
func (g *guessRound) revealLines(s stage, t int) []string {
	sc := s.scene()
	st := sc.st
	if t >= sc.s.Computed {
		return nil
	}
	// The cost matrix the panes show (the what-if's when one is shown) at the R in force.
	m, _ := sc.s.Shown()
	c := algos.Costs{M: m, R: sc.s.retrainCost(sc.Scale)}
	who, hind := "the Oracle", "in hindsight over the whole online block"
	if sc.rp.provisional {
		who, hind = bestSoFar, fmt.Sprintf("over batches %d..%d, all computed so far; the Oracle needs the whole block", sc.scen.Offline, t)
	}
	oracle := oracleRetrains(sc.rp, t)
	or := "KEEPS its model"
	if oracle {
		or = "RETRAINS"
	}
	lines := []string{st.Bold.Render(fmt.Sprintf("At %d %s %s", t, who, or)) + st.Dim.Render(", "+hind+".")}
	a, n := g.score()
	if retrain, ok := g.answers[t]; ok {
		mark := "✗ not as " + who
		if retrain == oracle {
			mark = "✓ as " + who
		}
		lines = append(lines, fmt.Sprintf("You said %s: %s · score %d of %d", word(retrain), mark, a, n))
	} else {
		lines = append(lines, fmt.Sprintf("You did not answer · score %d of %d", a, n))
	}
	tp := g.yourModel(t, sc.scen.Offline)
	lines = append(lines, fmt.Sprintf("For you: KEEP M_%d costs C[%d, %d] = %s, RETRAIN costs R = %s", tp, tp, t,
		num(c.At(tp, t)), num(c.R(t))))
	if r := &sc.ws.room; r.presenting() {
		if n, ok := r.tally[t]; ok {
			lines = append(lines, fmt.Sprintf("The room said %d RETRAIN / %d KEEP", n[0], n[1]))
		}
	}
	return lines
}

func word(retrain bool) string {
	if retrain {
		return "RETRAIN"
	}
	return "KEEP"
}

// result is the player's own strategy over the online block so far, as a result beside the
// algorithms': replayed through algos as a fixed strategy, against the same Oracle.
func (g *guessRound) result(s stage) *algos.Result {
	sc := s.scene()
	off := sc.scen.Offline
	if len(g.answers) == 0 || sc.Pos < off || sc.Pos >= sc.s.Computed {
		return nil
	}
	m, _ := sc.s.Shown()
	k := youCache{pos: sc.Pos, answers: len(g.answers), scale: sc.Scale, m: m, provisional: sc.rp.provisional}
	if c := g.you; c.res != nil && c.pos == k.pos && c.answers == k.answers && c.scale == k.scale && c.m == m && c.provisional == k.provisional {
		return c.res
	}
	var retrains []int
	for b, retrain := range g.answers {
		if retrain && b > off && b <= sc.Pos {
			retrains = append(retrains, b)
		}
	}
	slices.Sort(retrains)
	c := algos.Costs{M: m, R: sc.s.retrainCost(sc.Scale)}
	strategy := algos.Replay(c, off, sc.Pos, algos.Fixed(retrains))
	// The Oracle the other rows are compared with, as the results show it: its cost up to the
	// batch shown.
	oracle := math.NaN()
	for _, r := range sc.rp.results {
		if r.Algorithm == algos.NameOracle {
			oracle = r.Strategy.Cost()
		}
	}
	r := algos.Against(m, youName, strategy, oracle)
	k.res = &r
	g.you = k
	return k.res
}

// guessOverlay is the question: it takes the keys until it is answered (r, k) or put off (esc).
type guessOverlay struct {
	s stage
	t int
}

func (o *guessOverlay) View(st *Styles, w, h int) (string, int, int) {
	sc := o.s.scene()
	c := sc.ws.guess.question(o.s, o.t)
	f := o.s.frame()
	return c.draw(f, o.s.layout(f, w, h), sc.matrix, w, h)
}

// Key: r and k answer; esc (or q, g) puts the question off and leaves the batch unshown; p lets a
// follower go free.
func (o *guessOverlay) Key(msg tea.KeyMsg) (bool, tea.Cmd) {
	sc := o.s.scene()
	k, ws := sc.keys, sc.ws
	switch {
	case key.Matches(msg, k.AnswerRetrain):
		return true, ws.guess.answer(o.s, o.t, true)
	case key.Matches(msg, k.AnswerKeep):
		return true, ws.guess.answer(o.s, o.t, false)
	case key.Matches(msg, k.NotNow):
		if _, ok := ws.tour.quizAhead(); ok {
			// A quiz put off shows its stop all the same.
			o.s.goTo(o.t)
			return true, ws.tour.showStop(o.s)
		}
		return true, nil
	case key.Matches(msg, k.GoFree):
		return true, ws.room.toggleFollow(o.s)
	}
	return false, nil
}

// question is the callout asking about batch t, with the room's answers for a presenter.
func (g *guessRound) question(s stage, t int) *callout {
	sc := s.scene()
	st := sc.st
	tp := g.yourModel(t, sc.scen.Offline)
	c := &callout{kind: calloutReveal, pane: paneBatch, title: fmt.Sprintf("guess · batch %d", t)}
	c.head = []string{st.Bold.Render(fmt.Sprintf("RETRAIN or KEEP at %d?", t))}
	if i, ok := quizStop(sc, t); ok {
		// The tour's question: its own words first.
		c.title = fmt.Sprintf("tour %d/%d · guess batch %d", i+1, len(sc.scen.Tour), t)
		c.head = append([]string{strings.TrimSpace(sayText(s, sc.scen.Tour[i])), ""}, c.head...)
	}
	c.text = fmt.Sprintf("Your strategy uses M_%d, trained at %d; the batch pane shows batch %d and where M_%d errs on it. Retraining at %d costs R = %s; keeping M_%d costs C[%d, %d], shown with the answer.",
		tp, tp, t, tp, t, num(sc.s.retrainCost(sc.Scale)(t)), tp, tp, t)
	if a, n := g.score(); n > 0 {
		c.text += fmt.Sprintf(" Score so far: %d of %d.", a, n)
	}
	r := &sc.ws.room
	if r.presenting() {
		v := r.view
		c.head = append(c.head, st.Bold.Render(fmt.Sprintf("The room: %d RETRAIN / %d KEEP", v.Retrain, v.Keep))+
			st.Dim.Render(fmt.Sprintf(" (%d of %d following)", v.Retrain+v.Keep, v.Followers)))
	}
	c.foot = "r retrain · k keep · esc not now"
	if r.following {
		c.foot += " · p go free"
	}
	return c
}

func firstLine(s string) string {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

func lines(s string) int {
	n := 1
	for i := range len(s) {
		if s[i] == '\n' {
			n++
		}
	}
	return n
}

// quizStop is the tour's quiz stop at batch t, when the player plays the tour or follows a
// presenter who does.
func quizStop(sc scene, t int) (int, bool) {
	if !sc.ws.tour.on() && !sc.ws.room.following {
		return 0, false
	}
	for i, st := range sc.scen.Tour {
		if st.Quiz && st.At == t {
			return i, true
		}
	}
	return 0, false
}
