package pane

import (
	"slices"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/tui/internal/draw"
)

// AlgoTable draws one row of cells per algorithm (names[i] is row i's) as a borderless table in
// each algorithm's colour, the selected one bold; the Oracle's row of a provisional replay (the
// best so far) faint and italic. Columns from numbersFrom on are numbers, aligned
// right; while the table is wider than w the columns in drop go, in that order.
func AlgoTable(st *draw.Styles, headers []string, rows [][]string, names []algos.Name, selected algos.Name, provisional bool, numbersFrom int, drop []int, w int) string {
	cols := make([]int, len(headers))
	for i := range cols {
		cols[i] = i
	}
	for _, d := range drop {
		if TableWidth(headers, rows, cols) <= w {
			break
		}
		cols = slices.DeleteFunc(cols, func(c int) bool { return c == d })
	}
	pick := func(r []string) []string {
		out := make([]string, len(cols))
		for i, c := range cols {
			out[i] = r[c]
		}
		return out
	}
	tb := table.New().Border(lipgloss.NormalBorder()).BorderStyle(st.Dim).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).BorderColumn(false).
		Headers(pick(headers)...).Wrap(false)
	for _, r := range rows {
		tb.Row(pick(r)...)
	}
	tb.StyleFunc(func(row, col int) lipgloss.Style {
		s := st.NewStyle().PaddingRight(1)
		if cols[col] >= numbersFrom {
			s = s.Align(lipgloss.Right)
		}
		if row == table.HeaderRow {
			return s.Bold(true)
		}
		s = s.Inherit(st.AlgoStyle(names[row]))
		if names[row] == selected {
			s = s.Bold(true)
		}
		if provisional && names[row] == algos.NameOracle {
			s = s.Faint(true).Italic(true)
		}
		return s
	})
	return tb.String()
}

// TableWidth is the width of the table of the given columns: each column's widest cell and a space.
func TableWidth(headers []string, rows [][]string, cols []int) int {
	w := 0
	for _, c := range cols {
		cw := draw.Width(headers[c])
		for _, r := range rows {
			cw = max(cw, draw.Width(r[c]))
		}
		w += cw + 1
	}
	return w
}
