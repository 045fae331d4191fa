package scenarios

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cara-sim/cara/sim"
)

func TestParseCommand(t *testing.T) {
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
		{line: "set data.nois=0.2", err: `no "nois" here; data has`},
		{line: "set model.random_forest.trees.x=1", err: "a value, not a section"},
		{line: "set data.concepts.x.at=3", err: "give an index"},
		{line: "set bogus=1", err: "give one of"},
	} {
		got, err := ParseCommand(tc.line)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseCommand(%q): error %v, want one containing %q", tc.line, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("ParseCommand(%q): %v", tc.line, err)
		case tc.err == "" && got != tc.want:
			t.Errorf("ParseCommand(%q) = %+v, want %+v", tc.line, got, tc.want)
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
		c, err := ParseCommand(tc.line)
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
		{"set model.", []string{"set model.knn.", "set model.logistic.", "set model.nearest_centroid=", "set model.random_forest."}},
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

// Every path that completion offers is one ParseCommand takes, and every value it offers for an
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
			_, err := Load(tc.scenario, Options{Set: append(slices.Clone(tc.extra), tc.path+"="+v)})
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
				if _, err := ParseCommand(c + "1"); err != nil {
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

// With changes any part of the file (a new run's scenario), Text writes the file with the changes
// merged, and Reparse reads an edit of that text back: the round trip keeps every change.
func TestWithTextReparse(t *testing.T) {
	s, err := Load("covcon-d", Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.With([]string{"model.random_forest.trees=7", "offline=20"})
	if err != nil {
		t.Fatal(err)
	}
	if rf := w.Model.(sim.RandomForest); rf.Trees != 7 || w.Offline != 20 || w.Tour != nil {
		t.Errorf("With: trees %d, offline %d, tour %v; want 7, 20, none", rf.Trees, w.Offline, w.Tour != nil)
	}
	if s.Model.(sim.RandomForest).Trees == 7 || s.Offline == 20 {
		t.Error("With changed the scenario it was called on")
	}
	if _, err := s.With([]string{"data.nois=0.2"}); err == nil || !strings.HasPrefix(err.Error(), "--set data.nois") {
		t.Errorf("With a bad path: %v", err)
	}
	text, err := w.Text()
	if err != nil {
		t.Fatal(err)
	}
	back, err := s.Reparse(text)
	if err != nil {
		t.Fatalf("Reparse(Text()): %v\n%s", err, text)
	}
	if back.Model.(sim.RandomForest).Trees != 7 || back.Offline != 20 || back.Name != s.Name {
		t.Errorf("round trip: trees %d, offline %d, name %q", back.Model.(sim.RandomForest).Trees, back.Offline, back.Name)
	}
	if _, err := s.Reparse([]byte(strings.Replace(string(text), "batches: 100", "batches: many", 1))); err == nil || !strings.Contains(err.Error(), ":") {
		t.Errorf("Reparse of a typo: %v", err)
	}
	// An untrusted scenario's edit stays untrusted.
	sent := "name: sent\nseed: 0\nbatches: 3\noffline: 1\ndata: {csv: electricity.csv, label: class}\n" +
		"queries: {from: data, fraction: 0.5}\nmodel: {nearest_centroid: {}}\nretrain_cost: 1\n"
	u, err := Parse("sent.yaml", []byte(sent), "", Options{Untrusted: true})
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(tdPath("seven.csv"))
	if _, err := u.Reparse([]byte(strings.Replace(sent, "electricity.csv, label: class", abs+", label: y", 1))); err == nil || !strings.Contains(err.Error(), "may read only") {
		t.Errorf("an untrusted scenario's edit naming %s: %v", abs, err)
	}
}
