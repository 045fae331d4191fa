package scenarios

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cara-sim/cara/sim"
)

// Hash follows what a run computes: layout, comments, text and the seed leave it, a --set, a
// model flag or one CSV value change it.
func TestHash(t *testing.T) {
	parse := func(src string, dir string, sets ...string) *Scenario {
		t.Helper()
		s, err := Parse("h.yaml", []byte(src), dir, Options{Set: sets})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	h0 := parse(base, "").Hash()
	for _, tc := range []struct {
		name string
		s    *Scenario
		same bool
	}{
		{"a comment and a title", parse("# why\ntitle: Another\n"+base, ""), true},
		{"another seed", parse(with("seed: 1", "seed: 7"), ""), true},
		{"a tour's seed", parse(base+"tour_seed: 4\n", ""), true},
		{"flow style", parse(with("  uniform: {low: 0, high: 1}", "  uniform:\n    low: 0\n    high: 1"), ""), true},
		{"--set to the same value", parse(base, "", "retrain_cost=1"), true},
		{"--set data.noise", parse(base, "", "data.noise=0.3"), false},
		{"the detectors listed (rows name their own)", parse(base, "", "detectors.run=all"), true},
		{"a schedule", parse(base, "", "schedules=[{every: 3}]"), false},
		{"another label", parse(with(`  label: "x2 > x1"`, `  label: "x2 > x1 + 0.1"`), ""), false},
	} {
		if got := tc.s.Hash() == h0; got != tc.same {
			t.Errorf("%s: same hash %v, want %v", tc.name, got, tc.same)
		}
	}
	// A model changed after loading (as --trees does) changes the hash.
	s := parse(with("model: {nearest_centroid: {}}", "model: {knn: {k: 3}}"), "")
	h := s.Hash()
	s.Model = sim.KNN{K: 4}
	if s.Hash() == h {
		t.Error("k changed after loading, the hash did not")
	}

	dir := t.TempDir()
	csvScenario := "name: c\nbatches: 2\noffline: 1\ndata: {csv: d.csv, label: y}\nqueries: {from: data, size: 1}\nmodel: {nearest_centroid: {}}\nretrain_cost: 1\n"
	write := func(v string) {
		os.WriteFile(filepath.Join(dir, "d.csv"), []byte("x,y\n1,0\n2,1\n3,0\n"+v+",1\n"), 0o644)
	}
	write("4")
	a := parse(csvScenario, dir).Hash()
	write("4.5")
	if b := parse(csvScenario, dir).Hash(); a == b {
		t.Error("one CSV value changed, the hash did not")
	}
	write("4")
	if b := parse(csvScenario, dir).Hash(); a != b {
		t.Error("the same CSV hashed differently")
	}
}
