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

// toggleGuess starts or ends the guess round.
func (p *Player) toggleGuess() tea.Cmd {
	g := &p.guess
	g.on = !g.on
	if !g.on {
		if p.callout != nil && p.callout.kind == calloutReveal {
			p.callout = nil // the round's last answer goes with it
		}
		a, n := g.score()
		p.notice = fmt.Sprintf("guess round over: %d of %d as the Oracle decided; g starts it again", a, n)
		return nil
	}
	p.Playing = false
	p.notice = fmt.Sprintf("guess round: each step into batches %d..%d asks RETRAIN or KEEP first; g ends it", p.opt.Scenario.Offline+1, p.s.Matrix.Batches()-1)
	if p.needsGuess(p.Pos + 1) {
		return p.ask(p.Pos + 1)
	}
	return nil
}

// needsGuess reports whether the round asks about batch t before showing it.
func (p *Player) needsGuess(t int) bool {
	_, answered := p.guess.answers[t]
	return p.guess.on && !answered && t > p.opt.Scenario.Offline && t < p.s.Matrix.Batches() && p.Pos == t-1
}

// guessStep is called before the player steps or plays into batch pos+1: true when it asks first.
func (p *Player) guessStep() (tea.Cmd, bool) {
	if !p.needsGuess(p.Pos + 1) {
		return nil, false
	}
	p.Playing = false
	return p.ask(p.Pos + 1), true
}

// ask puts up the question about batch t.
func (p *Player) ask(t int) tea.Cmd {
	p.Playing = false
	if p.callout != nil && p.callout.kind != calloutTour {
		p.callout = nil
	}
	p.overlay = &guessOverlay{p: p, t: t}
	// The batch asked about is what the question is about: its pane shows whatever the layout.
	p.setFocus(paneBatch)
	return nil
}

// yourModel is the model the player's own strategy uses before batch t: the last batch before t
// answered RETRAIN, or the first online batch, where every strategy trains.
func (p *Player) yourModel(t int) int {
	tp := p.opt.Scenario.Offline
	for b, retrain := range p.guess.answers {
		if retrain && b < t && b > tp {
			tp = b
		}
	}
	return tp
}

// answer records the answer about batch t and shows the batch; a follower waits for the
// presenter to show it, and the room counts the answer.
func (p *Player) answer(t int, retrain bool) tea.Cmd {
	p.guess.answers[t] = retrain
	p.guess.you = youCache{}
	if p.room.presenting() {
		// The room's answers as they stand when the presenter answers: the question closes with it.
		v := p.room.m.View()
		p.room.tally[t] = [2]int{v.Retrain, v.Keep}
	}
	if p.room.following {
		p.room.m.Answer(t, retrain)
		p.callout = &callout{kind: calloutWait, pane: paneMatrix, title: fmt.Sprintf("guess · batch %d", t),
			text: fmt.Sprintf("You said %s at %d. The presenter shows the batch and the Oracle's decision.", word(retrain), t),
			foot: "p to go free"}
		return nil
	}
	p.goTo(t)
	if p.Pos < t {
		p.ahead = t // shown, and revealed, when the engine has it
		return nil
	}
	return p.reveal(t)
}

// reveal shows the Oracle's decision at t next to the answer, in the tour's callout at a quiz stop.
func (p *Player) reveal(t int) tea.Cmd {
	if _, ok := p.guess.answers[t]; ok {
		if _, done := p.guess.agreed[t]; !done {
			p.guess.agreed[t] = p.guess.answers[t] == p.oracleRetrains(t)
		}
	}
	if tr := p.tour; tr != nil && !tr.arrived && tr.stops[tr.i].Quiz && tr.stops[tr.i].At == t {
		return p.showStop()
	}
	p.callout = &callout{kind: calloutReveal, pane: paneBatch, title: fmt.Sprintf("guess · batch %d", t), head: p.revealLines(t)}
	if p.guess.on {
		p.callout.foot = "→ next question · g end the round"
	}
	return nil
}

