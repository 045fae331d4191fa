package scenarios

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cara-sim/cara/scenarios/tour"
)

// base (load_test.go) has 10 batches, 3 offline, R = 1; its tour starts on line 13.

func TestTourGood(t *testing.T) {
	src := base + `tour:
  - at: 0
    say: >
      The first batch:
      one model per batch.
    focus: about
  - {at: 4, say: "Keep or retrain?", focus: [3, 4], quiz: true}
  - {at: 4, say: "Same batch, next callout.", pause: false, focus: decisions}
  - at: 9
    say: What if R were 5 and the queries sat in a corner?
    focus: [9, 9]
    whatif:
      retrain_cost: 5
      queries: {size: 5, gaussian: {mean: [0.1, 0.9], std: 0.05}}
      kernel.gamma: "2"
`
	s, err := Parse("good.yaml", []byte(src), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []tour.Stop{
		{At: 0, Say: "The first batch: one model per batch.", Focus: tour.Focus{Pane: tour.PaneAbout}, Pause: true},
		{At: 4, Say: "Keep or retrain?", Focus: tour.Focus{Pane: tour.PaneMatrix, Cell: &tour.Cell{Model: 3, Batch: 4}}, Pause: true, Quiz: true},
		{At: 4, Say: "Same batch, next callout.", Focus: tour.Focus{Pane: tour.PaneDecisions}},
		{At: 9, Say: "What if R were 5 and the queries sat in a corner?", Focus: tour.Focus{Pane: tour.PaneMatrix, Cell: &tour.Cell{Model: 9, Batch: 9}}, Pause: true,
			Whatif: []tour.Override{{Path: "retrain_cost", Value: "5"}, {Path: "queries", Value: "{size: 5, gaussian: {mean: [0.1, 0.9], std: 0.05}}"}, {Path: "kernel.gamma", Value: "2"}}},
	}
	if !reflect.DeepEqual(s.Tour, want) {
		t.Fatalf("tour:\n got %+v\nwant %+v", s.Tour, want)
	}
	// A stop's what-if, given back to the loader as --set, is the scenario the stop shows.
	w, err := Parse("good.yaml", []byte(src), "", Options{Set: s.Tour[3].Sets()})
	if err != nil {
		t.Fatal(err)
	}
	if w.RetrainCost(9) != 5 || w.Gamma.Value != 2 || s.RetrainCost(9) != 1 {
		t.Fatalf("what-if not applied: R %g, gamma %+v", w.RetrainCost(9), w.Gamma)
	}
	st, _ := w.Stream(w.Seed)
	b, err := st.Batch(2)
	if err != nil || b.Q.Len() != 5 || b.Q.V[0] > 0.5 {
		t.Fatalf("what-if queries: %v, %d queries, first %v", err, b.Q.Len(), b.Q.V[:2])
	}
	// A literal block keeps its lines; a folded one (above) is one paragraph.
	lit, err := Parse("lit.yaml", []byte(base+"tour:\n  - at: 1\n    say: |\n      One.\n      Two.\n"), "", Options{})
	if err != nil || lit.Tour[0].Say != "One.\nTwo." {
		t.Fatalf("a literal block: %+v %v", lit, err)
	}
	// A scenario without a tour has none.
	if s, err := Parse("plain.yaml", []byte(base), "", Options{}); err != nil || s.Tour != nil {
		t.Fatalf("no tour: %v %v", s.Tour, err)
	}
	if tour.PaneBatch.String() != "batch" || tour.NoPane.String() != "" {
		t.Fatalf("pane names: %q %q", tour.PaneBatch, tour.NoPane)
	}
}

func TestTourErrors(t *testing.T) {
	stop := func(fields string) string { return base + "tour:\n  - {at: 2, say: ok}\n  - {" + fields + "}\n" }
	for _, c := range []struct{ name, src, want string }{
		{"past the last batch", stop("at: 10, say: hi"), `bad.yaml:15:10: tour[1].at: is 10, outside the scenario's batches 0..9`},
		{"negative batch", stop("at: -1, say: hi"), `bad.yaml:15:10: tour[1].at: is -1, outside the scenario's batches 0..9`},
		{"not a batch", stop("at: five, say: hi"), `bad.yaml:15:10: tour[1].at: must be a batch (a whole number), got "five"`},
		{"out of order", stop("at: 1, say: hi"), `bad.yaml:15:10: tour[1].at: is 1, before the stop above it (at 2): stops go in batch order`},
		{"no at", stop("say: hi"), `bad.yaml:15:5: tour[1].at: is required`},
		{"no say", stop("at: 3"), `bad.yaml:15:5: tour[1].say: is required`},
		{"empty say", stop(`at: 3, say: "  "`), `bad.yaml:15:18: tour[1].say: is empty; a stop needs a few sentences for its callout`},
		{"say too long", stop("at: 3, say: " + strings.Repeat("word ", 121)), `bad.yaml:15:18: tour[1].say: is 604 characters; a callout holds 600 (split it into two stops at the same batch)`},
		{"unknown pane", stop("at: 3, say: hi, focus: matrx"), `bad.yaml:15:29: tour[1].focus: unknown pane "matrx"; give one of matrix, cumulative, decisions, batch, results, about, or a cell of the cost matrix as [t', t]`},
		{"cell below the diagonal", stop("at: 5, say: hi, focus: [4, 2]"), `bad.yaml:15:29: tour[1].focus: cell [4, 2] is below the diagonal: in C[t', t] the model t' is trained at or before batch t`},
		{"cell outside the matrix", stop("at: 5, say: hi, focus: [2, 12]"), `bad.yaml:15:29: tour[1].focus: cell [2, 12] is outside the cost matrix: batches are 0..9`},
		{"cell not shown yet", stop("at: 5, say: hi, focus: [2, 7]"), `bad.yaml:15:29: tour[1].focus: cell [2, 7] is in column 7, after the stop's batch 5: the player has not shown it yet`},
		{"cell of three", stop("at: 5, say: hi, focus: [1, 2, 3]"), `bad.yaml:15:29: tour[1].focus: has 3 values; a cell of the cost matrix is [t', t]: the model's batch and the batch`},
		{"cell not numbers", stop("at: 5, say: hi, focus: [a, 2]"), `bad.yaml:15:30: tour[1].focus: a cell is [t', t], two batches; got "a"`},
		{"focus a mapping", stop("at: 5, say: hi, focus: {pane: matrix}"), `bad.yaml:15:29: tour[1].focus: expected a value or a list of values, got a mapping`},
		{"pause not a bool", stop("at: 5, say: hi, pause: maybe"), `bad.yaml:15:29: tour[1].pause: must be true or false, got "maybe"`},
		{"quiz offline", stop("at: 3, say: hi, quiz: true"), `bad.yaml:15:28: tour[1].quiz: asks about batch 3, but the guess round is over the online decisions, batches 4..9 (at 3 every strategy trains its first model)`},
		{"unknown stop field", stop("at: 5, say: hi, colour: red"), `bad.yaml:15:22: tour[1]: unknown field "colour" (known: at, say, focus, whatif, pause, quiz)`},
		{"tour not a list", base + "tour: {at: 1, say: hi}\n", `bad.yaml:13:7: tour: expected a list, got a mapping`},
		{"whatif a value", stop("at: 5, say: hi, whatif: 3"), `bad.yaml:15:30: tour[1].whatif: expected a mapping of paths to values (e.g. {retrain_cost: 40} or {kernel.gamma: 2}), got integer`},
		{"whatif empty", stop("at: 5, say: hi, whatif: {}"), `bad.yaml:15:30: tour[1].whatif: is empty; give {PATH: VALUE, ...} as --set takes them, or leave it out`},
		{"whatif beyond queries, gamma and R", stop("at: 5, say: hi, whatif: {data.noise: 0.1}"), `bad.yaml:15:43: tour[1].whatif: data.noise: a what-if changes only queries, kernel, retrain_cost, errors: what the player recomputes without training again`},
		{"whatif without a value", stop("at: 5, say: hi, whatif: {retrain_cost: }"), `bad.yaml:15:31: tour[1].whatif.retrain_cost: has no value; give the value --set would take`},
		{"whatif bad R", stop("at: 5, say: hi, whatif: {retrain_cost: -3}"), `bad.yaml:15:45: tour[1].whatif.retrain_cost: must be a number >= 0 or an expression of t, got -3`},
		{"whatif bad gamma", stop("at: 5, say: hi, whatif: {retrain_cost: 2, kernel.gamma: -1}"), `bad.yaml:15:62: tour[1].whatif.kernel.gamma: must be scale, auto or a number > 0, got "-1"`},
		{"whatif unknown key", stop("at: 5, say: hi, whatif: {kernel.gama: 2}"), `bad.yaml:15:44: tour[1].whatif.kernel.gama: unknown field "gama" (known: gamma, standardize)`},
		{"whatif bad YAML", stop(`at: 5, say: hi, whatif: {queries: "{size: 5"}`), `bad.yaml:15:40: tour[1].whatif.queries: "{size: 5" is not a YAML value`},
		{"unknown template", stop(`at: 5, say: "C is {c 0 1}"`), `bad.yaml:15:18: tour[1].say: {c 0 1}: unknown template "c"; give one of A, B, C, R, acc, cost, decision, err, model, period, qacc, retrains, scpe, theta, theta_c, when`},
		{"template cell below the diagonal", stop(`at: 5, say: "{C 3 1}"`), `bad.yaml:15:18: tour[1].say: {C 3 1}: cell [3, 1] is not in the cost matrix above the diagonal (t' <= t)`},
		{"template batch outside", stop(`at: 5, say: "{C 3 10}"`), `bad.yaml:15:18: tour[1].say: {C 3 10}: "10" is not a batch (0..9, or end)`},
		{"template arguments", stop(`at: 5, say: "{cost}"`), `bad.yaml:15:18: tour[1].say: {cost}: cost takes ALGORITHM [t]`},
		{"template algorithm", stop(`at: 5, say: "{cost Orakel}"`), `bad.yaml:15:18: tour[1].say: {cost Orakel}: unknown algorithm "orakel" (valid: oracle, cara-t, cara-ct, cara-p, never, markov, adwin, ddm, page-hinkley, eddm, hddm-a, hddm-w, kswin)`},
		{"template not closed", stop(`at: 5, say: "{C 0 1"`), `bad.yaml:15:18: tour[1].say: "{C 0 1" is not closed by }`},
		{"whatif inside the queries", stop(`at: 5, say: hi, whatif: {queries: "{size: 0, gaussian: {mean: 0.5, std: 0.1}}"}`), `bad.yaml:15:40: tour[1].whatif.queries: queries.size: must be >= 1, got 0`},
		{"whatif block style", base + "tour:\n  - at: 5\n    say: hi\n    whatif:\n      queries:\n        size: 5\n", `bad.yaml:18:13: tour[0].whatif.queries: write the value on one line, in flow style ({a: 1, b: [2, 3]}), as --set takes it`},
		{"whatif empty key", stop("at: 5, say: hi, whatif: {queries..size: 3}"), `bad.yaml:15:46: tour[1].whatif: queries..size: PATH is keys joined by dots (e.g. model.random_forest.trees), got an empty key`},
	} {
		_, err := Parse("bad.yaml", []byte(c.src), "", Options{})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, c.want)
		}
	}
}

