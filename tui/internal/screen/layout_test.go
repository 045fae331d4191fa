package screen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
	"github.com/cara-sim/cara/tui/internal/synth"
)

// footer is the player's lines under the body: the status, the explanation and the help.
const footer = 3

// frame is the synthetic run at the golden panes' batch.
func frame(t *testing.T) *pane.Frame {
	return synth.Frame(t, draw.ForProfile(termenv.Ascii), synth.Session(t), synth.GoldenAt)
}

// The layout of the synthetic run at the three sizes the panes are checked at, the matrix focused:
//   - 80x24 is under the wide layout's 100x24: a tab line, the focused pane, and under it the results
//     as a strip of the Oracle's and the selected algorithm's lines (the table's 13 rows leave the
//     pane under its 12);
//   - 120x36: the matrix as wide as a square heat map of the body's height allows (62), the rest
//     (58, rightNarrow) a stack of the chart, the decisions (a row per algorithm), the batch and,
//     where the table does not fit, the results' strip in place of its title bar, About giving way;
//   - 160x48: a right-hand column of 92 holds the chart and the batch side by side (rightWide), the
//     decisions and the whole table under them (with its warning that CARA-P's period rests on
//     one offline retrain, four lines), About a title bar at the foot.
//
// The focused pane's box is, at each size, the one its goldens are drawn in (synth.BoxSizes).
func TestLayoutSizes(t *testing.T) {
	f := frame(t)
	ps := New()
	r := func(x, y, w, h int) pane.Rect { return pane.Rect{X: x, Y: y, W: w, H: h, Shown: true} }
	strip := func(x, y, w, h int) pane.Rect { return pane.Rect{X: x, Y: y, W: w, H: h, Shown: true, Strip: true} }
	for _, tc := range []struct {
		w, h int
		want [pane.Count]pane.Rect
		tabs bool
	}{
		{80, 24, [pane.Count]pane.Rect{pane.Matrix: r(0, 1, 80, 18), pane.Results: strip(0, 19, 80, 2)}, true},
		{120, 36, [pane.Count]pane.Rect{r(0, 0, 62, 33), r(62, 0, 58, 9), r(62, 9, 58, 13), r(62, 22, 58, 9), strip(62, 31, 58, 2), {}}, false},
		{160, 48, [pane.Count]pane.Rect{r(0, 0, 68, 45), r(68, 0, 46, 14), r(68, 14, 92, 13), r(114, 0, 46, 14), r(68, 27, 92, 17),
			{X: 68, Y: 44, W: 92, H: 1, Shown: true, Collapsed: true}}, false},
	} {
		l := ps.Layout(f, tc.w, tc.h-footer, pane.Matrix, false)
		if l.Boxes != tc.want || l.tabs != tc.tabs {
			t.Errorf("%dx%d: tabs %v, boxes\n%+v\nwant tabs %v\n%+v", tc.w, tc.h, l.tabs, l.Boxes, tc.tabs, tc.want)
		}
	}
	for k, size := range synth.Sizes {
		for i := range pane.Count {
			b := ps.Layout(f, size[0], size[1]-footer, i, false).Boxes[i]
			if want := synth.BoxSizes[i][k]; [2]int{b.W, b.H} != want || b.Collapsed || b.Strip {
				t.Errorf("%dx%d, pane %d focused: its box %+v, want %dx%d (synth.BoxSizes, its goldens')", size[0], size[1], i+1, b, want[0], want[1])
			}
		}
	}
}

// At every size from the smallest the player draws to a large one, and each pane focused, the
// layout tiles the body: every box inside it, none overlapping, the focused pane never a title bar
// nor a strip; zoomed, the focused pane takes the whole body.
func TestLayoutTiles(t *testing.T) {
	f := frame(t)
	ps := New()
	for _, size := range [][2]int{{60, 18}, {80, 24}, {100, 32}, {120, 36}, {160, 48}, {200, 60}, {240, 70}} {
		w, h := size[0], size[1]-footer
		for focus := range pane.Count {
			name := fmt.Sprintf("%dx%d focus %d", size[0], size[1], focus+1)
			l := ps.Layout(f, w, h, focus, false)
			cover := make([]int, w*h)
			for i, r := range l.Boxes {
				if !r.Shown {
					continue
				}
				if r.X < 0 || r.Y < 0 || r.X+r.W > w || r.Y+r.H > h {
					t.Errorf("%s: box %d %+v outside the body", name, i+1, r)
					continue
				}
				for y := r.Y; y < r.Y+r.H; y++ {
					for x := r.X; x < r.X+r.W; x++ {
						cover[y*w+x]++
					}
				}
			}
			for i, n := range cover {
				if n > 1 {
					t.Errorf("%s: boxes overlap at (%d, %d)", name, i%w, i/w)
					break
				}
			}
			if r := l.Boxes[focus]; !r.Shown || r.Collapsed || r.Strip {
				t.Errorf("%s: the focused pane is %+v", name, r)
			}
			if z := ps.Layout(f, w, h, focus, true); z.Boxes[focus] != (pane.Rect{W: w, H: h, Shown: true}) {
				t.Errorf("%s zoomed: %+v", name, z.Boxes[focus])
			}
		}
	}
}

