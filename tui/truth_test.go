package tui

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/sim"
)

// resultsRow is the results pane's row of an algorithm as its words ("Oracle", "RETRAIN", ...).
func resultsRow(t *testing.T, p *Player, label string) []string {
	t.Helper()
	for _, l := range content(paneBox(p, paneResults)) {
		f := strings.Fields(strings.TrimLeft(string(l), " ▶"))
		if len(f) > 0 && strings.HasPrefix(strings.TrimLeft(string(l), " ▶"), label+" ") {
			return f[len(strings.Fields(label)):]
		}
	}
	t.Fatalf("no row %q in the results:\n%s", label, ansi.Strip(paneBox(p, paneResults)))
	return nil
}

// The Oracle every pane shows is the paper's: the DP over the whole online block. On gauss-d with
// the matrix in, it retrains at 29, 33 and 38 because of batches after them; at each of those
// batches the results row reads RETRAIN, its retrains and its cost so far are those of the path
// cara run reports (the same Evaluate over the whole block, cut at the batch), and the guess
// reveal, the decisions strip and the matrix readout say the same.
func TestOracleIsThePapers(t *testing.T) {
	if testing.Short() {
		t.Skip("gauss-d: 100 batches of 1000 points")
	}
	s := loadEmbedded(t, "gauss-d")
	p := pumpedScenario(t, s, asciiStyles(), 160, 48)
	full, err := s.Evaluation.Evaluate(p.s.Matrix, s.RetrainCost, []algos.Name{algos.NameOracle}, s.Batches-1)
	if err != nil {
		t.Fatal(err)
	}
	path := full[0].Strategy
	if len(path.Retrains) < 3 || !slices.Equal(path.Retrains[:3], []int{29, 33, 38}) {
		t.Fatalf("gauss-d's Oracle retrains at %v, want 29, 33, 38 first (what this test is about)", path.Retrains)
	}
	for k, at := range path.Retrains[:3] {
		goTo(p, at)
		if p.rp.provisional {
			t.Fatal("the replay of a finished run is provisional")
		}
		row := resultsRow(t, p, "Oracle")
		want := []string{"RETRAIN", fmt.Sprint(k + 1), cost(path.Cumulative[at-s.Offline])}
		if !slices.Equal(row[:3], want) {
			t.Errorf("at %d the Oracle's row reads %v, want %v", at, row[:3], want)
		}
		if !oracleRetrains(&p.rp, at) {
			t.Errorf("at %d the guess round says the Oracle keeps", at)
		}
		if lines := p.guess.revealLines(p, at); !strings.Contains(ansi.Strip(lines[0]), fmt.Sprintf("At %d the Oracle RETRAINS", at)) {
			t.Errorf("at %d the reveal says %q", at, ansi.Strip(lines[0]))
		}
		mp := p.panes.matrix
		mp.cur.On, mp.cur.At = true, [2]int{at, at}
		if r := mp.readout(p.frame()); !strings.Contains(r, "Oracle retrains here") {
			t.Errorf("at %d the readout of C[%d, %d] is %q", at, at, at, r)
		}
		mp.cur.On = false
	}
}

// While the matrix is still being computed the optimum over the batches seen is all there is: it
// is shown as "best so far" (faint, its keeps dashed), never as the Oracle, in the results, the
// decisions, the chart's labels and the matrix legend.
func TestBestSoFarWhileComputing(t *testing.T) {
	p := pumped(t, asciiStyles(), 160, 48)
	goTo(p, 9)
	p.rp.provisional = true // as evaluate leaves it while columns are missing
	if row := resultsRow(t, p, bestSoFar); len(row) < 3 {
		t.Errorf("best-so-far row %v", row)
	}
	for i := range numPanes {
		if i == paneAbout {
			continue
		}
		if box := ansi.Strip(paneBox(p, i)); strings.Contains(box, "Oracle") {
			t.Errorf("pane %d names the Oracle while the matrix computes:\n%s", i+1, box)
		}
	}
	if legend := ansi.Strip(strings.Join(p.panes.matrix.pathLegend(p.frame()), " ")); !strings.Contains(legend, "○┄ best so far") {
		t.Errorf("matrix legend %q", legend)
	}
	// The evaluation itself: a session with columns missing replays the prefix, provisionally.
	sess := p.s
	sess.Computed = 10
	rp, err := sess.evaluate(9, 1, p.opt.Scenario.Algorithms)
	sess.Computed = p.opt.Scenario.Batches
	if err != nil || !rp.provisional {
		t.Fatalf("with 10 of %d columns: provisional %v, %v", p.opt.Scenario.Batches, rp.provisional, err)
	}
	rp, err = sess.evaluate(9, 1, p.opt.Scenario.Algorithms)
	if err != nil || rp.provisional {
		t.Fatalf("with every column: provisional %v, %v", rp.provisional, err)
	}
}

