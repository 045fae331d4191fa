package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// The cursor's labels name its row and column and nothing else, at the first and last rows and
// columns and beside a tick, sampled and zoomed: every number left of the row axis stands on the
// row of the model it names, every number over the columns is centred on its batch (so no tick's
// label is left cut, as the "1" of "10" beside the cursor's "9" read "19"), the cursor's two are
// there, and the row axis and the pane's border are whole.
func TestCursorLabels(t *testing.T) {
	t.Parallel()
	s := loadEmbedded(t, "covcon-d", covconSmall...)
	p := pumpedScenario(t, s, asciiStyles(), 120, 36)
	goTo(p, s.Batches-1)
	mp := p.panes.Matrix
	for _, zoom := range []bool{false, true} {
		for _, at := range [][2]int{{0, 0}, {0, 1}, {1, 1}, {8, 12}, {9, 12}, {10, 10}, {11, 30}, {0, 99}, {50, 55}, {98, 99}, {99, 99}} {
			press(p, "1")
			if p.Zoomed != zoom {
				press(p, "z")
			}
			p.Cursor.On, p.Cursor.At = true, at
			box := paneBox(p, pane.Matrix)
			f := p.frame()
			r := p.layout(f, p.w, p.bodyHeight()).Boxes[pane.Matrix]
			l := mp.Where(f, r.W-4, r.H-2)
			name := fmt.Sprintf("zoom %v, cursor %v", zoom, at)
			for i, line := range strings.Split(ansi.Strip(box), "\n") {
				if rs := []rune(line); rs[0] != '┏' && rs[0] != '┗' && (rs[0] != '┃' || rs[len(rs)-1] != '┃') {
					t.Errorf("%s: the border is broken on line %d: %q", name, i, line)
				}
			}
			in := content(box)
			// The column labels: each centred on its batch, the cursor's among them.
			found := false
			for x, v := range numbersIn(in[l.LabelsY]) {
				want := l.Gutter + l.X(v) - (len(draw.Itoa(v))-1)/2
				if v == at[1] {
					found = true
					continue // the cursor's, moved to fit the heat
				}
				if x != want {
					t.Errorf("%s: %d over column %d, its batch's is %d:\n%s", name, v, x, want, string(in[l.LabelsY]))
				}
			}
			if !found {
				t.Errorf("%s: no label %d over the columns: %s", name, at[1], string(in[l.LabelsY]))
			}
			// The row labels: each on its model's row, the axis whole.
			found = false
			for y := range l.Rows {
				row := in[l.HeatY+y]
				if c := row[l.Gutter-1]; c != '│' && c != '┤' {
					t.Errorf("%s: the row axis reads %q on row %d", name, c, y)
				}
				for _, v := range numbersIn(row[:l.Gutter-1]) {
					if l.Y(v) != y {
						t.Errorf("%s: %d left of row %d, its model's is %d: %q", name, v, y, l.Y(v), string(row[:l.Gutter]))
					}
					found = found || v == at[0] && y == l.Y(at[0])
				}
			}
			if !found && l.Y(at[0]) >= 0 {
				t.Errorf("%s: no label %d left of its row", name, at[0])
			}
		}
	}
}

// numbersIn are the whole numbers in a row of cells, by the column each starts at.
func numbersIn(row []rune) map[int]int {
	out := map[int]int{}
	for x := 0; x < len(row); x++ {
		if row[x] < '0' || row[x] > '9' || x > 0 && row[x-1] >= '0' && row[x-1] <= '9' {
			continue
		}
		v := 0
		for e := x; e < len(row) && row[e] >= '0' && row[e] <= '9'; e++ {
			v = 10*v + int(row[e]-'0')
		}
		out[x] = v
	}
	return out
}
