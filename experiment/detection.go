package experiment

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

// Detection is a detector's alarms scored against the stream's known drifts (algos.DriftScore)
// as the run contract writes it: per drift the first alarm that detects it and its delay, the
// false alarms, and the counts. A mean over seeds has the counts and the mean delay only.
type Detection struct {
	Window      int        `json:"window"`
	Drifts      []DriftHit `json:"drifts,omitzero"`
	FalseAlarms []int      `json:"false_alarms,omitzero"`
	Detected    Num        `json:"detected"`
	Missed      Num        `json:"missed"`
	FalseCount  Num        `json:"false_alarm_count"`
	MeanDelay   Num        `json:"mean_delay"`        // in batches; null when no drift was detected
	MeanPoints  Num        `json:"mean_delay_points"` // in points (MOA's instances); null likewise
}

// DriftHit is one known drift (its batches from the first after T_start) and the alarm that
// detected it, its delay in batches and in points: null when it was missed.
type DriftHit struct {
	From   int  `json:"from"`
	To     int  `json:"to"`
	Alarm  *int `json:"alarm"`
	Delay  *int `json:"delay"`
	Points *int `json:"delay_points"`
}

// detectionOf is a score as the contract writes it; nil for nil.
func detectionOf(s *algos.DriftScore) *Detection {
	if s == nil {
		return nil
	}
	d := &Detection{Window: s.Window, Drifts: []DriftHit{}, FalseAlarms: s.FalseAlarms, Detected: Num(s.Detected()),
		Missed: Num(s.Missed), FalseCount: Num(len(s.FalseAlarms)), MeanDelay: Num(s.MeanDelay), MeanPoints: Num(s.MeanPoints)}
	for _, h := range s.Drifts {
		hit := DriftHit{From: h.From, To: h.To}
		if h.Alarm >= 0 {
			alarm, delay, points := h.Alarm, h.Delay, h.Points
			hit.Alarm, hit.Delay, hit.Points = &alarm, &delay, &points
		}
		d.Drifts = append(d.Drifts, hit)
	}
	return d
}

// meanDetection averages the seeds' scores: the counts and the mean delay (over the seeds that
// detected a drift). Nil when a seed has none.
func meanDetection(rs []Result) *Detection {
	var det, miss, fa, delay, points []Num
	for _, r := range rs {
		d := r.Detection
		if d == nil {
			return nil
		}
		det, miss, fa = append(det, d.Detected), append(miss, d.Missed), append(fa, d.FalseCount)
		delay, points = append(delay, d.MeanDelay), append(points, d.MeanPoints)
	}
	out := &Detection{Window: rs[0].Detection.Window}
	out.Detected, _ = meanSD(det)
	out.Missed, _ = meanSD(miss)
	out.FalseCount, _ = meanSD(fa)
	out.MeanDelay, _ = meanSD(delay)
	out.MeanPoints, _ = meanSD(points)
	return out
}

// driftsOf are a matrix's known drifts for the contract: nil (null) when the stream does not know
// them, a list (empty when there is none) when it does.
func driftsOf(m *sim.Matrix) []sim.Drift {
	if m.Drifts == nil {
		return nil
	}
	return append([]sim.Drift{}, m.Drifts...)
}

// writeDetections prints the detectors' scores under the run's table: the known drifts of the
// online block, then per detector its alarms, the drifts detected and missed, the false alarms
// and the delays. A stream that does not know its drifts says so instead.
func (r Run) writeDetections(w io.Writer) error {
	var rows []Result
	for _, x := range r.Results {
		if x.Algorithm.IsDetector() {
			rows = append(rows, x)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	if r.Drifts == nil {
		_, err := fmt.Fprintf(w, "\n%s does not know where its concept changes (its data are not generated): the detectors' alarms are not scored.\n", r.Scenario)
		return err
	}
	var det *Detection
	for _, x := range rows {
		if x.Detection != nil {
			det = x.Detection
			break
		}
	}
	if det == nil {
		return nil
	}
	switch {
	case det.Drifts == nil: // a mean over seeds
		fmt.Fprintf(w, "\nDetectors against the known drifts (means over seeds; an alarm up to %d batches after a drift's last batch detects it):\n\n", det.Window)
	case len(det.Drifts) == 0:
		fmt.Fprintf(w, "\n%s's concept does not change in the online block: every alarm is false.\n\n", r.Scenario)
	default:
		fmt.Fprintf(w, "\nDetectors against the known drifts of the online block, at batches %s (an alarm up to %d batches after a drift's last batch detects it):\n\n",
			driftsText(det.Drifts), det.Window)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "detector\talarms\tdetected\tmissed\tfalse alarms\tmean delay\tin points\tdelay per drift (batches/points)\t")
	for _, x := range rows {
		d := x.Detection
		if d == nil {
			continue
		}
		alarms, prec := FormatNum(float64(len(x.Alarms)), 0), 0
		if x.Alarms == nil { // a mean: no list
			alarms, prec = "-", 1
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", x.Algorithm.Display(), alarms, FormatNum(float64(d.Detected), prec),
			FormatNum(float64(d.Missed), prec), FormatNum(float64(d.FalseCount), prec), FormatNum(float64(d.MeanDelay), 2),
			FormatNum(float64(d.MeanPoints), 0), delaysText(d.Drifts))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\nA delay runs from the first point of the drift's first batch to the first alarm that detects it, in batches and in points fed (- missed); an alarm with no drift begun within the window before it is false.")
	return err
}

// driftsText lists drifts as "30, 40, 50-54".
func driftsText(hs []DriftHit) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = fmt.Sprint(h.From)
		if h.To > h.From {
			parts[i] += fmt.Sprintf("-%d", h.To)
		}
	}
	return strings.Join(parts, ", ")
}

// delaysText lists each drift's delay in batches and points: "0/31 1/1064 -".
func delaysText(hs []DriftHit) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = "-"
		if h.Delay != nil {
			parts[i] = fmt.Sprintf("%d/%d", *h.Delay, *h.Points)
		}
	}
	return strings.Join(parts, " ")
}

// alarmsCell is a detector's alarm count for CSV, "" for another algorithm or a mean.
func alarmsCell(x Result) string {
	if x.Alarms == nil {
		return ""
	}
	return csvNum(float64(len(x.Alarms)))
}

// detCell is one number of a detector's score for CSV, "" without one.
func detCell(x Result, get func(*Detection) Num) string {
	if x.Detection == nil {
		return ""
	}
	return csvNum(float64(get(x.Detection)))
}