// At the first online batch every strategy trains its first model: the results say train, not
// RETRAIN, and count no retrain (covcon-d at 25 too, without -short).
func TestFirstModelReadsTrain(t *testing.T) {
	players := []*Player{pumped(t, asciiStyles(), 160, 48)}
	if !testing.Short() {
		players = append(players, pumpedScenario(t, loadEmbedded(t, "covcon-d"), asciiStyles(), 160, 48))
	}
	for _, p := range players {
		goTo(p, p.opt.Scenario.Offline)
		for _, r := range p.frame().shown() {
			row := resultsRow(t, p, p.frame().label(r.Algorithm))
			if row[0] != "train" || row[1] != "0" {
				t.Errorf("%s: %s at the first online batch, %d: %v, want train and 0 retrains", p.opt.Scenario.Name, r.Algorithm, p.Pos, row[:2])
			}
		}
	}
}

// No key derails the room: r answers RETRAIN and nothing else, so r r in the guess round answers
// the question and keeps the seed; a new run has its own key, N, refused during the guess round,
// a reveal and a tour, and asked to be confirmed otherwise.
func TestRestartAsks(t *testing.T) {
	p := pumped(t, asciiStyles(), 120, 36)
	seed := p.s.Seed
	goTo(p, p.opt.Scenario.Offline)
	press(p, "g", "l")
	if _, ok := p.overlay.(*guessOverlay); !ok {
		t.Fatalf("no question after g l: overlay %T", p.overlay)
	}
	press(p, "r", "r")
	if p.s.Seed != seed || p.Pos != p.opt.Scenario.Offline+1 || len(p.guess.answers) != 1 {
		t.Fatalf("r r in the guess round: seed %d at batch %d with %d answers; want seed %d, the answered batch, 1 answer",
			p.s.Seed, p.Pos, len(p.guess.answers), seed)
	}
	press(p, "N")
	if p.s.Seed != seed || p.overlay != nil || !strings.Contains(p.notice, "waits for the guess round") {
		t.Errorf("N in the guess round: seed %d, overlay %T, notice %q", p.s.Seed, p.overlay, p.notice)
	}
	p.guess.on = false // the round over, its answer still shown (a follower's wait, say)
	press(p, "N")
	if p.s.Seed != seed || !strings.Contains(p.notice, "waits for the answer shown") {
		t.Errorf("N over a reveal: seed %d, notice %q", p.s.Seed, p.notice)
	}
	press(p, "esc", "N")
	if _, ok := p.overlay.(*restartOverlay); !ok || !strings.Contains(stripANSI(p.View()), fmt.Sprintf("Start a new run on seed %d?", seed+1)) {
		t.Fatalf("N asks nothing: overlay %T", p.overlay)
	}
	press(p, "r")
	if p.s.Seed != seed || p.overlay != nil {
		t.Errorf("r after N restarted: seed %d", p.s.Seed)
	}
	press(p, "N", "y")
	if p.s.Seed != seed+1 {
		t.Errorf("N y: seed %d, want %d", p.s.Seed, seed+1)
	}
	q := pumpedScenario(t, smallTour(t), asciiStyles(), 120, 36)
	pumpCmd(t, q, q.tour.toggle(q))
	press(q, "N")
	if q.s.Seed != q.opt.Scenario.Seed || q.overlay != nil || !strings.Contains(q.notice, "waits for the tour") {
		t.Errorf("N in a tour: seed %d, overlay %T, notice %q", q.s.Seed, q.overlay, q.notice)
	}
}