// revealDue reveals an answered batch once it is shown (a follower's, when the presenter shows
// it; an answer given before the engine had the batch).
func (p *Player) revealDue() {
	t := p.Pos
	if _, ok := p.guess.answers[t]; !ok {
		return
	}
	if _, done := p.guess.agreed[t]; done {
		return
	}
	if p.callout == nil || p.callout.kind == calloutWait || p.callout.kind == calloutReveal {
		p.reveal(t)
	} else {
		p.guess.agreed[t] = p.guess.answers[t] == p.oracleRetrains(t)
	}
}

// oracleRetrains reports whether the Oracle retrains at t (t <= the batch shown) as every pane
// shows it, from the one replay they all read: in hindsight over the whole online block once the
// matrix is in, the best so far while it computes.
func (p *Player) oracleRetrains(t int) bool {
	for _, r := range p.rp.results {
		if r.Algorithm == algos.NameOracle {
			_, ok := slices.BinarySearch(r.Strategy.Retrains, t)
			return ok
		}
	}
	return false
}

// shownCosts is the cost matrix the panes show (the what-if's when one is shown) at the R in force.
func (p *Player) shownCosts() algos.Costs {
	m, _ := p.s.Shown()
	return algos.Costs{M: m, R: p.s.retrainCost(p.Scale)}
}

// revealLines say what the Oracle did at t, what the answer was and the score, what each choice
// costs the player's own strategy at t, and, to a presenter, the room's answers.
func (p *Player) revealLines(t int) []string {
	st := p.st
	if t >= p.s.Computed {
		return nil
	}
	c := p.shownCosts()
	who, hind := "the Oracle", "in hindsight over the whole online block"
	if p.rp.provisional {
		who, hind = bestSoFar, fmt.Sprintf("over batches %d..%d, all computed so far; the Oracle needs the whole block", p.opt.Scenario.Offline, t)
	}
	or := "KEEPS its model"
	if p.oracleRetrains(t) {
		or = "RETRAINS"
	}
	lines := []string{st.Bold.Render(fmt.Sprintf("At %d %s %s", t, who, or)) + st.Dim.Render(", "+hind+".")}
	a, n := p.guess.score()
	if retrain, ok := p.guess.answers[t]; ok {
		mark := "✗ not as " + who
		if retrain == p.oracleRetrains(t) {
			mark = "✓ as " + who
		}
		lines = append(lines, fmt.Sprintf("You said %s: %s · score %d of %d", word(retrain), mark, a, n))
	} else {
		lines = append(lines, fmt.Sprintf("You did not answer · score %d of %d", a, n))
	}
	tp := p.yourModel(t)
	lines = append(lines, fmt.Sprintf("For you: KEEP M_%d costs C[%d, %d] = %s, RETRAIN costs R = %s", tp, tp, t,
		num(c.At(tp, t)), num(c.R(t))))
	if n, ok := p.room.tally[t]; ok && p.room.presenting() {
		lines = append(lines, fmt.Sprintf("The room said %d RETRAIN / %d KEEP", n[0], n[1]))
	}
	return lines
}

func word(retrain bool) string {
	if retrain {
		return "RETRAIN"
	}
	return "KEEP"
}

