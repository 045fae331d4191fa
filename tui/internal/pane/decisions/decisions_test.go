package decisions

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/synth"
	"github.com/charmbracelet/x/exp/golden"
)

// inside is the pane's inside at the screen's size k (0: 80x24, 1: 120x36, 2: 160x48).
func inside(k int) (w, h int) {
	b := synth.BoxSizes[pane.Decisions][k]
	return b[0] - 4, b[1] - 2
}

// Wide enough for a column a batch (160x48: 45 online batches in 88 columns), each visible
// algorithm's strip has │ at its first online batch and at each of its retrains up to the batch
// shown, · at every other batch shown, and nothing after it; a detector's alarms that detect a
// drift are ● and its false alarms ×, as algos.Score scores them against the synthetic run's drifts
// (24, 36, 48; window 2); the title says so.
func TestStripsAreTheDecisions(t *testing.T) {
	f := synth.Frame(t, draw.ForProfile(termenv.Ascii), synth.Session(t), synth.GoldenAt)
	p := New()
	w, h := inside(2)
	lines := strings.Split(ansi.Strip(p.View(f, w, h)), "\n")
	if title := p.Title(f); !strings.Contains(title, "│ retrain · keep ≋ drift ● detected × false alarm") {
		t.Errorf("title %q", title)
	}
	for i, a := range f.Visible {
		row := []rune(lines[i])
		if !strings.Contains(string(row), a.Display()) {
			t.Fatalf("row %d %q is not %s's", i, string(row), a.Display())
		}
		r, _ := f.Result(a)
		detected, false_ := map[int]bool{}, map[int]bool{}
		if d := r.Detection; d != nil {
			for _, h := range d.Drifts {
				detected[h.Alarm] = true
			}
			for _, x := range d.FalseAlarms {
				false_[x] = true
			}
		} else if a.IsDetector() {
			t.Fatalf("%s has no score against the known drifts", a)
		}
		for tt := f.Scen.Offline; tt < f.Scen.Batches; tt++ {
			want := ' '
			switch {
			case tt > f.Pos:
			case detected[tt]:
				want = '●'
			case false_[tt]:
				want = '×'
			case tt == r.Strategy.Start || slices.Contains(r.Strategy.Retrains, tt):
				want = '│'
			default:
				want = '·'
			}
			if got := row[p.X(f, w, tt)]; got != want {
				t.Errorf("%s at batch %d: %q, want %q (retrains %v)", a, tt, got, want, r.Strategy.Retrains)
			}
		}
	}
}

// A click on a strip or the axis asks the player to show that batch (effect.GoTo): at 160x48 the
// batch of the column, at 120x36 (two batches a column) the first of the column's two; a click
// on the names asks nothing.
func TestClickShowsTheBatch(t *testing.T) {
	f := synth.Frame(t, draw.ForProfile(termenv.Ascii), synth.Session(t), synth.GoldenAt)
	p := New()
	for _, tc := range []struct {
		k, batch, want int
	}{{2, 15, 15}, {2, 24, 24}, {2, 59, 59}, {1, 24, 23}, {1, 25, 25}, {1, 15, 15}} {
		w, h := inside(tc.k)
		p.View(f, w, h)
		if e := p.Click(f, p.X(f, w, tc.batch), 1, w, h); !slices.Equal(e, effect.Effects{effect.GoTo(tc.want)}) {
			t.Errorf("size %d, a click at batch %d's column: %v, want GoTo %d", tc.k, tc.batch, e, tc.want)
		}
		if e := p.Click(f, 1, 1, w, h); e != nil {
			t.Errorf("size %d, a click on the names: %v", tc.k, e)
		}
	}
	if w, h := inside(1); !strings.Contains(p.Title(f), "2 batches a column") {
		t.Errorf("at %dx%d the title %q does not say two batches a column", w, h, p.Title(f))
	}
}

// The pane asks for a row per visible algorithm and the axis's two, and its border's two; before
// the online block (no replay yet) three rows for the note that decisions start online.
func TestSize(t *testing.T) {
	f := synth.Frame(t, draw.ForProfile(termenv.Ascii), synth.Session(t), synth.GoldenAt)
	p := New()
	if want, least := p.Size(f, 80); want != len(algos.Names)+4 || least != want {
		t.Errorf("size %d, %d with %d algorithms", want, least, len(algos.Names))
	}
	f.RP.Results = nil
	if want, least := p.Size(f, 80); want != 3 || least != 3 {
		t.Errorf("offline: size %d, %d", want, least)
	}
}

// The decisions strips at three sizes in two profiles (synth.Goldens).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, g := range synth.Goldens(t, pane.Decisions, func() pane.Pane { return New() }, nil) {
		t.Run(g.Name, func(t *testing.T) { golden.RequireEqual(t, []byte(g.Box+"\n")) })
	}
}

// At 16 colours and without colours, with every row a scenario can have (synth.EverySession:
// sixteen rows, more than 16 colours tell apart), each row starts with the key the chart and the
// results write, then its name (the synthetic run's 45 online batches leave room for both at the
// three sizes' widths); every row is told by its words, none by its colour.
func TestEveryRowHasItsKey(t *testing.T) {
	s := synth.EverySession(t)
	for _, prof := range []termenv.Profile{termenv.ANSI, termenv.Ascii} {
		f := synth.Frame(t, draw.ForProfile(prof), s, synth.GoldenAt)
		for k := range synth.Sizes {
			w, h := inside(k)
			lines := strings.Split(ansi.Strip(New().View(f, w, h+len(f.Visible))), "\n")
			for i, a := range f.Visible {
				row := strings.TrimLeft(lines[i], " ▶")
				want := strings.Join(strings.Fields(pane.KeyedLabel(a, false, 0)), " ")
				if got := strings.Join(strings.Fields(row), " "); !strings.HasPrefix(got, want+" ") {
					t.Errorf("profile %v, size %d: row %d %q, want %q first", prof, k, i, row, want)
				}
			}
		}
	}
}

// The decisions of every row at 16 colours and without (synth.EveryGoldens).
func TestEveryGolden(t *testing.T) {
	for _, g := range synth.EveryGoldens(t, pane.Decisions, func() pane.Pane { return New() }) {
		t.Run(g.Name, func(t *testing.T) { golden.RequireEqual(t, []byte(g.Box+"\n")) })
	}
}