// A presenter's N asks the presenter, saying the whole room goes with it; a follower's N is the
// presenter's to press.
func TestPresenterRestartAsks(t *testing.T) {
	pres, fol, _ := roomPlayers(t, smallTour(t))
	fol, pres = deliver(t, fol), deliver(t, pres)
	press(pres, "N")
	if v := stripANSI(pres.View()); !strings.Contains(v, "The whole room follows you there") {
		t.Errorf("the presenter's N does not ask about the room:\n%s", v)
	}
	press(pres, "esc")
	seed := fol.s.Seed
	press(fol, "N")
	if fol.overlay != nil || fol.s.Seed != seed {
		t.Errorf("a follower's N: overlay %T, seed %d", fol.overlay, fol.s.Seed)
	}
}

// A tour states the numbers of the run it plays on: on seed 1 scenario1-near's second stop quotes
// seed 1's C[0, 1] (not seed 0's, which the words were written with) and says so; its R follows
// ] at once.
func TestTourOnAnotherSeed(t *testing.T) {
	s := loadEmbedded(t, "scenario1-near")
	p, err := NewPlayer(Options{Scenario: s, Seed: s.Seed + 1, Styles: asciiStyles(), Width: 120, Height: 36, Tour: true})
	if err != nil {
		t.Fatal(err)
	}
	pump(t, p)
	zero := finished(t, s, live.NewRuns(live.RunsConfig{}))
	pumpCmd(t, p, p.tour.space(p))
	if p.tour.run == nil || p.tour.run.i != 1 || p.callout == nil {
		t.Fatalf("not at the second stop: %+v", p.tour.run)
	}
	mine, theirs := num(p.s.Matrix.Cell(0, 1).C()), num(zero.Matrix.Cell(0, 1).C())
	if mine == theirs {
		t.Fatalf("seeds 0 and 1 give the same C[0, 1] = %s: the test shows nothing", mine)
	}
	view := stripANSI(p.View())
	for _, want := range []string{"C[0, 1] = " + mine + ":", "pays R = 1.", fmt.Sprintf("Written for seed %d: the numbers are this run's, seed %d.", s.Seed, s.Seed+1)} {
		if !strings.Contains(strings.Join(strings.Fields(view), " "), want) {
			t.Errorf("the stop on seed %d lacks %q:\n%s", s.Seed+1, want, view)
		}
	}
	press(p, "]")
	if view := strings.Join(strings.Fields(stripANSI(p.View())), " "); !strings.Contains(view, "pays R = 1.25.") {
		t.Errorf("after ] the stop still says R = 1:\n%s", view)
	}
}

// diagonalStep is the colour step the matrix pane gives the diagonal at batch t, and the
// legend as drawn.
func diagonalStep(p *Player, t int) (int, string) {
	f := p.frame()
	d := p.panes.matrix.data(f)
	v, _, _ := d.value(t, t)
	return f.heat.step(v), ansi.Strip(strings.Join(p.panes.matrix.legendTall(f), "\n"))
}

