package algos

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// upstream is testdata/detectors_upstream.json: public streams with the detections
// scikit-multiflow 0.5.3 reports on them.
type upstream struct {
	ADWINStream struct {
		Stream []float64 `json:"stream"`
		ADWIN  struct {
			Detected []int `json:"detected_indices"`
			Widths   []int `json:"width_after_each_detection"`
		} `json:"adwin"`
	} `json:"adwin_stream"`
	DDMStream struct {
		Stream []float64 `json:"stream"`
		DDM    struct {
			Warnings []int `json:"warning_indices"`
			Drifts   []int `json:"drift_indices"`
		} `json:"ddm"`
	} `json:"ddm_stream"`
}

func loadUpstream(t *testing.T) upstream {
	t.Helper()
	path := filepath.Join("testdata", "detectors_upstream.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var u upstream
	if err := json.Unmarshal(b, &u); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return u
}

func TestADWINUpstream(t *testing.T) {
	u := loadUpstream(t).ADWINStream
	a := NewADWIN(0.002)
	var got, widths []int
	for i, x := range u.Stream {
		if a.Update(x) {
			got = append(got, i)
			widths = append(widths, a.Width())
		}
	}
	if !slices.Equal(got, u.ADWIN.Detected) {
		t.Errorf("detections at %v, scikit-multiflow: %v", got, u.ADWIN.Detected)
	}
	if !slices.Equal(widths, u.ADWIN.Widths) {
		t.Errorf("widths after detections %v, scikit-multiflow: %v", widths, u.ADWIN.Widths)
	}
}

func TestDDMUpstream(t *testing.T) {
	u := loadUpstream(t).DDMStream
	d := NewDDM()
	var drifts, warnings []int
	for i, x := range u.Stream {
		if d.Update(x) {
			drifts = append(drifts, i)
		}
		if d.Warning() {
			warnings = append(warnings, i)
		}
	}
	if !slices.Equal(drifts, u.DDM.Drifts) {
		t.Errorf("drifts at %v, scikit-multiflow: %v", drifts, u.DDM.Drifts)
	}
	if !slices.Equal(warnings, u.DDM.Warnings) {
		t.Errorf("warnings at %v, scikit-multiflow: %v", warnings, u.DDM.Warnings)
	}
}

func repeat(x float64, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = x
	}
	return s
}

