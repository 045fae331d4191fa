package results

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/run"
	"github.com/cara-sim/cara/tui/internal/synth"
	"github.com/charmbracelet/x/exp/golden"
)

// handFrame is a frame over hand-built results (no engine): an online block starting at batch 2 of
// 6, the view at batch 4.
func handFrame(results []algos.Result, selected algos.Name) *pane.Frame {
	scen := &scenarios.Scenario{Name: "hand", Batches: 6, Offline: 2}
	return &pane.Frame{St: draw.ForProfile(termenv.Ascii), Scen: scen, M: sim.NewMatrix(6, 2), Pos: 4, RP: run.Replay{Scale: 1, Results: results},
		R: algos.Constant(1), RScale: 1, Selected: selected, Visible: algos.Names, Heat: draw.Scale{Hi: 1}}
}

// The results table: SCPE where the Oracle's cost is non-zero, the plain gap where it is zero
// (SCPE undefined), and RETRAIN in the "now" column for an algorithm that retrained at the current
// batch.
func TestTablePane(t *testing.T) {
	// Cumulative costs over batches 2..4: the Oracle's ends at b, the other's at a.
	strat := func(retrains []int, cum ...float64) algos.Strategy {
		return algos.Strategy{Start: 2, End: 4, Model: []int{2, 2, 4}, Retrains: retrains, Cumulative: cum}
	}
	for _, tc := range []struct {
		name      string
		b, a      float64
		retrains  []int
		wantCells []string
	}{
		// a = 15, b = 10: SCPE = 100*|15-10|/10 = 50.0.
		{"scpe", 10, 15, []int{4}, []string{"RETRAIN", "15.00", "50.0"}},
		// b = 0: SCPE undefined; the gap a - b = 2.5 is shown instead.
		{"gap", 0, 2.5, nil, []string{"keep", "2.50", "gap +2.5"}},
		// Part-way through the run a strategy can stand under the Oracle, whose cost so far holds
		// retrains that pay only later: Page-Hinkley's 37.66 against 44.08 is 14.6 % under, -14.6.
		{"under", 44.08, 37.66, nil, []string{"keep", "37.66", "-14.6"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scpe := math.NaN()
			if tc.b != 0 {
				scpe = 100 * math.Abs(tc.a-tc.b) / math.Abs(tc.b)
			}
			res := []algos.Result{
				{Algorithm: "oracle", Strategy: strat(nil, 1, 2, tc.b), SCPE: 0, QueryAccuracy: 0.9},
				{Algorithm: "cara-t", Strategy: strat(tc.retrains, 1, 2, tc.a), SCPE: scpe, Gap: tc.a - tc.b, QueryAccuracy: math.NaN()},
			}
			v := (&Pane{}).View(handFrame(res, "cara-t"), 80, 10)
			var row string
			for _, l := range strings.Split(v, "\n") {
				if strings.Contains(l, "CARA-T") {
					row = l
				}
			}
			for _, want := range tc.wantCells {
				if !strings.Contains(row, want) {
					t.Errorf("CARA-T row %q lacks %q", row, want)
				}
			}
			if !strings.HasSuffix(strings.TrimSpace(row), "-") {
				t.Errorf("CARA-T row %q: query accuracy without labels should read -", row)
			}
		})
	}
}

// A narrow table keeps the algorithm and its cost, dropping what matters least.
func TestTablePaneNarrow(t *testing.T) {
	s := algos.Strategy{Start: 2, End: 4, Model: []int{2, 2, 2}, Cumulative: []float64{1, 2, 3}}
	res := []algos.Result{{Algorithm: "oracle", Strategy: s, QueryAccuracy: 0.9}, {Algorithm: "never", Strategy: s, QueryAccuracy: 0.9}}
	for _, w := range []int{60, 44, 36} {
		v := (&Pane{}).View(handFrame(res, "oracle"), w, 10)
		for _, l := range strings.Split(v, "\n") {
			if draw.Width(l) > w {
				t.Errorf("width %d: line %q is %d wide", w, l, draw.Width(l))
			}
		}
		if !strings.Contains(v, "Never-retrain") || !strings.Contains(v, "3.00") {
			t.Errorf("width %d: the name or the cost is gone:\n%s", w, v)
		}
	}
}

