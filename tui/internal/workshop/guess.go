package workshop

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// Guess is "guess the decision" (key g, or a tour's quiz stop): before an online batch t is
// shown the player asks "RETRAIN or KEEP at t?", then shows the batch with the Oracle's decision
// and what each choice costs there (C[t', t] to keep the model in use t', R_t to retrain), and
// keeps a score. Each answer is about a model in use: in a guess round the one the player's own
// answers left when they answered the batch before, else (the round's first question, a tour's
// quiz) the Oracle's, whose path the tour tells. The answers are shown as the results pane's row
// "You", over the batches answered only: nobody decided the others.
type Guess struct {
	on      bool
	answers map[int]answer
	agreed  map[int]bool // batch -> the answer was the Oracle's decision (set when revealed)
	you     youCache
}

// answer is one answer: RETRAIN or KEEP, about keeping model, the model in use when it was asked.
type answer struct {
	retrain bool
	model   int
}

// youCache keeps the "You" row for one position, R and set of answers.
type youCache struct {
	pos, answers int
	scale        float64
	m            *sim.Matrix // the run's, or a what-if's
	provisional  bool        // compared with the best so far, not yet the Oracle
	you          *pane.You
}

func (g *Guess) reset() {
	*g = Guess{answers: map[int]answer{}, agreed: map[int]bool{}}
}

// Score is the round's score: the revealed answers that were the Oracle's decision, of the
// answers revealed.
func (g *Guess) Score() (agreed, of int) {
	for _, ok := range g.agreed {
		if ok {
			agreed++
		}
	}
	return agreed, len(g.agreed)
}

// ToggleGuess starts or ends the guess round.
func (w *Workshop) ToggleGuess(f Frame) effect.Effects {
	g := &w.guess
	g.on = !g.on
	if !g.on {
		if c := w.callout; c != nil && c.Kind == RevealCallout {
			w.callout = nil // the round's last answer goes with it
		}
		if c := w.summary(f, "guess round", true); c != nil {
			w.callout = c
		}
		a, n := g.Score()
		return effect.Effects{effect.Notice(fmt.Sprintf("guess round over: %d of %d as the Oracle decided; g starts it again", a, n))}
	}
	clear(w.room.asked)
	e := effect.Effects{effect.Play(false), effect.Notice(fmt.Sprintf("guess round: each step into batches %d..%d asks RETRAIN or KEEP first; g ends it", f.Scenario.Offline+1, f.Batches-1))}
	if g.needs(f, f.Pos+1) {
		e = append(e, w.ask(f.Pos+1)...)
	}
	return e
}

// needs reports whether the round asks about batch t before showing it.
func (g *Guess) needs(f Frame, t int) bool {
	_, answered := g.answers[t]
	return g.on && !answered && t > f.Scenario.Offline && t < f.Batches && f.Pos == t-1
}

// Step asks about the next batch before the player steps or plays into it: true when it asks.
func (w *Workshop) Step(f Frame) (effect.Effects, bool) {
	if !w.guess.needs(f, f.Pos+1) {
		return nil, false
	}
	return append(effect.Effects{effect.Play(false)}, w.ask(f.Pos+1)...), true
}

// ask puts up the question about batch t.
func (w *Workshop) ask(t int) effect.Effects {
	if c := w.callout; c != nil && c.Kind != StopCallout {
		w.callout = nil
	}
	w.asked = t
	if w.room.Presenting() {
		w.room.asked[t] = true // the room's summary scores it
	}
	// The batch asked about is what the question is about: its pane shows whatever the layout.
	return effect.Effects{effect.Play(false), effect.TakeKeys{}, effect.Focus(pane.Batch)}
}

// Model is the model in use that the question about batch t is about: the one the player's own
// answers left, when they answered batch t-1 in a guess round; else the Oracle's at t-1 (in
// hindsight once the matrix is in, the best so far until then), which a tour follows and where a
// guess round joins; at the first online batch after it, the model every strategy trained there.
func (w *Workshop) Model(f Frame, t int) int {
	if a, ok := w.guess.answers[t]; ok {
		return a.model
	}
	return modelIn(w.guess.answers, t, f.Scenario.Offline, !w.tourQuiz(f, t), oracleOf(f))
}

