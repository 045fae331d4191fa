package scenarios

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/cara-sim/cara/sim"
)

// base (load_test.go) has 10 batches, 3 offline, R = 1, 2 features; whatif starts on line 13.

// Query alternatives, block or flow style, become what-ifs as --set takes them, and each loads:
// the scenario with it is the scenario with that --set.
func TestWhatifSectionGood(t *testing.T) {
	src := base + `whatif:
  queries:
    - name: corner
      size: 8
      gaussian:
        mean: [0.1, 0.9]
        std: 0.05
    - {name: "half the data", from: data, fraction: 0.5}
    - name: moving
      size: 4
      uniform: {low: "t/20", high: "t/20 + 0.1"}
`
	s, err := Parse("alt.yaml", []byte(src), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []QueryAlternative{
		{Name: "corner", Set: "queries={size: 8, gaussian: {mean: [0.1, 0.9], std: 0.05}}"},
		{Name: "half the data", Set: "queries={from: data, fraction: 0.5}"},
		{Name: "moving", Set: `queries={size: 4, uniform: {low: "t/20", high: "t/20 + 0.1"}}`},
	}
	if !reflect.DeepEqual(s.WhatIfQueries, want) {
		t.Fatalf("alternatives:\n got %+v\nwant %+v", s.WhatIfQueries, want)
	}
	for _, alt := range s.WhatIfQueries {
		w, err := s.WhatIf([]string{alt.Set})
		if err != nil {
			t.Fatalf("%s: %v", alt.Name, err)
		}
		viaSet, err := Parse("alt.yaml", []byte(src), "", Options{Set: []string{alt.Set}})
		if err != nil {
			t.Fatal(err)
		}
		for _, bt := range []int{0, 9} {
			a, b := batchOf(t, w, bt), batchOf(t, viaSet, bt)
			if !reflect.DeepEqual(a.Q, b.Q) || !reflect.DeepEqual(a.QY, b.QY) || !reflect.DeepEqual(a.X, b.X) {
				t.Fatalf("%s, batch %d: the what-if's batch differs from --set's", alt.Name, bt)
			}
		}
		if !reflect.DeepEqual(w.WhatIfQueries, s.WhatIfQueries) {
			t.Errorf("%s: the what-if lost the alternatives", alt.Name)
		}
	}
	if b := batchOf(t, must(s.WhatIf([]string{want[0].Set})), 3); b.Q.Len() != 8 || b.Q.V[0] > 0.5 || b.QY == nil {
		t.Errorf("corner: %d queries, first at %v, labels %v", b.Q.Len(), b.Q.V[:2], b.QY)
	}
}

func must(s *Scenario, err error) *Scenario {
	if err != nil {
		panic(err)
	}
	return s
}

// Each mistake in whatif is reported at its place, naming the alternative's field.
func TestWhatifSectionErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"whatif:\n  queries:\n    - size: 8\n      gaussian: {mean: 0.5, std: 0.1}\n", "x.yaml:15:7: whatif.queries[0].name: is required"},
		{"whatif:\n  queries:\n    - name: a\n", "x.yaml:15:7: whatif.queries[0]: has only a name"},
		{"whatif:\n  queries:\n    - {name: a, from: data, size: 3}\n    - {name: a, from: data, size: 4}\n", `x.yaml:16:14: whatif.queries[1].name: "a" names two alternatives`},
		{"whatif:\n  queries:\n    - name: a\n      sizes: 3\n", `x.yaml:16:7: whatif.queries[0]: unknown field "sizes" (known: name, size, fraction, from,`},
		{"whatif:\n  queries:\n    - name: a\n      size: 3\n      gaussian: {mean: 0.5, std: -1}\n", "x.yaml:17:34: whatif.queries[0].gaussian.std: is -1 at t=0; a standard deviation must be >= 0"},
		{"whatif:\n  queries:\n    - name: a\n      size: 3\n      gaussian: {mean: [1, 2, 3], std: 1}\n", "x.yaml:17:24: whatif.queries[0].gaussian.mean: has 3 values; give 1 (for every feature) or 2"},
		{"whatif:\n  queries:\n    - {name: a, from: data}\n", "x.yaml:15:8: whatif.queries[0]: with from: data give exactly one of size or fraction"},
		{"whatif:\n  queries:\n    - {name: a, size: 0, uniform: {low: 0, high: 1}}\n", "x.yaml:15:23: whatif.queries[0].size: must be >= 1, got 0"},
		{"whatif: {querie: []}\n", `x.yaml:13:10: whatif: unknown field "querie" (known: queries)`},
		{"whatif: {queries: {name: a}}\n", "x.yaml:13:19: whatif.queries: expected a list, got a mapping"},
	} {
		_, err := Parse("x.yaml", []byte(base+c.src), "", Options{})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s...", c.src, err, c.want)
		}
	}
}

