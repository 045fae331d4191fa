package batch

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/run"
	"github.com/cara-sim/cara/tui/internal/synth"
	"github.com/charmbracelet/x/exp/golden"
)

// The batch legend never cuts a name: at every width each entry is whole or left out.
func TestScatterLegendWholeNames(t *testing.T) {
	for _, model := range []int{7, 27, 98, 1234} {
		for w := 8; w <= 80; w++ {
			cv := draw.NewCanvas(w, 3)
			drawScatterLegend(cv, draw.ForProfile(termenv.Ascii), model, w, 3, 0, true)
			text := ansi.Strip(cv.String(draw.ForProfile(termenv.Ascii)))
			if i := strings.Index(text, "(M_"); i >= 0 && !strings.Contains(text, fmt.Sprintf("(M_%d)", model)) {
				t.Errorf("M_%d at width %d: %q", model, w, text)
			}
			for _, l := range strings.Split(text, "\n") {
				for _, word := range []string{"clas", "quer", "befor"} {
					if strings.HasSuffix(strings.TrimRight(l, " "), word) {
						t.Errorf("M_%d at width %d: a cut entry in %q", model, w, l)
					}
				}
			}
		}
	}
}

// The scatter draws the true decision boundary of a generated scenario: small.yaml's concept is
// x2 > x1 (then x2 < x1), so the cells it marks lie on the diagonal; CSV data, whose concept is
// unknown, get none.
func TestScatterTrueBoundary(t *testing.T) {
	s, err := scenarios.Load(filepath.Join("..", "..", "..", "testdata", "small.yaml"), scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	stream, err := s.Stream(s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	b, err := stream.Batch(2)
	if err != nil {
		t.Fatal(err)
	}
	bd := run.NewBounds(2)
	bd.Lo, bd.Hi = []float64{0, 0}, []float64{1, 1}
	a := axesFor(bd, 0, 1, 40, 20, 1)
	edge := boundary(stream, 2, b, a)
	n := 0
	for i, on := range edge {
		if !on {
			continue
		}
		n++
		x := a.xlo + (float64(i%a.pw)+0.5)/float64(a.pw)*(a.xhi-a.xlo)
		y := a.ylo + (float64(a.ph-1-i/a.pw)+0.5)/float64(a.ph)*(a.yhi-a.ylo)
		if math.Abs(x-y) > 2*(a.yhi-a.ylo)/float64(a.ph) {
			t.Errorf("boundary cell %d at (%.2f, %.2f), off the diagonal", i, x, y)
		}
	}
	if n < a.ph/2 {
		t.Errorf("%d boundary cells on a %dx%d plot", n, a.pw, a.ph)
	}
	if boundary(struct{ sim.Stream }{stream}, 2, b, a) != nil {
		t.Error("a stream without a concept has a boundary")
	}
}

// A query over data keeps the class in sight: ⊕ over class 0, ⊗ over class 1, + alone.
func TestQueriesKeepClasses(t *testing.T) {
	for _, c := range []struct {
		cell scatterCell
		want rune
	}{
		{scatterCell{n: [2]int{3, 1}, q: 1}, '⊕'},
		{scatterCell{n: [2]int{0, 2}, q: 2}, '⊗'},
		{scatterCell{n: [2]int{0, 2}, wrong: [2]int{0, 1}, q: 2}, '⊗'},
		{scatterCell{q: 1}, '+'},
		{scatterCell{n: [2]int{2, 0}}, 'o'},
	} {
		if r, _ := scatterGlyph(c.cell); r != c.want {
			t.Errorf("%+v: %q, want %q", c.cell, r, c.want)
		}
	}
}

// The scatter's axes are fixed for the whole scenario (the scan's bounds): the same at batch 16 and
// at batch 52, though the synthetic data slide right by 0.01 a batch between them.
func TestAxesFixed(t *testing.T) {
	s := synth.Session(t)
	st := draw.ForProfile(termenv.Ascii)
	p := New()
	p.Scanned(synth.Bounds())
	axes := func(pos int) []string {
		var out []string
		for _, l := range strings.Split(ansi.Strip(p.View(synth.Frame(t, st, s, pos), 56, 18)), "\n") {
			switch {
			case strings.Contains(l, "└"), strings.HasPrefix(l, "↑"):
				out = append(out, l) // the x axis, the features' names
			case strings.Contains(l, "┤"):
				out = append(out, l[:strings.Index(l, "┤")]) // a y label
			case strings.Contains(l, "│"):
				out = append(out, "")
			case strings.Contains(l, ".5"):
				out = append(out, l) // the x labels
			}
		}
		return out
	}
	a16, a52 := axes(16), axes(52)
	if strings.Join(a16, "\n") != strings.Join(a52, "\n") {
		t.Errorf("axes at batch 16:\n%s\nat batch 52:\n%s", strings.Join(a16, "\n"), strings.Join(a52, "\n"))
	}
	if len(a16) < 4 || !strings.Contains(strings.Join(a16, "\n"), "1.5") {
		t.Errorf("no axes found, or no x label 1.5 (the data's right end at the last batch): %q", a16)
	}
}

// The batch scatter, its axes scanned, at three sizes in two profiles (synth.Goldens).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, g := range synth.Goldens(t, pane.Batch, func() pane.Pane { p := New(); p.Scanned(synth.Bounds()); return p }, nil) {
		t.Run(g.Name, func(t *testing.T) { golden.RequireEqual(t, []byte(g.Box+"\n")) })
	}
}
