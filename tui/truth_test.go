package tui

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/run"
	"github.com/cara-sim/cara/tui/internal/workshop"
)

// resultsRow is the results pane's row of an algorithm as its words ("Oracle", "RETRAIN", ...).
func resultsRow(t *testing.T, p *Player, label string) []string {
	t.Helper()
	for _, l := range content(paneBox(p, pane.Results)) {
		// A row starts with the algorithm's key ("T  CARA-T"), the row You with none.
		row := strings.TrimLeft(string(l), " ▶")
		if _, rest, ok := strings.Cut(row, " "); ok && !strings.HasPrefix(row, label+" ") {
			row = strings.TrimLeft(rest, " ")
		}
		if f := strings.Fields(row); len(f) > 0 && strings.HasPrefix(row, label+" ") {
			return f[len(strings.Fields(label)):]
		}
	}
	t.Fatalf("no row %q in the results:\n%s", label, ansi.Strip(paneBox(p, pane.Results)))
	return nil
}

// The Oracle every pane shows is the paper's: the DP over the whole online block. On gauss-d with
// the matrix in, it retrains at 29, 33 and 38 because of batches after them; at each of those
// batches the results row reads RETRAIN, its retrains and its cost so far are those of the path
// cara run reports (the same Evaluate over the whole block, cut at the batch), and the guess
// reveal, the decisions strip and the matrix readout say the same.
func TestOracleIsThePapers(t *testing.T) {
	t.Parallel()
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
		// The guess round's reveal, asked about at from the batch before.
		goTo(p, at-1)
		press(p, "g", "r")
		if c := calloutOf(p); c == nil || !strings.Contains(ansi.Strip(c.Head[0]), fmt.Sprintf("At %d the Oracle RETRAINS", at)) {
			t.Errorf("at %d the reveal is %+v", at, c)
		}
		press(p, "g")
		if p.Pos != at || p.rp.Provisional {
			t.Fatalf("at batch %d (want %d), provisional %v: the replay of a finished run is provisional", p.Pos, at, p.rp.Provisional)
		}
		row := resultsRow(t, p, "Oracle")
		want := []string{"RETRAIN", fmt.Sprint(k + 1), draw.Cost(path.Cumulative[at-s.Offline])}
		if !slices.Equal(row[:3], want) {
			t.Errorf("at %d the Oracle's row reads %v, want %v", at, row[:3], want)
		}
		mp := p.panes.Matrix
		p.Cursor.On, p.Cursor.At = true, [2]int{at, at}
		if r := mp.Readout(p.frame()); !strings.Contains(r, "Oracle retrains here") {
			t.Errorf("at %d the readout of C[%d, %d] is %q", at, at, at, r)
		}
		p.Cursor.On = false
	}
}

// While the matrix is still being computed the optimum over the batches seen is all there is: it
// is shown as "best so far" (faint, its keeps dashed), never as the Oracle, in the results, the
// decisions, the chart's labels and the matrix legend.
func TestBestSoFarWhileComputing(t *testing.T) {
	p := pumped(t, asciiStyles(), 160, 48)
	goTo(p, 9)
	p.rp.Provisional = true // as evaluate leaves it while columns are missing
	if row := resultsRow(t, p, pane.BestSoFar); len(row) < 3 {
		t.Errorf("best-so-far row %v", row)
	}
	for i := range pane.Count {
		if i == pane.About {
			continue
		}
		if box := ansi.Strip(paneBox(p, i)); strings.Contains(box, "Oracle") {
			t.Errorf("pane %d names the Oracle while the matrix computes:\n%s", i+1, box)
		}
	}
	if legend := ansi.Strip(strings.Join(p.panes.Matrix.Legend(p.frame()), " ")); !strings.Contains(legend, "○┄ best so far") {
		t.Errorf("matrix legend %q", legend)
	}
	// The evaluation itself: a session with columns missing replays the prefix, provisionally.
	sess := p.s
	sess.Computed = 10
	rp, err := sess.Evaluate(9, 1, p.opt.Scenario.Algorithms)
	sess.Computed = p.opt.Scenario.Batches
	if err != nil || !rp.Provisional {
		t.Fatalf("with 10 of %d columns: provisional %v, %v", p.opt.Scenario.Batches, rp.Provisional, err)
	}
	rp, err = sess.Evaluate(9, 1, p.opt.Scenario.Algorithms)
	if err != nil || rp.Provisional {
		t.Fatalf("with every column: provisional %v, %v", rp.Provisional, err)
	}
}