// A what-if is checked after the command line's own --set, and an error in a --set that reaches
// into the tour still names the --set.
func TestTourWithSets(t *testing.T) {
	src := base + "tour:\n  - {at: 5, say: hi, whatif: {kernel.gamma: 2}}\n"
	if _, err := Parse("x.yaml", []byte(src), "", Options{Set: []string{"retrain_cost=3"}}); err != nil {
		t.Fatal(err)
	}
	_, err := Parse("x.yaml", []byte(src), "", Options{Set: []string{"tour.0.at=12"}})
	if err == nil || err.Error() != "--set tour.0.at: is 12, outside the scenario's batches 0..9" {
		t.Fatalf("--set into the tour: %v", err)
	}
	_, err = Parse("x.yaml", []byte(src), "", Options{Set: []string{"tour.0.whatif={kernel.gamma: 0}"}})
	if err == nil || err.Error() != `--set tour.0.whatif: tour[0].whatif.kernel.gamma: must be scale, auto or a number > 0, got "0"` {
		t.Fatalf("--set of a what-if: %v", err)
	}
}

// A scenario cut short from the command line keeps the stops that still fit, and says which it
// left out; the file's own tour must fit, and so must a --set into the tour.
func TestTourOfAChangedScenario(t *testing.T) {
	s, err := Load("covcon-d", Options{Set: []string{"batches=30", `data.concepts=[{at: 0, label: "x2 > x1"}, {at: 10, label: "x2 <= x1"}]`}})
	if err != nil {
		t.Fatalf("covcon-d cut to 30 batches: %v", err)
	}
	var ats []int
	for _, st := range s.Tour {
		ats = append(ats, st.At)
	}
	want := "the tour keeps 5 of its 8 stops: the command line changed the scenario, and stops 5, 6, 7 no longer fit (the first: covcon-d.yaml:"
	if !reflect.DeepEqual(ats, []int{0, 11, 24, 25, 27}) || len(s.Notes) != 1 || !strings.HasPrefix(s.Notes[0], want) ||
		!strings.HasSuffix(s.Notes[0], "tour[5].at: is 41, outside the scenario's batches 0..29)") {
		t.Fatalf("stops at %v, notes %q", ats, s.Notes)
	}
	// A what-if that no longer applies is left out the same way.
	s, err = Load("scenario1-far", Options{Set: []string{"queries={from: data, size: 40}"}})
	if err != nil || len(s.Tour) != 3 || len(s.Notes) != 1 || !strings.Contains(s.Notes[0], "tour[3].whatif") {
		t.Fatalf("scenario1-far with queries from the data: %v, %d stops, notes %q", err, len(s.Tour), s.Notes)
	}
	if _, err := Load("covcon-d", Options{Set: []string{"tour.5.at=120"}}); err == nil || err.Error() != "--set tour.5.at: is 120, outside the scenario's batches 0..99" {
		t.Fatalf("--set into the tour: %v", err)
	}
}

