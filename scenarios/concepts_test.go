package scenarios

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cara-sim/cara/sim"
)

// Through a linear transition of width 2 from batch 4, the share of points labelled by the new
// concept follows p: batch 4 holds tau in (4, 5), mean p 1/4; batch 5 mean p 3/4; batch 6 all.
func TestTransitionLabels(t *testing.T) {
	src := with(`  label: "x2 > x1"`, `  concepts: [{at: 0, label: "x1 < 2"}, {at: 4, label: "x1 > 2", transition: {width: 2, shape: linear}}]`)
	src = strings.Replace(src, "  size: 50", "  size: 4000", 1)
	s, err := Parse("tr.yaml", []byte(src), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := s.Stream(3)
	// Points are in [0,1]^2: the old concept labels all 1, the new all 0.
	for batch, want := range map[int]float64{3: 0, 4: 0.25, 5: 0.75, 6: 1} {
		b, err := st.Batch(batch)
		if err != nil {
			t.Fatal(err)
		}
		newer := 0
		for _, y := range b.Y {
			newer += int(1 - y)
		}
		// 4000 coins of p around 1/4: standard deviation below 0.007; allow 0.03.
		if got := float64(newer) / 4000; math.Abs(got-want) > 0.03 {
			t.Errorf("batch %d: %.3f of points under the new concept, want %.2f", batch, got, want)
		}
	}
	// A linear transition mixes two concepts with a changing share: gradual, as a sigmoid one.
	if d := st.Drifts(); !slices.Equal(d, []sim.Drift{{From: 4, To: 5, Kind: "gradual"}}) {
		t.Errorf("drifts %+v", d)
	}
}

func TestDrifts(t *testing.T) {
	tests := []struct {
		name, label string
		want        []sim.Drift
	}{
		{"static", `  label: "x2 > x1"`, nil},
		{"abrupt and recurring timeline", `  concepts: [{at: 0, label: "x1 > 0.5"}, {at: 3, label: "x1 <= 0.5"}, {at: 6, label: "x1 > 0.5"}]`,
			[]sim.Drift{{From: 3, To: 3, Kind: "abrupt"}, {From: 6, To: 6, Kind: "recurring"}}},
		{"gradual", `  concepts: [{at: 0, label: "x1 > 0.5"}, {at: 2, label: "x1 <= 0.5", transition: {width: 2.5}}]`,
			[]sim.Drift{{From: 2, To: 4, Kind: "gradual"}}},
		// The boundary x1 > t/10 moves every batch while t/10 < 1; points are in [0, 1], so from
		// t = 10 on every point is class 0 and nothing changes.
		{"label reading t", `  label: "x1 > t/10"`, []sim.Drift{{From: 1, To: 9, Kind: "incremental"}}},
		// floor(t/4) % 2 flips the concept at 4 and 8.
		{"label flipping with t", `  label: "(x1 > 0.5) == (floor(t/4) % 2 == 0)"`,
			[]sim.Drift{{From: 4, To: 4, Kind: "abrupt"}, {From: 8, To: 8, Kind: "abrupt"}}},
		// A step of the boundary within the second concept's reign, after its own start.
		{"t inside a timeline", `  concepts: [{at: 0, label: "x1 > 0.5"}, {at: 3, label: "x1 > 0.2 + 0.3*floor(t/7)"}]`,
			[]sim.Drift{{From: 3, To: 3, Kind: "abrupt"}, {From: 7, To: 7, Kind: "abrupt"}}},
	}
	for _, tc := range tests {
		s, err := Parse("d.yaml", []byte(with(`  label: "x2 > x1"`, tc.label)), "", Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		st, _ := s.Stream(1)
		if got := st.Drifts(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: drifts %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestEmbeddedDrifts(t *testing.T) {
	for name, want := range map[string][]sim.Drift{
		// Circle as Tornado's generator writes it: a sigmoid transition half a batch wide at the
		// start of batches 0, 25 and 50 (towards the next circle, then back), the next circle
		// from 25, 50 and 75 (at 75 the fourth, seen in batch 50's transition: recurring).
		"circle-d": {{From: 0, To: 0, Kind: "gradual"}, {From: 25, To: 25, Kind: "gradual"}, {From: 50, To: 50, Kind: "gradual"}, {From: 75, To: 75, Kind: "recurring"}},
		"gauss-s":  nil,
		// Scenario 1: the boundary turns at every batch from 1 to 3.
		"scenario1-near": {{From: 1, To: 3, Kind: "incremental"}},
		"scenario2":      nil,
	} {
		s, err := Load(name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		st, _ := s.Stream(s.Seed)
		if got := st.Drifts(); !slices.Equal(got, want) {
			t.Errorf("%s: drifts %+v, want %+v", name, got, want)
		}
	}
	// CovCon flips at 10, 20, ..., 90; from 20 on each flip brings back an earlier concept.
	s, _ := Load("covcon-d", Options{})
	st, _ := s.Stream(0)
	d := st.Drifts()
	if len(d) != 9 || d[0] != (sim.Drift{From: 10, To: 10, Kind: "abrupt"}) || d[8] != (sim.Drift{From: 90, To: 90, Kind: "recurring"}) {
		t.Errorf("covcon drifts %+v", d)
	}
}

// A concept may start within a batch: circle-d's batch 0 takes the second circle's label on part
// of its first half (a sigmoid transition from 0 to 0.5) and the first circle's on all of its
// second half (from 0.5 on), as Tornado's generator writes the stream.
func TestConceptWithinBatch(t *testing.T) {
	s, err := Load("circle-d", Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := s.Stream(0)
	b, _ := st.Batch(0)
	circle := func(r []float64, cx, rad float64) uint8 {
		if (r[0]-cx)*(r[0]-cx)+(r[1]-0.5)*(r[1]-0.5) > rad*rad {
			return 1
		}
		return 0
	}
	secondInFirstHalf := 0
	for i := range b.X.Len() {
		r := b.X.Row(i)
		first, second := circle(r, 0.2, 0.15), circle(r, 0.4, 0.2)
		switch {
		case i >= b.X.Len()/2 && b.Y[i] != first:
			t.Fatalf("point %d of the second half labelled %d, the first circle says %d", i, b.Y[i], first)
		case i < b.X.Len()/2 && b.Y[i] != first && b.Y[i] != second:
			t.Fatalf("point %d labelled by neither circle", i)
		case i < b.X.Len()/2 && b.Y[i] == second && second != first:
			secondInFirstHalf++
		}
	}
	if secondInFirstHalf == 0 {
		t.Error("no point of the first half took the second circle's label")
	}
}
