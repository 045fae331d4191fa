package scenarios

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

const base = `name: t
seed: 1
batches: 10
offline: 3
data:
  size: 50
  features: 2
  uniform: {low: 0, high: 1}
  label: "x2 > x1"
queries: {from: data, size: 5}
model: {nearest_centroid: {}}
retrain_cost: 1
`

// with replaces one line of base (matched by its prefix) with repl.
func with(prefix, repl string) string {
	var out []string
	for _, l := range strings.Split(base, "\n") {
		if strings.HasPrefix(l, prefix) {
			l = repl
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func TestBadScenarios(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"unknown key", base + "colour: red\n", `bad.yaml:13:1: unknown field "colour"`},
		{"unknown nested key", with("  size: 50", "  sise: 50"), `bad.yaml:6:3: data: unknown field "sise" (known: size, features, gaussian, uniform, discrete, mixture, label, concepts, noise, resample, csv, batch_column, shuffle, ignore, categorical, missing, positive, hyperplane, rbf)`},
		{"wrong type", with("batches: 10", "batches: [1, 2]"), "bad.yaml:3:10: batches: expected a single value, got a list"},
		{"wrong type nested", with("model: {nearest_centroid: {}}", "model: {knn: 5}"), "bad.yaml:11:14: model.knn: expected a mapping, got a number"},
		{"wrong type in a list", base + "algorithms: [oracle, [never]]\n", "bad.yaml:13:22: algorithms[1]: expected a single value, got a list"},
		{"mapping for a value list", with("  uniform: {low: 0, high: 1}", "  uniform: {low: {a: 1}, high: 1}"), "bad.yaml:8:18: data.uniform.low: expected a value or a list of values, got a mapping"},
		{"not a number", with("batches: 10", "batches: ten"), `bad.yaml:3:10: batches: must be a whole number, got "ten"`},
		{"zero size", with("  size: 50", "  size: 0"), "bad.yaml:6:9: data.size: must be in 1..100000000, got 0"},
		{"negative size", with("  size: 50", "  size: -5"), "bad.yaml:6:9: data.size: must be in 1..100000000, got -5"},
		{"offline too big", with("offline: 3", "offline: 10"), "bad.yaml:4:10: offline: must be in 1..9 (fewer than the 10 batches, leaving an online block), got 10"},
		{"bad expression", with(`  label: "x2 > x1"`, `  label: "x2 > > x1"`), `bad.yaml:9:10: data.label: bad expression: unexpected token Operator(">")`},
		{"power written **", with(`  label: "x2 > x1"`, `  label: "x2 > x1 ** 2"`), `bad.yaml:9:10: data.label: bad expression: ** is written ^ here (at column 9 of "x2 > x1 ** 2")`},
		{"string in an expression", with(`  label: "x2 > x1"`, `  label: 'x2 > x1 or "a" == "b"'`), `bad.yaml:9:10: data.label: bad expression: a string is not part of scenario expressions (at column 12 of`},
		{"let in an expression", with(`  label: "x2 > x1"`, `  label: "let a = 1; x2 > a"`), `bad.yaml:9:10: data.label: bad expression: let or ; is not part of scenario expressions`},
		{"builtin outside the list", with(`  label: "x2 > x1"`, `  label: "len([1]) > x1"`), `bad.yaml:9:10: data.label: bad expression: unknown name len (at column 1`},
		{"x in a batch parameter", with("  uniform: {low: 0, high: 1}", `  uniform: {low: 0, high: "x1 + 1"}`), `bad.yaml:8:27: data.uniform.high: bad expression: unknown name x1 (at column 1 of "x1 + 1")`},
		{"NaN at load", with("retrain_cost: 1", `retrain_cost: "log(t - 5)"`), `bad.yaml:12:15: retrain_cost: expression "log(t - 5)" is NaN at t=0`},
		{"unknown variable", with(`  label: "x2 > x1"`, `  label: "x3 > x1"`), `bad.yaml:9:10: data.label: bad expression: unknown name x3 (at column 1 of "x3 > x1"); expressions may use t, x1..x2`},
		{"divide by zero at some t", with("retrain_cost: 1", `retrain_cost: "1/(t-4)^2"`), `bad.yaml:12:15: retrain_cost: expression "1/(t-4)^2" is +Inf at t=4`},
		{"negative cost at some t", with("retrain_cost: 1", `retrain_cost: "5 - t"`), `bad.yaml:12:15: retrain_cost: expression "5 - t" is -1 at t=6; a retraining cost must be >= 0`},
		{"gamma <= 0", base + "kernel: {gamma: 0}\n", `bad.yaml:13:17: kernel.gamma: must be scale, auto or a number > 0, got "0"`},
		{"unknown algorithm", base + "algorithms: [oracle, cara-x]\n", `bad.yaml:13:22: algorithms: unknown algorithm "cara-x" (valid: oracle, cara-t`},
		{"two models", with("model: {nearest_centroid: {}}", "model: {nearest_centroid: {}, knn: {k: 3}}"), "bad.yaml:11:8: model: give exactly one of random_forest, logistic, knn, nearest_centroid, predictions (a file of the model's answers) or command (a program that is the model) (found 2)"},
		{"misspelt section", strings.Replace(base, "data:", "dota:", 1), `bad.yaml:5:1: unknown field "dota" (known: name, title, about, seed, batches, offline, data, queries, model, kernel, retrain_cost, algorithms, detectors, schedules, tuning, errors, tour, tour_seed, whatif)`},
		{"missing section", strings.Replace(base, "queries: {from: data, size: 5}\n", "", 1), `bad.yaml:1:1: queries: is required`},
		{"offline zero", with("offline: 3", "offline: 0"), "bad.yaml:4:10: offline: must be in 1..9"},
		{"concepts out of order", with(`  label: "x2 > x1"`, `  concepts: [{at: 0, label: "x1 > 0"}, {at: 5, label: "x1 > 1"}, {at: 3, label: "x1 > 2"}]`), "bad.yaml:9:71: data.concepts[2].at: concepts must start at increasing times (one with a transition may share the start of the one before it): 3 after 5"},
		{"transition shape", with(`  label: "x2 > x1"`, `  concepts: [{at: 0, label: "x1 > 0"}, {at: 5, label: "x1 > 1", transition: {width: 2, shape: cubic}}]`), `bad.yaml:9:95: data.concepts[1].transition.shape: must be sigmoid or linear, got "cubic"`},
		{"query size", with("queries: {from: data, size: 5}", "queries: {from: data, size: 0}"), "bad.yaml:10:29: queries.size: must be >= 1, got 0"},
		{"label and concepts", with(`  label: "x2 > x1"`, "  label: \"x2 > x1\"\n  concepts: [{at: 0, label: \"x1 > 0\"}]"), "bad.yaml:6:7: data: give exactly one of label (an expression true for class 1) or concepts (a timeline)"},
		{"first concept not at 0", with(`  label: "x2 > x1"`, `  concepts: [{at: 2, label: "x1 > 0"}]`), "bad.yaml:9:19: data.concepts[0].at: the first concept must start at 0, got 2"},
		{"std list length", with("  uniform: {low: 0, high: 1}", "  gaussian: {mean: [0, 1, 2], std: 1}"), "bad.yaml:8:20: data.gaussian.mean: has 3 values; give 1 (for every feature) or 2 (one per feature)"},
		{"noise out of range", with("  size: 50", "  size: 50\n  noise: 2"), "bad.yaml:7:10: data.noise: must be in [0, 1], got 2"},
		{"queries from data and a generator", with("queries: {from: data, size: 5}", "queries: {from: data, size: 5, uniform: {low: 0, high: 1}}"), "bad.yaml:10:10: queries: give either from: data or a point generator, not both"},
		{"query label without csv", with("queries: {from: data, size: 5}", "queries: {from: data, size: 5, label: y}"), "bad.yaml:10:10: queries: label and batch_column go with queries.csv"},
		{"duplicate key", base + "seed: 2\n", "bad.yaml:13:1: mapping key \"seed\" already defined at [2:1]"},
		{"syntax", "name: [unclosed\n", "bad.yaml:1:7:"},
		// Issue 13, section 4: bad input that used to slip through.
		{"empty file", "", "bad.yaml:1:1: the file is empty; a scenario needs at least name, batches, offline, data, queries, model and retrain_cost"},
		{"only comments", "# a scenario, some day\n\n", "bad.yaml:1:1: the file is empty"},
		{"uniform low above high", with("  uniform: {low: 0, high: 1}", "  uniform: {low: 1, high: 0}"), "bad.yaml:8:27: data.uniform.high: is 0 at t=0, below uniform.low 1 (feature 1); give low <= high"},
		{"uniform low above high later", with("  uniform: {low: 0, high: 1}", `  uniform: {low: 0, high: "1 - t/5"}`), "bad.yaml:8:27: data.uniform.high: is -0.8 at t=9, below uniform.low 0 (feature 1); give low <= high"},
		{"knn k over the batch", with("model: {nearest_centroid: {}}", "model: {knn: {k: 500}}"), "bad.yaml:11:18: model.knn.k: is 500 but batch 0 has 50 points; k must be at most the points of a batch"},
		{"one class everywhere", with(`  label: "x2 > x1"`, `  label: "x2 > 1/(x1-x1)"`), "bad.yaml:9:10: data.label: labels every point of batches 0, 9 with class 0 (the expression is never true), noise aside"},
		{"one class in every concept", with(`  label: "x2 > x1"`, `  concepts: [{at: 0, label: "x1 > 2"}, {at: 5, label: "x1 > -1"}]`), "bad.yaml:9:13: data.concepts: labels every point of batches 0, 5, 9 with a single class each, noise aside"},
		{"detector reset", base + "detectors: {reset: sometimes}\n", `bad.yaml:13:20: detectors.reset: must be never (the default: scikit-multiflow's usage) or on_retrain, got "sometimes"`},
		{"shuffle on generated data", with("  size: 50", "  size: 50\n  shuffle: within_batch"), "bad.yaml:7:12: data.shuffle: goes with data.csv"},
		// Issue 26.
		{"name as a path", with("name: t", `name: "../escaped"`), `bad.yaml:1:7: name: "../escaped" is not a usable scenario name: use letters, digits, '.', '_' and '-', starting with a letter or digit`},
		{"name with a slash", with("name: t", `name: "a/b"`), `bad.yaml:1:7: name: "a/b" is not a usable scenario name`},
		{"hidden name", with("name: t", `name: .t`), `bad.yaml:1:7: name: ".t" is not a usable scenario name`},
		{"ignore on generated data", with("  size: 50", "  size: 50\n  ignore: [id]"), "bad.yaml:7:11: data.ignore: goes with data.csv (it names CSV columns)"},
		{"an algorithm twice", base + "algorithms: [oracle, cara-t, cara-t]\n", "bad.yaml:13:30: algorithms: lists cara-t twice"},
		{"no algorithms", base + "algorithms: []\n", "bad.yaml:13:13: algorithms: is empty; list at least one"},
		{"not UTF-8", base + "title: caf\xe9\n", "bad.yaml:13:11: the file is not UTF-8 text (byte 0xe9); save it as UTF-8"},
		{"standardize not a bool", with("model: {nearest_centroid: {}}", "model: {logistic: {standardize: yes please}}"), `bad.yaml:11:33: model.logistic.standardize: must be true or false, got "yes please"`},
	}
	for _, tc := range tests {
		_, err := Parse("bad.yaml", []byte(tc.src), t.TempDir(), Options{})
		if tc.want == "" {
			if err == nil {
				t.Errorf("%s: no error", tc.name)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n got  %v\n want %s...", tc.name, err, tc.want)
		}
	}
}

func TestLoadUnknown(t *testing.T) {
	_, err := Load("no-such-scenario", Options{})
	if err == nil || !strings.Contains(err.Error(), `no scenario "no-such-scenario": not a file, and not an embedded scenario (circle-d, circle-s, covcon-d`) {
		t.Errorf("got %v", err)
	}
}

func TestLoggedExample(t *testing.T) {
	// The example file, with small CSVs beside it.
	dir := t.TempDir()
	var data, queries strings.Builder
	data.WriteString("batch,x1,x2,colour,y\n")
	queries.WriteString("batch,x1,x2,colour,y\n")
	for b := range 12 {
		for i := range 6 {
			x1, x2 := float64(i)/6, float64((i*7+b)%6)/6
			y := "no"
			if x2 > x1 {
				y = "yes"
			}
			colour := []string{"red", "blue"}[i%2]
			data.WriteString(strings.Join([]string{itoa(b), ftoa(x1), ftoa(x2), colour, y}, ",") + "\n")
			if i < 2 {
				queries.WriteString(strings.Join([]string{itoa(b), ftoa(x2), ftoa(x1), colour, y}, ",") + "\n")
			}
		}
	}
	os.WriteFile(filepath.Join(dir, "data.csv"), []byte(data.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "queries.csv"), []byte(queries.String()), 0o644)
	yaml := `name: logged
seed: 1
batches: 12
offline: 6
data: {csv: data.csv, label: y, batch_column: batch}
queries: {csv: queries.csv, label: y, batch_column: batch}
model: {nearest_centroid: {}}
kernel: {gamma: 0.5}
retrain_cost: 0.3
`
	path := filepath.Join(dir, "logged.yaml")
	os.WriteFile(path, []byte(yaml), 0o644)
	s, err := Load(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Batches != 12 || s.Features != 4 { // x1, x2, colour=red, colour=blue
		t.Fatalf("batches %d features %d", s.Batches, s.Features)
	}
	cfg, _ := s.Config(1)
	m, err := sim.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if q := m.Cell(0, 0).QueryAccuracy; math.IsNaN(q) {
		t.Error("query labels from queries.csv were not read")
	}
}

func itoa(i int) string     { return strconv.Itoa(i) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// The options of issue 13: detectors.reset, logistic.standardize, data.shuffle, a knn k checked
// against a CSV's smallest batch, and notes on query categories the data never had.
func TestScenarioOptions(t *testing.T) {
	s, err := Parse("ok.yaml", []byte(base+"detectors: {reset: on_retrain}\n"), "", Options{})
	if err != nil || s.Evaluation.DetectorReset != algos.ResetOnRetrain {
		t.Errorf("reset on_retrain: %+v %v", s, err)
	}
	s, err = Parse("ok.yaml", []byte(base), "", Options{})
	if err != nil || s.Evaluation.DetectorReset != algos.ResetNever || s.Evaluation.DetectorFeed != algos.FeedBatch {
		t.Errorf("default detectors: %v %v", s.Evaluation, err)
	}
	s, err = Parse("ok.yaml", []byte(base+"detectors: {feed: first-drift}\n"), "", Options{})
	if err != nil || s.Evaluation.DetectorFeed != algos.FeedFirstDrift {
		t.Errorf("feed first-drift: %v %v", s.Evaluation, err)
	}
	if _, err = Parse("ok.yaml", []byte(base+"detectors: {feed: all}\n"), "", Options{}); err == nil || !strings.Contains(err.Error(), "detectors.feed") {
		t.Errorf("bad feed: %v", err)
	}
	s, err = Parse("ok.yaml", []byte(with("model: {nearest_centroid: {}}", "model: {logistic: {standardize: true}}")), "", Options{})
	if err != nil || !s.Model.(sim.Logistic).Standardize {
		t.Errorf("standardize: %v", err)
	}

	// 3 batches of 4, 4 and 2 rows; a query table with one colour the data never had.
	dir := t.TempDir()
	data := "batch,x,colour,y\n0,1,red,0\n0,2,blue,1\n0,3,red,0\n0,4,blue,1\n1,5,red,1\n1,6,blue,0\n1,7,red,1\n1,8,blue,0\n2,9,red,0\n2,10,blue,1\n"
	queries := "batch,x,colour\n0,1,green\n1,2,red\n2,3,green\n"
	os.WriteFile(filepath.Join(dir, "d.csv"), []byte(data), 0o644)
	os.WriteFile(filepath.Join(dir, "q.csv"), []byte(queries), 0o644)
	csvScenario := func(extra, model string) string {
		return "name: c\nbatches: 3\noffline: 1\ndata: {csv: d.csv, label: y, batch_column: batch" + extra + "}\n" +
			"queries: {csv: q.csv, batch_column: batch}\nmodel: " + model + "\nretrain_cost: 1\n"
	}
	_, err = Parse("c.yaml", []byte(csvScenario("", "{knn: {k: 3}}")), dir, Options{})
	if want := "c.yaml:6:18: model.knn.k: is 3 but batch 2 has 2 points; k must be at most the points of a batch"; err == nil || err.Error() != want {
		t.Errorf("knn over a CSV batch:\n got  %v\n want %s", err, want)
	}
	s, err = Parse("c.yaml", []byte(csvScenario(", shuffle: within_batch", "{knn: {k: 2}}")), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Notes) != 1 || !strings.Contains(s.Notes[0], `column "colour" has 2 value(s) that the data (`) || !strings.Contains(s.Notes[0], `the first "green" at `) {
		t.Errorf("notes %q", s.Notes)
	}
	// Shuffled within each batch: the same rows (x with its label) in a seed's order, the same
	// order for the same seed, batches kept apart.
	plain, err := Parse("c.yaml", []byte(csvScenario("", "{knn: {k: 2}}")), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := plain.Stream(0)
	reordered := false
	for seed := range uint64(5) {
		st, _ := s.Stream(seed)
		again, _ := s.Stream(seed)
		for tt := range 3 {
			a, _ := st.Batch(tt)
			b, _ := again.Batch(tt)
			p, _ := ps.Batch(tt)
			if !slices.Equal(a.X.V, b.X.V) {
				t.Errorf("seed %d batch %d: two streams of one seed differ", seed, tt)
			}
			pairs := func(bt *sim.Batch) []string {
				var out []string
				for i := range bt.X.Len() {
					out = append(out, fmt.Sprint(bt.X.Row(i), bt.Y[i]))
				}
				slices.Sort(out)
				return out
			}
			if !slices.Equal(pairs(a), pairs(p)) {
				t.Errorf("seed %d batch %d: rows %v, file order has %v", seed, tt, pairs(a), pairs(p))
			}
			reordered = reordered || !slices.Equal(a.X.V, p.X.V)
		}
	}
	if !reordered {
		t.Error("within_batch never changed an order over 5 seeds")
	}
	_, err = Parse("c.yaml", []byte(csvScenario(", shuffle: all", "{knn: {k: 2}}")), dir, Options{})
	if err == nil || !strings.Contains(err.Error(), `data.shuffle: must be none (rows in file order, the default) or within_batch`) {
		t.Errorf("shuffle all: %v", err)
	}
}

// Issue 26, item 9 and the list: a FIFO as the data CSV is read once, under the load's context
// (a cancel ends the wait with context.Canceled; a text column, read twice, still works), and
// a folder or a symlink loop is named as what it is, not "not a file".
func TestLoadFIFOAndOddPaths(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "d.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	path := filepath.Join(dir, "f.yaml")
	os.WriteFile(path, []byte("name: f\nbatches: 2\noffline: 1\ndata: {csv: d.csv, label: y}\nqueries: {from: data, size: 1}\nmodel: {nearest_centroid: {}}\nretrain_cost: 1\n"), 0o644)

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() { _, err := Load(path, Options{Context: ctx}); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled load of a FIFO nobody writes: %v, want context.Canceled", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the load did not end within 2 s of the cancel")
	}
	// The cancelled open is still waiting on d.csv: a writer releases it.
	if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		w.Close()
	}
	// Another FIFO, as --data, feeds a load.
	fifo2 := filepath.Join(dir, "e.csv")
	if err := syscall.Mkfifo(fifo2, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		w, err := os.OpenFile(fifo2, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		w.WriteString("x,colour,y\n1,red,0\n2,blue,1\n3,red,0\n4,blue,1\n5,red,1\n6,blue,0\n")
		w.Close()
	}()
	s, err := Load(path, Options{Context: context.Background(), Data: fifo2})
	if err != nil {
		t.Fatalf("a FIFO with a text column: %v", err)
	}
	if s.Features != 3 {
		t.Errorf("features %d, want 3 (x, colour=red, colour=blue)", s.Features)
	}

	loop := filepath.Join(dir, "loop.yaml")
	os.Symlink(loop, loop)
	for _, tc := range []struct{ path, want string }{
		{dir, dir + " is a folder; give a scenario file"},
		{loop, "reading scenario " + loop + ": stat " + loop + ": too many levels of symbolic links"},
	} {
		if _, err := Load(tc.path, Options{}); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n got  %v\n want %s", tc.path, err, tc.want)
		}
	}
}

// Issue 26, the silent accepts: a CSV batch of one class is a note (every batch of one class an
// error, as for generated data); a query size above a generated batch is an error, a fraction
// that rounds to none a note; a second YAML document is an error; a BOM is dropped.
func TestSilentAccepts(t *testing.T) {
	dir := t.TempDir()
	scenario := func(data string) string {
		os.WriteFile(filepath.Join(dir, "d.csv"), []byte(data), 0o644)
		return "name: c\nbatches: 3\noffline: 1\ndata: {csv: d.csv, label: y, batch_column: b}\nqueries: {from: data, size: 1}\nmodel: {nearest_centroid: {}}\nretrain_cost: 1\n"
	}
	s, err := Parse("c.yaml", []byte(scenario("b,x,y\n0,1,0\n0,2,0\n1,1,0\n1,2,1\n2,1,1\n2,2,0\n")), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "d.csv: 1 of 3 batches have a single class in column \"y\" (batches 0): their models predict it everywhere"; len(s.Notes) != 1 || !strings.HasSuffix(s.Notes[0], want) {
		t.Errorf("notes %q, want one ending %q", s.Notes, want)
	}
	_, err = Parse("c.yaml", []byte(scenario("b,x,y\n0,1,0\n0,2,0\n1,1,1\n1,2,1\n2,1,0\n2,2,0\n")), dir, Options{})
	if err == nil || !strings.Contains(err.Error(), `c.yaml:4:27: data.label: every batch of `) || !strings.Contains(err.Error(), `has a single class in column "y"`) {
		t.Errorf("every batch one class: %v", err)
	}

	s, err = Parse("f.yaml", []byte(with("queries: {from: data, size: 5}", "queries: {from: data, fraction: 0.001}")), "", Options{})
	if err != nil || len(s.Notes) != 1 || !strings.HasPrefix(s.Notes[0], "queries.fraction 0.001 of the 50 points of batch 0 rounds to no query: a batch takes at least 1") {
		t.Errorf("fraction: %q %v", s.Notes, err)
	}
	for _, tc := range []struct{ name, src, want string }{
		{"size above the batch", with("queries: {from: data, size: 5}", "queries: {from: data, size: 60}"), "q.yaml:10:29: queries.size: is 60 but a batch has 50 points; queries from data are drawn without replacement, so at most 50"},
		{"second document", base + "---\nname: other\n", "q.yaml:13:1: a second YAML document starts here; a scenario file holds one"},
	} {
		if _, err := Parse("q.yaml", []byte(tc.src), "", Options{}); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n got  %v\n want %s", tc.name, err, tc.want)
		}
	}
	if _, err := Parse("bom.yaml", []byte("\ufeff"+base), "", Options{}); err != nil {
		t.Errorf("a byte order mark: %v", err)
	}
	if _, err := Parse("q.yaml", []byte(base+"---\n# only a comment\n"), "", Options{}); err != nil {
		t.Errorf("a --- followed by nothing: %v", err)
	}
}