// The scenario file reference's example (docs/scenarios.md), tour included, is a scenario that
// loads.
func TestScenarioDocExampleLoads(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "scenarios.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```yaml\nname: my-drift\n")
	example, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		t.Fatal("docs/scenarios.md has no scenario example (a ```yaml block starting name: my-drift)")
	}
	s, err := Parse("scenarios.md", []byte("name: my-drift\n"+example), "", Options{})
	if err != nil {
		t.Fatalf("docs/scenarios.md's example: %v", err)
	}
	if len(s.Tour) != 3 || s.Tour[1].Focus.Cell == nil || !s.Tour[1].Quiz || len(s.Tour[2].Whatif) != 1 {
		t.Fatalf("docs/scenarios.md's example tour: %+v", s.Tour)
	}
}

// A tour is written for one run: it plays on tour_seed, else the seed the file writes, which
// --seed (an override of seed) changes for the run and not for the tour; a what-if keeps it.
func TestTourSeed(t *testing.T) {
	src := base + "tour:\n  - {at: 1, say: One.}\n"
	for _, tc := range []struct {
		name   string
		src    string
		opt    Options
		run    uint64 // the scenario's seed
		toured uint64
	}{
		{"the file's seed", src, Options{}, 7, 7},
		{"--seed moves the run, not the tour", src, Options{Flags: []Flag{{Name: "--seed 3", Path: "seed", Value: "3"}}}, 3, 7},
		{"--set seed too", src, Options{Set: []string{"seed=4"}}, 4, 7},
		{"tour_seed", src + "tour_seed: 2\n", Options{}, 7, 2},
		{"--set tour_seed", src, Options{Set: []string{"tour_seed=5"}}, 7, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse("seeded.yaml", []byte(strings.Replace(tc.src, "seed: 1\n", "seed: 7\n", 1)), "", tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if s.Seed != tc.run || s.TourSeed() != tc.toured {
				t.Errorf("seed %d, tour's %d; want %d and %d", s.Seed, s.TourSeed(), tc.run, tc.toured)
			}
			w, err := s.WhatIf([]string{"retrain_cost=3"})
			if err != nil || w.TourSeed() != tc.toured {
				t.Errorf("under a what-if: %v, tour's seed %d", err, w.TourSeed())
			}
		})
	}
	_, err := Parse("bad.yaml", []byte(src+"tour_seed: -1\n"), "", Options{})
	if err == nil || !strings.Contains(err.Error(), "bad.yaml:") || !strings.Contains(err.Error(), "tour_seed") {
		t.Errorf("tour_seed -1: %v", err)
	}
}
