package scenarios

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cara-sim/cara/sim"
)

// matrixOf computes the scenario's matrix for its own seed.
func matrixOf(t *testing.T, s *Scenario) *sim.Matrix {
	t.Helper()
	cfg, err := s.Config(s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	m, err := sim.Run(t.Context(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// sameMatrix reports whether two matrices have the same A, B and query accuracy in every cell,
// bit for bit.
func sameMatrix(a, b *sim.Matrix) bool {
	for tt := range a.Batches() {
		for tp := 0; tp <= tt; tp++ {
			x, y := a.Cell(tp, tt), b.Cell(tp, tt)
			if math.Float64bits(x.A) != math.Float64bits(y.A) || math.Float64bits(x.B) != math.Float64bits(y.B) ||
				math.Float64bits(x.QueryAccuracy) != math.Float64bits(y.QueryAccuracy) {
				return false
			}
		}
	}
	return a.Gamma == b.Gamma
}

// Issue 33: each setting beyond the paper is off by default, and set to its neutral value it gives
// the paper's matrix bit for bit (errors.weights all 1, model.window 1, kernel.standardize false);
// set otherwise, it changes the matrix.
func TestBeyondOffByDefault(t *testing.T) {
	load := func(sets ...string) *Scenario {
		s, err := Load("testdata/small.yaml", Options{Set: sets})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	base := load()
	if base.Weights != nil || base.Standardize || base.Window != 0 || base.Missing != "" || base.Extensions() != nil {
		t.Fatalf("defaults: weights %v, standardize %v, window %d, missing %q, extensions %q", base.Weights, base.Standardize, base.Window, base.Missing, base.Extensions())
	}
	want := matrixOf(t, base)
	for _, sets := range [][]string{{"errors.weights={0: 1, 1: 1}"}, {"model.window=1"}, {"kernel.standardize=false"}, {"errors.weights={}"}} {
		if m := matrixOf(t, load(sets...)); !sameMatrix(m, want) {
			t.Errorf("%v: not the paper's matrix bit for bit", sets)
		}
	}
	for _, tc := range []struct {
		sets []string
		ext  string
	}{
		{[]string{"errors.weights={0: 1, 1: 10}"}, "an error on class 1 counts 10, on class 0 1 (errors.weights)"},
		{[]string{"model.window=3"}, "each model trains on its batch and the 2 before it (model.window: 3)"},
		{[]string{"kernel.standardize=true"}, "the kernel and gamma see the features standardised by the offline block (kernel.standardize)"},
	} {
		s := load(tc.sets...)
		if ext := s.Extensions(); len(ext) != 1 || ext[0] != tc.ext {
			t.Errorf("%v: extensions %q, want [%q]", tc.sets, ext, tc.ext)
		}
		if m := matrixOf(t, s); sameMatrix(m, want) {
			t.Errorf("%v: the matrix did not change", tc.sets)
		}
	}
}

// The errors and kernel sections' new keys are checked at load, at their place.
func TestBeyondErrors(t *testing.T) {
	for _, tc := range []struct {
		set, want string
	}{
		{"errors.weights={2: 1}", `--set errors.weights: "2" is not a class of the data: its classes are "0" (class 0) and "1" (class 1)`},
		{"errors.weights={1: -1}", `--set errors.weights: the weight of class "1" must be a number >= 0, got -1`},
		{"errors.weights={0: 0, 1: 0}", "--set errors.weights: are all 0: no error would count, and every cell of C would be 0"},
		{"errors.weights={1: 2, 1.0: 3}", "--set errors.weights"},
		{"errors.weights=[1, 10]", "--set errors.weights"},
		{"model.window=0", "--set model.window: must be >= 1, got 0"},
		{"model.window=13", "--set model.window: is 13 but the scenario has 12 batches; a model trains on at most all of them (model.window: 12)"},
		{"kernel.standardize=yes", `--set kernel.standardize: must be true or false, got "yes"`},
		{"data.missing=mean", "--set data.missing: goes with data.csv (generated data have no empty cells)"},
		{"data.positive=1", "--set data.positive: goes with data.csv (generated data's class 1 is where the label is true)"},
	} {
		_, err := Load("testdata/small.yaml", Options{Set: []string{tc.set}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got  %v\n want %s", tc.set, err, tc.want)
		}
	}
}

// payments reads testdata/csv/payments.csv: 12 rows of amount, hour and label (fraud or legit),
// amount empty in rows 2, 5 and 9; 4 batches of 3 rows, 2 of them offline.
func payments(t *testing.T, data string) (*Scenario, error) {
	t.Helper()
	src := "name: payments\nbatches: 4\noffline: 2\ndata: {csv: payments.csv, label: label" + data + "}\n" +
		"queries: {from: data, fraction: 0.5}\nmodel: {nearest_centroid: {}}\nretrain_cost: 1\n"
	return Parse("payments.yaml", []byte(src), filepath.Join("testdata", "csv"), Options{})
}

// amounts are the first feature of every row of the stream, batch by batch.
func amounts(t *testing.T, s *Scenario) [][]float64 {
	t.Helper()
	st, err := s.Stream(s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]float64
	for b := range s.Batches {
		bt, err := st.Batch(b)
		if err != nil {
			t.Fatal(err)
		}
		var col []float64
		for i := range bt.X.Len() {
			col = append(col, bt.X.Row(i)[0])
		}
		out = append(out, col)
	}
	return out
}

// data.missing, by hand: the offline block (rows 1-6) has amounts 10, 30, 20, 100 and two empty
// cells: mean 40, median (20 + 30)/2 = 25; the empty cells of rows 2, 5 and 9 (the last online)
// take it. drop leaves 9 rows, cut into batches of 2, 2, 2 and 3.
func TestMissing(t *testing.T) {
	if _, err := payments(t, ""); err == nil || !strings.Contains(err.Error(), `payments.csv:3:1: column "amount" is empty; fill it, or set data.missing`) {
		t.Errorf("no data.missing: %v", err)
	}
	for _, tc := range []struct {
		how  string
		want [][]float64
		note string
	}{
		{"mean", [][]float64{{10, 40, 30}, {20, 40, 100}, {50, 60, 40}, {70, 80, 90}},
			"data.missing mean: 3 empty cells filled with their column's mean over the offline block (batches 0..1): amount: 3 cells, 40"},
		{"median", [][]float64{{10, 25, 30}, {20, 25, 100}, {50, 60, 25}, {70, 80, 90}},
			"data.missing median: 3 empty cells filled with their column's median over the offline block (batches 0..1): amount: 3 cells, 25"},
		{"drop", [][]float64{{10, 30}, {20, 100}, {50, 60}, {70, 80, 90}},
			"data.missing drop: 3 of 12 rows dropped for empty cells (amount: 3)"},
	} {
		s, err := payments(t, ", missing: "+tc.how)
		if err != nil {
			t.Fatalf("%s: %v", tc.how, err)
		}
		if got := amounts(t, s); !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("%s: amounts %v, want %v", tc.how, got, tc.want)
		}
		if !slices.ContainsFunc(s.Notes, func(n string) bool { return strings.HasSuffix(n, tc.note) }) {
			t.Errorf("%s: notes %q lack %q", tc.how, s.Notes, tc.note)
		}
		if ext := s.Extensions(); len(ext) != 1 || !strings.HasSuffix(ext[0], "(data.missing)") {
			t.Errorf("%s: extensions %q", tc.how, ext)
		}
		matrixOf(t, s) // and it runs
	}
	if _, err := payments(t, ", missing: zero"); err == nil || !strings.Contains(err.Error(), `data.missing: must be mean or median`) {
		t.Errorf("missing: zero: %v", err)
	}
}

// data.positive chooses class 1 (sorted, fraud would be 0); errors.weights names classes as the
// CSV writes them.
func TestPositiveAndWeightsByLabel(t *testing.T) {
	s, err := payments(t, ", missing: mean")
	if err != nil {
		t.Fatal(err)
	}
	if s.Classes != [2]string{"fraud", "legit"} {
		t.Fatalf("classes sorted: %q", s.Classes)
	}
	s, err = payments(t, ", missing: mean, positive: fraud}\nerrors: {weights: {fraud: 10}")
	if err != nil {
		t.Fatal(err)
	}
	if s.Classes != [2]string{"legit", "fraud"} || !slices.Equal(s.Weights, []float64{1, 10}) {
		t.Errorf("positive fraud: classes %q, weights %v", s.Classes, s.Weights)
	}
	st, _ := s.Stream(0)
	b, _ := st.Batch(0)
	if !slices.Equal(b.Y, []uint8{0, 1, 0}) { // legit, fraud, legit
		t.Errorf("batch 0's labels %v, want [0 1 0]", b.Y)
	}
	want := []string{"an error on class fraud counts 10, on class legit 1 (errors.weights)", "empty numeric cells take their column's mean over the offline block (data.missing)", "class 1 is fraud (data.positive)"}
	if got := s.Extensions(); !slices.Equal(got, want) {
		t.Errorf("extensions %q\nwant %q", got, want)
	}
	if _, err := payments(t, ", missing: mean, positive: fraude"); err == nil || !strings.Contains(err.Error(), `data.positive is "fraude", which is not a value of label column "label" (legit, fraud)`) {
		t.Errorf("positive fraude: %v", err)
	}
}

// kernel.standardize on weather: raw, its pooled variance is set by the pressure (about 1018, sd
// 94) and the kernel is flat (the engine warns); standardised, gamma is 1/8 and there is no
// warning. Nearest centroid stands in for the forest: the warning is the kernel's alone.
func TestStandardizeWeather(t *testing.T) {
	for _, std := range []bool{false, true} {
		s, err := Load("weather", Options{Set: []string{"model={nearest_centroid: {}}", "kernel.standardize=" + map[bool]string{true: "true", false: "false"}[std]}})
		if err != nil {
			t.Fatal(err)
		}
		m := matrixOf(t, s)
		flat := slices.ContainsFunc(m.Warnings(), func(w string) bool { return strings.HasPrefix(w, "the kernel hardly tells the queries apart") })
		if flat == std {
			t.Errorf("standardize %v: warnings %q", std, m.Warnings())
		}
		if std && math.Abs(m.Gamma-0.125) > 1e-12 {
			t.Errorf("standardised gamma %v, want about 1/8", m.Gamma)
		}
	}
}

// A what-if may change the kernel's view beyond the paper (class weights, standardised features)
// and the queries or gamma of a scenario that uses it: the changed scenario carries the view (the
// replay's numbers, bit for bit a fresh run's, are live's TestWhatIfBeyondThePaper). The class
// order (data.positive) is the data's, and not a what-if.
func TestWhatIfBeyond(t *testing.T) {
	for _, set := range []string{"errors.weights={1: 10}", "kernel.standardize=true"} {
		s, err := Load("testdata/small.yaml", Options{Set: []string{set}})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"kernel.gamma=2", "queries.size=5", "retrain_cost=3"} {
			got, err := s.WhatIf([]string{w})
			if err != nil {
				t.Fatalf("%s, what-if %s: %v", set, w, err)
			}
			if !slices.Equal(got.Weights, s.Weights) || got.Standardize != s.Standardize {
				t.Errorf("%s, what-if %s: weights %v standardize %v, want %v %v", set, w, got.Weights, got.Standardize, s.Weights, s.Standardize)
			}
		}
	}
	s, _ := Load("testdata/small.yaml", Options{})
	got, err := s.WhatIf([]string{"kernel={gamma: 2, standardize: true}", "errors.weights={1: 10}"})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Standardize || !slices.Equal(got.Weights, []float64{1, 10}) {
		t.Errorf("turned on: weights %v standardize %v", got.Weights, got.Standardize)
	}
	for path, want := range map[string]bool{"kernel.standardize": true, "errors.weights": true, "kernel.gamma": true, "data.positive": false, "model.window": false} {
		if Replayable(path) != want {
			t.Errorf("Replayable(%q) = %v, want %v", path, !want, want)
		}
	}
}
