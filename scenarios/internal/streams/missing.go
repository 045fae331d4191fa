package streams

// data.missing (beyond the paper): what an empty feature cell of a CSV is. Unset, it is an error.
// mean and median fill a numeric column's empty cells with that statistic of the column's values
// in the offline block (known once the loader has read the offline block: Impute); drop drops
// every row with an empty feature cell as the file is read. Either says so in a note, with the
// count.

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cara-sim/cara/scenarios/internal/format"
)

// The values of data.missing.
const (
	MissingMean   = "mean"
	MissingMedian = "median"
	MissingDrop   = "drop"
)

// dropMissing drops the rows that hold a missing cell (NaN in vals) when data.missing is drop,
// with a note; a batch of the batch column left with no row is an error, since it would vanish.
func (tr *tableReader) dropMissing() error {
	if tr.opt.Missing != MissingDrop {
		return nil
	}
	m := len(tr.src)
	drop := make([]bool, tr.rows)
	dropped := 0
	for r := range tr.rows {
		drop[r] = slices.ContainsFunc(tr.vals[r*m:(r+1)*m], math.IsNaN)
		dropped += b2i(drop[r])
	}
	if dropped == 0 {
		return nil
	}
	if dropped == tr.rows {
		return fmt.Errorf("%s: every row has an empty cell, and data.missing: drop drops them all", tr.tab.Path)
	}
	if b := tr.tab.Batch; b != nil { // batches come in order: a batch is a run of rows
		for r := 0; r < tr.rows; {
			end, kept := r, false
			for ; end < tr.rows && b[end] == b[r]; end++ {
				kept = kept || !drop[end]
			}
			if !kept {
				return fmt.Errorf("%s: every row of batch %d (batch column %q, first at row %d) has an empty cell, and data.missing: drop would leave the batch empty", tr.tab.Path, b[r], tr.opt.BatchColumn, r+1)
			}
			r = end
		}
	}
	keep := 0
	for r := range tr.rows {
		if drop[r] {
			continue
		}
		copy(tr.vals[keep*m:], tr.vals[r*m:(r+1)*m])
		if tr.tab.Y != nil {
			tr.tab.Y[keep] = tr.tab.Y[r]
		}
		if tr.tab.Batch != nil {
			tr.tab.Batch[keep] = tr.tab.Batch[r]
		}
		keep++
	}
	tr.vals, tr.rows = tr.vals[:keep*m], keep
	if tr.tab.Y != nil {
		tr.tab.Y = tr.tab.Y[:keep]
	}
	if tr.tab.Batch != nil {
		tr.tab.Batch = tr.tab.Batch[:keep]
	}
	tr.tab.Notes = append(tr.tab.Notes, fmt.Sprintf("%s: data.missing drop: %d of %d rows dropped for empty cells (%s)",
		tr.tab.Path, dropped, keep+dropped, tr.emptyCounts()))
	return nil
}

// emptyCounts names the columns with empty cells and how many each has.
func (tr *tableReader) emptyCounts() string {
	var parts []string
	for ci, c := range tr.cols {
		if c.empty > 0 {
			parts = append(parts, fmt.Sprintf("%s: %d", tr.tab.columns[ci].name, c.empty))
		}
	}
	return strings.Join(parts, ", ")
}

// Impute fills the empty numeric cells (NaN) of the data and query tables with the mean or the
// median of their feature over the data of batches 0..offline-1, and says so in a note; a feature
// with empty cells but no value in the offline block is an error. Nothing is done without
// data.missing mean or median, or without empty cells.
func (s *Streams) Impute(offline int, notes *format.Notes) error {
	if s.data == nil || (s.missing.Text != MissingMean && s.missing.Text != MissingMedian) {
		return nil
	}
	tab := s.data.tab
	rows := s.data.ranges[offline-1][1] // the offline block's rows: 0..rows-1
	d := tab.X.D
	empty := make([]int, d) // per feature, over the data and the queries
	for _, t := range s.tables {
		for i, v := range t.X.V {
			if math.IsNaN(v) {
				empty[i%d]++
			}
		}
	}
	fill := make([]float64, d)
	var counted []string
	n := 0
	for f := range d {
		if empty[f] == 0 {
			continue
		}
		var vals []float64
		for r := range rows {
			if v := tab.X.V[r*d+f]; !math.IsNaN(v) {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			return s.missing.Errorf("data.missing", "column %q has %d empty cells and no value in the offline block (batches 0..%d) to take the %s of", tab.Features[f], empty[f], offline-1, s.missing.Text)
		}
		fill[f] = statistic(s.missing.Text, vals)
		counted = append(counted, fmt.Sprintf("%s: %d cells, %.4g", tab.Features[f], empty[f], fill[f]))
		n += empty[f]
	}
	if n == 0 {
		return nil
	}
	for _, t := range s.tables {
		for i, v := range t.X.V {
			if math.IsNaN(v) {
				t.X.V[i] = fill[i%d]
			}
		}
	}
	notes.Add("data.missing %s: %d empty cells filled with their column's %s over the offline block (batches 0..%d): %s",
		s.missing.Text, n, s.missing.Text, offline-1, strings.Join(counted, "; "))
	return nil
}

// statistic is the mean (summed in order) or the median (the mean of the middle two of an even
// count) of vals, which it may reorder.
func statistic(which string, vals []float64) float64 {
	if which == MissingMedian {
		slices.Sort(vals)
		k := len(vals) / 2
		if len(vals)%2 == 1 {
			return vals[k]
		}
		return (vals[k-1] + vals[k]) / 2
	}
	sum := 0.0
	for _, v := range vals {
		sum += v
	}
	return sum / float64(len(vals))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