// The diagonal is R: its colour follows R on a scale that stays put for the other cells (] and a
// what-if of R alike), and the colour bar says where R is. Two what-ifs that change only R share
// the run's matrix: the panes redraw all the same.
func TestDiagonalFollowsR(t *testing.T) {
	p := pumped(t, ansi256Styles(), 120, 36)
	T := p.opt.Scenario.Batches
	goTo(p, T-1)
	s0, bar0 := diagonalStep(p, T-1)
	heat := p.heat
	press(p, "]", "]", "]", "]")
	s1, bar1 := diagonalStep(p, T-1)
	if s1 <= s0 || p.heat != heat {
		t.Errorf("] four times: the diagonal's step %d -> %d, scale %+v -> %+v; want a higher step on the same scale", s0, s1, heat, p.heat)
	}
	if !strings.Contains(bar0, "R "+num(p.opt.Scenario.RetrainCost(T-1))) || !strings.Contains(bar1, "R "+num(p.frame().R())) || strings.Index(bar0, "R") == strings.Index(bar1, "R") {
		t.Errorf("colour bars %q, %q", bar0, bar1)
	}
	press(p, "[", "[", "[", "[")
	results := func() string { return ansi.Strip(paneBox(p, paneResults)) }
	for _, r := range []string{"5", "6"} {
		pumpCmd(t, p, p.s.StartWhatIf([]string{"retrain_cost=" + r}))
		if _, bar := diagonalStep(p, T-1); !strings.Contains(bar, "R "+r) {
			t.Errorf("what-if R = %s: colour bar %q", r, bar)
		}
		never, _ := p.frame().result(algos.NameNever)
		if row := resultsRow(t, p, "Never-retrain"); row[2] != cost(never.Strategy.Cost()) {
			t.Errorf("what-if R = %s: the results pane is stale, Never-retrain %v, want cost %s:\n%s", r, row, cost(never.Strategy.Cost()), results())
		}
	}
}

// The batch legend never cuts a name: at every width each entry is whole or left out.
func TestScatterLegendWholeNames(t *testing.T) {
	for _, model := range []int{7, 27, 98, 1234} {
		for w := 8; w <= 80; w++ {
			cv := newCanvas(w, 3)
			drawScatterLegend(cv, asciiStyles(), model, w, 3, 0, true)
			text := ansi.Strip(cv.String(asciiStyles()))
			if i := strings.Index(text, "(M_"); i >= 0 && !strings.Contains(text, fmt.Sprintf("(M_%d)", model)) {
				t.Errorf("M_%d at width %d: %q", model, w, text)
			}
			for _, l := range strings.Split(text, "\n") {
				for _, word := range []string{"clas", "quer", "befor"} {
					if strings.HasSuffix(strings.TrimRight(l, " "), word) {
						t.Errorf("M_%d at width %d: a cut entry in %q", model, w, l)
					}
				}
			}
		}
	}
}

// The guess round asks about batch t with batch t in view, as every algorithm sees it before
// deciding: its data, its queries and where the player's own model errs on it; only column t of C
// and the Oracle's decision stay hidden. The reveal shows the batch too.
func TestGuessShowsTheBatch(t *testing.T) {
	p := pumped(t, asciiStyles(), 120, 36)
	off := p.opt.Scenario.Offline
	goTo(p, off)
	press(p, "g", "l")
	q, ok := p.overlay.(*guessOverlay)
	if !ok {
		t.Fatalf("no question: %T", p.overlay)
	}
	at := q.t
	f := p.frame()
	if f.ask != at || f.askModel != off || p.Pos != at-1 {
		t.Fatalf("asking about %d at batch %d: frame ask %d model %d", at, p.Pos, f.ask, f.askModel)
	}
	title := p.panes.batch.Title(f)
	if want := fmt.Sprintf("Batch %d, asked about: data by class, queries, errors of your M_%d", at, off); title != want || p.Focus != paneBatch {
		t.Errorf("batch pane %q (focus %d), want %q in focus", title, p.Focus, want)
	}
	if _, ok, hidden := p.panes.matrix.data(f).value(off, at); ok || !hidden {
		t.Errorf("column %d of C shows during the question", at)
	}
	if r, ok := f.result(algos.NameOracle); ok && r.Strategy.End >= at {
		t.Errorf("the Oracle's decision at %d is in the results during the question", at)
	}
	view := stripANSI(p.View())
	if !strings.Contains(view, fmt.Sprintf("Batch %d, asked about", at)) {
		t.Errorf("the screen does not show batch %d:\n%s", at, view)
	}
	press(p, "k")
	f = p.frame()
	if f.ask != -1 || p.Pos != at || !strings.HasPrefix(p.panes.batch.Title(f), fmt.Sprintf("Batch %d:", at)) {
		t.Errorf("after the answer: batch pane %q at %d", p.panes.batch.Title(f), p.Pos)
	}
	if view := stripANSI(p.View()); !strings.Contains(view, fmt.Sprintf("Batch %d:", at)) || !strings.Contains(view, "guess · batch") {
		t.Errorf("the reveal hides the batch:\n%s", view)
	}
}

