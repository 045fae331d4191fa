package draw

import (
	"math"
	"strconv"
	"strings"
)

// The player's numbers are written by these few functions, so that a value reads the same in every
// pane.

// Num writes a value with up to 4 significant digits ("419.9", "0.0125", "+inf", "-" for NaN).
func Num(v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case math.IsInf(v, 1):
		return "+inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// Short writes a value in at most about 5 columns, for labels beside a chart ("1.2k", "420", "3.14").
func Short(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return Num(v)
	case a >= 1e4:
		return strconv.FormatFloat(v/1e3, 'f', 0, 64) + "k"
	case a >= 1e3:
		return strconv.FormatFloat(v/1e3, 'f', 1, 64) + "k"
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a == 0:
		return "0"
	case a >= 0.01:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	// Tiny values as 4.2e-4: five or six columns, where 0.00042 would take seven.
	e := int(math.Floor(math.Log10(a)))
	m := v / math.Pow(10, float64(e))
	if math.Abs(m) >= 9.95 {
		m, e = m/10, e+1
	}
	return strconv.FormatFloat(m, 'f', 1, 64) + "e" + strconv.Itoa(e)
}

// Cost writes a strategy cost as the results table does (two decimals).
func Cost(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// Frac writes a rate or accuracy in [0, 1] ("0.912", "-" for NaN).
func Frac(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// Tick writes an axis tick: as many decimals as the step between ticks needs, no more.
func Tick(v, step float64) string {
	d := 0
	for s := step; d < 6 && math.Abs(s-math.Round(s)) > 1e-9*math.Max(1, math.Abs(s)); s *= 10 {
		d++
	}
	out := strconv.FormatFloat(v, 'f', d, 64)
	if strings.Trim(out, "-0.") == "" {
		return strings.TrimPrefix(out, "-") // no "-0.0"
	}
	return out
}

// NiceTicks returns round tick values covering [lo, hi] with about n ticks: steps of 1, 2 or 5
// times a power of ten, the first tick at or above lo.
func NiceTicks(lo, hi float64, n int) (ticks []float64, step float64) {
	if !(hi > lo) || n < 1 {
		return []float64{lo}, 1
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step = mag * 10
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*mag {
			step = m * mag
			break
		}
	}
	for v := math.Ceil(lo/step-1e-9) * step; v <= hi+step*1e-9; v += step {
		ticks = append(ticks, v)
	}
	return ticks, step
}

// BatchStep is the step between batch ticks: every 10, or finer for short runs, and coarser when
// the labels would not fit in cols columns.
func BatchStep(n, cols int) int {
	step := 10
	switch {
	case n <= 12:
		step = 1
	case n <= 30:
		step = 5
	}
	// A label needs its digits and a space.
	w := len(strconv.Itoa(n)) + 1
	for step < n && cols > 0 && float64(cols)*float64(step)/float64(n) < float64(w) {
		step *= 2
		if step%10 != 0 && step > 10 {
			step = (step + 9) / 10 * 10
		}
	}
	return step
}

// WrapWords breaks plain text into lines of at most w columns (10 at least) at spaces, never inside
// a word unless the word alone is wider; the lines carry no padding.
func WrapWords(st *Styles, s string, w int) []string {
	out := strings.Split(st.NewStyle().Width(max(w, 10)).Render(s), "\n")
	for i, l := range out {
		out[i] = strings.TrimRight(l, " ")
	}
	return out
}

// Itoa is strconv.Itoa, short.
func Itoa(i int) string { return strconv.Itoa(i) }

// Signed writes a gap with its sign ("+2.5").
func Signed(v float64) string {
	if v >= 0 {
		return "+" + Num(v)
	}
	return Num(v)
}
