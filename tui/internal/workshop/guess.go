package workshop

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/keys"
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
	on bool
	// round numbers the rounds and tours played: a batch answered in an earlier one is asked again.
	round   int
	answers map[int]answer
	agreed  map[int]bool // batch -> the answer was the Oracle's decision (set when revealed)
	you     youCache
	keys    GuessKeys
}

// GuessKeys are the guess round's keys: g starts or ends it; while a question is up, r and k
// answer it and esc (or q, g) puts it off.
type GuessKeys struct{ Guess, AnswerRetrain, AnswerKeep, NotNow key.Binding }

func newGuessKeys() GuessKeys {
	return GuessKeys{
		Guess:         keys.Bind([]string{"g"}, "g", "guess the decision"),
		AnswerRetrain: keys.Bind([]string{"r"}, "r", "answer RETRAIN"),
		AnswerKeep:    keys.Bind([]string{"k"}, "k", "answer KEEP"),
		NotNow:        keys.Bind([]string{"esc", "q", "g"}, "esc", "not now"),
	}
}

func (k *GuessKeys) enable(m keys.Mode) {
	keys.Enable(m.Drives() && !m.Bar, &k.Guess)
	keys.Enable(m.Question, &k.AnswerRetrain, &k.AnswerKeep, &k.NotNow)
}

// answer is one answer: RETRAIN or KEEP, about keeping model, the model in use when it was asked,
// on the run it was asked on (score.go), in round.
type answer struct {
	retrain bool
	model   int
	on      *askedOn
	round   int
}

// youCache keeps the "You" row for one position, R and set of answers.
type youCache struct {
	pos, answers int
	scale        float64
	m            *sim.Matrix // the run's, or a what-if's
	provisional  bool        // compared with the best so far, not yet the Oracle
	you          *pane.You
}

// reset forgets the round and its answers; the keys stay.
func (g *Guess) reset() {
	*g = Guess{answers: map[int]answer{}, agreed: map[int]bool{}, keys: g.keys, round: g.round + 1}
}

// newRound starts a round of questions (a guess round, a tour from its start): a batch answered
// before is asked again, and its new answer replaces the old.
func (g *Guess) newRound() { g.round++ }

// On reports whether a guess round is going on.
func (g *Guess) On() bool { return g.on }

