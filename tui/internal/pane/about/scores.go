package about

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// What the About pane says of the run as it stands at the frame's batch, under the scenario's
// facts: how each detector shown scores against the drifts the stream knows, and where CARA-T's
// and CARA-CT's thresholds come from when the offline block leaves a whole interval of them.

// Detections says, for each detector shown, its alarms up to the frame's batch scored against the
// known drifts (algos.Score, as cara run's table scores them over the whole block): the drifts
// detected and the delay of each in batches (their mean, in batches and points), the drifts missed
// and those not yet (the window still open at the frame's batch), then the false alarms. A stream that does not know
// its drifts says so instead. Nil when no detector is shown or the online block has not begun.
func Detections(f *pane.Frame) []string {
	var rows []algos.Result
	for _, r := range f.Shown() {
		if r.Algorithm.IsDetector() {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	drifts, known := algos.KnownDrifts(f.M)
	if !known {
		return []string{fmt.Sprintf("Detectors: %s does not know where its concept changes (its data are not generated): the detectors' alarms are not scored.", f.Scen.Name)}
	}
	var score *algos.DriftScore
	for _, r := range rows {
		if r.Detection != nil {
			score = r.Detection
			break
		}
	}
	if score == nil {
		return nil
	}
	var head string
	switch {
	case len(score.Drifts) == 0 && len(drifts) > 0 && f.Pos < f.M.Batches()-1:
		head = fmt.Sprintf("Detectors against the known drifts: none up to batch %d, so every alarm so far is false.", f.Pos)
	case len(score.Drifts) == 0:
		head = "Detectors: the concept does not change in the online block, so every alarm is false."
	default:
		var at []string
		for _, h := range score.Drifts {
			at = append(at, span(h.From, h.To))
		}
		head = fmt.Sprintf("Detectors against the known drifts at %s, up to batch %d: the first alarm from a drift's first batch to %s after its last detects it (its delay in batches and points); an alarm with no drift so close before it is false.",
			strings.Join(at, ", "), f.Pos, batches(score.Window))
	}
	out := []string{head}
	kw := pane.KeyWidth(f.Visible, f.RP.Provisional)
	for _, r := range rows {
		d := r.Detection
		if d == nil {
			continue
		}
		var delays, missed, pending []string
		for _, h := range d.Drifts {
			switch {
			case h.Alarm >= 0:
				delays = append(delays, draw.Itoa(h.Delay))
			case h.To+d.Window > f.Pos && f.Pos < f.M.Batches()-1:
				pending = append(pending, span(h.From, h.To))
			default:
				missed = append(missed, span(h.From, h.To))
			}
		}
		line := pane.KeyedLabel(r.Algorithm, f.RP.Provisional, kw) + ": "
		if len(d.Drifts) > 0 {
			line += fmt.Sprintf("%d of %d detected", d.Detected(), len(d.Drifts))
			if len(delays) > 0 {
				line += fmt.Sprintf(", delays %s (mean %s batches, %s points)", strings.Join(delays, " "), draw.Num(d.MeanDelay), draw.Num(d.MeanPoints))
			}
			if len(missed) > 0 {
				line += "; missed " + strings.Join(missed, ", ")
			}
			if len(pending) > 0 {
				line += "; " + strings.Join(pending, ", ") + " not yet"
			}
			line += "; "
		}
		switch len(d.FalseAlarms) {
		case 0:
			line += "no false alarm"
		case 1:
			line += fmt.Sprintf("1 false alarm (%d)", d.FalseAlarms[0])
		default:
			line += fmt.Sprintf("%d false alarms (%s)", len(d.FalseAlarms), ints(d.FalseAlarms))
		}
		out = append(out, line+".")
	}
	return out
}

// Ties says, for CARA-T and CARA-CT when shown, the optimal interval of thresholds the offline
// block leaves (every threshold in it gives the same offline cost) and which of it the scenario's
// tie rule took (tuning.tie: the midpoint, just above the low end, or the high end). Nil before the
// online block.
func Ties(f *pane.Frame) []string {
	var out []string
	tie := f.Scen.Evaluation.Tie
	for _, a := range []algos.Name{algos.NameCaraT, algos.NameCaraCT} {
		r, ok := f.Result(a)
		if !ok || r.Optimal == nil || !slices.Contains(f.Visible, a) {
			continue
		}
		param, sym := "theta", "θ"
		if a == algos.NameCaraCT {
			param, sym = "theta_c", "θc"
		}
		v, iv := r.Params[param], *r.Optimal
		var which string
		switch {
		case math.IsInf(iv.Low, -1) && math.IsInf(iv.High, 1):
			which = "any threshold costs the same offline"
		case tie == algos.TieHigh || math.IsInf(iv.High, 1) && tie == algos.TieMid:
			which = "the high end"
		case tie == algos.TieLow && !math.IsInf(iv.Low, -1):
			which = "just above the low end"
		case math.IsInf(iv.Low, -1):
			which = "its finite end (the interval is unbounded below)"
		default:
			which = "the midpoint"
		}
		out = append(out, fmt.Sprintf("%s's %s %s: every threshold in (%s, %s] costs the same on the offline block; tuning.tie %s took %s.",
			a.Display(), sym, draw.Num(v), end(iv.Low), end(iv.High), tie, which))
	}
	return out
}

// end writes an end of an interval, ∞ for an unbounded one.
func end(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "∞"
	case math.IsInf(v, -1):
		return "-∞"
	}
	return draw.Num(v)
}

// span writes a drift's batches: "24" or "24-30".
func span(from, to int) string {
	if from == to {
		return draw.Itoa(from)
	}
	return fmt.Sprintf("%d-%d", from, to)
}

func batches(n int) string {
	if n == 1 {
		return "1 batch"
	}
	return fmt.Sprintf("%d batches", n)
}

func ints(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = draw.Itoa(x)
	}
	return strings.Join(s, ", ")
}