// In the offline block the chart, the decisions and the results have nothing but a note: at the
// guides' 120x36 the batch takes their room, on a 100-batch scenario.
func TestOfflineShowsTheBatch(t *testing.T) {
	p := pumpedScenario(t, loadEmbedded(t, "covcon-d", covconSmall...), asciiStyles(), 120, 36)
	goTo(p, 10)
	l := p.layout(p.frame(), 120, p.bodyHeight())
	if b := l.boxes[paneBatch]; b.collapsed || b.h < 15 {
		t.Errorf("the batch at 10 of covcon-d, 120x36: %+v", b)
	}
	for _, i := range []int{paneChart, paneDecisions} {
		if b := l.boxes[i]; b.h > 3 {
			t.Errorf("pane %d takes %d rows for a note", i+1, b.h)
		}
	}
}

// The help lists the words the panes use; a sampled matrix says how many batches a cell holds.
func TestGlossaryAndSampling(t *testing.T) {
	p := pumpedScenario(t, loadEmbedded(t, "covcon-d", covconSmall...), asciiStyles(), 120, 36)
	goTo(p, 50)
	press(p, "?")
	box, _, _ := p.overlay.View(p.st, 120, 200) // tall enough not to scroll
	help := strings.Join(strings.Fields(stripANSI(box)), " ")
	for _, want := range []string{"Words", "C[t', t] the staleness cost", "SCPE 100 ×", "θc (theta_c)", "query acc."} {
		if !strings.Contains(help, want) {
			t.Errorf("the help lacks %q", want)
		}
	}
	press(p, "esc")
	view := stripANSI(p.View())
	if !strings.Contains(view, "1 cell = 2×2 batches: z for detail") {
		t.Errorf("a sampled matrix does not say so:\n%s", view)
	}
	press(p, "1", "z")
	if view := stripANSI(p.View()); strings.Contains(view, "1 cell =") {
		t.Errorf("the zoomed matrix (one cell a cell) says it is sampled")
	}
}

// The scatter's axes belong to the run of the loaded scenario and seed, not to a name: covcon-d
// changed with --set has bounds of its own.
func TestBoundsPerLoadedScenario(t *testing.T) {
	var got []*bounds
	runs := live.NewRuns(live.RunsConfig{Workers: 2})
	for _, sets := range [][]string{nil, {"data.size=200"}} {
		sess := finished(t, loadEmbedded(t, "covcon-d", sets...), runs)
		got = append(got, scanBounds(sess)().(boundsMsg).b)
	}
	if got[0] == got[1] || slices.Equal(got[0].lo, got[1].lo) {
		t.Errorf("covcon-d and covcon-d with 200 points a batch share bounds %v", got[0].lo)
	}
}

// A line that ends more than twice as high as every other runs off the top of the chart, marked ↑
// in its label, rather than flattening the others against zero.
func TestChartClipsTheOutlier(t *testing.T) {
	mk := func(never float64) []series {
		return []series{{name: "oracle", v: []float64{1, 10}}, {name: "cara-t", v: []float64{1, 40}},
			{name: "never", v: []float64{1, 30, never}}}
	}
	if got := fitted(mk(150)); len(got) != 2 || got[0].name != "oracle" || got[1].name != "cara-t" {
		t.Errorf("Never-retrain at 150 against 40: fitted to %v", got)
	}
	if got := fitted(mk(70)); len(got) != 3 {
		t.Errorf("Never-retrain at 70 against 40: fitted to %d series, want all", len(got))
	}
	ss := mk(150)
	a := valueAxis(fitted(ss), 10)
	ls := endLabels(ss, a.lo, a.hi, 10, 40, false)
	if ls[0].names[0] != "never" || !ls[0].over || ls[0].row != 0 || !strings.HasPrefix(ls[0].rows[0][len(ls[0].rows[0])-1].text, "↑") {
		t.Errorf("the outlier's label %+v, want ↑ on the top row", ls[0])
	}
}

