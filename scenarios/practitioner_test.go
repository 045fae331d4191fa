package scenarios

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cara-sim/cara/sim"
)

// Issue 38, item 5: what a practitioner's data met that was silent or confusing, each said now.

// weekly writes the byo data with its weeks renumbered by week, and a scenario of a built-in model
// over it with more lines appended.
func weekly(t *testing.T, week func(int) int, more string) (dir, text string) {
	t.Helper()
	dir, _, _ = byoFiles(t)
	b, err := os.ReadFile(filepath.Join(dir, "data.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for i, l := range lines[1:] {
		w, rest, _ := strings.Cut(l, ",")
		n := 0
		for _, c := range w {
			n = 10*n + int(c-'0')
		}
		lines[i+1] = strconv.Itoa(week(n-10)) + "," + rest
	}
	if err := os.WriteFile(filepath.Join(dir, "weeks.csv"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, "name: weeks\nbatches: 6\noffline: 3\ndata: {csv: weeks.csv, label: state, batch_column: week}\n" +
		"queries: {from: data, fraction: 0.25}\nmodel: {nearest_centroid: {}}\nretrain_cost: 1\n" + more
}

// Batch values with gaps are renumbered: t counts the batches. The notes say so, with the mapping;
// values 0..T-1 need no note.
func TestBatchGapsSaidSo(t *testing.T) {
	dir, text := weekly(t, func(w int) int { return []int{0, 1, 2, 7, 8, 9}[w] }, "")
	s, err := Parse(filepath.Join(dir, "weeks.yaml"), []byte(text), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `batch column "week" holds 0-2, 7-9, not 0..5: t counts the batches in file order, so batch t is the t-th value (t 0-2 = 0-2, t 3-5 = 7-9); R(t), offline and every t of the scenario count t, not the value`
	if notes := strings.Join(s.Notes, "\n"); !strings.Contains(notes, want) {
		t.Errorf("notes %q lack %q", notes, want)
	}
	dir, text = weekly(t, func(w int) int { return w }, "")
	if s, err := Parse(filepath.Join(dir, "weeks.yaml"), []byte(text), dir, Options{}); err != nil || len(s.Notes) != 0 {
		t.Errorf("weeks 0..5: %v, notes %q", err, s.Notes)
	}
}

// A class weight whose C would overflow (1e308: A and B infinite, C NaN, the Oracle's cost
// undefined while CARA-T's is 3) is refused, saying the largest weight the scenario takes; a large
// weight within it leaves every cell finite, and the Oracle costs no more than any algorithm.
func TestHugeWeights(t *testing.T) {
	dir, text := weekly(t, func(w int) int { return w }, "")
	run := func(weight string) (*Scenario, *sim.Matrix, error) {
		s, err := Parse(filepath.Join(dir, "weeks.yaml"), []byte(text+"errors: {weights: {fail: "+weight+"}}\n"), dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := s.Config(s.Seed)
		if err != nil {
			t.Fatal(err)
		}
		m, err := sim.Run(context.Background(), cfg, nil)
		return s, m, err
	}
	if _, _, err := run("1e308"); err == nil || !strings.Contains(err.Error(), "errors.weights: the weight of class 0, 1e+308, can make C overflow") ||
		!strings.Contains(err.Error(), "must be at most 1.8") {
		t.Errorf("1e308: %v", err)
	}
	s, m, err := run("1e302")
	if err != nil {
		t.Fatal(err)
	}
	for bt := range 6 {
		for tp := 0; tp <= bt; tp++ {
			if c := m.Cell(tp, bt).C(); math.IsNaN(c) || math.IsInf(c, 0) {
				t.Fatalf("cell (%d, %d) is %v", tp, bt, c)
			}
		}
	}
	results, err := s.Evaluation.Evaluate(m, s.RetrainCost, s.Algorithms, s.Batches-1)
	if err != nil {
		t.Fatal(err)
	}
	oracle := results[0].Strategy.Cost()
	for _, r := range results[1:] {
		if c := r.Strategy.Cost(); !(c >= oracle-1e-12*math.Abs(oracle)) {
			t.Errorf("%s costs %v, the Oracle %v", r.Algorithm, c, oracle)
		}
	}
}

// A --set expression YAML reads as a mapping (t > 5 ? 10 : 20) says to quote it; a 100 kB value is
// shown by its start.
func TestSetErrorsThatHelp(t *testing.T) {
	_, err := Parse("small.yaml", []byte(base), "", Options{Set: []string{"retrain_cost=t > 5 ? 10 : 20"}})
	if want := `--set retrain_cost: expected a single value, got a mapping; YAML reads the ": " of t > 5 ? 10 : 20 as a key and its value: quote the expression, --set 'retrain_cost="t > 5 ? 10 : 20"'`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
	for _, v := range []string{strings.Repeat("a", 100_000), "t+" + strings.Repeat("1", 100_000), "[" + strings.Repeat("a", 100_000)} {
		_, err := Parse("small.yaml", []byte(base), "", Options{Set: []string{"retrain_cost=" + v}})
		if err == nil || len(err.Error()) > 1000 || !strings.Contains(err.Error(), "bytes)") {
			t.Errorf("a value of %d bytes: an error of %d bytes", len(v), len(err.Error()))
		}
	}
}