// modelIn is the model in use a question about t is about, for the answers given: the one they
// left, when they answered t-1 on their own path (own: a guess round, not a tour's quiz); else the
// Oracle's at t-1 (oracle); at the first online batch after off, the model of off.
func modelIn(answers map[int]answer, t, off int, own bool, oracle algos.Strategy) int {
	if t-1 <= off {
		return off
	}
	if prev, ok := answers[t-1]; ok && own {
		if prev.retrain {
			return t - 1
		}
		return prev.model
	}
	if i := t - 1 - oracle.Start; i >= 0 && i < len(oracle.Model) {
		return oracle.Model[i]
	}
	return off
}

// oracleOf is the Oracle's strategy as f knows it: over the whole online block once the matrix is
// in, the best so far up to the batch shown until then.
func oracleOf(f Frame) algos.Strategy {
	results := f.Results
	if whole := f.WholeBlock; whole != nil {
		if r := whole(); r != nil {
			results = r
		}
	}
	for _, r := range results {
		if r.Algorithm == algos.NameOracle {
			return r.Strategy
		}
	}
	return algos.Strategy{}
}

// answer records the answer about batch t and shows the batch; a follower waits for the
// presenter to show it, and the room counts the answer.
func (w *Workshop) answer(f Frame, t int, retrain bool) effect.Effects {
	g := &w.guess
	g.answers[t] = answer{retrain: retrain, model: w.Model(f, t)}
	g.you = youCache{}
	r := &w.room
	if r.Presenting() {
		// The room's answers as they stand when the presenter answers: the question closes with it.
		v := r.m.View()
		r.tally[t] = [2]int{v.Retrain, v.Keep}
	}
	if r.following {
		// The Oracle's decision goes with the answer, for the room's record: known once the run
		// is computed (the Oracle is the paper's, in hindsight).
		var oracle, known bool
		if whole := f.WholeBlock; whole != nil {
			if res := whole(); res != nil {
				oracle, known = oracleRetrains(res, t), true
			}
		}
		r.m.Answer(t, retrain, oracle, known)
		w.callout = &Callout{Kind: WaitCallout, Pane: pane.Matrix, Title: fmt.Sprintf("guess · batch %d", t),
			Text: fmt.Sprintf("You said %s at %d. The presenter shows the batch and the Oracle's decision.", word(retrain), t),
			Foot: "p to go free"}
		return nil
	}
	return effect.Effects{effect.GoTo(t), Then(func(f Frame) effect.Effects {
		if f.Pos < t {
			return effect.Effects{effect.Ahead(t)} // shown, and revealed, when the engine has it
		}
		return w.reveal(f, t)
	})}
}

// reveal shows the Oracle's decision at t next to the answer, in the tour's callout at a quiz stop.
func (w *Workshop) reveal(f Frame, t int) effect.Effects {
	g := &w.guess
	if a, ok := g.answers[t]; ok {
		if _, done := g.agreed[t]; !done {
			g.agreed[t] = a.retrain == oracleRetrains(f.Results, t)
		}
	}
	if at, ok := w.tour.quizAhead(); ok && at == t {
		return w.showStop(f)
	}
	c := &Callout{Kind: RevealCallout, Pane: pane.Batch, Title: fmt.Sprintf("guess · batch %d", t), Head: w.revealLines(f, t)}
	if g.on {
		c.Foot = "→ next question · g end the round"
	}
	w.callout = c
	return nil
}

// RevealDue reveals an answered batch once it is shown (a follower's, when the presenter shows
// it; an answer given before the engine had the batch).
func (w *Workshop) RevealDue(f Frame) effect.Effects {
	g := &w.guess
	t := f.Pos
	a, ok := g.answers[t]
	if !ok {
		return nil
	}
	if _, done := g.agreed[t]; done {
		return nil
	}
	if c := w.callout; c == nil || c.Kind == WaitCallout || c.Kind == RevealCallout {
		return w.reveal(f, t)
	}
	g.agreed[t] = a.retrain == oracleRetrains(f.Results, t)
	return nil
}