// At the first online batch every strategy trains its first model: the results say train, not
// RETRAIN, and count no retrain (covcon-d at 25 too, without -short).
func TestFirstModelReadsTrain(t *testing.T) {
	t.Parallel()
	players := []*Player{pumped(t, asciiStyles(), 160, 48)}
	if !testing.Short() {
		players = append(players, pumpedScenario(t, loadEmbedded(t, "covcon-d"), asciiStyles(), 160, 48))
	}
	for _, p := range players {
		goTo(p, p.opt.Scenario.Offline)
		for _, r := range p.frame().Shown() {
			row := resultsRow(t, p, p.frame().Label(r.Algorithm))
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
	if _, ok := p.ws.Asking(); !ok {
		t.Fatalf("no question after g l: overlay %T", p.overlay)
	}
	press(p, "r", "r")
	if p.s.Seed != seed || p.Pos != p.opt.Scenario.Offline+1 || p.ws.Guess().Answered() != 1 {
		t.Fatalf("r r in the guess round: seed %d at batch %d with %d answers; want seed %d, the answered batch, 1 answer",
			p.s.Seed, p.Pos, p.ws.Guess().Answered(), seed)
	}
	press(p, "N")
	if p.s.Seed != seed || p.overlay != nil || !strings.Contains(p.notice, "waits for the guess round") {
		t.Errorf("N in the guess round: seed %d, overlay %T, notice %q", p.s.Seed, p.overlay, p.notice)
	}
	// (N over an answer shown, the round over: TestRestartRefused, in the workshop's tests.)
	press(p, "g", "N")
	if _, ok := p.overlay.(*restartOverlay); !ok || !strings.Contains(draw.StripANSI(p.View()), fmt.Sprintf("Start a new run on seed %d?", seed+1)) {
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
	pumpCmd(t, q, q.apply(q.ws.ToggleTour(q.workshopFrame())))
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
	if v := draw.StripANSI(pres.View()); !strings.Contains(v, "The whole room follows you there") {
		t.Errorf("the presenter's N does not ask about the room:\n%s", v)
	}
	press(pres, "esc")
	seed := fol.s.Seed
	press(fol, "N")
	if fol.overlay != nil || fol.s.Seed != seed {
		t.Errorf("a follower's N: overlay %T, seed %d", fol.overlay, fol.s.Seed)
	}
}

// A tour states the numbers of the run it plays on, the one it was written for: opened on seed 1
// with --tour, scenario1-near asks to switch to its seed 0, and there its second stop quotes that
// run's C[0, 1] with no caveat; its R follows ] at once.
func TestTourOnAnotherSeed(t *testing.T) {
	t.Parallel()
	s := loadEmbedded(t, "scenario1-near")
	p, err := NewPlayer(Options{Scenario: s, Seed: s.Seed + 1, Styles: asciiStyles(), Width: 120, Height: 36, Tour: true, Runs: testRuns()})
	if err != nil {
		t.Fatal(err)
	}
	pump(t, p)
	if _, asks := p.overlay.(*confirmOverlay); !asks || p.ws.Tour().On() {
		t.Fatalf("--tour on seed %d: overlay %T, tour on %v; want the question first", p.s.Seed, p.overlay, p.ws.Tour().On())
	}
	_, cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	pumpCmd(t, p, cmd)
	playOut(t, p)
	pumpCmd(t, p, p.apply(p.ws.TourNext(p.workshopFrame())))
	if !p.ws.Tour().On() || stopOf(p) != 1 || calloutOf(p) == nil || p.s.Seed != s.TourSeed() {
		t.Fatalf("not at the second stop on seed %d: stop %d on seed %d", s.TourSeed(), stopOf(p), p.s.Seed)
	}
	mine := draw.Num(p.s.Matrix.Cell(0, 1).C())
	view := strings.Join(strings.Fields(draw.StripANSI(p.View())), " ")
	for _, want := range []string{"C[0, 1] = " + mine + ":", "pays R = 1."} {
		if !strings.Contains(view, want) {
			t.Errorf("the stop lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "Written for seed") {
		t.Errorf("a caveat on the tour's own seed:\n%s", view)
	}
	press(p, "]")
	if view := strings.Join(strings.Fields(draw.StripANSI(p.View())), " "); !strings.Contains(view, "pays R = 1.25.") {
		t.Errorf("after ] the stop still says R = 1:\n%s", view)
	}
}

// diagonalStep is the colour step the matrix pane gives the diagonal at batch t, and the
// legend as drawn.
func diagonalStep(p *Player, t int) (int, string) {
	f := p.frame()
	v, _, _ := p.panes.Matrix.Value(f, t, t)
	return f.Heat.Step(v), ansi.Strip(strings.Join(p.panes.Matrix.Legend(f), "\n"))
}

// The diagonal is R: its colour follows R on a scale that stays put for the other cells (] and a
// what-if of R alike), and the colour bar says where R is. Two what-ifs that change only R share
// the run's matrix: the panes redraw all the same.
func TestDiagonalFollowsR(t *testing.T) {
	p := pumped(t, ansi256Styles(), 120, 36)
	T := p.opt.Scenario.Batches
	goTo(p, T-1)
	s0, bar0 := diagonalStep(p, T-1)
	heat := p.frame().Heat
	press(p, "]", "]", "]", "]")
	s1, bar1 := diagonalStep(p, T-1)
	if s1 <= s0 || p.frame().Heat != heat {
		t.Errorf("] four times: the diagonal's step %d -> %d, scale %+v -> %+v; want a higher step on the same scale", s0, s1, heat, p.frame().Heat)
	}
	if !strings.Contains(bar0, "R "+draw.Num(p.opt.Scenario.RetrainCost(T-1))) || !strings.Contains(bar1, "R "+draw.Num(p.frame().RNow())) || strings.Index(bar0, "R") == strings.Index(bar1, "R") {
		t.Errorf("colour bars %q, %q", bar0, bar1)
	}
	press(p, "[", "[", "[", "[")
	results := func() string { return ansi.Strip(paneBox(p, pane.Results)) }
	for _, r := range []string{"5", "6"} {
		pumpCmd(t, p, p.s.StartWhatIf([]string{"retrain_cost=" + r}))
		if _, bar := diagonalStep(p, T-1); !strings.Contains(bar, "R "+r) {
			t.Errorf("what-if R = %s: colour bar %q", r, bar)
		}
		never, _ := p.frame().Result(algos.NameNever)
		if row := resultsRow(t, p, "Never-retrain"); row[2] != draw.Cost(never.Strategy.Cost()) {
			t.Errorf("what-if R = %s: the results pane is stale, Never-retrain %v, want cost %s:\n%s", r, row, draw.Cost(never.Strategy.Cost()), results())
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
	q, ok := p.ws.Asking()
	if !ok {
		t.Fatalf("no question: %T", p.overlay)
	}
	at := q
	f := p.frame()
	if f.Ask != at || f.AskModel != off || p.Pos != at-1 {
		t.Fatalf("asking about %d at batch %d: frame ask %d model %d", at, p.Pos, f.Ask, f.AskModel)
	}
	title := p.panes.Batch.Title(f)
	if want := fmt.Sprintf("Batch %d, asked about: data by class, queries, errors of your M_%d", at, off); title != want || p.Focus != pane.Batch {
		t.Errorf("batch pane %q (focus %d), want %q in focus", title, p.Focus, want)
	}
	if _, ok, hidden := p.panes.Matrix.Value(f, off, at); ok || !hidden {
		t.Errorf("column %d of C shows during the question", at)
	}
	if r, ok := f.Result(algos.NameOracle); ok && r.Strategy.End >= at {
		t.Errorf("the Oracle's decision at %d is in the results during the question", at)
	}
	view := draw.StripANSI(p.View())
	if !strings.Contains(view, fmt.Sprintf("Batch %d, asked about", at)) {
		t.Errorf("the screen does not show batch %d:\n%s", at, view)
	}
	press(p, "k")
	f = p.frame()
	if f.Ask != -1 || p.Pos != at || !strings.HasPrefix(p.panes.Batch.Title(f), fmt.Sprintf("Batch %d:", at)) {
		t.Errorf("after the answer: batch pane %q at %d", p.panes.Batch.Title(f), p.Pos)
	}
	if view := draw.StripANSI(p.View()); !strings.Contains(view, fmt.Sprintf("Batch %d:", at)) || !strings.Contains(view, "guess · batch") {
		t.Errorf("the reveal hides the batch:\n%s", view)
	}
}

// In the offline block the chart, the decisions and the results have nothing but a note: at the
// guides' 120x36 the batch takes their room, on a 100-batch scenario.
func TestOfflineShowsTheBatch(t *testing.T) {
	t.Parallel()
	p := pumpedScenario(t, loadEmbedded(t, "covcon-d", covconSmall...), asciiStyles(), 120, 36)
	goTo(p, 10)
	l := p.layout(p.frame(), 120, p.bodyHeight())
	if b := l.Boxes[pane.Batch]; b.Collapsed || b.H < 15 {
		t.Errorf("the batch at 10 of covcon-d, 120x36: %+v", b)
	}
	for _, i := range []int{pane.Chart, pane.Decisions} {
		if b := l.Boxes[i]; b.H > 3 {
			t.Errorf("pane %d takes %d rows for a note", i+1, b.H)
		}
	}
}

// The help lists the words the panes use; a sampled matrix says how many batches a cell holds.
func TestGlossaryAndSampling(t *testing.T) {
	t.Parallel()
	p := pumpedScenario(t, loadEmbedded(t, "covcon-d", covconSmall...), asciiStyles(), 120, 36)
	goTo(p, 50)
	press(p, "?")
	box, _, _ := p.overlay.View(p.st, 120, 200) // tall enough not to scroll
	help := strings.Join(strings.Fields(draw.StripANSI(box)), " ")
	for _, want := range []string{"Words", "C[t', t] the staleness cost", "SCPE 100 ×", "θc (theta_c)", "query acc."} {
		if !strings.Contains(help, want) {
			t.Errorf("the help lacks %q", want)
		}
	}
	press(p, "esc")
	view := draw.StripANSI(p.View())
	if !strings.Contains(view, "1 cell = 2×2 batches: z for detail") {
		t.Errorf("a sampled matrix does not say so:\n%s", view)
	}
	press(p, "1", "z")
	if view := draw.StripANSI(p.View()); strings.Contains(view, "1 cell =") {
		t.Errorf("the zoomed matrix (one cell a cell) says it is sampled")
	}
}

// The scatter's axes belong to the run of the loaded scenario and seed, not to a name: covcon-d
// changed with --set has bounds of its own.
func TestBoundsPerLoadedScenario(t *testing.T) {
	t.Parallel()
	var got []*run.Bounds
	runs := testRuns()
	for _, sets := range [][]string{nil, {"data.size=200"}} {
		sess := finished(t, loadEmbedded(t, "covcon-d", sets...), runs)
		got = append(got, run.ScanBounds(sess)().(run.BoundsMsg).Bounds)
	}
	if got[0] == got[1] || slices.Equal(got[0].Lo, got[1].Lo) {
		t.Errorf("covcon-d and covcon-d with 200 points a batch share bounds %v", got[0].Lo)
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
	if calloutOf(p) == nil || calloutOf(p).Kind != workshop.RevealCallout {
		t.Fatal("no reveal")
	}
	press(p, "g")
	if calloutOf(p) != nil {
		t.Errorf("the reveal outlives the round: %+v", calloutOf(p))
	}
	for _, c := range []struct {
		w    int
		want string
	}{{160, "│ retrain"}, {10, "⡇ retrain"}} {
		dp := p.panes.Decisions
		dp.View(p.frame(), c.w, 14)
		if title := dp.Title(p.frame()); !strings.Contains(title, c.want) {
			t.Errorf("decisions %d wide: title %q, want %q", c.w, title, c.want)
		}
	}
}

// A, B and C on the focused matrix show either term of C = A − B on a scale of its own (the
// paper's figure 8e/f puts A beside C); C comes back to C, whose scale never moved.
func TestMatrixShowsAOrB(t *testing.T) {
	p := pumped(t, ansi256Styles(), 160, 48)
	goTo(p, p.opt.Scenario.Batches-1)
	heat := p.frame().Heat
	mp := p.panes.Matrix
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
		if v, _, _ := mp.Value(f, 1, 5); v != c.term(p.s.Matrix.Cell(1, 5)) {
			t.Errorf("%s: cell (1, 5) drawn as %v", c.key, v)
		}
		if legend := ansi.Strip(mp.Legend(f)[0]); !strings.HasSuffix(legend, " "+c.key) {
			t.Errorf("%s: colour bar %q", c.key, legend)
		}
		if !strings.Contains(draw.StripANSI(p.View()), c.title) {
			t.Errorf("%s: the screen does not show it", c.key)
		}
	}
	if p.frame().Heat != heat {
		t.Error("A and B moved C's scale")
	}
}

// At 80x24 a callout about a cell leaves the cell and the readout that gives its value in sight.
func TestCalloutClearOfItsCell(t *testing.T) {
	t.Parallel()
	p := pumpedScenario(t, loadEmbedded(t, "covcon-d", covconSmall...), asciiStyles(), 80, 24)
	goTo(p, 11)
	p.Cursor.On, p.Cursor.At = true, [2]int{0, 11}
	p.setFocus(pane.Matrix)
	c := &workshop.Callout{Kind: workshop.StopCallout, Pane: pane.Matrix, Title: "tour 2/8 · batch 11", Text: strings.Repeat("A long stop text, as the tours write them. ", 9)}
	f, h := p.frame(), p.bodyHeight()
	l := p.layout(f, p.w, h)
	box, x, y := p.panes.Callout(f, l, c.About(), func(bw int) string { return c.View(p.st, bw, h) }, p.w, h)
	view := draw.StripANSI(draw.PlaceOverlay(p.panes.Body(p.st, f, l, p.Focus, p.w, h), box, x, y))
	if !strings.Contains(view, "◆") || !strings.Contains(view, "t'=0 t=11  C ") || !strings.Contains(view, "tour 2/8") {
		t.Errorf("the callout covers its cell or the readout:\n%s", view)
	}
}

// The status line keeps one wording as the player steps, plays and pauses: its form is chosen for
// the widest it gets in the run, not for the batch shown.
func TestStatusWordingStable(t *testing.T) {
	t.Parallel()
	p := pumpedScenario(t, loadEmbedded(t, "covcon-d", covconSmall...), asciiStyles(), 100, 30)
	for w := 60; w <= 180; w += 2 {
		resize(p, w, 30)
		var forms []string
		for i, at := range []int{3, 9, 10, 60, 99} {
			goTo(p, at)
			p.Playing, p.Speed = i%2 == 0, i%len(speeds)
			s := strings.Replace(draw.StripANSI(p.status(p.frame())), "▶ playing", "paused", 1)
			forms = append(forms, fmt.Sprint(strings.Contains(s, "paused, "), strings.Contains(s, "(the scenario's)"), strings.Count(s, "·")))
			if draw.Width(s) > w {
				t.Errorf("%d wide: status at %d is %d wide", w, at, draw.Width(s))
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

// Every stop of the embedded tours, played in the player as a student plays it, states the run's
// numbers: no template is left unfilled ("…" or a brace) once the matrix is in, a stop's what-if
// included. The 4-batch tours always, every tour with CARA_TOURS=all (as CI runs it).
func TestToursFilledOnScreen(t *testing.T) {
	t.Parallel()
	names := []string{"scenario1-far", "scenario1-near", "scenario2"}
	if os.Getenv("CARA_TOURS") == "all" {
		names = append(names, "covcon-d", "covcon-s", "gauss-d", "circle-d")
	}
	for _, name := range names {
		s := loadEmbedded(t, name)
		p := pumpedScenario(t, s, asciiStyles(), 120, 36)
		pumpCmd(t, p, p.apply(p.ws.ToggleTour(p.workshopFrame())))
		for i := range s.Tour {
			for step := 0; p.ws.Tour().On() && (stopOf(p) != i || !arrivedAt(p)); step++ {
				if step > 50 {
					t.Fatalf("%s: stop %d never reached", name, i)
				}
				if _, ok := p.ws.Asking(); ok {
					press(p, "k")
					continue
				}
				pumpCmd(t, p, p.apply(p.ws.TourNext(p.workshopFrame())))
			}
			if calloutOf(p) == nil {
				t.Fatalf("%s: stop %d has no callout", name, i)
			}
			p.View()
			// The stop's own words, before the what-if's note (which quotes the override).
			if text, _, _ := strings.Cut(calloutOf(p).Text, "\n\nWhat-if:"); strings.ContainsAny(text, "…{}") {
				t.Errorf("%s, stop %d: %s", name, i, text)
			}
		}
	}
}

// The results pane's offline note wraps at word boundaries instead of being cut.
func TestOfflineNoteWraps(t *testing.T) {
	t.Parallel()
	p := pumpedScenario(t, loadEmbedded(t, "covcon-d", covconSmall...), asciiStyles(), 120, 36)
	goTo(p, 12)
	for _, w := range []int{30, 54, 80} {
		text := strings.Join(strings.Fields(draw.StripANSI(p.panes.Results.View(p.frame(), w, 10))), " ")
		if !strings.Contains(text, "once they are in") {
			t.Errorf("%d wide: %q", w, text)
		}
	}
}

// A quiz stop's answer and a guess's reveal keep clear of the batch they are about, with the
// matrix (the stop's focus) clear too, at the guides' 120x36.
func TestRevealLeavesTheBatch(t *testing.T) {
	t.Parallel()
	p := pumpedScenario(t, loadEmbedded(t, "covcon-d", covconSmall...), asciiStyles(), 120, 36)
	goTo(p, 27)
	p.Cursor = room.Cursor{On: true, At: [2]int{25, 27}}
	f := p.frame()
	h := p.bodyHeight()
	l := p.layout(f, p.w, h)
	if b := l.Boxes[pane.Batch]; b.Collapsed {
		t.Fatalf("the batch pane is a title bar at 120x36: %+v", b)
	}
	text := strings.Repeat("The Oracle retrains here, in hindsight over the whole online block. ", 3)
	for _, c := range []*workshop.Callout{
		{Kind: workshop.StopCallout, Pane: pane.Matrix, Batch: true, Title: "tour 5/8 · batch 27", Head: []string{"You said KEEP"}, Text: text},
		{Kind: workshop.RevealCallout, Pane: pane.Batch, Title: "guess · batch 27", Head: []string{"You said KEEP"}, Text: text},
	} {
		box, x, y := p.panes.Callout(f, l, c.About(), func(bw int) string { return c.View(p.st, bw, h) }, p.w, h)
		r := pane.Rect{X: x, Y: y, W: draw.Width(draw.FirstLine(box)), H: draw.Lines(box), Shown: true}
		if covers(r, l.Boxes[pane.Batch]) {
			t.Errorf("%s: the callout at %+v covers the batch pane %+v", c.Title, r, l.Boxes[pane.Batch])
		}
		if c.Pane == pane.Matrix && covers(r, l.Boxes[pane.Matrix]) {
			t.Errorf("%s: the callout at %+v covers the matrix it is about", c.Title, r)
		}
	}
}

// covers reports whether two rectangles share a cell.
func covers(a, b pane.Rect) bool {
	return min(a.X+a.W, b.X+b.W) > max(a.X, b.X) && min(a.Y+a.H, b.Y+b.H) > max(a.Y, b.Y)
}
