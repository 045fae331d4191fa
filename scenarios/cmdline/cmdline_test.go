package cmdline

import (
	"slices"
	"strings"
	"testing"

	"github.com/cara-sim/cara/scenarios"
)

// A typo in a path gets one wording, on the command line as in --set (and in a file): the loader's.
func TestTypoAsSet(t *testing.T) {
	for _, path := range []string{"retrain_cots", "data.nois", "model.random_forest.tres", "tour.0.sai", "kernel.gama"} {
		_, lineErr := Parse("set " + path + "=1")
		_, setErr := scenarios.Load("covcon-d", scenarios.Options{Set: []string{path + "=1"}})
		if lineErr == nil || setErr == nil || "--set "+lineErr.Error() != setErr.Error() {
			t.Errorf("%s: the command line says %v, --set %v", path, lineErr, setErr)
		}
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Command
		err  string // a part of the error; "" for none
	}{
		{line: "set retrain_cost=40", want: Command{Verb: VerbSet, Path: "retrain_cost", Value: "40"}},
		{line: "retrain_cost=40", want: Command{Verb: VerbSet, Path: "retrain_cost", Value: "40"}},
		{line: "  set data.concepts.1.at = 30 ", want: Command{Verb: VerbSet, Path: "data.concepts.1.at", Value: "30"}},
		{line: "set queries={size: 100, gaussian: {mean: 0.5, std: 0.015}}", want: Command{Verb: VerbSet, Path: "queries", Value: "{size: 100, gaussian: {mean: 0.5, std: 0.015}}"}},
		{line: "unset kernel.gamma", want: Command{Verb: VerbUnset, Path: "kernel.gamma"}},
		{line: "reset", want: Command{Verb: VerbReset}},
		{line: "", err: "type set PATH=VALUE"},
		{line: "reset now", err: "reset takes nothing"},
		{line: "unset", err: "unset takes one PATH"},
		{line: "unset a=1", err: "unset takes one PATH"},
		{line: "frobnicate", err: `unknown command "frobnicate"`},
		{line: "set retrain_cost", err: "give PATH=VALUE"},
		{line: "set data..noise=1", err: "empty key"},
		{line: "set data.nois=0.2", err: `data.nois: unknown field "nois" (known: size, features,`},
		{line: "set model.random_forest.trees.x=1", err: "a value, not a section"},
		{line: "set data.concepts.x.at=3", err: "give an index"},
		{line: "set bogus=1", err: `bogus: unknown field "bogus" (known: name, title, about,`},
	} {
		got, err := Parse(tc.line)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("Parse(%q): error %v, want one containing %q", tc.line, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("Parse(%q): %v", tc.line, err)
		case tc.err == "" && got != tc.want:
			t.Errorf("Parse(%q) = %+v, want %+v", tc.line, got, tc.want)
		}
	}
}

func TestCommandApply(t *testing.T) {
	sets := []string{"retrain_cost=40", "queries.size=50", "queries={size: 10}", "kernel.gamma=2"}
	for _, tc := range []struct {
		line string
		want []string
	}{
		// A set replaces the path's earlier sets and those under it, and goes last.
		{"set queries={size: 20}", []string{"retrain_cost=40", "kernel.gamma=2", "queries={size: 20}"}},
		{"set retrain_cost=10", []string{"queries.size=50", "queries={size: 10}", "kernel.gamma=2", "retrain_cost=10"}},
		{"unset kernel.gamma", []string{"retrain_cost=40", "queries.size=50", "queries={size: 10}"}},
		{"unset data.noise", sets},
		{"reset", nil},
	} {
		c, err := Parse(tc.line)
		if err != nil {
			t.Fatal(err)
		}
		in := slices.Clone(sets)
		if got := c.Apply(in); !slices.Equal(got, tc.want) {
			t.Errorf("%q.Apply = %q, want %q", tc.line, got, tc.want)
		}
		if !slices.Equal(in, sets) {
			t.Errorf("%q.Apply changed its argument to %q", tc.line, in)
		}
	}
}

