package synth

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/run"
)

// The hand-made run holds the story's numbers: a cell's staleness and errors as the story says,
// the stream's drifts, and the Oracle retraining at the online block's drifts.
func TestStory(t *testing.T) {
	s := Session(t)
	if !s.Done || s.Computed != Batches || s.Err != nil {
		t.Fatalf("session: done %v, %d columns, err %v", s.Done, s.Computed, s.Err)
	}
	m := s.Matrix
	for _, tc := range []struct {
		tp, t  int
		stale  float64
		errors int
	}{
		{3, 3, 0, 0},      // the diagonal
		{10, 17, 1.75, 3}, // same concept, 7 batches old: 0.25 x 7, three points across
		{20, 24, 7, 8},    // across the drift at 24: 0.25 x 4 + 6, every point
		{30, 34, 1, 2},    // concept a, 4 batches old
		{4, 30, 6.5, 8},   // concept a again after b, 26 batches old: the points all across
	} {
		if got := m.Staleness(tc.tp, tc.t); math.Abs(got-tc.stale) > 1e-12 {
			t.Errorf("C[%d, %d] = %v, want %v", tc.tp, tc.t, got, tc.stale)
		}
		if got := m.Errors(tc.tp, tc.t).Count(); got != tc.errors {
			t.Errorf("errors of M_%d on D_%d: %d, want %d", tc.tp, tc.t, got, tc.errors)
		}
	}
	if d := s.Stream.Drifts(); !slices.Equal(d, Drifts) {
		t.Errorf("drifts %v", d)
	}
	f := Frame(t, draw.ForProfile(termenv.Ascii), s, Batches-1)
	or, ok := f.Result(algos.NameOracle)
	if !ok {
		t.Fatal("no Oracle")
	}
	// In each concept's 12 batches the Oracle retrains once at the drift and once halfway (R 4
	// twice and 0.25 x (0+...+5) twice, 15.5, beats one retrain, 20.5, and three, 16.5).
	if want := []int{19, 24, 30, 36, 42, 48, 54}; !slices.Equal(or.Strategy.Retrains, want) {
		t.Errorf("the Oracle retrains at %v, want %v", or.Strategy.Retrains, want)
	}
}

// The frame is the player's at the batch given: every visible algorithm replayed to it, CARA-T
// selected, the scatter's axes over every batch's data and queries.
func TestFrame(t *testing.T) {
	f := Frame(t, draw.ForProfile(termenv.Ascii), Session(t), GoldenAt)
	if f.Pos != GoldenAt || len(f.RP.Results) != len(f.Visible) || f.Selected != algos.NameCaraT || f.Ask != -1 {
		t.Fatalf("frame at %d: %d results for %d visible, selected %s, asking %d", f.Pos, len(f.RP.Results), len(f.Visible), f.Selected, f.Ask)
	}
	for _, r := range f.RP.Results {
		if n := len(r.Strategy.Cumulative); r.Strategy.Start+n-1 != GoldenAt {
			t.Errorf("%s replayed to %d", r.Algorithm, r.Strategy.Start+n-1)
		}
	}
	// x1 runs from 0 (point 0 of batch 0) to 0.1 + 0.6 + 0.59 (query 3 of batch 59), beyond the
	// data's 0.6 + 0.59; x2 from 0 to 0.7 (points 5 and 7), the queries' 0.35 inside.
	b := f.Bounds
	if b.Lo[0] != 0 || math.Abs(b.Hi[0]-1.29) > 1e-12 || b.Lo[1] != 0 || math.Abs(b.Hi[1]-0.7) > 1e-12 {
		t.Errorf("bounds %v to %v", b.Lo, b.Hi)
	}
}

// dots is a pane that fills its inside with dots, and says its size in its title.
type dots struct{ pane.Pane }

func (dots) Title(*pane.Frame) string { return "Dots" }
func (dots) View(_ *pane.Frame, w, h int) string {
	return strings.TrimSuffix(strings.Repeat(strings.Repeat(".", w)+"\n", h), "\n")
}

// Goldens draws a pane at each of the three sizes in each of two profiles, in its box: the box as
// large as BoxSizes says, its number and title in the border, its inside the pane's.
func TestGoldens(t *testing.T) {
	adjusted := 0
	got := Goldens(t, pane.Results, func() pane.Pane { return dots{} }, func(*pane.Frame, *run.Session) { adjusted++ })
	if adjusted != 2 {
		t.Errorf("the frame adjusted %d times, want once a profile", adjusted)
	}
	var names []string
	for _, g := range got {
		names = append(names, g.Name)
	}
	if want := []string{"ascii/80x24", "ascii/120x36", "ascii/160x48", "256/80x24", "256/120x36", "256/160x48"}; !slices.Equal(names, want) {
		t.Fatalf("goldens %v, want %v", names, want)
	}
	for k, g := range got[:3] {
		lines := draw.Lines(g.Box)
		if w := draw.Width(draw.FirstLine(g.Box)); w != BoxSizes[pane.Results][k][0] || lines != BoxSizes[pane.Results][k][1] {
			t.Errorf("%s: a box of %dx%d, want %v", g.Name, w, lines, BoxSizes[pane.Results][k])
		}
		rows := strings.Split(draw.StripANSI(g.Box), "\n")
		if !strings.Contains(rows[0], " 5 Dots ") || strings.Count(strings.Join(rows[1:len(rows)-1], ""), ".") != (BoxSizes[pane.Results][k][0]-4)*(lines-2) {
			t.Errorf("%s: not the pane's title and inside:\n%s", g.Name, draw.StripANSI(g.Box))
		}
	}
}

// The same T and offline block give the same random frame.
func TestRandomFrameRepeats(t *testing.T) {
	st := draw.ForProfile(termenv.Ascii)
	a, b := RandomFrame(t, st, 40, 10), RandomFrame(t, st, 40, 10)
	for tt := range 40 {
		for tp := 0; tp <= tt; tp++ {
			if a.M.Staleness(tp, tt) != b.M.Staleness(tp, tt) {
				t.Fatalf("cell (%d, %d): %v and %v", tp, tt, a.M.Staleness(tp, tt), b.M.Staleness(tp, tt))
			}
		}
	}
}
