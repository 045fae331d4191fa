package pane

import (
	"testing"
	"unicode/utf8"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/palette"
)

// Every algorithm has a key of its own, at most four characters, that no other algorithm's key or
// name is (so a key read off a line, a legend or a row names one algorithm), most of all where two
// share a colour at 16 colours (palette: the nine's SharedHues, the four more detectors and the
// schedules each on an index of the nine's). Schedules' keys follow their names.
func TestKeys(t *testing.T) {
	names := append([]algos.Name{}, algos.Known...)
	names = append(names, "every-7", "every-14", "every-7+3", "at")
	want := map[algos.Name]string{"oracle": "O", "cara-t": "T", "page-hinkley": "PH", "eddm": "ED", "hddm-a": "HA",
		"hddm-w": "HW", "kswin": "KS", "every-7": "e7", "every-14": "e14", "every-7+3": "e7+3", "at": "at"}
	seen := map[string]algos.Name{}
	for _, a := range names {
		k := AlgoKey(a, false)
		if w, ok := want[a]; ok && k != w {
			t.Errorf("%s's key %q, want %q", a, k, w)
		}
		if n := utf8.RuneCountInString(k); n == 0 || n > 4 {
			t.Errorf("%s's key %q: %d characters", a, k, n)
		}
		if other, ok := seen[k]; ok {
			t.Errorf("%s and %s share the key %q", a, other, k)
		}
		seen[k] = a
	}
	for _, a := range names {
		if other, ok := seen[a.Display()]; ok && other != a {
			t.Errorf("%s's name is %s's key", a, other)
		}
	}
	// Two rows of one 16-colour index: their keys differ (each key is unique, so this holds; the
	// table says which pairs a student tells apart by the key alone).
	by16 := map[uint8][]algos.Name{}
	for _, a := range names {
		by16[palette.Screen(a).X16] = append(by16[palette.Screen(a).X16], a)
	}
	shared := 0
	for _, as := range by16 {
		if len(as) > 1 {
			shared += len(as)
		}
	}
	if shared == 0 {
		t.Error("no two rows share a 16-colour index: the test above has nothing to guard")
	}
	if AlgoKey(algos.NameOracle, true) != "b" || KeyedLabel(algos.NameOracle, true, 2) != "b  best so far" {
		t.Errorf("the best so far: %q, %q", AlgoKey(algos.NameOracle, true), KeyedLabel(algos.NameOracle, true, 2))
	}
	if got := KeyedLabel("at", false, 2); got != "   at" {
		t.Errorf("the at schedule's label %q: its key is its name, written once", got)
	}
}