// youResult is the player's own strategy over the online block so far, as a result beside the
// algorithms': replayed through algos as a fixed strategy, against the same Oracle.
func (p *Player) youResult() *algos.Result {
	g := &p.guess
	off := p.opt.Scenario.Offline
	if len(g.answers) == 0 || p.Pos < off || p.Pos >= p.s.Computed {
		return nil
	}
	m, _ := p.s.Shown()
	k := youCache{pos: p.Pos, answers: len(g.answers), scale: p.Scale, m: m, provisional: p.rp.provisional}
	if c := g.you; c.res != nil && c.pos == k.pos && c.answers == k.answers && c.scale == k.scale && c.m == m && c.provisional == k.provisional {
		return c.res
	}
	var retrains []int
	for b, retrain := range g.answers {
		if retrain && b > off && b <= p.Pos {
			retrains = append(retrains, b)
		}
	}
	slices.Sort(retrains)
	c := algos.Costs{M: m, R: p.s.retrainCost(p.Scale)}
	s := algos.Replay(c, off, p.Pos, algos.Fixed(retrains))
	// The Oracle the other rows are compared with, as the results show it: its cost up to the
	// batch shown.
	oracle := math.NaN()
	for _, r := range p.rp.results {
		if r.Algorithm == algos.NameOracle {
			oracle = r.Strategy.Cost()
		}
	}
	r := algos.Against(m, youName, s, oracle)
	k.res = &r
	g.you = k
	return k.res
}

// guessOverlay is the question: it takes the keys until it is answered (r, k) or put off (esc).
type guessOverlay struct {
	p *Player
	t int
}

func (o *guessOverlay) View(st *Styles, w, h int) (string, int, int) {
	return o.p.drawCalloutNow(o.p.questionCallout(o.t), w, h)
}

// Key: r and k answer; esc (or q, g) puts the question off and leaves the batch unshown; p lets a
// follower go free.
func (o *guessOverlay) Key(msg tea.KeyMsg) (bool, tea.Cmd) {
	k := &o.p.keys
	switch {
	case key.Matches(msg, k.AnswerRetrain):
		return true, o.p.answer(o.t, true)
	case key.Matches(msg, k.AnswerKeep):
		return true, o.p.answer(o.t, false)
	case key.Matches(msg, k.NotNow):
		if tr := o.p.tour; tr != nil && !tr.arrived && tr.stops[tr.i].Quiz {
			// A quiz put off shows its stop all the same.
			o.p.goTo(o.t)
			return true, o.p.showStop()
		}
		return true, nil
	case key.Matches(msg, k.GoFree):
		return true, o.p.toggleFollow()
	}
	return false, nil
}

// questionCallout is the question about batch t, with the room's answers for a presenter.
func (p *Player) questionCallout(t int) *callout {
	st := p.st
	tp := p.yourModel(t)
	c := &callout{kind: calloutReveal, pane: paneBatch, title: fmt.Sprintf("guess · batch %d", t)}
	c.head = []string{st.Bold.Render(fmt.Sprintf("RETRAIN or KEEP at %d?", t))}
	if i, ok := p.quizStop(t); ok {
		// The tour's question: its own words first.
		c.title = fmt.Sprintf("tour %d/%d · guess batch %d", i+1, len(p.opt.Scenario.Tour), t)
		c.head = append([]string{strings.TrimSpace(p.sayText(p.opt.Scenario.Tour[i])), ""}, c.head...)
	}
	c.text = fmt.Sprintf("Your strategy uses M_%d, trained at %d; the batch pane shows batch %d and where M_%d errs on it. Retraining at %d costs R = %s; keeping M_%d costs C[%d, %d], shown with the answer.",
		tp, tp, t, tp, t, num(p.s.retrainCost(p.Scale)(t)), tp, tp, t)
	if a, n := p.guess.score(); n > 0 {
		c.text += fmt.Sprintf(" Score so far: %d of %d.", a, n)
	}
	if p.room.presenting() {
		v := p.room.view
		c.head = append(c.head, st.Bold.Render(fmt.Sprintf("The room: %d RETRAIN / %d KEEP", v.Retrain, v.Keep))+
			st.Dim.Render(fmt.Sprintf(" (%d of %d following)", v.Retrain+v.Keep, v.Followers)))
	}
	c.foot = "r retrain · k keep · esc not now"
	if p.room.following {
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
func (p *Player) quizStop(t int) (int, bool) {
	if p.tour == nil && !p.room.following {
		return 0, false
	}
	for i, st := range p.opt.Scenario.Tour {
		if st.Quiz && st.At == t {
			return i, true
		}
	}
	return 0, false
}
