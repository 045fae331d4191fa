package figures

import (
	"fmt"
	"testing"

	"github.com/cara-sim/cara/algos"
)

// TestDashesTellGreyLinesApart: the rows the palette has no colour for (the detectors beyond the
// default set, the schedules) are drawn grey or near-black; each drawn one gets a pattern no other
// drawn grey line has, and the rows with colours of their own stay solid.
func TestDashesTellGreyLinesApart(t *testing.T) {
	drawn := append(append([]algos.Name{}, algos.Known...), "every-7", "every-10", "every-10+3", "at")
	seen := map[string]algos.Name{}
	for _, n := range drawn {
		d := dashesOf(n, drawn)
		if algos.Name.Rank(n) < len(algos.Names) {
			if d != nil {
				t.Errorf("%s has a colour of its own and is dashed %v", n, d)
			}
			continue
		}
		key := fmt.Sprint(d)
		if d == nil || seen[key] != "" {
			t.Errorf("%s: dashes %v, as %s's", n, d, seen[key])
		}
		seen[key] = n
	}
	if algoColor("every-7") != scheduleInk || algoColor("adwin") == scheduleInk {
		t.Errorf("schedules in %v, ADWIN in %v", algoColor("every-7"), algoColor("adwin"))
	}
}