// The parameters tuned offline are never cut inside a word, nor a parameter parted from its value:
// at every width from 24 columns (the widest parameter, "tuned on 0..24: θ 21.75", and one) to
// the full line, the results pane starts with lines within the width that hold the full line's
// words in order, none ending in a parameter's name; the table follows them, and the pane asks
// for a row per line.
func TestTunedLineWholeWords(t *testing.T) {
	f := handFrame(nil, "cara-t")
	f.Scen = &scenarios.Scenario{Name: "hand", Batches: 100, Offline: 25}
	f.M, f.Pos = sim.NewMatrix(100, 25), 60
	f.RP.Tuned = map[string]float64{"theta": 21.75, "theta_c": 29.11, "period": 7, "offset": 3}
	strat := algos.Strategy{Start: 25, End: 60, Model: make([]int, 36), Cumulative: slices.Repeat([]float64{1}, 36)}
	for _, a := range f.Visible {
		f.RP.Results = append(f.RP.Results, algos.Result{Algorithm: a, Strategy: strat})
	}
	rp := New()
	full := rp.tuned(f, 1000)
	if len(full) != 1 || full[0] != "tuned on 0..24: θ 21.75  θc 29.11  period 7 offset 3" {
		t.Fatalf("the tuned line at full width: %q", full)
	}
	words := strings.Fields(full[0])
	for w := 24; w <= draw.Width(full[0])+1; w++ {
		var tuned []string
		for _, l := range strings.Split(ansi.Strip(rp.draw(f, w)), "\n") {
			if strings.HasPrefix(l, "algorithm") {
				break
			}
			tuned = append(tuned, l)
		}
		if got := strings.Fields(strings.Join(tuned, " ")); !slices.Equal(got, words) {
			t.Errorf("width %d: the tuned lines read %q, want the words %q", w, tuned, words)
		}
		for _, l := range tuned {
			if draw.Width(l) > w {
				t.Errorf("width %d: %q is wider", w, l)
			}
			if f := strings.Fields(l); slices.Contains([]string{"θ", "θc", "period", "offset"}, f[len(f)-1]) {
				t.Errorf("width %d: %q parts %s from its value", w, l, f[len(f)-1])
			}
		}
		want, _ := rp.Size(f, w+4)
		if n := len(tuned) + len(f.Visible) + 2 + 2; want != n {
			t.Errorf("width %d: the pane asks for %d rows, draws %d", w, want, n)
		}
	}
}

// The results table at three sizes in two profiles (synth.Goldens).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, g := range synth.Goldens(t, pane.Results, func() pane.Pane { return New() }, nil) {
		t.Run(g.Name, func(t *testing.T) { golden.RequireEqual(t, []byte(g.Box+"\n")) })
	}
}

// At 16 colours and without colours, with every row a scenario can have (synth.EverySession),
// each row of the table starts with the key the chart's lines and legend write, then the name.
func TestEveryRowHasItsKey(t *testing.T) {
	s := synth.EverySession(t)
	for _, prof := range []termenv.Profile{termenv.ANSI, termenv.Ascii} {
		f := synth.Frame(t, draw.ForProfile(prof), s, synth.GoldenAt)
		p := New()
		w := synth.BoxSizes[pane.Results][2][0] - 4
		want, _ := p.Size(f, w+4)
		v := ansi.Strip(p.View(f, w, want))
		for _, a := range f.Visible {
			label := strings.Join(strings.Fields(pane.KeyedLabel(a, false, 0)), " ")
			found := false
			for _, l := range strings.Split(v, "\n") {
				if strings.HasPrefix(strings.Join(strings.Fields(strings.TrimLeft(l, " ▶")), " "), label+" ") {
					found = true
				}
			}
			if !found {
				t.Errorf("profile %v: no row %q:\n%s", prof, label, v)
			}
		}
	}
}

// No row has a query accuracy (every cell's is NaN, as for queries without labels): the table has
// no column of dashes, and says that query accuracy is not available and why; one row with one
// brings the column back.
func TestQueryAccuracyNotAvailable(t *testing.T) {
	f := synth.Frame(t, draw.ForProfile(termenv.Ascii), synth.Session(t), synth.GoldenAt)
	for i := range f.RP.Results {
		f.RP.Results[i].QueryAccuracy = math.NaN()
	}
	v := strings.Join(strings.Fields(ansi.Strip(New().View(f, 88, 20))), " ")
	if !strings.Contains(v, "query accuracy not available: the queries have no labels") || strings.Contains(v, "query acc ") {
		t.Errorf("no query accuracy:\n%s", v)
	}
	f.RP.Results[2].QueryAccuracy = 0.5
	if v := ansi.Strip(New().View(f, 88, 20)); strings.Contains(v, "not available") || !strings.Contains(v, "query acc") {
		t.Errorf("one row with query accuracy:\n%s", v)
	}
}

// The results of every row at 16 colours and without (synth.EveryGoldens).
func TestEveryGolden(t *testing.T) {
	for _, g := range synth.EveryGoldens(t, pane.Results, func() pane.Pane { return New() }) {
		t.Run(g.Name, func(t *testing.T) { golden.RequireEqual(t, []byte(g.Box+"\n")) })
	}
}

// The drifts column scores each detector as algos.Score does at batch 52 of the synthetic run
// (drifts 24, 36, 48; window 2): DDM (retrains 20, 24, 35) detects 24 and has 2 false alarms,
// ADWIN (30, 46) none and 2, Page-Hinkley (34) none and 1; the others' cells are empty; a stream
// that does not know its drifts has no such column.
func TestDriftsColumn(t *testing.T) {
	f := synth.Frame(t, draw.ForProfile(termenv.Ascii), synth.Session(t), synth.GoldenAt)
	v := ansi.Strip(New().View(f, 88, 20))
	for _, want := range []string{"D  DDM           keep        3 144.00  190.9     0.414 1/3 ×2",
		"A  ADWIN         keep        2 199.50  303.0     0.322 0/3 ×2", "PH Page-Hinkley  keep        1 225.50  355.6     0.217 0/3 ×1"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
	s := synth.Session(t)
	s.Matrix.Drifts = nil
	real := synth.Frame(t, draw.ForProfile(termenv.Ascii), s, synth.GoldenAt)
	if v := ansi.Strip(New().View(real, 88, 20)); strings.Contains(v, "drifts") || strings.Contains(v, "×") {
		t.Errorf("real data with a drifts column:\n%s", v)
	}
}