// Polish: v keeps the selection where it can and never moves it to the Oracle; g ending the round
// takes its last reveal down; the decisions' title names the glyphs the strips are drawn in.
func TestPolish(t *testing.T) {
	p := pumped(t, asciiStyles(), 120, 36)
	press(p, "v")
	if p.selected() != algos.NameCaraT {
		t.Errorf("v: selection %s, want CARA-T kept", p.selected())
	}
	press(p, "v")
	if p.selected() == algos.NameOracle {
		t.Error("v moved the selection to the Oracle")
	}
	press(p, "v")
	goTo(p, p.opt.Scenario.Offline)
	press(p, "g", "l", "k")
	if p.callout == nil || p.callout.kind != calloutReveal {
		t.Fatal("no reveal")
	}
	press(p, "g")
	if p.callout != nil {
		t.Errorf("the reveal outlives the round: %+v", p.callout)
	}
	for _, c := range []struct {
		w    int
		want string
	}{{160, "│ retrain"}, {10, "⡇ retrain"}} {
		dp := p.panes.decisions
		dp.View(p.frame(), c.w, 14)
		if title := dp.Title(p.frame()); !strings.Contains(title, c.want) {
			t.Errorf("decisions %d wide: title %q, want %q", c.w, title, c.want)
		}
	}
}

// The scatter draws the true decision boundary of a generated scenario: small.yaml's concept is
// x2 > x1 (then x2 < x1), so the cells it marks lie on the diagonal; CSV data, whose concept is
// unknown, get none.
func TestScatterTrueBoundary(t *testing.T) {
	p := pumped(t, asciiStyles(), 120, 36)
	b, err := p.s.Stream.Batch(2)
	if err != nil {
		t.Fatal(err)
	}
	bd := newBounds(2)
	bd.lo, bd.hi = []float64{0, 0}, []float64{1, 1}
	a := axesFor(bd, 0, 1, 40, 20, 1)
	edge := boundary(p.s.Stream, 2, b, a)
	n := 0
	for i, on := range edge {
		if !on {
			continue
		}
		n++
		x := a.xlo + (float64(i%a.pw)+0.5)/float64(a.pw)*(a.xhi-a.xlo)
		y := a.ylo + (float64(a.ph-1-i/a.pw)+0.5)/float64(a.ph)*(a.yhi-a.ylo)
		if math.Abs(x-y) > 2*(a.yhi-a.ylo)/float64(a.ph) {
			t.Errorf("boundary cell %d at (%.2f, %.2f), off the diagonal", i, x, y)
		}
	}
	if n < a.ph/2 {
		t.Errorf("%d boundary cells on a %dx%d plot", n, a.pw, a.ph)
	}
	if boundary(struct{ sim.Stream }{p.s.Stream}, 2, b, a) != nil {
		t.Error("a stream without a concept has a boundary")
	}
}

// A query over data keeps the class in sight: ⊕ over class 0, ⊗ over class 1, + alone.
func TestQueriesKeepClasses(t *testing.T) {
	for _, c := range []struct {
		cell scatterCell
		want rune
	}{
		{scatterCell{n: [2]int{3, 1}, q: 1}, '⊕'},
		{scatterCell{n: [2]int{0, 2}, q: 2}, '⊗'},
		{scatterCell{n: [2]int{0, 2}, wrong: [2]int{0, 1}, q: 2}, '⊗'},
		{scatterCell{q: 1}, '+'},
		{scatterCell{n: [2]int{2, 0}}, 'o'},
	} {
		if r, _ := scatterGlyph(c.cell); r != c.want {
			t.Errorf("%+v: %q, want %q", c.cell, r, c.want)
		}
	}
}

