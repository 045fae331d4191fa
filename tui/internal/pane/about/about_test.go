package about

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/synth"
	"github.com/charmbracelet/x/exp/golden"
)

// frame is the synthetic run's frame, its scenario a copy the test may change.
func frame(t *testing.T) *pane.Frame {
	f := synth.Frame(t, draw.ForProfile(termenv.Ascii), synth.Session(t), synth.GoldenAt)
	scen := *f.Scen
	f.Scen = &scen
	return f
}

// The pane says the scenario's facts (its batches, R, features, seed and known drifts) under its
// description, and which settings beyond the paper it uses, nothing of them when it uses none
// (issue 33).
func TestFactsAndBeyondThePaper(t *testing.T) {
	f := frame(t)
	v := strings.Join(strings.Fields(ansi.Strip(New().View(f, 90, 30))), " ")
	for _, want := range []string{"60 batches, the first 15 offline; R = 4; 2 features; seed 0.",
		"Known drifts at 8 (abrupt), 24 (recurring), 36 (recurring), 48 (recurring)."} {
		if !strings.Contains(v, want) {
			t.Errorf("the facts lack %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "Beyond the paper") {
		t.Errorf("a scenario of the paper's settings shows an extension:\n%s", v)
	}
	f.Scen.Window = 3
	v = strings.Join(strings.Fields(ansi.Strip(New().View(f, 90, 30))), " ")
	if !strings.Contains(v, "Beyond the paper: each model trains on its batch and the 2 before") {
		t.Errorf("model.window 3 not in About:\n%s", v)
	}
}

// Focused, the pane scrolls with its keys and the wheel; unfocused, its keys are not its own.
func TestScrolls(t *testing.T) {
	f := frame(t)
	f.Scen.About = strings.Repeat("A long description of the scenario, longer than the pane is tall. ", 30)
	p := New()
	p.View(f, 56, 6)
	for _, k := range []string{"down", "down"} {
		if e, ok := p.Key(keys.Msg(k), f, true); !ok || e != nil {
			t.Fatalf("%s: taken %v, effects %v", k, ok, e)
		}
	}
	if p.Offset() != 2 {
		t.Errorf("two downs: offset %d, want 2", p.Offset())
	}
	if p.Wheel(-1); p.Offset() != 1 {
		t.Errorf("the wheel up: offset %d, want 1", p.Offset())
	}
	if _, ok := p.Key(keys.Msg("down"), f, false); ok || p.Offset() != 1 {
		t.Errorf("down unfocused: taken %v, offset %d", ok, p.Offset())
	}
	if e, ok := p.Key(keys.Msg("pgdown"), f, true); !ok || e != nil || p.Offset() != 4 {
		t.Errorf("page down: taken %v, offset %d, want 1 + half of 6", ok, p.Offset())
	}
}

// The About pane at three sizes in two profiles (synth.Goldens).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, g := range synth.Goldens(t, pane.About, func() pane.Pane { return New() }, nil) {
		t.Run(g.Name, func(t *testing.T) { golden.RequireEqual(t, []byte(g.Box+"\n")) })
	}
}

// At batch 52 of the synthetic run (drifts at 24, 36 and 48 online, window 2), each detector's
// line scores its alarms as algos.Score does: DDM, whose retrains so far are 20, 24 and 35,
// detects the drift at 24 in its own batch, misses 36 and 48 (no alarm in 36..38 nor 48..50), and
// 20 and 35 are false (no drift at most 2 batches before them); ADWIN (30, 46) detects none. At
// batch 49 the window of the drift at 48 is still open: not missed yet. A stream that does not know
// its drifts says so instead of scoring.
func TestDetectorScores(t *testing.T) {
	f := frame(t)
	v := strings.Join(Detections(f), "\n")
	for _, want := range []string{
		"Detectors against the known drifts at 24, 36, 48, up to batch 52",
		"2 batches after its last",
		"D  DDM: 1 of 3 detected, delays 0 (mean 0 batches, ",
		"points); missed 36, 48; 2 false alarms (20, 35).",
		"A  ADWIN: 0 of 3 detected; missed 24, 36, 48; 2 false alarms (30, 46).",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("the scores lack %q:\n%s", want, v)
		}
	}
	if r, _ := f.Result("ddm"); !slices.Equal(r.Strategy.Retrains, []int{20, 24, 35}) {
		t.Fatalf("DDM retrains at %v: the story above is not this run's", r.Strategy.Retrains)
	}
	early := synth.Frame(t, draw.ForProfile(termenv.Ascii), synth.Session(t), 49)
	if v := strings.Join(Detections(early), "\n"); !strings.Contains(v, "; 48 not yet;") {
		t.Errorf("at batch 49 the drift at 48 is not pending:\n%s", v)
	}
	// Real data: the stream knows no drifts.
	s := synth.Session(t)
	s.Matrix.Drifts = nil
	real := synth.Frame(t, draw.ForProfile(termenv.Ascii), s, synth.GoldenAt)
	if v := strings.Join(Detections(real), "\n"); !strings.Contains(v, "does not know where its concept changes") || strings.Contains(v, "missed") {
		t.Errorf("real data:\n%s", v)
	}
	if r, _ := real.Result("ddm"); r.Detection != nil {
		t.Errorf("real data: DDM scored %+v", r.Detection)
	}
}

// The tie interval is the tuner's own (algos.TuneThreshold over the offline block at R), and the
// threshold shown is the one tuning.tie took from it: the midpoint by default, the high end under
// tuning.tie: high, which the replay and the results' tuned line use too.
func TestTieInterval(t *testing.T) {
	for _, tc := range []struct {
		tie   algos.Tie
		which string
	}{{algos.TieMid, "the midpoint"}, {algos.TieHigh, "the high end"}, {algos.TieLow, "just above the low end"}} {
		s := synth.Session(t)
		scen := *s.Scenario
		scen.Evaluation.Tie = tc.tie
		s.Scenario = &scen
		f := synth.Frame(t, draw.ForProfile(termenv.Ascii), s, synth.GoldenAt)
		tu := algos.TuneThreshold(algos.Costs{M: f.M, R: f.R}, 0, f.Scen.Offline-1, false)
		theta := tu.Pick(tc.tie)
		want := fmt.Sprintf("CARA-T's θ %s: every threshold in (%s, %s] costs the same on the offline block; tuning.tie %s took %s.",
			draw.Num(theta), draw.Num(tu.Low), draw.Num(tu.High), tc.tie, tc.which)
		if v := strings.Join(Ties(f), "\n"); !strings.Contains(v, want) {
			t.Errorf("tie %s: want %q in\n%s", tc.tie, want, v)
		}
		if r, _ := f.Result(algos.NameCaraT); r.Params["theta"] != theta || f.RP.Tuned["theta"] != theta {
			t.Errorf("tie %s: the replay's θ %v, the tuned line's %v, want %v", tc.tie, r.Params["theta"], f.RP.Tuned["theta"], theta)
		}
	}
}
