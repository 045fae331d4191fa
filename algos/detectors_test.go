package algos

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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
	for _, d := range []Detector{NewADWIN(0.002), NewDDM(), NewPageHinkley()} {
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