// The mouse's hit test: on the small layout's tab line a click is on a tab (each tab's label
// " N Name " wide), under it on the focused pane; on the wide layout on the pane whose box holds
// the point; -1 off every box.
func TestHit(t *testing.T) {
	f := frame(t)
	ps := New()
	small := ps.Layout(f, 80, 24-footer, pane.Batch, false)
	for _, tc := range []struct {
		l          Layout
		x, y, want int
		tab        bool
	}{
		{small, 0, 0, pane.Matrix, true},
		{small, len(" 1 Matrix "), 0, pane.Chart, true}, // the first column of the second tab
		{small, 79, 0, -1, true},                        // past the last tab
		{small, 40, 5, pane.Batch, false},
		{ps.Layout(f, 120, 36-footer, pane.Matrix, false), 10, 10, pane.Matrix, false},
		{ps.Layout(f, 120, 36-footer, pane.Matrix, false), 62, 0, pane.Chart, false},
		{ps.Layout(f, 120, 36-footer, pane.Matrix, false), 100, 32, pane.Results, false},
		{ps.Layout(f, 160, 48-footer, pane.Matrix, false), 130, 5, pane.Batch, false},
		{ps.Layout(f, 160, 48-footer, pane.Matrix, false), 130, 46, -1, false}, // below the body
	} {
		if got, tab := tc.l.Hit(tc.x, tc.y); got != tc.want || tab != tc.tab {
			t.Errorf("(%d, %d): pane %d tab %v, want %d %v", tc.x, tc.y, got, tab, tc.want, tc.tab)
		}
	}
}

// A callout goes to the first corner that covers nothing it should avoid, lower right first, then
// upper right (a row down, under the panes' top border, when there is room), lower left, upper
// left; when every corner covers something, the one that covers least.
func TestPlaceCallout(t *testing.T) {
	r := func(x, y, w, h int) pane.Rect { return pane.Rect{X: x, Y: y, W: w, H: h, Shown: true} }
	for _, tc := range []struct {
		name  string
		avoid []pane.Rect
		x, y  int
	}{
		{"nothing to avoid", nil, 70, 20},
		{"the lower right taken", []pane.Rect{r(60, 15, 40, 15)}, 70, 1},
		{"the right taken", []pane.Rect{r(60, 0, 40, 30)}, 0, 20},
		{"all but the upper left", []pane.Rect{r(60, 0, 40, 30), r(0, 15, 40, 15)}, 0, 1},
		{"every corner, the upper left least", []pane.Rect{r(0, 0, 100, 30), r(60, 0, 40, 30), r(0, 15, 40, 15)}, 0, 1},
	} {
		if x, y := placeCallout(100, 30, 30, 10, tc.avoid); x != tc.x || y != tc.y {
			t.Errorf("%s: (%d, %d), want (%d, %d)", tc.name, x, y, tc.x, tc.y)
		}
	}
}

// A callout about the batch (a quiz's question, 14 lines at 62 columns, 22 at 34) never covers
// the batch pane, at every size from the smallest the player draws: over the panes where a corner
// leaves the pane clear, else docked beside it (the pane keeping 40 columns), else under it (the
// pane keeping 10 rows, the callout cut to fit). It stays in the body, and a callout about another
// pane stays over the panes, as it was.
func TestPlaceAboutTheBatch(t *testing.T) {
	f := frame(t)
	ps := New()
	// view wraps a quiz's worth of text (about 600 characters) to bw - 4 columns, plus the border
	// and the foot, cut to maxH lines.
	view := func(bw, maxH int) string {
		n := min((600+bw-5)/(bw-4)+4, maxH)
		rows := make([]string, n)
		for i := range rows {
			rows[i] = strings.Repeat("x", bw)
		}
		return strings.Join(rows, "\n")
	}
	for _, tc := range []struct {
		w, h   int
		docked string // "", "beside" or "under"
	}{
		{60, 18, "under"}, {80, 24, "beside"}, {100, 30, ""}, {120, 36, ""}, {160, 48, ""}, {200, 60, ""},
	} {
		name := fmt.Sprintf("%dx%d", tc.w, tc.h)
		w, h := tc.w, tc.h-footer
		pl := ps.Place(f, pane.Batch, false, []int{pane.Batch}, view, w, h)
		bw, bh := draw.Width(draw.FirstLine(pl.Box)), draw.Lines(pl.Box)
		box := pane.Rect{X: pl.X, Y: pl.Y, W: bw, H: bh, Shown: true}
		if b := pl.Layout.Boxes[pane.Batch]; !b.Shown || b.Collapsed || b.Strip {
			t.Errorf("%s: the batch pane is %+v", name, b)
		} else if overlap(box, b) > 0 {
			t.Errorf("%s: the callout %+v covers the batch pane %+v", name, box, b)
		}
		if pl.X < 0 || pl.Y < 0 || pl.X+bw > w || pl.Y+bh > h {
			t.Errorf("%s: the callout %+v outside the body %dx%d", name, box, w, h)
		}
		switch got := map[bool]string{false: ""}[pl.Docked]; {
		case pl.Docked && pl.PanesW < w:
			got = "beside"
			if pl.PanesW < dockPaneW || pl.X != pl.PanesW || pl.PanesH != h {
				t.Errorf("%s beside: panes %dx%d, callout at %d", name, pl.PanesW, pl.PanesH, pl.X)
			}
			fallthrough
		case pl.Docked && pl.PanesH < h:
			if got == "" {
				got = "under"
				if pl.PanesH < dockPaneH || pl.Y != pl.PanesH {
					t.Errorf("%s under: panes %dx%d, callout at %d", name, pl.PanesW, pl.PanesH, pl.Y)
				}
			}
			fallthrough
		default:
			if got != tc.docked {
				t.Errorf("%s: docked %q, want %q", name, got, tc.docked)
			}
		}
		// About the decisions: never docked.
		if pl := ps.Place(f, pane.Decisions, false, []int{pane.Decisions}, view, w, h); pl.Docked {
			t.Errorf("%s: a callout about the decisions docked", name)
		}
	}
}