// WhatIf changes only what a finished run can be recomputed for, after the scenario's own --set,
// and its errors name --set PATH as the command line's do.
func TestScenarioWhatIf(t *testing.T) {
	s, err := Parse("w.yaml", []byte(base), "", Options{Set: []string{"retrain_cost=3"}})
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.WhatIf([]string{"kernel.gamma=4"})
	if err != nil {
		t.Fatal(err)
	}
	if w.RetrainCost(0) != 3 || w.Gamma.Value != 4 || s.Gamma.Value != 0 {
		t.Errorf("R %v (the scenario's --set kept), gamma %+v (scenario's %+v)", w.RetrainCost(0), w.Gamma, s.Gamma)
	}
	// A what-if of a what-if is both.
	ww, err := w.WhatIf([]string{"retrain_cost=7"})
	if err != nil || ww.RetrainCost(0) != 7 || ww.Gamma.Value != 4 {
		t.Errorf("what-if of a what-if: %v, R %v, gamma %+v", err, ww.RetrainCost(0), ww.Gamma)
	}
	for _, c := range []struct{ set, want string }{
		{"data.noise=0.1", "--set data.noise: a what-if changes only queries, kernel, retrain_cost"},
		{"batches=4", "--set batches: a what-if changes only"},
		{"retrain_cost=-1", "--set retrain_cost: must be a number >= 0"},
		{"queries.size=x", `--set queries.size: must be a whole number, got "x"`},
		{"kernel={gamma: [1}", `w.yaml: --set kernel: "{gamma: [1}" is not a YAML value`},
		{"=3", "--set =3: give PATH=VALUE"},
	} {
		if _, err := s.WhatIf([]string{c.set}); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s...", c.set, err, c.want)
		}
	}
	if _, err := (&Scenario{Name: "bare"}).WhatIf(nil); err == nil {
		t.Error("a scenario not read from a file took a what-if")
	}
}

// QueriesFor draws the queries of a batch for the data it is given, exactly as the stream does.
func TestQueriesFor(t *testing.T) {
	for _, q := range []string{"{from: data, size: 5}", "{size: 6, gaussian: {mean: [0.2, 0.7], std: 0.1}}"} {
		s, err := Parse("q.yaml", []byte(base), "", Options{Set: []string{"queries=" + q}})
		if err != nil {
			t.Fatal(err)
		}
		draw, err := s.QueriesFor(s.Seed)
		if err != nil {
			t.Fatal(err)
		}
		for bt := range s.Batches {
			b := batchOf(t, s, bt)
			drawn, err := draw(b)
			if err != nil {
				t.Fatal(err)
			}
			got, gy := drawn.Q, drawn.QY
			for i := range got.V {
				if math.Float64bits(got.V[i]) != math.Float64bits(b.Q.V[i]) {
					t.Fatalf("%s, batch %d: query value %d is %v, the stream's %v", q, bt, i, got.V[i], b.Q.V[i])
				}
			}
			if len(got.V) != len(b.Q.V) || !reflect.DeepEqual(gy, b.QY) || !reflect.DeepEqual(drawn.QRows, b.QRows) {
				t.Fatalf("%s, batch %d: %d values, labels %v, rows %v; stream %d, %v, %v", q, bt, len(got.V), gy, drawn.QRows, len(b.Q.V), b.QY, b.QRows)
			}
			if &drawn.X.V[0] != &b.X.V[0] || drawn.T != bt {
				t.Fatalf("%s, batch %d: the drawn batch does not share the data it was given", q, bt)
			}
		}
	}
}

func batchOf(t *testing.T, s *Scenario, bt int) *sim.Batch {
	t.Helper()
	st, err := s.Stream(s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.Batch(bt)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Issue 26: a YAML merge key loads as YAML says (the keys written beside it win), in the what-if
// alternatives (it was read as text whose alias had no anchor, an error about --set) and anywhere.
func TestMergeKeys(t *testing.T) {
	src := base + `whatif:
  queries:
    - &q {name: a, from: data, size: 5}
    - <<: *q
      name: b
      size: 7
`
	src = strings.Replace(src, "  uniform: {low: 0, high: 1}", "  uniform: &u {low: 0, high: 1}", 1)
	src = strings.Replace(src, "queries: {from: data, size: 5}", "queries: {from: data, size: 5}\nkernel: &k {gamma: 2}", 1)
	s, err := Parse("m.yaml", []byte(src), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.WhatIfQueries) != 2 || s.WhatIfQueries[1].Name != "b" || s.WhatIfQueries[1].Set != "queries={size: 7, from: data}" {
		t.Errorf("alternatives %+v", s.WhatIfQueries)
	}
	_, err = Parse("m.yaml", []byte(strings.Replace(src, "      name: b\n", "", 1)), "", Options{})
	if err == nil || !strings.Contains(err.Error(), `whatif.queries[1].name: "a" names two alternatives`) {
		t.Errorf("a merged name that repeats: %v", err)
	}
}
