package figures

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// roundTicks puts labelled ticks at round numbers, multiples of a step of 1, 2 or 5 times a
// power of ten (0, 20, 40, ... rather than gonum's 10, 60, 110), about five to an axis, an
// unlabelled one halfway between, each label with the step's decimals and no more ("25", not
// "25.00").
type roundTicks struct{}

// Ticks implements plot.Ticker.
func (roundTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	step := niceStep((hi - lo) / 5)
	decimals := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	var ticks []plot.Tick
	for i := math.Ceil(lo/step - 1e-9); ; i++ {
		v := i * step
		if v > hi+step*1e-9 {
			break
		}
		if minor := v - step/2; minor >= lo {
			ticks = append(ticks, plot.Tick{Value: minor})
		}
		label := strconv.FormatFloat(v, 'f', decimals, 64)
		if v == 0 {
			label = strconv.FormatFloat(0, 'f', decimals, 64) // never "-0"
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}

// niceStep is the smallest of 1, 2 and 5 times a power of ten that is at least x.
func niceStep(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}