// Answered is how many batches have an answer; answered, whether batch t has one;
// answeredNow, whether it has one given in the round going on.
func (g *Guess) Answered() int       { return len(g.answers) }
func (g *Guess) answered(t int) bool { _, ok := g.answers[t]; return ok }
func (g *Guess) answeredNow(t int) bool {
	a, ok := g.answers[t]
	return ok && a.round == g.round
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

// ToggleGuess starts or ends the guess round; at its end a presenter's room is shown its summary.
// A round asks about every batch it steps into, those answered in an earlier round or tour too.
func (w *Workshop) ToggleGuess(f Frame) effect.Effects {
	g, b := &w.guess, &w.board
	g.on = !g.on
	if !g.on {
		b.asked = -1              // g with the round's question up ends the round (QuestionKey)
		b.takeDown(RevealCallout) // the round's last answer goes with it
		b.show(w.room.summary(f, "guess round", true, b.questions, b.since))
		a, n := g.Score()
		return effect.Effects{effect.Notice(fmt.Sprintf("guess round over: %d of %d as the Oracle decided; g starts it again", a, n))}
	}
	b.newRound()
	g.newRound()
	e := effect.Effects{effect.Play(false), effect.Notice(fmt.Sprintf("guess round: each step into batches %d..%d asks RETRAIN or KEEP first; g ends it", f.Scenario.Offline+1, f.Batches-1))}
	if g.needs(f, f.Pos+1) {
		e = append(e, b.ask(f, f.Pos+1, w.room.Presenting())...)
	}
	return e
}

// needs reports whether the round asks about batch t before showing it: t is the next batch, in
// the online block after its first batch, and not answered in this round.
func (g *Guess) needs(f Frame, t int) bool {
	return g.on && !g.answeredNow(t) && t > f.Scenario.Offline && t < f.Batches && f.Pos == t-1
}

// Step asks about the next batch before the player steps or plays into it: true when it asks. A
// batch answered in this round already is not asked again: the step shows it with its own reveal
// and says so, in place of the reveal of the batch before.
func (w *Workshop) Step(f Frame) (effect.Effects, bool) {
	t, g := f.Pos+1, &w.guess
	switch a, ok := g.answers[t]; {
	case g.needs(f, t):
		return append(effect.Effects{effect.Play(false)}, w.board.ask(f, t, w.room.Presenting())...), true
	case g.on && ok && a.round == g.round && t < f.Computed && !w.room.following:
		w.board.takeDown(RevealCallout)
		return effect.Effects{effect.Play(false), effect.GoTo(t), Then(func(f Frame) effect.Effects {
			return append(w.reveal(f, t), effect.Notice(fmt.Sprintf("batch %d was answered in this round (%s): its answer is shown, not asked again", t, word(a.retrain))))
		})}, true
	}
	return nil, false
}

// Model is the model in use that the question about batch t is about: the one the player's own
// answers left, when they answered batch t-1 in a guess round; else the Oracle's at t-1 (in
// hindsight once the matrix is in, the best so far until then), which a tour follows and where a
// guess round joins; at the first online batch after it, the model every strategy trained there.
func (w *Workshop) Model(f Frame, t int) int {
	if a, ok := w.guess.answers[t]; ok {
		return a.model
	}
	_, quiz := w.tour.quizStop(f, t, w.room.following)
	return modelIn(w.guess.answers, t, f.Scenario.Offline, !quiz, oracleOf(f))
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

// answer records the answer about batch t, on the run the question was asked on, and shows the
// batch; a follower waits for the presenter to show it, and the room counts the answer.
func (w *Workshop) answer(f Frame, t int, retrain bool) effect.Effects {
	g := &w.guess
	on := w.board.on
	if on == nil {
		on = runOf(f)
	}
	g.answers[t] = answer{retrain: retrain, model: w.Model(f, t), on: on, round: g.round}
	delete(g.agreed, t) // answered again: scored again
	g.you = youCache{}
	if c := w.room.answered(f, t, retrain); c != nil {
		w.board.callout = c // a follower's, waiting for the presenter
		return nil
	}
	return effect.Effects{effect.GoTo(t), Then(func(f Frame) effect.Effects {
		if f.Pos < t {
			return effect.Effects{effect.Ahead(t)} // shown, and revealed, when the engine has it
		}
		return w.reveal(f, t)
	})}
}

// decided is the Oracle's decision at t on the run the answer about t was asked on (the run
// shown for a batch not answered), and what the reveal calls the Oracle: the Oracle, or the best
// so far while the matrix computes.
func (w *Workshop) decided(f Frame, t int) (retrain bool, who string) {
	on := runOf(f)
	if a, ok := w.guess.answers[t]; ok && a.on != nil {
		on = a.on
	}
	o, provisional := on.oracleIn(f)
	who = "the Oracle"
	if provisional {
		who = pane.BestSoFar
	}
	return retrains(o, t), who
}

// reveal shows the Oracle's decision at t next to the answer, in the tour's callout at a quiz stop.
func (w *Workshop) reveal(f Frame, t int) effect.Effects {
	g := &w.guess
	if a, ok := g.answers[t]; ok {
		if _, done := g.agreed[t]; !done {
			oracle, _ := w.decided(f, t)
			g.agreed[t] = a.retrain == oracle
		}
	}
	if at, ok := w.tour.quizAhead(); ok && at == t {
		return w.showStop(f)
	}
	c := &Callout{Kind: RevealCallout, Pane: pane.Batch, Title: fmt.Sprintf("guess · batch %d", t)}
	c.Head, _ = w.revealOf(f, t)
	if g.on {
		c.Foot = "→ next question · g end the round"
	}
	w.board.callout = c
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
	if c := w.board.callout; c == nil || c.Kind == WaitCallout || c.Kind == RevealCallout {
		return w.reveal(f, t)
	}
	oracle, _ := w.decided(f, t)
	g.agreed[t] = a.retrain == oracle
	return nil
}

// oracleRetrains reports whether the Oracle retrains at t (t <= the batch shown) in results, the
// one replay every pane reads: in hindsight over the whole online block once the matrix is in, the
// best so far while it computes.
func oracleRetrains(results []algos.Result, t int) bool {
	for _, r := range results {
		if r.Algorithm == algos.NameOracle {
			return retrains(r.Strategy, t)
		}
	}
	return false
}

// revealOf is the reveal of batch t, once computed: what the Oracle did there and the player's
// answer (revealLines), and, to a presenter, the room's answers; and whether t was answered.
func (w *Workshop) revealOf(f Frame, t int) ([]string, bool) {
	lines := w.guess.revealLines(f, t, w.Model(f, t))
	if lines != nil {
		oracle, who := w.decided(f, t)
		lines = append(lines, w.room.tallyLines(t, oracle, who, w.board.since)...)
	}
	return lines, w.guess.answered(t)
}

// oracleName is what the reveal calls the Oracle at t, and how it knows its decision: in
// hindsight, or as the best so far while the matrix computes.
func oracleName(f Frame, t int, provisional bool) (who, hind string) {
	if provisional {
		return pane.BestSoFar, fmt.Sprintf("over batches %d..%d, all computed so far; the Oracle needs the whole block", f.Scenario.Offline, t)
	}
	return "the Oracle", "in hindsight over the whole online block"
}

// revealLines say what the Oracle did at t, what the answer was and the score, and what each
// choice costs the player's own strategy from t, whose model in use is tp, until the Oracle
// decides again (price), on the run the question was asked on; nil before t is computed.
func (g *Guess) revealLines(f Frame, t, tp int) []string {
	st := f.Styles
	if t >= f.Computed {
		return nil
	}
	on := runOf(f)
	ans, answered := g.answers[t]
	if answered && ans.on != nil {
		on = ans.on
	}
	o, provisional := on.oracleIn(f)
	who, hind := oracleName(f, t, provisional)
	oracle := retrains(o, t)
	or := "KEEPS its model"
	if oracle {
		or = "RETRAINS"
	}
	lines := []string{st.Bold.Render(fmt.Sprintf("At %d %s %s", t, who, or)) + st.Dim.Render(", "+hind+".")}
	a, n := g.Score()
	if answered {
		mark := "✗ not as " + who
		if ans.retrain == oracle {
			mark = "✓ as " + who
		}
		lines = append(lines, fmt.Sprintf("You said %s: %s · score %d of %d", word(ans.retrain), mark, a, n))
	} else {
		lines = append(lines, fmt.Sprintf("You did not answer · score %d of %d", a, n))
	}
	c := on.costs()
	keep, ok := price(c, o, t, tp, false, -1, f.Computed-1)
	if !ok {
		return lines
	}
	re, _ := price(c, o, t, tp, true, -1, f.Computed-1)
	span := fmt.Sprintf("at %d", t)
	if keep.last > t {
		span = fmt.Sprintf("over %d..%d", t, keep.last)
	}
	return append(lines, fmt.Sprintf("For you, %s (until %s decides again): KEEP M_%d costs %s, RETRAIN %s (R = %s at %d); %s pays %s",
		span, who, tp, draw.Num(keep.cost), draw.Num(re.cost), draw.Num(c.R(t)), t, who, draw.Num(keep.oracle)))
}

func word(retrain bool) string {
	if retrain {
		return "RETRAIN"
	}
	return "KEEP"
}

// You is the player's own answers up to the batch shown, as the results pane's row "You": over
// the batches answered only, each priced on the run it was asked on until the Oracle decides
// again (score.go) and cut at the batch shown, against what the Oracle paid over the same
// batches; nil before an answer.
func (g *Guess) You(f Frame) *pane.You {
	if len(g.answers) == 0 || f.Pos < f.Scenario.Offline || f.Pos >= f.Computed {
		return nil
	}
	k := youCache{pos: f.Pos, answers: len(g.answers), scale: f.Scale, m: f.Matrix, provisional: f.Provisional}
	if c := g.you; c.you != nil && c.pos == k.pos && c.answers == k.answers && c.scale == k.scale && c.m == k.m && c.provisional == k.provisional {
		return c.you
	}
	k.you = youOf(f, g.answers, f.Pos)
	g.you = k
	return k.you
}

// youOf is answers as the row You: over the batches answered up to upTo, each priced on the run
// it was asked on (the one f shows when it has none) until the next decision, beside what the
// Oracle of that run paid over the same batches; nil when no answer is up to upTo.
func youOf(f Frame, answers map[int]answer, upTo int) *pane.You {
	if f.Pos >= f.Computed {
		return nil
	}
	batches := make([]int, 0, len(answers))
	for t := range answers {
		if t <= upTo {
			batches = append(batches, t)
		}
	}
	slices.Sort(batches)
	y := &pane.You{}
	acc := 0.0
	for k, t := range batches {
		a := answers[t]
		on := a.on
		if on == nil {
			on = runOf(f)
		}
		o, provisional := on.oracleIn(f)
		next := -1
		if k+1 < len(batches) {
			next = batches[k+1]
		}
		p, ok := price(on.costs(), o, t, a.model, a.retrain, next, upTo)
		if !ok {
			continue
		}
		y.Answers++
		y.Provisional = y.Provisional || provisional
		model := a.model
		if a.retrain {
			y.Retrains++
			model = t
		}
		y.Cost += p.cost
		y.Oracle += p.oracle
		if retrains(o, t) == a.retrain {
			y.Agreed++
		}
		acc += on.m.QueryAccuracy(model, t)
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
	i, quiz := w.tour.quizStop(f, t, w.room.following)
	if quiz {
		// The tour's question: its own words first.
		c.Title = fmt.Sprintf("tour %d/%d · guess batch %d", i+1, len(f.Scenario.Tour), t)
		c.Head = append([]string{strings.TrimSpace(sayText(f, f.Scenario.Tour[i])), ""}, c.Head...)
	}
	c.Text = fmt.Sprintf("%s; the batch pane shows batch %d and where M_%d errs on it. Retraining at %d costs R = %s; keeping M_%d costs C[%d, %d], and each choice goes on costing until the next decision: the answer shows both.",
		g.inUse(f, t, tp, quiz), t, tp, t, draw.Num(f.R(t)), tp, tp, t)
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
// which a tour (quiz) follows and a guess round joins.
func (g *Guess) inUse(f Frame, t, tp int, quiz bool) string {
	own := !quiz
	switch prev, ok := g.answers[t-1]; {
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