func TestDetectorsByHand(t *testing.T) {
	tests := []struct {
		name   string
		d      Detector
		stream []float64
		want   []int
	}{
		// A constant stream has no change to find.
		{"adwin constant", NewADWIN(0.002), repeat(1, 3000), nil},
		{"ddm all correct", NewDDM(), repeat(0, 500), nil},
		// DDM on 0s: p = 0 and s = 0 from the first element, so p_min = s_min = 0 at the first
		// check (element 29, index 28). The first error at index 40 (n = 42 before the update) gives
		// p = 1/41 > 0 = p_min + 3 s_min: a drift at once.
		{"ddm first error", NewDDM(), append(repeat(0, 40), 1), []int{40}},
		// Page-Hinkley: on 0s the mean is 0 and the sum stays at 0 (clipped); after 100 zeros, a run
		// of 5s adds about 5 - mean - delta per step, with the mean rising as (5k)/(100+k). The sum
		// first reaches 50 at the 11th 5 (index 110): sum of 5 - 5j/(100+j) - 0.005 for j=1..11
		// is 50.24 (and 45.9 after 10; alpha's decay is below 0.01).
		{"page-hinkley step", NewPageHinkley(), append(repeat(0, 100), repeat(5, 11)...), []int{110}},
		{"page-hinkley constant", NewPageHinkley(), repeat(3, 1000), nil},
	}
	for _, tc := range tests {
		var got []int
		for i, x := range tc.stream {
			if tc.d.Update(x) {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: drifts at %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestDetectorResetForgets(t *testing.T) {
	u := loadUpstream(t).ADWINStream
	for _, d := range []Detector{NewADWIN(0.002), NewDDM(), NewPageHinkley(), NewEDDM(), NewHDDMA(), NewHDDMW(), NewKSWIN(9)} {
		var first, second []int
		for i, x := range u.Stream {
			if d.Update(x) {
				first = append(first, i)
			}
		}
		d.Reset()
		for i, x := range u.Stream {
			if d.Update(x) {
				second = append(second, i)
			}
		}
		if !slices.Equal(first, second) {
			t.Errorf("%T: after Reset drifts at %v, fresh: %v", d, second, first)
		}
	}
}

func BenchmarkADWINUpdate(b *testing.B) {
	a := NewADWIN(0.002)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		a.Update(float64(i % 2))
	}
}

func BenchmarkDDMUpdate(b *testing.B) {
	d := NewDDM()
	for i := 0; b.Loop(); i++ {
		d.Update(float64(i % 2))
	}
}

// bitsOf reads a stream of 0-1 errors written as runs: "40x0 1x1 59x0".
func bitsOf(t *testing.T, runs string) Bits {
	t.Helper()
	var vals []bool
	for _, run := range strings.Fields(runs) {
		var n, v int
		if _, err := fmt.Sscanf(run, "%dx%d", &n, &v); err != nil {
			t.Fatalf("bad run %q: %v", run, err)
		}
		for range n {
			vals = append(vals, v == 1)
		}
	}
	b := NewBits(len(vals))
	for i, v := range vals {
		if v {
			b.Set(i)
		}
	}
	return b
}

// TestDetectorFeedProtocols pins what separates Algorithm 1's feeding (the whole batch, and a call
// at T_start) from round two's (stop at a batch's first drift) on hand-made error streams of DDM,
// each cell (t', t) the errors of M_t' on batch t. The expected retrains follow from DDM's rule
// (drift when p + s > p_min + 3 s_min, from the 30th element on; it resets itself at the update
// after a drift), worked out in each case's comment.
func TestDetectorFeedProtocols(t *testing.T) {
	tests := []struct {
		name  string
		cells map[[2]int]string
		feed  DetectorFeed
		want  []int
	}{
		// M_0 clean on its own batch, then wrong on the second half of batch 1: DDM fires early in
		// that run of errors. Round two stops there; a DDM that reset itself meets M_1 on batch 2
		// with 40 clean points (p_min + s_min = 0) and takes its single error for a drift.
		{"first-drift: a fresh DDM fires at the new model's first error", map[[2]int]string{
			{0, 0}: "100x0", {0, 1}: "100x0 100x1", {1, 2}: "40x0 1x1 59x0"}, FeedFirstDrift, []int{1, 2}},
		// Fed the whole batch, DDM resets itself and goes on through the run of errors (p = 1), and
		// batch 2's clean points pull p down from there: one error among them is no drift.
		{"batch: the rest of the batch is fed, no second retrain", map[[2]int]string{
			{0, 0}: "100x0", {0, 1}: "100x0 100x1", {1, 2}: "40x0 1x1 59x0"}, FeedBatch, []int{1}},
		// One error after 10 clean points of batch 1: to a DDM that saw nothing before, it comes
		// before its 30th element and is diluted after; the call at T_start has shown it M_0's 100
		// clean points first (p_min + s_min = 0), so the error is a drift.
		{"first-drift: no call at T_start, an early error passes", map[[2]int]string{
			{0, 0}: "100x0", {0, 1}: "10x0 1x1 89x0", {0, 2}: "100x0", {1, 2}: "100x0"}, FeedFirstDrift, nil},
		{"batch: the call at T_start makes the same error a drift", map[[2]int]string{
			{0, 0}: "100x0", {0, 1}: "10x0 1x1 89x0", {0, 2}: "100x0", {1, 2}: "100x0"}, FeedBatch, []int{1}},
	}
	for _, tc := range tests {
		f := &fakeMatrix{t: 3, off: 1, s: make([][]float64, 3), errs: make([][]Bits, 3), acc: make([][]float64, 3)}
		for tp := range 3 {
			f.s[tp], f.acc[tp], f.errs[tp] = make([]float64, 3), make([]float64, 3), make([]Bits, 3)
			for tt := tp; tt < 3; tt++ {
				f.errs[tp][tt] = bitsOf(t, "100x1")
				if runs, ok := tc.cells[[2]int{tp, tt}]; ok {
					f.errs[tp][tt] = bitsOf(t, runs)
				}
			}
		}
		s := Replay(Costs{M: f, R: Constant(1)}, 0, 2, NewDetectorPolicy("DDM", NewDDM(), ResetNever, tc.feed))
		if !slices.Equal(s.Retrains, tc.want) {
			t.Errorf("%s: retrains %v, want %v (reasons %q)", tc.name, s.Retrains, tc.want, s.Reasons)
		}
	}
}

func TestParseDetectorFeed(t *testing.T) {
	for _, f := range []DetectorFeed{FeedBatch, FeedFirstDrift} {
		if got, err := ParseDetectorFeed(f.String()); err != nil || got != f {
			t.Errorf("%v: got %v, %v", f, got, err)
		}
	}
	if _, err := ParseDetectorFeed("all"); err == nil || !strings.Contains(err.Error(), "batch or first-drift") {
		t.Errorf("bad feed: %v", err)
	}
}

// Issue 43: River's published Page-Hinkley test (test_drift_detectors.py's stream and the
// docstring's, regenerated in testdata with the generators they name) gives River's expected
// detections; and the threshold is exceeded, not reached (S > 50, as scikit-multiflow and River
// test it).
func TestPageHinkleyRiver(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "pagehinkley_river.json"))
	if err != nil {
		t.Fatal(err)
	}
	var streams map[string]json.RawMessage
	if err := json.Unmarshal(b, &streams); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"unit_test", "docstring"} {
		var s struct {
			Stream   []float64 `json:"stream"`
			Expected []int     `json:"expected"`
		}
		if err := json.Unmarshal(streams[name], &s); err != nil || len(s.Stream) != 2000 {
			t.Fatalf("%s: %v (%d elements)", name, err, len(s.Stream))
		}
		p := NewPageHinkley()
		var got []int
		for i, x := range s.Stream {
			if p.Update(x) {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, s.Expected) {
			t.Errorf("%s: drifts at %v, River expects %v", name, got, s.Expected)
		}
	}
	for _, tc := range []struct {
		n, sum float64
		want   bool
	}{{30, 50, false}, {30, math.Nextafter(50, 51), true}, {29, 1000, false}} {
		if got := phDrift(tc.n, tc.sum); got != tc.want {
			t.Errorf("phDrift(n %v, sum %v) = %v, want %v", tc.n, tc.sum, got, tc.want)
		}
	}
}
