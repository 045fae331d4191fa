package streams

import (
	"fmt"
	"strconv"
	"strings"
)

// A batch column's values name the batches, but t counts them: batch t is the t-th distinct value
// in the file, whatever it is. Values that are not 0, 1, 2, ... (weeks 0, 1, 2, 7, 8, 9; years
// 1990..2020) are renumbered, and the scenario's every t (R(t), offline, a tour's at, the
// matrix's rows and columns) counts the index, not the value: batchNote says so, with the
// mapping.

// batchNote is the note for a batch column whose values are not 0..T-1, or "" when they are.
func batchNote(tab *Table, column string, ranges [][2]int) string {
	values := make([]int, len(ranges))
	renumbered := false
	for t, r := range ranges {
		values[t] = tab.Batch[r[0]]
		renumbered = renumbered || values[t] != t
	}
	if !renumbered {
		return ""
	}
	return fmt.Sprintf("%s: batch column %q holds %s, not 0..%d: t counts the batches in file order, so batch t is the t-th value (%s); R(t), offline and every t of the scenario count t, not the value",
		tab.Path, column, valueRuns(values), len(values)-1, mapping(values))
}

// valueRuns writes values, consecutive runs as a-b: "0-2, 7-9".
func valueRuns(values []int) string {
	var parts []string
	for i := 0; i < len(values); {
		j := i
		for j+1 < len(values) && values[j+1] == values[j]+1 {
			j++
		}
		part := strconv.Itoa(values[i])
		if j > i {
			part += "-" + strconv.Itoa(values[j])
		}
		parts = append(parts, part)
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// mapping writes which t each run of values is: "t 0-2 = 0-2, t 3-5 = 7-9"; at most maxMapped runs.
func mapping(values []int) string {
	const maxMapped = 6
	var parts []string
	for i := 0; i < len(values); {
		j := i
		for j+1 < len(values) && values[j+1] == values[j]+1 {
			j++
		}
		if len(parts) == maxMapped {
			parts = append(parts, "...")
			break
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("t %d-%d = %d-%d", i, j, values[i], values[j]))
		} else {
			parts = append(parts, fmt.Sprintf("t %d = %d", i, values[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