// A, B and C on the focused matrix show either term of C = A − B on a scale of its own (the
// paper's figure 8e/f puts A beside C); C comes back to C, whose scale never moved.
func TestMatrixShowsAOrB(t *testing.T) {
	p := pumped(t, ansi256Styles(), 160, 48)
	goTo(p, p.opt.Scenario.Batches-1)
	heat := p.heat
	mp := p.panes.matrix
	for _, c := range []struct {
		key, title string
		term       func(*sim.Cell) float64
	}{{"A", "A[t', t] = QDM", func(c *sim.Cell) float64 { return c.A }}, {"B", "B[t', t] = QDM", func(c *sim.Cell) float64 { return c.B }},
		{"C", "Cost matrix C[t', t]", func(c *sim.Cell) float64 { return c.C() }}} {
		press(p, "1", c.key)
		f := p.frame()
		if title := mp.Title(f); !strings.HasPrefix(title, c.title) {
			t.Errorf("%s: title %q", c.key, title)
		}
		if v, _, _ := mp.data(f).value(1, 5); v != c.term(p.s.Matrix.Cell(1, 5)) {
			t.Errorf("%s: cell (1, 5) drawn as %v", c.key, v)
		}
		if legend := ansi.Strip(mp.legendTall(f)[0]); !strings.HasSuffix(legend, " "+c.key) {
			t.Errorf("%s: colour bar %q", c.key, legend)
		}
		if !strings.Contains(stripANSI(p.View()), c.title) {
			t.Errorf("%s: the screen does not show it", c.key)
		}
	}
	if p.heat != heat {
		t.Error("A and B moved C's scale")
	}
}

// At 80x24 a callout about a cell leaves the cell and the readout that gives its value in sight.
func TestCalloutClearOfItsCell(t *testing.T) {
	p := pumpedScenario(t, loadEmbedded(t, "covcon-d", covconSmall...), asciiStyles(), 80, 24)
	goTo(p, 11)
	mp := p.panes.matrix
	mp.cur.On, mp.cur.At = true, [2]int{0, 11}
	p.setFocus(paneMatrix)
	p.callout = &callout{kind: calloutTour, pane: paneMatrix, title: "tour 2/8 · batch 11", text: strings.Repeat("A long stop text, as the tours write them. ", 9)}
	view := stripANSI(p.View())
	if !strings.Contains(view, "◆") || !strings.Contains(view, "t'=0 t=11  C ") || !strings.Contains(view, "tour 2/8") {
		t.Errorf("the callout covers its cell or the readout:\n%s", view)
	}
}

// The status line keeps one wording as the player steps, plays and pauses: its form is chosen for
// the widest it gets in the run, not for the batch shown.
func TestStatusWordingStable(t *testing.T) {
	p := pumpedScenario(t, loadEmbedded(t, "covcon-d", covconSmall...), asciiStyles(), 100, 30)
	for w := 60; w <= 180; w += 2 {
		resize(p, w, 30)
		var forms []string
		for i, at := range []int{3, 9, 10, 60, 99} {
			goTo(p, at)
			p.Playing, p.Speed = i%2 == 0, i%len(speeds)
			s := strings.Replace(stripANSI(p.status(p.frame())), "▶ playing", "paused", 1)
			forms = append(forms, fmt.Sprint(strings.Contains(s, "paused, "), strings.Contains(s, "(the scenario's)"), strings.Count(s, "·")))
			if width(s) > w {
				t.Errorf("%d wide: status at %d is %d wide", w, at, width(s))
			}
		}
		for _, f := range forms[1:] {
			if f != forms[0] {
				t.Errorf("%d wide: the status line changes wording as the player steps: %v", w, forms)
				break
			}
		}
	}
}

// With more than two features the scatter opens on the two that spread most over their range:
// not a flat band, not a uniform cycle squeezing the rest.
func TestDefaultFeaturePair(t *testing.T) {
	b := newBounds(4)
	pts := sim.Points{D: 4}
	for i := range 100 {
		x := float64(i) / 99
		// 0: a flat band with one outlier; 1: spread; 2: constant; 3: spread
		band := 0.01
		if i == 0 {
			band = 1
		}
		pts.V = append(pts.V, band, x, 0.5, 1-x*x)
	}
	b.add(pts)
	if got := b.pair(); got != [2]int{1, 3} {
		t.Errorf("pair %v, want [1 3]", got)
	}
	if got := newBounds(2).pair(); got != [2]int{0, 1} {
		t.Errorf("two features: %v", got)
	}
}

