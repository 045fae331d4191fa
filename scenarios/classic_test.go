package scenarios

import (
	"math"
	"slices"
	"testing"

	"github.com/cara-sim/cara/sim"
)

// trueLabels is what a generated stream knows of its concept: the labels without noise.
type trueLabels interface {
	TrueLabels(t int, x sim.Points) ([]uint8, bool, error)
}

func classicStream(t *testing.T, name string) (*Scenario, sim.Stream) {
	t.Helper()
	s, err := Load(name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Stream(s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	return s, st
}

// TestSEADefinition holds the sea scenario to Street & Kim (2001): three features uniform in
// [0, 10], class 1 when x1 + x2 <= theta, theta 8, 9, 7 and 9.5 in four equal blocks with abrupt
// switches, and 10 % class noise.
func TestSEADefinition(t *testing.T) {
	s, st := classicStream(t, "sea")
	if s.Batches != 100 || s.Features != 3 {
		t.Fatalf("sea: %d batches of %d features", s.Batches, s.Features)
	}
	theta := func(b int) float64 { return []float64{8, 9, 7, 9.5}[b/25] }
	flipped, all := 0, 0
	for b := range s.Batches {
		batch, err := st.Batch(b)
		if err != nil {
			t.Fatal(err)
		}
		clean, _, err := st.(trueLabels).TrueLabels(b, batch.X)
		if err != nil {
			t.Fatal(err)
		}
		for i := range batch.Y {
			x := batch.X.Row(i)
			for _, v := range x {
				if v < 0 || v >= 10 {
					t.Fatalf("batch %d: feature %g outside [0, 10)", b, v)
				}
			}
			if want := x[0]+x[1] <= theta(b); (clean[i] == 1) != want {
				t.Fatalf("batch %d: (%g, %g) of class %d with theta %g", b, x[0], x[1], clean[i], theta(b))
			}
			if clean[i] != batch.Y[i] {
				flipped++
			}
			all++
		}
	}
	if share := float64(flipped) / float64(all); math.Abs(share-0.1) > 0.005 {
		t.Errorf("%.4f of the labels are noise, want 0.1", share)
	}
	if d := st.Drifts(); !slices.Equal(d, []sim.Drift{{From: 25, To: 25, Kind: "abrupt"}, {From: 50, To: 50, Kind: "abrupt"}, {From: 75, To: 75, Kind: "abrupt"}}) {
		t.Errorf("drifts %+v", d)
	}
	// The About's shares of the square that change class at each switch: between the lines
	// x1 + x2 = a and = b, (b^2 - a^2) / 2 of its 100.
	for i, want := range []float64{8.5, 16, 20.625} {
		a, b := []float64{8, 9, 7}[i], []float64{9, 7, 9.5}[i]
		if got := math.Abs(b*b-a*a) / 2; got != want {
			t.Errorf("switch %d: %g %% change class, the About says about %g", i+1, got, want)
		}
	}
}

// TestSTAGGERDefinition holds the stagger scenario to Schlimmer & Granger (1986): size, colour and
// shape, each of three values drawn uniformly; class 1 is "small and red", then "green or
// circular", then "medium or large", switching abruptly at batches 30 and 60.
func TestSTAGGERDefinition(t *testing.T) {
	s, st := classicStream(t, "stagger")
	concepts := []func(size, colour, shape int) bool{
		func(size, colour, shape int) bool { return size == 0 && colour == 0 },
		func(size, colour, shape int) bool { return colour == 1 || shape == 1 },
		func(size, colour, shape int) bool { return size == 1 || size == 2 },
	}
	var counts [3][3]int
	for b := range s.Batches {
		batch, err := st.Batch(b)
		if err != nil {
			t.Fatal(err)
		}
		c := concepts[b/30]
		for i, y := range batch.Y {
			x := batch.X.Row(i)
			for k, v := range x {
				if v != 0 && v != 1 && v != 2 {
					t.Fatalf("batch %d: attribute %d is %g, not one of 0, 1, 2", b, k+1, v)
				}
				counts[k][int(v)]++
			}
			if want := c(int(x[0]), int(x[1]), int(x[2])); (y == 1) != want {
				t.Fatalf("batch %d: object %v of class %d under concept %d", b, x, y, b/30+1)
			}
		}
	}
	total := float64(s.Batches * 300)
	for k := range 3 {
		for v := range 3 {
			if share := float64(counts[k][v]) / total; math.Abs(share-1.0/3) > 0.01 {
				t.Errorf("attribute %d takes %d at %.3f of the objects, want 1/3", k+1, v, share)
			}
		}
	}
	if d := st.Drifts(); !slices.Equal(d, []sim.Drift{{From: 30, To: 30, Kind: "abrupt"}, {From: 60, To: 60, Kind: "abrupt"}}) {
		t.Errorf("drifts %+v", d)
	}
	// The About's counts: objects of class 1 (1, 5 and 6 of 9) and objects that change class at
	// each switch (16 and 13 of the 27).
	ones, changes := [3]int{}, [2]int{}
	for size := range 3 {
		for colour := range 3 {
			for shape := range 3 {
				for i, c := range concepts {
					if c(size, colour, shape) {
						ones[i]++
					}
					if i > 0 && c(size, colour, shape) != concepts[i-1](size, colour, shape) {
						changes[i-1]++
					}
				}
			}
		}
	}
	if ones != [3]int{3, 15, 18} || changes != [2]int{16, 13} {
		t.Errorf("class 1 holds %v of 27 objects, switches change %v; the About says 3, 15, 18 and 16, 13", ones, changes)
	}
}

// TestClassicDrifts: the hyperplane and rbf scenarios drift at every point (one incremental drift
// over the stream), and their concepts move at the speed the About gives.
func TestClassicDrifts(t *testing.T) {
	for _, name := range []string{"hyperplane", "rbf"} {
		s, st := classicStream(t, name)
		if d := st.Drifts(); !slices.Equal(d, []sim.Drift{{From: 1, To: s.Batches - 1, Kind: "incremental"}}) {
			t.Errorf("%s: drifts %+v", name, d)
		}
		// The concept of batch 0 and of the last batch disagree on a share of batch 0's points:
		// the boundary has moved.
		b, err := st.Batch(0)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := st.(trueLabels).TrueLabels(0, b.X)
		last, _, _ := st.(trueLabels).TrueLabels(s.Batches-1, b.X)
		differ := 0
		for i := range first {
			if first[i] != last[i] {
				differ++
			}
		}
		if share := float64(differ) / float64(len(first)); share < 0.1 {
			t.Errorf("%s: the last batch's concept labels only %.3f of batch 0's points otherwise", name, share)
		}
	}
}

// TestDriftsKnown: a generated stream knows its drifts, even when there is none (gauss-d's concept
// never changes: a list, empty); a CSV stream does not (nil), and its alarms are not scored.
func TestDriftsKnown(t *testing.T) {
	t.Setenv("CARA_DATA", "")
	for name, known := range map[string]bool{"gauss-d": true, "covcon-d": true, "electricity": false} {
		_, st := classicStream(t, name)
		if d := st.Drifts(); (d != nil) != known {
			t.Errorf("%s: drifts %v, known %v, want known %v", name, d, d != nil, known)
		}
	}
}
