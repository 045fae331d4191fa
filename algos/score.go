package algos

import (
	"math"
	"slices"
)

// A detector's alarms scored against the drifts the stream knows, as MOA's concept-drift
// evaluators and CD-MOA (Bifet et al. 2013) report them: for each drift the delay of the first
// alarm that detects it, the drifts missed, and the false alarms.

// DefaultDriftWindow is how many batches after a drift's last batch an alarm still detects it,
// unless a scenario says otherwise (detectors.window). Fed whole batches, a detector that sees an
// abrupt change of concept in the errors of a model trained before it fires in that very batch;
// two batches more leave room for a slower one, and keep an alarm half a covcon-d cycle later
// from counting as a detection.
const DefaultDriftWindow = 2

// Drift is a change of concept the stream knows: batches From..To (To = From for an abrupt one).
type Drift struct{ From, To int }

// DriftScore is a detector's alarms against the known drifts of the online block.
type DriftScore struct {
	Window int        // batches after a drift's last batch within which an alarm detects it
	Drifts []DriftHit // the drifts scored, in batch order
	// FalseAlarms are the alarms with no drift before them within the window: no drift has begun
	// at or before the alarm's batch and ended at most Window batches before it.
	FalseAlarms []int
	Missed      int     // drifts no alarm detected
	MeanDelay   float64 // the mean of the detected drifts' delays in batches; NaN when none was
	MeanPoints  float64 // ... and in points (MOA's unit: instances); NaN when none was
}

// Detected is how many drifts an alarm detected.
func (s DriftScore) Detected() int { return len(s.Drifts) - s.Missed }

// DriftHit is one drift and the alarm that detected it.
type DriftHit struct {
	From, To int // the drift's batches, from the first after Start
	Alarm    int // the first alarm in From..To+Window; -1 when there is none (missed)
	Delay    int // Alarm - From, in batches; -1 when missed
	// Points is the delay in points: those fed from the first of batch From to the one where the
	// alarm was signalled (a detector fed whole batches sees every point of the drift's batch;
	// MOA counts instances); -1 when missed.
	Points int
}

// Score scores alarms (ascending batches of start..end, each signalled at points[i] of its batch;
// size(t) is batch t's number of points) against the drifts of a stream over the online block
// start..end. A drift counts from its first batch after start (a drift before that
// is in the data the first model of the block is trained on; one in progress at start goes on
// after it) to its last; those that end by start are left out. An alarm at batch t belongs to the
// last drift begun at or before t: the first alarm from its first batch to Window batches after
// its last detects it (its delay is t - From), later ones in that span are repeats, neither
// detections nor false; an alarm outside every drift's span is false. A drift no alarm detects is
// missed.
func Score(alarms, points []int, drifts []Drift, start, end, window int, size func(t int) int) DriftScore {
	out := DriftScore{Window: window, Drifts: []DriftHit{}, FalseAlarms: []int{}, MeanDelay: math.NaN(), MeanPoints: math.NaN()}
	for _, d := range drifts {
		if d.To <= start || d.From > end {
			continue
		}
		out.Drifts = append(out.Drifts, DriftHit{From: max(d.From, start+1), To: min(d.To, end), Alarm: -1, Delay: -1, Points: -1})
	}
	slices.SortFunc(out.Drifts, func(a, b DriftHit) int { return a.From - b.From })
	for k, t := range alarms {
		i := len(out.Drifts) - 1
		for i >= 0 && out.Drifts[i].From > t {
			i--
		}
		if i < 0 || t > out.Drifts[i].To+window {
			out.FalseAlarms = append(out.FalseAlarms, t)
			continue
		}
		if h := &out.Drifts[i]; h.Alarm < 0 {
			h.Alarm, h.Delay, h.Points = t, t-h.From, points[k]
			for b := h.From; b < t; b++ {
				h.Points += size(b)
			}
		}
	}
	sum, sumPoints := 0, 0
	for _, h := range out.Drifts {
		if h.Alarm < 0 {
			out.Missed++
			continue
		}
		sum, sumPoints = sum+h.Delay, sumPoints+h.Points
	}
	if n := out.Detected(); n > 0 {
		out.MeanDelay, out.MeanPoints = float64(sum)/float64(n), float64(sumPoints)/float64(n)
	}
	return out
}

// driftTeller is a matrix whose stream may know its drifts (sim.Matrix): each drift as its first
// and last batch, and whether the stream knows them at all (real data do not).
type driftTeller interface {
	DriftBatches() (drifts [][2]int, known bool)
}

// KnownDrifts are the drifts of m's stream, when m tells them and the stream knows them (a
// generated stream knows where its concept changes; real data do not): known is false otherwise.
// A stream that knows it has none gives no drifts and known true.
func KnownDrifts(m Matrix) (drifts []Drift, known bool) {
	dt, ok := m.(driftTeller)
	if !ok {
		return nil, false
	}
	batches, known := dt.DriftBatches()
	if !known {
		return nil, false
	}
	drifts = make([]Drift, len(batches))
	for i, b := range batches {
		drifts[i] = Drift{From: b[0], To: b[1]}
	}
	return drifts, true
}

// RunSeed is the seed m was computed with when it says (sim.Matrix does), else 0: a detector that
// samples (KSWIN) draws from it, so a run's numbers follow its seed on any number of workers.
func RunSeed(m Matrix) uint64 {
	if s, ok := m.(interface{ RunSeed() uint64 }); ok {
		return s.RunSeed()
	}
	return 0
}