func TestComplete(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"re", []string{"reset", "retrain_cost="}},
		{"set retr", []string{"set retrain_cost="}},
		{"set model.random_forest.t", []string{"set model.random_forest.trees="}},
		{"set model.", []string{"set model.command=", "set model.knn.", "set model.logistic.", "set model.nearest_centroid=", "set model.predictions=", "set model.random_forest.", "set model.timeout=", "set model.window="}},
		{"set data.concepts.", []string{"set data.concepts.0."}},
		{"set data.concepts.1.tr", []string{"set data.concepts.1.transition."}},
		{"set data.concepts.1.transition.shape=s", []string{"set data.concepts.1.transition.shape=sigmoid"}},
		{"set kernel.gamma=", []string{"set kernel.gamma=auto", "set kernel.gamma=scale"}},
		{"set data.shuffle=w", []string{"set data.shuffle=within_batch"}},
		{"unset kern", []string{"unset kernel."}},
		{"kernel.g", []string{"kernel.gamma="}},
		{"set nothing.here", nil},
		{"reset x", nil},
	} {
		if got := Complete(tc.line); !slices.Equal(got, tc.want) {
			t.Errorf("Complete(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// Every path that completion offers is one Parse takes, and every value it offers for an
// enumerated field is one the loader takes (and a word that is not one is refused): the lists
// cannot drift from the loader unseen.
func TestCompletionsLoad(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		path     string
		extra    []string // sets that make the path's section one the scenario has
	}{
		{"electricity", "data.shuffle", nil},
		{"covcon-d", "kernel.gamma", nil},
		{"covcon-s", "queries.from", []string{"queries={from: data, size: 20}"}},
		{"circle-d", "data.concepts.1.transition.shape", nil},
		{"covcon-d", "detectors.reset", nil},
		{"covcon-d", "model.logistic.standardize", []string{"model={logistic: {}}"}},
		{"circle-d", "data.resample", nil},
	} {
		values := enumValues(tc.path)
		if len(values) == 0 {
			t.Errorf("%s: no values", tc.path)
		}
		if err := checkPath(tc.path); err != nil {
			t.Errorf("checkPath(%s): %v", tc.path, err)
		}
		for _, v := range append(values, "surely_not_a_value") {
			_, err := scenarios.Load(tc.scenario, scenarios.Options{Set: append(slices.Clone(tc.extra), tc.path+"="+v)})
			if bad := v == "surely_not_a_value"; (err != nil) != bad {
				t.Errorf("%s with %s=%s: error %v, want error %v", tc.scenario, tc.path, v, err, bad)
			}
		}
	}
	// Walk the whole tree of completions from "set ": each leaf parses.
	seen := 0
	var walk func(line string)
	walk = func(line string) {
		for _, c := range Complete(line) {
			if strings.HasSuffix(c, "=") {
				seen++
				if _, err := Parse(c + "1"); err != nil {
					t.Errorf("completion %q does not parse: %v", c, err)
				}
				continue
			}
			walk(c)
		}
	}
	walk("set ")
	if seen < 30 {
		t.Errorf("only %d leaf paths completed from the format; want every field (30+)", seen)
	}
}

// A set into another kind of model than the one in force changes the model's kind: the file's kind
// set to null, the sets of the kind before dropped; back to the file's kind, its section as written.
// Each result loads, and its model is the kind asked for.
func TestCommandOnModel(t *testing.T) {
	s, err := scenarios.Load("covcon-d", scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text, err := s.Text()
	if err != nil {
		t.Fatal(err)
	}
	kind := FileModelKind(text)
	if kind != "random_forest" {
		t.Fatalf("covcon-d's model is %q, want random_forest", kind)
	}
	for _, tc := range []struct {
		sets  []string
		line  string
		want  []string
		model string // the model the sets load
	}{
		{nil, "set model.knn.k=1", []string{"model.random_forest=null", "model.knn.k=1"}, "knn"},
		{[]string{"retrain_cost=40", "model.random_forest=null", "model.knn.k=1"}, "set model.knn.k=3",
			[]string{"retrain_cost=40", "model.random_forest=null", "model.knn.k=3"}, "knn"},
		{[]string{"model.random_forest=null", "model.knn.k=1"}, "set model.logistic.standardize=true",
			[]string{"model.random_forest=null", "model.logistic.standardize=true"}, "logistic"},
		{[]string{"model.random_forest=null", "model.knn.k=1"}, "set model.random_forest.trees=10",
			[]string{"model.random_forest.trees=10"}, "random_forest"},
		{[]string{"model={knn: {k: 3}}"}, "set model.knn.k=1", []string{"model={knn: {k: 3}}", "model.knn.k=1"}, "knn"},
		{[]string{"model={knn: {k: 3}}"}, "set model.nearest_centroid={}", []string{"model.random_forest=null", "model.nearest_centroid={}"}, "nearest_centroid"},
		{nil, "set model.random_forest.trees=10", []string{"model.random_forest.trees=10"}, "random_forest"},
		{nil, "set retrain_cost=3", []string{"retrain_cost=3"}, "random_forest"},
	} {
		c, err := Parse(tc.line)
		if err != nil {
			t.Fatal(err)
		}
		got := c.OnModel(tc.sets, kind)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q on %q = %q, want %q", tc.line, tc.sets, got, tc.want)
			continue
		}
		w, err := s.With(got)
		if err != nil {
			t.Errorf("%q: %v", got, err)
			continue
		}
		if w.Model.Name() != strings.ReplaceAll(tc.model, "_", "-") && w.Model.Name() != tc.model {
			t.Errorf("%q: the model is %s, want %s", got, w.Model.Name(), tc.model)
		}
	}
}