// oracleRetrains reports whether the Oracle retrains at t (t <= the batch shown) in results, the
// one replay every pane reads: in hindsight over the whole online block once the matrix is in, the
// best so far while it computes.
func oracleRetrains(results []algos.Result, t int) bool {
	for _, r := range results {
		if r.Algorithm == algos.NameOracle {
			_, ok := slices.BinarySearch(r.Strategy.Retrains, t)
			return ok
		}
	}
	return false
}

// revealLines say what the Oracle did at t, what the answer was and the score, what each choice
// costs the player's own strategy at t, and, to a presenter, the room's answers.
func (w *Workshop) revealLines(f Frame, t int) []string {
	g, st := &w.guess, f.Styles
	if t >= f.Computed {
		return nil
	}
	// The cost matrix the panes show (the what-if's when one is shown) at the R in force.
	c := algos.Costs{M: f.Matrix, R: f.R}
	who, hind := "the Oracle", "in hindsight over the whole online block"
	if f.Provisional {
		who, hind = pane.BestSoFar, fmt.Sprintf("over batches %d..%d, all computed so far; the Oracle needs the whole block", f.Scenario.Offline, t)
	}
	oracle := oracleRetrains(f.Results, t)
	or := "KEEPS its model"
	if oracle {
		or = "RETRAINS"
	}
	lines := []string{st.Bold.Render(fmt.Sprintf("At %d %s %s", t, who, or)) + st.Dim.Render(", "+hind+".")}
	a, n := g.Score()
	if ans, ok := g.answers[t]; ok {
		mark := "✗ not as " + who
		if ans.retrain == oracle {
			mark = "✓ as " + who
		}
		lines = append(lines, fmt.Sprintf("You said %s: %s · score %d of %d", word(ans.retrain), mark, a, n))
	} else {
		lines = append(lines, fmt.Sprintf("You did not answer · score %d of %d", a, n))
	}
	tp := w.Model(f, t)
	lines = append(lines, fmt.Sprintf("For you: KEEP M_%d costs C[%d, %d] = %s, RETRAIN costs R = %s", tp, tp, t,
		draw.Num(c.At(tp, t)), draw.Num(c.R(t))))
	if r := &w.room; r.Presenting() {
		if n, ok := r.tally[t]; ok {
			lines = append(lines, fmt.Sprintf("The room said %d RETRAIN / %d KEEP", n[0], n[1]))
			lines = append(lines, w.roomRight(t, oracle, who)...)
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

// You is the player's own answers up to the batch shown, as the results pane's row "You": over
// the batches answered only, each the cost of the answer given the model in use it was about,
// against what the Oracle (the one replay every pane reads) paid at the same batches; nil before
// an answer.
func (w *Workshop) You(f Frame) *pane.You {
	g := &w.guess
	if len(g.answers) == 0 || f.Pos < f.Scenario.Offline || f.Pos >= f.Computed {
		return nil
	}
	k := youCache{pos: f.Pos, answers: len(g.answers), scale: f.Scale, m: f.Matrix, provisional: f.Provisional}
	if c := g.you; c.you != nil && c.pos == k.pos && c.answers == k.answers && c.scale == k.scale && c.m == k.m && c.provisional == k.provisional {
		return c.you
	}
	k.you = youOf(f, g.answers)
	g.you = k
	return k.you
}

// youOf is answers as the row You: over the batches answered up to f's batch, each the cost of
// the answer given the model in use it was about, beside the Oracle's cost at the same batches in
// f's results; nil when no answer is up to f's batch.
func youOf(f Frame, answers map[int]answer) *pane.You {
	if f.Pos >= f.Computed {
		return nil
	}
	var oracle algos.Strategy
	for _, r := range f.Results {
		if r.Algorithm == algos.NameOracle {
			oracle = r.Strategy
		}
	}
	m := f.Matrix
	c := algos.Costs{M: m, R: f.R}
	y := &pane.You{Provisional: f.Provisional}
	acc := 0.0
	for t, a := range answers {
		i := t - oracle.Start
		if t > f.Pos || i <= 0 || i >= len(oracle.Cumulative) {
			continue
		}
		y.Answers++
		if a.retrain {
			y.Retrains++
			y.Cost += c.R(t)
		} else {
			y.Cost += c.At(a.model, t)
		}
		y.Oracle += oracle.Cumulative[i] - oracle.Cumulative[i-1]
		if _, retrains := slices.BinarySearch(oracle.Retrains, t); retrains == a.retrain {
			y.Agreed++
		}
		acc += m.QueryAccuracy(a.model, t)
		if t == f.Pos {
			y.Now = "keep"
			if a.retrain {
				y.Now = "RETRAIN"
			}
		}
	}
	if y.Answers == 0 {
		return nil
	}
	y.QueryAccuracy = acc / float64(y.Answers)
	y.Gap, y.SCPE = y.Cost-y.Oracle, math.NaN()
	if y.Oracle > 0 {
		y.SCPE = 100 * math.Abs(y.Gap) / y.Oracle
	}
	return y
}

// Question is the callout asking the question up, with the room's answers for a presenter; nil
// when no question is up.
func (w *Workshop) Question(f Frame) *Callout {
	t, ok := w.Asking()
	if !ok {
		return nil
	}
	g, st := &w.guess, f.Styles
	tp := w.Model(f, t)
	c := &Callout{Kind: RevealCallout, Pane: pane.Batch, Title: fmt.Sprintf("guess · batch %d", t)}
	c.Head = []string{st.Bold.Render(fmt.Sprintf("RETRAIN or KEEP at %d?", t))}
	if i, ok := w.quizStop(f, t); ok {
		// The tour's question: its own words first.
		c.Title = fmt.Sprintf("tour %d/%d · guess batch %d", i+1, len(f.Scenario.Tour), t)
		c.Head = append([]string{strings.TrimSpace(sayText(f, f.Scenario.Tour[i])), ""}, c.Head...)
	}
	c.Text = fmt.Sprintf("%s; the batch pane shows batch %d and where M_%d errs on it. Retraining at %d costs R = %s; keeping M_%d costs C[%d, %d], shown with the answer.",
		w.inUse(f, t, tp), t, tp, t, draw.Num(f.R(t)), tp, tp, t)
	if a, n := g.Score(); n > 0 {
		c.Text += fmt.Sprintf(" Score so far: %d of %d.", a, n)
	}
	r := &w.room
	if r.Presenting() {
		v := r.view
		c.Head = append(c.Head, st.Bold.Render(fmt.Sprintf("The room: %d RETRAIN / %d KEEP", v.Retrain, v.Keep))+
			st.Dim.Render(fmt.Sprintf(" (%d of %d following)", v.Retrain+v.Keep, v.Followers)))
	}
	c.Foot = "r retrain · k keep · esc not now"
	if r.following {
		c.Foot += " · p go free"
	}
	return c
}

// inUse says whose model the question about t is about: the player's own path, or the Oracle's,
// which a tour follows and a guess round joins.
func (w *Workshop) inUse(f Frame, t, tp int) string {
	own := !w.tourQuiz(f, t)
	switch prev, ok := w.guess.answers[t-1]; {
	case t-1 <= f.Scenario.Offline:
		return fmt.Sprintf("The model in use is M_%d, which every strategy trained at %d", tp, tp)
	case ok && own && prev.retrain:
		return fmt.Sprintf("Your strategy uses M_%d: you retrained at %d", tp, tp)
	case ok && own:
		return fmt.Sprintf("Your strategy uses M_%d, trained at %d", tp, tp)
	case f.Provisional:
		return fmt.Sprintf("The model in use is M_%d, the %s's (the Oracle needs the whole block)", tp, pane.BestSoFar)
	}
	return fmt.Sprintf("The model in use is M_%d, the Oracle's so far", tp)
}

// tourQuiz reports whether the question about t is a tour's quiz (played, or followed).
func (w *Workshop) tourQuiz(f Frame, t int) bool {
	_, ok := w.quizStop(f, t)
	return ok
}

// quizStop is the tour's quiz stop at batch t, when the player plays the tour or follows a
// presenter who does.
func (w *Workshop) quizStop(f Frame, t int) (int, bool) {
	if !w.tour.On() && !w.room.following {
		return 0, false
	}
	for i, st := range f.Scenario.Tour {
		if st.Quiz && st.At == t {
			return i, true
		}
	}
	return 0, false
}
