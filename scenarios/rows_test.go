package scenarios

import (
	"slices"
	"strings"
	"testing"

	"github.com/cara-sim/cara/algos"
)

func TestRows(t *testing.T) {
	defaults := algos.Names
	nonDetectors := slices.DeleteFunc(slices.Clone(defaults), algos.Name.IsDetector)
	tests := []struct {
		name      string
		src       string
		sets      []string
		want      []algos.Name
		schedules []algos.Schedule
		window    int
	}{
		{"defaults", base, nil, defaults, nil, 0},
		{"every detector", base, []string{"detectors.run=all"}, slices.Concat(nonDetectors, algos.Detectors), nil, 0},
		{"none", base, []string{"detectors.run=none"}, nonDetectors, nil, 0},
		{"some, in display order", base, []string{"detectors.run=[kswin, adwin]"}, slices.Concat(nonDetectors, []algos.Name{"adwin", "kswin"}), nil, 0},
		{"detectors.run replaces the list's detectors", base + "algorithms: [oracle, ddm, never]\n", []string{"detectors.run=[eddm]"}, []algos.Name{"oracle", "never", "eddm"}, nil, 0},
		{"a new detector by algorithms", base + "algorithms: [oracle, hddm-w]\n", nil, []algos.Name{"oracle", "hddm-w"}, nil, 0},
		{"schedules after the rest", base, []string{"schedules=[{every: 3}, {every: 4, offset: 1}, {at: [3, 8]}]"},
			slices.Concat(defaults, []algos.Name{"every-3", "every-4+1", "at"}),
			[]algos.Schedule{{Every: 3}, {Every: 4, Offset: 1}, {At: []int{3, 8}}}, 0},
		{"a schedule in the file", base + "schedules:\n  - every: 5\n", nil, slices.Concat(defaults, []algos.Name{"every-5"}), []algos.Schedule{{Every: 5}}, 0},
		{"a window", base, []string{"detectors.window=4"}, defaults, nil, 4},
		{"a window of none", base, []string{"detectors.window=0"}, defaults, nil, -1},
	}
	for _, tc := range tests {
		s, err := Parse("r.yaml", []byte(tc.src), "", Options{Set: tc.sets})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !slices.Equal(s.Algorithms, tc.want) {
			t.Errorf("%s: rows %v, want %v", tc.name, s.Algorithms, tc.want)
		}
		if !slices.EqualFunc(s.Evaluation.Schedules, tc.schedules, func(a, b algos.Schedule) bool {
			return a.Every == b.Every && a.Offset == b.Offset && slices.Equal(a.At, b.At)
		}) {
			t.Errorf("%s: schedules %+v, want %+v", tc.name, s.Evaluation.Schedules, tc.schedules)
		}
		if s.Evaluation.DriftWindow != tc.window {
			t.Errorf("%s: window %d, want %d", tc.name, s.Evaluation.DriftWindow, tc.window)
		}
	}
	if !slices.Equal(algos.Names, defaults) || len(algos.Names) != 9 {
		t.Errorf("loading changed algos.Names: %v", algos.Names)
	}
}

func TestRowsErrors(t *testing.T) {
	tests := []struct{ name, src, set, want string }{
		{"not a detector", base, "detectors.run=[adwin, cara-t]", `--set detectors.run: "cara-t" is not a detector; give all, none or some of adwin, ddm, page-hinkley, eddm, hddm-a, hddm-w, kswin`},
		{"a detector twice", base, "detectors.run=[ddm, ddm]", "detectors.run: lists ddm twice"},
		{"empty run", base, "detectors.run=[]", "detectors.run: is empty; write none"},
		{"window", base, "detectors.window=-1", "detectors.window: must be"},
		{"neither", base, "schedules=[{offset: 2}]", "schedules[0]: give exactly one of every"},
		{"both", base, "schedules=[{every: 2, at: [5]}]", "schedules[0]: give exactly one of every"},
		{"offset without every", base + "schedules: [{at: [5], offset: 1}]\n", "", "r.yaml:13:31: schedules[0].offset: goes with every; at lists its batches itself"},
		{"offset too big", base, "schedules=[{every: 3, offset: 3}]", "schedules[0].offset: must be"},
		{"every 0", base, "schedules=[{every: 0}]", "schedules[0].every: must be"},
		{"at in the offline block", base + "schedules:\n  - at: [2, 5]\n", "", "r.yaml:14:10: schedules[0].at: lists 2; give online batches, whole numbers in 3..9"},
		{"at past the end", base, "schedules=[{at: [5, 10]}]", "schedules[0].at: lists 10; give online batches"},
		{"at unsorted", base, "schedules=[{at: [7, 5]}]", "schedules[0]: at lists batch 5 after 7; give the batches in increasing order"},
		{"two at", base, "schedules=[{at: [5]}, {at: [7]}]", "schedules[1]: is at a second time; put every batch in one at list"},
		{"twice every", base, "schedules=[{every: 3}, {every: 3, offset: 0}]", "schedules[1]: is every-3 a second time"},
	}
	for _, tc := range tests {
		var sets []string
		if tc.set != "" {
			sets = []string{tc.set}
		}
		_, err := Parse("r.yaml", []byte(tc.src), "", Options{Set: sets})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
