package algos

import (
	"encoding/json"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// moreUpstream is testdata/detectors_more_upstream.json: two public 0-1 streams and the
// detections scikit-multiflow 0.5.3's own tests expect of EDDM, HDDM_A and HDDM_W on them.
type moreUpstream struct {
	Step     []float64 `json:"step"`
	Abrupt   []float64 `json:"abrupt"`
	Expected map[string]map[string][]int
}

func loadMoreUpstream(t *testing.T) moreUpstream {
	t.Helper()
	path := filepath.Join("testdata", "detectors_more_upstream.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var u moreUpstream
	if err := json.Unmarshal(b, &u); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(u.Step) != 2000 || len(u.Abrupt) != 2000 {
		t.Fatalf("%s: streams of %d and %d values, want 2000 each", path, len(u.Step), len(u.Abrupt))
	}
	return u
}

// detections feeds a fresh detector the stream as scikit-multiflow's tests do (add_element, then
// detected_change) and returns the indices where it signalled.
func detections(d Detector, stream []float64) []int {
	got := []int{}
	for i, x := range stream {
		if d.Update(x) {
			got = append(got, i)
		}
	}
	return got
}

func TestMoreDetectorsUpstream(t *testing.T) {
	u := loadMoreUpstream(t)
	streams := map[string][]float64{"step": u.Step, "abrupt": u.Abrupt}
	fresh := map[string]func() Detector{
		"eddm":   func() Detector { return NewEDDM() },
		"hddm_a": func() Detector { return NewHDDMA() },
		"hddm_w": func() Detector { return NewHDDMW() },
	}
	n := 0
	for det, byStream := range u.Expected {
		mk, ok := fresh[det]
		if !ok {
			t.Fatalf("testdata expects detections of %q, which this test does not know", det)
		}
		for name, want := range byStream {
			n++
			if got := detections(mk(), streams[name]); !slices.Equal(got, want) {
				t.Errorf("%s on %s: detections at %v, scikit-multiflow: %v", det, name, got, want)
			} else {
				t.Logf("%s on %s: %v, as scikit-multiflow", det, name, got)
			}
		}
	}
	if n != 5 {
		t.Errorf("%d expectations checked, want 5 (EDDM step; HDDM_A and HDDM_W step and abrupt)", n)
	}
}

// TestMoreDetectorsByHand pins the rules on streams whose answer can be worked out.
func TestMoreDetectorsByHand(t *testing.T) {
	// EDDM: 40 errors 10 elements apart, then errors on every element. The distances' mean falls
	// from 10 towards 1 and their spread first grows (pushing the maximum of p' + 2 s' up) and
	// then shrinks; the drift is the first error where p' + 2 s', recomputed here from all the
	// distances so far, is under 0.90 of the largest it has been (counted from the 30th element
	// and past 30 errors), which the detector tracks by running sums instead.
	var stream []float64
	for range 40 {
		stream = append(stream, repeat(0, 9)...)
		stream = append(stream, 1)
	}
	stream = append(stream, repeat(1, 400)...)
	want, most := -1, 0.0
	var dists []float64
	last := 0
	for i, x := range stream {
		if x != 1 {
			continue
		}
		dists = append(dists, float64(i+1-last))
		last = i + 1
		mean, sd := meanSD(dists)
		m2s := mean + 2*sd
		if i+2 < eddmMinInstances {
			continue
		}
		if m2s > most {
			most = m2s
			continue
		}
		if len(dists) > eddmMinInstances && m2s/most < eddmDrift {
			want = i
			break
		}
	}
	if got := detections(NewEDDM(), stream); want < 400 || len(got) == 0 || got[0] != want {
		t.Errorf("eddm: first drift at %v, by the definition %d", got, want)
	}
	// Without errors there is nothing to watch; a constant error rate raises no alarm either.
	for _, d := range []Detector{NewEDDM(), NewHDDMA(), NewHDDMW(), NewKSWIN(1)} {
		if got := detections(d, repeat(0, 3000)); len(got) != 0 {
			t.Errorf("%T on 3000 zeros: drifts at %v", d, got)
		}
	}
	// HDDM-A and HDDM-W on a jump from no errors to all errors: both fire within a few dozen
	// elements of the jump; HDDM-A's bound on 100 zeros then k ones is sqrt(m/2 ln 2000) with
	// m = k / (100 (100 + k)) against a mean difference of k/(100+k): k = 4 is the first to pass.
	jump := append(repeat(0, 100), repeat(1, 100)...)
	if got := detections(NewHDDMA(), jump); len(got) == 0 || got[0] != 103 {
		t.Errorf("hddm-a on 100 zeros then ones: drifts at %v, want the first at 103", got)
	}
	if got := detections(NewHDDMW(), jump); len(got) == 0 || got[0] < 100 || got[0] > 130 {
		t.Errorf("hddm-w on 100 zeros then ones: drifts at %v, want the first soon after 100", got)
	}
}

func meanSD(v []float64) (float64, float64) {
	m := 0.0
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	s := 0.0
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return m, math.Sqrt(s / float64(len(v)))
}

// TestHDDMAByHand checks the first drift of the jump above against the A-test written out.
func TestHDDMAByHand(t *testing.T) {
	for k := 1; k <= 10; k++ {
		n := 100.0 + float64(k)
		m := float64(k) / (100 * n)
		pass := float64(k)/n >= math.Sqrt(m/2*math.Log(2/hddmDrift))
		if pass != (k >= 4) {
			t.Errorf("k = %d: the A-test passes %v, the comment in TestMoreDetectorsByHand says %v", k, pass, k >= 4)
		}
	}
}

// pathsInside counts the monotone lattice paths from (0, 0) to (n, n) that stay inside the band
// |i - j| < h: the orderings of two samples of n whose empirical distributions never differ by
// h/n. It is the classic dynamic programme, a different route from ksPValues' alternating sum.
func pathsInside(n, h int) *big.Int {
	row := make([]*big.Int, n+1)
	for j := range row {
		row[j] = new(big.Int)
	}
	for i := 0; i <= n; i++ {
		for j := 0; j <= n; j++ {
			switch {
			case i-j >= h || j-i >= h:
				row[j].SetInt64(0)
			case i == 0 && j == 0:
				row[j].SetInt64(1)
			case i == 0:
				row[j].Set(row[j-1])
			case j > 0:
				row[j].Add(row[j], row[j-1])
			}
		}
	}
	return row[n]
}

func TestKSPValuesAgainstLatticePaths(t *testing.T) {
	for _, n := range []int{5, 12, 30} {
		ps := ksPValues(n)
		total := new(big.Int).Binomial(int64(2*n), int64(n))
		for h := 1; h <= n; h++ {
			outside := new(big.Rat).SetFrac(new(big.Int).Sub(total, pathsInside(n, h)), total)
			want, _ := outside.Float64()
			if math.Abs(ps[h]-want) > 1e-12*max(1, want) {
				t.Errorf("n = %d, h = %d: p = %.15g, lattice paths give %.15g", n, h, ps[h], want)
			}
		}
	}
	// The first statistic KSWIN can act on with samples of 30 (p <= 0.005), as its doc says.
	first := slices.IndexFunc(kswinP, func(p float64) bool { return p <= kswinAlpha })
	if first != 14 {
		t.Errorf("the smallest D with p <= %g is %d/30, the KSWIN doc says 14/30", kswinAlpha, first)
	}
}

// ksByDefinition is the two-sample statistic straight from its definition: the largest gap between
// the two empirical distribution functions, evaluated at every value of either sample.
func ksByDefinition(a, b []float64) float64 {
	ecdf := func(s []float64, x float64) float64 {
		n := 0
		for _, v := range s {
			if v <= x {
				n++
			}
		}
		return float64(n) / float64(len(s))
	}
	d := 0.0
	for _, x := range slices.Concat(a, b) {
		d = max(d, math.Abs(ecdf(a, x)-ecdf(b, x)))
	}
	return d
}

func TestKSStatistic(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for trial := range 200 {
		a, b := make([]float64, 30), make([]float64, 30)
		for i := range a {
			switch trial % 3 {
			case 0: // 0-1 errors, as a detector sees them
				a[i], b[i] = float64(r.IntN(2)), float64(r.IntN(2))
			case 1: // continuous, shifted
				a[i], b[i] = r.NormFloat64(), r.NormFloat64()+0.8
			default: // few distinct values: ties within and across the samples
				a[i], b[i] = float64(r.IntN(4)), float64(r.IntN(3))
			}
		}
		if got, want := ksStatistic(a, b), ksByDefinition(a, b); math.Abs(got-want) > 1e-15 {
			t.Fatalf("trial %d: D = %g, by definition %g (a %v, b %v)", trial, got, want, a, b)
		}
	}
}

// TestKSWINTest checks each test KSWIN makes on a stream against the statistic and p-value
// computed independently (the statistic by its definition on the same window and draws, the
// p-value by counting lattice paths), and its drifts against alpha and the 0.1 floor.
func TestKSWINTest(t *testing.T) {
	u := loadMoreUpstream(t)
	k := NewKSWIN(3)
	draws := rand.New(rand.NewPCG(3, 0x4b5357494e)) // KSWIN's stream for seed 3
	var mirror []float64
	drifts, tests := 0, 0
	for i, x := range u.Step {
		full := len(mirror) >= kswinWindow
		drift := k.Update(x)
		if full {
			tests++
			mirror = mirror[1:]
			stat, p := k.Test()
			recent := mirror[len(mirror)-kswinStatSize:]
			// The p-value of the statistic, by the lattice paths.
			h := int(math.Round(stat * kswinStatSize))
			total := new(big.Int).Binomial(2*kswinStatSize, kswinStatSize)
			wantP, _ := new(big.Rat).SetFrac(new(big.Int).Sub(total, pathsInside(kswinStatSize, h)), total).Float64()
			if h == 0 {
				wantP = 1
			}
			if math.Abs(p-wantP) > 1e-12 {
				t.Fatalf("element %d: p = %g, lattice paths give %g for D = %g", i, p, wantP, stat)
			}
			// D by its definition, on the same draws: the test replays KSWIN's stream of them.
			sample := make([]float64, kswinStatSize)
			for j := range sample {
				sample[j] = mirror[draws.IntN(len(mirror)-kswinStatSize)]
			}
			if want := ksByDefinition(sample, recent); math.Abs(stat-want) > 1e-12 {
				t.Fatalf("element %d: D = %g, by definition %g", i, stat, want)
			}
			if want := p <= kswinAlpha && stat > kswinMinStat; drift != want {
				t.Fatalf("element %d: drift %v with D = %g, p = %g", i, drift, stat, p)
			}
			if drift {
				drifts++
				mirror = slices.Clone(recent)
			}
		} else if drift {
			t.Fatalf("element %d: a drift before the window is full", i)
		}
		mirror = append(mirror, x)
	}
	// The step from about half errors to almost none but errors (normal(0.5, 0.1) > 0) is a
	// change of 0.5 in the error rate: KSWIN fires soon after element 1000.
	if drifts == 0 || tests < 1800 {
		t.Errorf("%d tests, %d drifts on the step stream", tests, drifts)
	}
}

func TestKSWINSeed(t *testing.T) {
	u := loadMoreUpstream(t)
	a, b := detections(NewKSWIN(5), u.Abrupt), detections(NewKSWIN(5), u.Abrupt)
	if !slices.Equal(a, b) {
		t.Errorf("the same seed fired at %v and %v", a, b)
	}
	differ := false
	for s := uint64(6); s < 16 && !differ; s++ {
		differ = !slices.Equal(a, detections(NewKSWIN(s), u.Abrupt))
	}
	if !differ {
		t.Errorf("ten other seeds all fired at %v: the sample does not follow the seed", a)
	}
}