// Every stop of the embedded tours, played in the player as a student plays it, states the run's
// numbers: no template is left unfilled ("…" or a brace) once the matrix is in, a stop's what-if
// included. The 4-batch tours always, covcon-d without -short, every tour with CARA_TOURS=all.
func TestToursFilledOnScreen(t *testing.T) {
	names := []string{"scenario1-far", "scenario1-near", "scenario2"}
	if !testing.Short() {
		names = append(names, "covcon-d")
	}
	if os.Getenv("CARA_TOURS") == "all" {
		names = append(names, "covcon-s", "gauss-d", "circle-d")
	}
	for _, name := range names {
		s := loadEmbedded(t, name)
		p := pumpedScenario(t, s, asciiStyles(), 120, 36)
		pumpCmd(t, p, p.tour.toggle(p))
		for i := range s.Tour {
			for step := 0; p.tour.run != nil && (p.tour.run.i != i || !p.tour.run.arrived); step++ {
				if step > 50 {
					t.Fatalf("%s: stop %d never reached", name, i)
				}
				if _, ok := p.overlay.(*guessOverlay); ok {
					press(p, "k")
					continue
				}
				pumpCmd(t, p, p.tour.space(p))
			}
			if p.callout == nil {
				t.Fatalf("%s: stop %d has no callout", name, i)
			}
			p.View()
			// The stop's own words, before the what-if's note (which quotes the override).
			if text, _, _ := strings.Cut(p.callout.text, "\n\nWhat-if:"); strings.ContainsAny(text, "…{}") {
				t.Errorf("%s, stop %d: %s", name, i, text)
			}
		}
	}
}

// The results pane's offline note wraps at word boundaries instead of being cut.
func TestOfflineNoteWraps(t *testing.T) {
	p := pumpedScenario(t, loadEmbedded(t, "covcon-d", covconSmall...), asciiStyles(), 120, 36)
	goTo(p, 12)
	for _, w := range []int{30, 54, 80} {
		text := strings.Join(strings.Fields(stripANSI(p.panes.results.View(p.frame(), w, 10))), " ")
		if !strings.Contains(text, "once they are in") {
			t.Errorf("%d wide: %q", w, text)
		}
	}
}

// A quiz stop's answer and a guess's reveal keep clear of the batch they are about, with the
// matrix (the stop's focus) clear too, at the guides' 120x36.
func TestRevealLeavesTheBatch(t *testing.T) {
	p := pumpedScenario(t, loadEmbedded(t, "covcon-d", covconSmall...), asciiStyles(), 120, 36)
	goTo(p, 27)
	p.Cursor = room.Cursor{On: true, At: [2]int{25, 27}}
	f := p.frame()
	h := p.bodyHeight()
	l := p.layout(f, p.w, h)
	if b := l.boxes[paneBatch]; b.collapsed {
		t.Fatalf("the batch pane is a title bar at 120x36: %+v", b)
	}
	text := strings.Repeat("The Oracle retrains here, in hindsight over the whole online block. ", 3)
	for _, c := range []*callout{
		{kind: calloutTour, pane: paneMatrix, batch: true, title: "tour 5/8 · batch 27", head: []string{"You said KEEP"}, text: text},
		{kind: calloutReveal, pane: paneBatch, title: "guess · batch 27", head: []string{"You said KEEP"}, text: text},
	} {
		box, x, y := c.draw(f, l, p.panes.matrix, p.w, h)
		r := rect{x: x, y: y, w: width(firstLine(box)), h: lines(box), shown: true}
		if o := overlap(r, l.boxes[paneBatch]); o > 0 {
			t.Errorf("%s: the callout at %+v covers %d cells of the batch pane %+v", c.title, r, o, l.boxes[paneBatch])
		}
		if c.pane == paneMatrix && overlap(r, l.boxes[paneMatrix]) > 0 {
			t.Errorf("%s: the callout at %+v covers the matrix it is about", c.title, r)
		}
	}
}
