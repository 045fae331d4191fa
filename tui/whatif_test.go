package tui

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/simtest"
	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/run"
	"github.com/cara-sim/cara/tui/internal/whatif"
)

// covconSmall keeps covcon's batches, drifts and queries at a size a test runs in a second.
var covconSmall = []string{"data.size=250", "model.random_forest.trees=10"}

const covconSQueries = "queries={size: 100, gaussian: {mean: 0.5, std: 0.015}}"

func loadEmbedded(t testing.TB, name string, sets ...string) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Load(name, scenarios.Options{Set: sets})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// finished runs a session of s in runs to its end, on this goroutine.
func finished(t testing.TB, s *scenarios.Scenario, runs *live.Runs) *run.Session {
	t.Helper()
	sess, err := run.New(s, s.Seed, runs, context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cmd := sess.Start()
	for cmd != nil {
		switch msg := cmd().(type) {
		case run.ColumnMsg:
			cmd = sess.Apply(msg)
		case run.QueuedMsg:
			cmd = sess.Queued(msg)
		case run.DoneMsg:
			sess.Done, sess.Err, cmd = true, msg.Err, nil
		}
	}
	if sess.Err != nil || sess.Computed != s.Batches {
		t.Fatalf("run: %v, %d of %d columns", sess.Err, sess.Computed, s.Batches)
	}
	return sess
}

// whatIf runs a session's what-if to its message and shows it.
func whatIf(t testing.TB, sess *run.Session, sets ...string) {
	t.Helper()
	msg := sess.StartWhatIf(sets)().(run.WhatIfMsg)
	if !sess.TakeWhatIf(msg) {
		t.Fatal("the newest what-if's message was dropped")
	}
	if sess.WhatIfErr != nil {
		t.Fatal(sess.WhatIfErr)
	}
}

// sameResults fails unless two replays agree bit for bit on cost, retrains and query accuracy.
func sameResults(t *testing.T, got, want []algos.Result) {
	t.Helper()
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("%d results, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Algorithm != w.Algorithm || math.Float64bits(g.Strategy.Cost()) != math.Float64bits(w.Strategy.Cost()) ||
			len(g.Strategy.Retrains) != len(w.Strategy.Retrains) || math.Float64bits(g.QueryAccuracy) != math.Float64bits(w.QueryAccuracy) {
			t.Errorf("%s: cost %v, %d retrains, accuracy %v; want %v, %d, %v", g.Algorithm, g.Strategy.Cost(), len(g.Strategy.Retrains),
				g.QueryAccuracy, w.Strategy.Cost(), len(w.Strategy.Retrains), w.QueryAccuracy)
		}
	}
}

// A session's what-if replays every algorithm (tuning included) on the what-if's matrix: covcon-d
// with covcon-s's queries gives covcon-s's results, and returning to the scenario gives its own.
func TestSessionWhatIf(t *testing.T) {
	t.Parallel()
	runs := testRuns()
	s := loadEmbedded(t, "covcon-d", covconSmall...)
	sess := finished(t, s, runs)
	defer sess.Stop()
	end := s.Batches - 1
	own, err := sess.Evaluate(end, 1, s.Algorithms)
	if err != nil {
		t.Fatal(err)
	}

	whatIf(t, sess, covconSQueries)
	got, err := sess.Evaluate(end, 1, s.Algorithms)
	if err != nil {
		t.Fatal(err)
	}
	other := finished(t, loadEmbedded(t, "covcon-s", covconSmall...), runs)
	defer other.Stop()
	want, err := other.Evaluate(end, 1, s.Algorithms)
	if err != nil {
		t.Fatal(err)
	}
	sameResults(t, got.Results, want.Results)
	if got.Tuned["theta"] != want.Tuned["theta"] {
		t.Errorf("tuned theta %v, covcon-s's %v", got.Tuned["theta"], want.Tuned["theta"])
	}
	b, err := sess.Batch(40)
	if err != nil || b.Q.Len() != 100 || math.Abs(b.Q.V[0]-0.5) > 0.1 {
		t.Errorf("the what-if's batch 40: %v, %d queries, first at %v", err, b.Q.Len(), b.Q.V[:2])
	}

	// R doubled as the player's ] does it, on top of the what-if: covcon-s's at twice R.
	got2, _ := sess.Evaluate(end, 2, s.Algorithms)
	want2, _ := other.Evaluate(end, 2, s.Algorithms)
	sameResults(t, got2.Results, want2.Results)

	sess.ClearWhatIf()
	back, err := sess.Evaluate(end, 1, s.Algorithms)
	if err != nil {
		t.Fatal(err)
	}
	sameResults(t, back.Results, own.Results)
	if m, sc := sess.Shown(); m != sess.Matrix || sc != s {
		t.Error("back to the scenario, the panes would still show the what-if")
	}
}

// A newer what-if supersedes an older one: the older's message is dropped; a what-if before the
// run has finished is refused with a reason.
func TestSessionWhatIfSupersedes(t *testing.T) {
	runs := testRuns()
	s := loadEmbedded(t, "scenario1-far")
	sess := finished(t, s, runs)
	defer sess.Stop()
	near := "queries={size: 40, gaussian: {mean: [0.85, 0.7], std: 0.05}}"
	first := sess.StartWhatIf([]string{"retrain_cost=3"})
	second := sess.StartWhatIf([]string{near})
	if sess.TakeWhatIf(first().(run.WhatIfMsg)) {
		t.Error("a superseded what-if's message was taken")
	}
	if !sess.TakeWhatIf(second().(run.WhatIfMsg)) || sess.WhatIf == nil || sess.WhatIf.Sets[0] != near {
		t.Fatalf("the newest what-if was not shown: %+v, %v", sess.WhatIf, sess.WhatIfErr)
	}
	m, _ := sess.Shown()
	want := loadEmbedded(t, "scenario1-near")
	cfg, _ := want.Config(want.Seed)
	wm, err := sim.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Cell(0, 3).C() != wm.Cell(0, 3).C() || m.Cell(0, 3).QueryAccuracy != wm.Cell(0, 3).QueryAccuracy {
		t.Errorf("C[0, 3] %v (accuracy %v), scenario1-near's %v (%v)", m.Cell(0, 3).C(), m.Cell(0, 3).QueryAccuracy, wm.Cell(0, 3).C(), wm.Cell(0, 3).QueryAccuracy)
	}
	// An error is kept for the status line, and the what-if shown stays.
	whatIfErr := sess.StartWhatIf([]string{"data.noise=0.3"})().(run.WhatIfMsg)
	if !sess.TakeWhatIf(whatIfErr) || sess.WhatIfErr == nil || sess.WhatIf == nil {
		t.Errorf("a refused what-if: err %v, shown %v", sess.WhatIfErr, sess.WhatIf)
	}

	running, err := run.New(loadEmbedded(t, "covcon-d"), 0, live.NewRuns(live.RunsConfig{MaxComputing: 1}), context.Background())
	if err != nil {
		t.Fatal(err)
	}

	running.Start() // queued or computing; its first message is not awaited
	defer running.Stop()
	msg := running.StartWhatIf([]string{near})().(run.WhatIfMsg)
	if msg.Err() != live.ErrComputing {
		t.Errorf("a what-if on a run still computing: %v", msg.Err())
	}
}

// The what-if bar end to end, as a student uses it: w, c (static queries), the arrows and < to
// put them at (0.50, 0.50) with sd 0.015, which are covcon-s's queries. The results pane's numbers
// change, and they are those of a fresh run of covcon-s (`cara run covcon-s`), at the same R.
func TestWhatIfBarProgram(t *testing.T) {
	t.Parallel()
	s := loadEmbedded(t, "covcon-d", covconSmall...)
	p, err := NewPlayer(Options{Scenario: s, Seed: s.Seed, Styles: asciiStyles(), Runs: testRuns()})
	if err != nil {
		t.Fatal(err)
	}
	// Where the static queries start: the middle of the scatter's axes, as the bar places them.
	st, _ := s.Stream(s.Seed)
	b := run.NewBounds(st.Features())
	for bt := range s.Batches {
		x, err := st.Batch(bt)
		if err != nil {
			t.Fatal(err)
		}
		b.Add(x.X)
		b.Add(x.Q)
	}
	g := whatif.NewStaticGeom(b, 100)
	start := g.Start()
	target := int(math.Round(0.5 / g.Step()))

	own := freshResults(t, s)
	other := freshResults(t, loadEmbedded(t, "covcon-s", covconSmall...))
	if own[0].Strategy.Cost() == other[0].Strategy.Cost() {
		t.Fatal("covcon-d and covcon-s cost the Oracle the same: the test would not see the what-if")
	}

	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(120, 40))
	wait := func(text string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(text)) },
			teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	}
	keys := func(ks ...string) {
		for _, k := range ks {
			switch k {
			case "end", "left", "right", "up", "down":
				tm.Send(tea.KeyMsg{Type: map[string]tea.KeyType{"end": tea.KeyEnd, "left": tea.KeyLeft, "right": tea.KeyRight,
					"up": tea.KeyUp, "down": tea.KeyDown}[k]})
			default:
				tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
			}
		}
	}
	wait("computed all")
	keys("5", "end")                        // the results focused: at 120x40 they open only then
	wait(draw.Cost(own[0].Strategy.Cost())) // the scenario's Oracle, in the results pane
	keys("w", "c")
	for range abs(target - start[0]) {
		keys(map[bool]string{true: "right", false: "left"}[target > start[0]])
	}
	for range abs(target - start[1]) {
		keys(map[bool]string{true: "up", false: "down"}[target > start[1]])
	}
	keys("<", "<") // sd 0.05 -> 0.025 -> 0.015
	// The status line names the what-if, and the results pane shows every algorithm's cost under
	// it: covcon-s's.
	want := [][]byte{[]byte("what-if: static (0.50, 0.50) sd 0.015")}
	for _, r := range other {
		want = append(want, []byte(draw.Cost(r.Strategy.Cost())))
	}
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, w := range want {
			if !bytes.Contains(b, w) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	keys("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	fin := tm.FinalModel(t).(*Player)
	if fin.s.WhatIf == nil {
		t.Fatal("no what-if shown at the end")
	}
	sameResults(t, fin.rp.Results, other)
}

// freshResults are `cara run`'s results for s at its seed and R: a fresh run, every algorithm.
func freshResults(t *testing.T, s *scenarios.Scenario) []algos.Result {
	t.Helper()
	m := simtest.Matrix(t, s)
	names := s.Algorithms
	if !slices.Contains(names, algos.NameOracle) {
		names = append([]algos.Name{algos.NameOracle}, names...)
	}
	res, err := s.Evaluation.Evaluate(m, s.RetrainCost, names, s.Batches-1)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func abs(x int) int { return max(x, -x) }

// keyToFrame presses k and returns once the player has drawn the frame that shows its outcome:
// the key handled, the what-if computed (as the program would run its command), taken and drawn.
func keyToFrame(b testing.TB, p *Player, k string) bool {
	msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
	if k == "right" || k == "left" {
		msg = tea.KeyMsg{Type: map[string]tea.KeyType{"right": tea.KeyRight, "left": tea.KeyLeft}[k]}
	}
	_, cmd := p.Update(msg)
	if cmd == nil {
		return false
	}
	done, ok := cmd().(run.WhatIfMsg)
	if !ok || done.Err() != nil {
		b.Fatalf("what-if: %T %v", done, done.Err())
	}
	p.Update(done)
	_ = p.View()
	return true
}

// BenchmarkWhatIfKeyToFrame is the what-if bar on covcon-d at the paper's size (100 batches of
// 1000 points, 100 trees), from a key press to the redrawn frame (120x36): the static centre moved
// (new queries: drawn, A and B from the kept errors, every model asked, every algorithm replayed
// with its tuning) and gamma doubled or halved (A and B again). The bar was opened and the run
// warmed first, as w does; queries-cold is the first what-if of a run that was not (its batches
// generated and its models compiled for asking on the way).
func BenchmarkWhatIfKeyToFrame(b *testing.B) {
	s := loadEmbedded(b, "covcon-d")
	p := pumpedScenario(b, s, asciiStyles(), 120, 36)
	press(p, "end")
	if cmd := p.apply(p.wi.Show(p.host())); cmd != nil {
		cmd()
	}
	for p.bounds == nil {
		p.Update(run.ScanBounds(p.s)())
	}
	b.Run("queries", func(b *testing.B) {
		if !keyToFrame(b, p, "c") {
			b.Fatal("c started no what-if")
		}
		dir := "right"
		for b.Loop() {
			if !keyToFrame(b, p, dir) { // at the edge of the data: turn back
				dir = map[string]string{"right": "left", "left": "right"}[dir]
				keyToFrame(b, p, dir)
			}
		}
	})
	b.Run("queries-cold", func(b *testing.B) { // the first what-if of a run, had w not warmed it
		dir := "left"
		for b.Loop() {
			p.s.Watch().DropBase()
			if !keyToFrame(b, p, dir) {
				dir = map[string]string{"right": "left", "left": "right"}[dir]
				keyToFrame(b, p, dir)
			}
		}
	})
	b.Run("gamma", func(b *testing.B) {
		keyToFrame(b, p, "s") // the scenario's queries
		keyToFrame(b, p, "G") // gamma x2
		keys := []string{"G", "g"}
		i := 0
		for b.Loop() {
			keyToFrame(b, p, keys[i%2]) // x4, x2, x4, ...
			i++
		}
	})
}

// drive presses keys and runs every command they start, feeding the messages back, as the program
// does (on this goroutine).
func drive(t testing.TB, p *Player, keys ...string) {
	t.Helper()
	for _, k := range keys {
		var msg tea.KeyMsg
		switch k {
		case "left", "right", "up", "down", "esc":
			msg = tea.KeyMsg{Type: map[string]tea.KeyType{"left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp,
				"down": tea.KeyDown, "esc": tea.KeyEscape}[k]}
		default:
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		}
		_, cmd := p.Update(msg)
		pumpCmd(t, p, cmd)
	}
}

// The bar's keys, on a small scenario: each choice becomes the overrides it says, the panes show
// the what-if when it arrives, x returns to the scenario, W shows both.
func TestWhatIfBarKeys(t *testing.T) {
	p := pumped(t, asciiStyles(), 120, 36)
	press(p, "end")
	drive(t, p, "w")
	if !p.wi.Showing() || p.bodyHeight() != 36-footerLines-whatif.BarLines || !strings.Contains(p.View(), "─ What-if") {
		t.Fatalf("w: bar open %v, body %d", p.wi.Showing(), p.bodyHeight())
	}
	for p.bounds == nil {
		p.Update(run.ScanBounds(p.s)())
	}
	drive(t, p, "c")
	if p.s.WhatIf == nil || p.wi.Current().Queries != whatif.QueriesStatic {
		t.Fatalf("c: what-if %v, err %v", p.s.WhatIf, p.s.WhatIfErr)
	}
	g := p.wi.Geom()
	start := slices.Clone(p.wi.Current().Centre)
	drive(t, p, "right", "up", "up", ">")
	if c := p.wi.Current().Centre; c[0] != start[0]+1 || c[1] != start[1]+2 || p.wi.Current().Spread != whatif.SpreadStart+1 {
		t.Errorf("moved: centre %v from %v, spread %d", c, start, p.wi.Current().Spread)
	}
	want := fmt.Sprintf("queries={size: 20, gaussian: {mean: [%s, %s], std: 0.1}}", whatif.Decimal(float64(start[0]+1)*g.Step()), whatif.Decimal(float64(start[1]+2)*g.Step()))
	if got := p.s.WhatIf.Sets; len(got) != 1 || got[0] != want {
		t.Errorf("static overrides %q, want %q", got, want)
	}
	if st := p.status(p.frame()); !strings.Contains(st, "what-if: static (") || !strings.Contains(st, "sd 0.1") {
		t.Errorf("status line: %q", st)
	}
	p.w = 200 // wide enough for every part in full
	if st := p.status(p.frame()); !strings.Contains(st, "what-if: queries static at (") || !strings.Contains(st, "sd 0.1") {
		t.Errorf("wide status line: %q", st)
	}
	p.w = 120
	b, _ := p.frame().Stream.Batch(p.Pos)
	if q := b.Q.Row(0); math.Abs(q[0]-float64(start[0]+1)*g.Step()) > 0.6 || b.Q.Len() != 20 {
		t.Errorf("the batch pane's queries: %d, first %v", b.Q.Len(), q)
	}
	for range 200 { // clamped to the data's range
		press(p, "right")
	}
	if c := p.wi.Current().Centre[0]; float64(c)*g.Step() > g.Hi[0]+1e-9 {
		t.Errorf("centre %v beyond the data's range %v", float64(c)*g.Step(), g.Hi[0])
	}

	base, _ := p.s.Watch().Base()
	gamma, _ := base.Gamma(context.Background())
	drive(t, p, "d", "G")
	if got := p.s.WhatIf.Sets; len(got) != 2 || got[0] != "queries={from: data, fraction: 0.2}" || got[1] != live.GammaSet(2*gamma) {
		t.Errorf("data and gamma x2: %q (gamma %v)", got, gamma)
	}
	if st := p.status(p.frame()); !strings.Contains(st, "what-if: data 20 % of each batch, gamma x2") {
		t.Errorf("status line: %q", st)
	}
	drive(t, p, "W")
	v := p.View()
	if !strings.Contains(v, "Scenario: small") || !strings.Contains(v, "Cost of each algorithm") || p.split.Own().Results == nil {
		t.Errorf("split view:\n%s", v)
	}
	own, _ := p.s.EvaluateOf(nil, p.Pos, p.Scale, p.opt.Scenario.Algorithms)
	if p.split.Own().Results[0].Strategy.Cost() != own.Results[0].Strategy.Cost() {
		t.Error("the split view's scenario side is not the scenario's replay")
	}
	drive(t, p, "W", "]", "x")
	if p.s.WhatIf != nil || p.Scale != 1 || p.wi.Current().Queries != whatif.QueriesOwn || p.wi.Current().Gamma != 0 || strings.Contains(p.status(p.frame()), "what-if") {
		t.Errorf("x: what-if %v, scale %v, state %+v", p.s.WhatIf, p.Scale, p.wi.Current())
	}
	drive(t, p, "esc")
	if p.wi.Showing() {
		t.Error("esc left the bar open")
	}
	drive(t, p, "a") // outside the bar, a is nobody's key
	if p.s.WhatIf != nil {
		t.Error("a outside the bar started a what-if")
	}
}

// A what-if chosen while the run computes waits for it and starts when it is done; one given
// whole (a tour's stop) is named by its overrides; a refused one says why.
func TestWhatIfBarPendingAndGiven(t *testing.T) {
	s := loadSmall(t)
	p, err := NewPlayer(Options{Scenario: s, Seed: s.Seed, Workers: 1, Styles: asciiStyles(), Width: 120, Height: 36})
	if err != nil {
		t.Fatal(err)
	}
	start := p.Init()
	if _, cmd := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("w")}); cmd != nil {
		t.Fatal("w before the run is done warmed a run that is not there")
	}
	_, cmd := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("G")})
	if cmd != nil || p.s.WhatIf != nil || !strings.Contains(p.status(p.frame()), "(when the run is done)") {
		t.Fatalf("before the run: cmd %v, status %q", cmd != nil, p.status(p.frame()))
	}
	pumpCmd(t, p, start) // the run to its end, and the pending what-if with it
	if p.s.WhatIf == nil || !strings.Contains(p.status(p.frame()), "what-if: gamma x2") {
		t.Fatalf("after the run: %v, status %q", p.s.WhatIf, p.status(p.frame()))
	}

	pumpCmd(t, p, p.apply(effect.Effects{effect.WhatIf{Sets: []string{"retrain_cost=2"}}}))
	if p.s.WhatIf == nil || p.frame().RNow() != 2 || !strings.Contains(p.status(p.frame()), "what-if: retrain_cost=2") {
		t.Errorf("given: R %v, status %q", p.frame().RNow(), p.status(p.frame()))
	}
	pumpCmd(t, p, p.apply(effect.Effects{effect.WhatIf{Sets: []string{"data.noise=0.5"}}}))
	if p.s.WhatIfErr == nil || !strings.Contains(p.View(), "a what-if changes only queries") {
		t.Errorf("refused: %v", p.s.WhatIfErr)
	}
	pumpCmd(t, p, p.apply(effect.Effects{effect.WhatIf{}}))
	if p.s.WhatIf != nil || p.s.WhatIfErr != nil {
		t.Errorf("nil: back to the scenario, got %v %v", p.s.WhatIf, p.s.WhatIfErr)
	}
}
