package scenarios

import (
	"strings"
	"testing"
)

// A flag is a --set under another name: applied after --set, kept by what-ifs, and named in its
// errors; Under refuses a flag the file has no place for.
func TestFlags(t *testing.T) {
	r40 := Flag{Name: "-R 40", Path: "retrain_cost", Value: "40"}
	for _, tc := range []struct {
		name  string
		opt   Options
		wantR float64
		err   string
	}{
		{"after --set", Options{Set: []string{"retrain_cost=3"}, Flags: []Flag{r40}}, 40, ""},
		{"bad value", Options{Flags: []Flag{{Name: "-R x", Path: "retrain_cost", Value: "[1, 2]"}}}, 0, "-R x: "},
		{"no forest", Options{Flags: []Flag{{Name: "--trees 5", Path: "model.random_forest.trees", Value: "5", Under: "model.random_forest"}}}, 0,
			"--trees 5 applies to a scenario with model.random_forest; this one's model is nearest_centroid"},
	} {
		s, err := Load("testdata/small.yaml", tc.opt)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "--set") {
				t.Errorf("%s: error %v, want one naming %q and not --set", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		w, err := s.WhatIf([]string{"queries.size=5"})
		if err != nil {
			t.Fatal(err)
		}
		ww, err := w.WhatIf([]string{"kernel.gamma=2"}) // a what-if of a what-if keeps it too
		if err != nil {
			t.Fatal(err)
		}
		if s.RetrainCost(1) != tc.wantR || w.RetrainCost(1) != tc.wantR || ww.RetrainCost(1) != tc.wantR {
			t.Errorf("%s: R %v, under a what-if %v, under two %v; want %v", tc.name, s.RetrainCost(1), w.RetrainCost(1),
				ww.RetrainCost(1), tc.wantR)
		}
	}
}
