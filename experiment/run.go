package experiment

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"gonum.org/v1/gonum/stat"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// Result is one algorithm's outcome in `cara run --format json` (the contract in
// docs/commands.md). A mean over seeds has no retrain batches (Retrains nil: left out; each run
// has its own) and a Spread.
type Result struct {
	Algorithm     algos.Name     `json:"algorithm"`
	StrategyCost  Num            `json:"strategy_cost"`
	SCPE          Num            `json:"scpe"`
	Gap           Num            `json:"gap"`
	QueryAccuracy Num            `json:"query_accuracy"`
	Retrains      []int          `json:"retrains,omitzero"`
	RetrainCount  Num            `json:"retrain_count"`
	Params        map[string]Num `json:"params"`
	OfflineCost   Num            `json:"offline_cost"`
	// Optimal is CARA-T's or CARA-CT's optimal interval of thresholds on the offline block, (low,
	// high], null at an unbounded end; theta or theta_c is the tie rule's pick from it.
	Optimal *Interval `json:"optimal,omitempty"`
	Spread  *Spread   `json:"spread,omitempty"`
	// CI95 is, for a mean over seeds, the half-width of each number's 95 % t-interval (Student's
	// t with n-1 degrees of freedom over the n seeds' values): the mean ± CI95.
	CI95 *Spread `json:"ci95,omitempty"`
	// A drift detector's: the batches where it signalled (a mean over seeds has none), and those
	// alarms scored against the stream's known drifts (left out when it does not know them).
	Alarms    []int      `json:"alarms,omitzero"`
	Detection *Detection `json:"detection,omitempty"`
}

// Interval is an optimal interval (Low, High]: null at an end where it is unbounded.
type Interval struct {
	Low  Num `json:"low"`
	High Num `json:"high"`
}

// Spread is a spread over seeds of a mean Result's numbers: the population standard deviation
// (Result.Spread) or the half-width of the 95 % t-interval (Result.CI95).
type Spread struct {
	StrategyCost  Num `json:"strategy_cost"`
	SCPE          Num `json:"scpe"`
	Gap           Num `json:"gap"`
	QueryAccuracy Num `json:"query_accuracy"`
	RetrainCount  Num `json:"retrain_count"`
}

// ResultOf is an algorithm's evaluation as the contract writes it.
func ResultOf(r algos.Result) Result {
	retrains := r.Strategy.Retrains
	if retrains == nil {
		retrains = []int{}
	}
	out := Result{Algorithm: r.Algorithm, StrategyCost: Num(r.Strategy.Cost()), SCPE: Num(r.SCPE), Gap: Num(r.Gap),
		QueryAccuracy: Num(r.QueryAccuracy), Retrains: retrains, RetrainCount: Num(len(retrains)),
		Params: nums(r.Params), OfflineCost: Num(r.OfflineCost), Alarms: r.Strategy.Alarms, Detection: detectionOf(r.Detection)}
	if o := r.Optimal; o != nil {
		out.Optimal = &Interval{Num(o.Low), Num(o.High)}
	}
	return out
}

// CostText is a retraining cost as the scenario writes it: a JSON number when it is one, else the
// expression of t as a string.
type CostText string

// MarshalJSON implements json.Marshaler.
func (c CostText) MarshalJSON() ([]byte, error) {
	if f, err := strconv.ParseFloat(string(c), 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return json.Marshal(f)
	}
	return json.Marshal(string(c))
}

// UnmarshalJSON implements json.Unmarshaler.
func (c *CostText) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch x := v.(type) {
	case float64:
		*c = CostText(strconv.FormatFloat(x, 'g', -1, 64))
	case string:
		*c = CostText(x)
	default:
		return fmt.Errorf("retrain_cost must be a number or a string, got %s", b)
	}
	return nil
}

// SeedRun is one seed's results in a run over several seeds.
type SeedRun struct {
	Seed     uint64      `json:"seed"`
	Warnings []string    `json:"warnings"`
	Drifts   []sim.Drift `json:"drifts"` // the known drifts; null when the stream does not know them
	Results  []Result    `json:"results"`
}

// Run is the contract of `cara run --format json`: with one seed, Results are that seed's; with
// several, Runs holds each seed's and Results their means.
type Run struct {
	Scenario    string   `json:"scenario"`
	RetrainCost CostText `json:"retrain_cost"`
	Seeds       []uint64 `json:"seeds"`
	Warnings    []string `json:"warnings"`
	// Drifts are the first seed's known drifts (each seed's are in Runs); null when the stream
	// does not know them (real data).
	Drifts  []sim.Drift `json:"drifts"`
	Runs    []SeedRun   `json:"runs,omitempty"`
	Results []Result    `json:"results"`

	title      string // the scenario's, for the table
	start, end int    // the online block, for the table
}

// SeedHook sees each seed's matrix and evaluation as a run goes (the command line draws figures
// from the first).
type SeedHook func(seed uint64, m *sim.Matrix, res []algos.Result) error

// RunSeeds evaluates every algorithm of s on seeds s.Seed.. s.Seed+seeds-1 at the scenario's
// retraining cost.
func RunSeeds(ctx context.Context, s *scenarios.Scenario, seeds int, matrix MatrixFunc, hook SeedHook) (Run, error) {
	out := Run{Scenario: s.Name, RetrainCost: CostText(s.RetrainCostText), Warnings: []string{},
		title: s.Title, start: s.Offline, end: s.Batches - 1}
	for i := range seeds {
		seed := s.Seed + uint64(i)
		m, err := matrix(ctx, s, seed)
		if err != nil {
			return out, err
		}
		res, err := s.Evaluation.Evaluate(m, s.RetrainCost, s.Algorithms, m.Batches()-1)
		if err != nil {
			return out, err
		}
		run := SeedRun{Seed: seed, Warnings: nonNil(algos.Warnings(m, m.Batches()-1, res)), Drifts: driftsOf(m)}
		if i == 0 {
			out.Drifts = run.Drifts
		}
		for _, r := range res {
			run.Results = append(run.Results, ResultOf(r))
		}
		for _, w := range run.Warnings {
			if seeds > 1 {
				w = fmt.Sprintf("seed %d: %s", seed, w)
			}
			out.Warnings = append(out.Warnings, w)
		}
		out.Seeds = append(out.Seeds, seed)
		out.Runs = append(out.Runs, run)
		if hook != nil {
			if err := hook(seed, m, res); err != nil {
				return out, err
			}
		}
	}
	if seeds == 1 {
		out.Results, out.Runs = out.Runs[0].Results, nil
		return out, nil
	}
	for a := range out.Runs[0].Results {
		var rs []Result
		for _, run := range out.Runs {
			rs = append(rs, run.Results[a])
		}
		out.Results = append(out.Results, MeanOf(rs))
	}
	return out, nil
}

// meanSD is the mean and population standard deviation of the defined values among xs (NaN, NaN
// when none is).
func meanSD(xs []Num) (Num, Num) {
	var vals []float64
	for _, v := range xs {
		if v.Defined() {
			vals = append(vals, float64(v))
		}
	}
	if len(vals) == 0 {
		return Num(math.NaN()), Num(math.NaN())
	}
	m, sd := stat.PopMeanStdDev(vals, nil)
	return Num(m), Num(sd)
}

// MeanOf averages one algorithm's results over seeds where a mean means something: the numbers
// (undefined ones left out) with their spread, and the parameters MeanParams keeps.
func MeanOf(rs []Result) Result {
	out := Result{Algorithm: rs[0].Algorithm, Spread: &Spread{}, CI95: &Spread{}}
	field := func(get func(Result) Num) []Num {
		xs := make([]Num, len(rs))
		for i, r := range rs {
			xs[i] = get(r)
		}
		return xs
	}
	each := func(get func(Result) Num, mean, sd, ci *Num) {
		xs := field(get)
		*mean, *sd = meanSD(xs)
		*ci = Num(HalfWidth95(toFloats(xs)))
	}
	each(func(r Result) Num { return r.StrategyCost }, &out.StrategyCost, &out.Spread.StrategyCost, &out.CI95.StrategyCost)
	each(func(r Result) Num { return r.SCPE }, &out.SCPE, &out.Spread.SCPE, &out.CI95.SCPE)
	each(func(r Result) Num { return r.Gap }, &out.Gap, &out.Spread.Gap, &out.CI95.Gap)
	each(func(r Result) Num { return r.QueryAccuracy }, &out.QueryAccuracy, &out.Spread.QueryAccuracy, &out.CI95.QueryAccuracy)
	each(func(r Result) Num { return r.RetrainCount }, &out.RetrainCount, &out.Spread.RetrainCount, &out.CI95.RetrainCount)
	out.OfflineCost, _ = meanSD(field(func(r Result) Num { return r.OfflineCost }))
	out.Params = MeanParams(rs)
	out.Detection = meanDetection(rs)
	return out
}

// MeanParams averages the tuned parameters over seeds where a mean means something: theta and
// theta_c are thresholds on a continuous scale (their mean is +Inf, null in JSON, when a seed's
// is); CARA-P's period and offset are given only when every seed chose the same (averaging
// offsets of different periods means nothing). Nil when nothing is left.
func MeanParams(rs []Result) map[string]Num {
	out := map[string]Num{}
	for _, k := range []string{"theta", "theta_c"} {
		sum, n := 0.0, 0
		for _, r := range rs {
			if v, ok := r.Params[k]; ok {
				sum += float64(v)
				n++
			}
		}
		if n == len(rs) {
			out[k] = Num(sum / float64(n))
		}
	}
	same := true
	for _, r := range rs {
		for _, k := range []string{"period", "offset"} {
			a, aok := r.Params[k]
			b, bok := rs[0].Params[k]
			same = same && aok && bok && (a == b || math.IsNaN(float64(a)) && math.IsNaN(float64(b)))
		}
	}
	if same {
		out["period"], out["offset"] = rs[0].Params["period"], rs[0].Params["offset"]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// WriteJSON writes the run as indented JSON.
func (r Run) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadRun reads a run written by WriteJSON.
func ReadRun(rd io.Reader) (Run, error) {
	var r Run
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	err := dec.Decode(&r)
	return r, err
}

// WriteCSV writes one row per seed and algorithm.
func (r Run) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"scenario", "retrain_cost", "seed", "algorithm", "strategy_cost", "scpe", "gap", "query_accuracy", "retrain_count", "theta", "theta_c", "period", "offset", "offline_cost",
		"alarms", "drifts_detected", "drifts_missed", "false_alarms", "mean_delay", "mean_delay_points"})
	f := func(n Num) string { return csvNum(float64(n)) }
	for _, run := range r.seedRuns() {
		for _, x := range run.Results {
			p := func(k string) string {
				if v, ok := x.Params[k]; ok {
					return f(v)
				}
				return ""
			}
			cw.Write([]string{r.Scenario, string(r.RetrainCost), strconv.FormatUint(run.Seed, 10), string(x.Algorithm), f(x.StrategyCost), f(x.SCPE),
				f(x.Gap), f(x.QueryAccuracy), f(x.RetrainCount), p("theta"), p("theta_c"), p("period"), p("offset"), f(x.OfflineCost),
				alarmsCell(x), detCell(x, func(d *Detection) Num { return d.Detected }), detCell(x, func(d *Detection) Num { return d.Missed }),
				detCell(x, func(d *Detection) Num { return d.FalseCount }), detCell(x, func(d *Detection) Num { return d.MeanDelay }),
				detCell(x, func(d *Detection) Num { return d.MeanPoints })})
		}
	}
	cw.Flush()
	return cw.Error()
}

// words are the interval as the run's table writes it after the threshold: " in (0.916, 2.192]".
func (iv *Interval) words() string {
	if iv == nil {
		return ""
	}
	lo, hi := "-inf", "inf]"
	if iv.Low.Defined() {
		lo = FormatNum(float64(iv.Low), 3)
	}
	if iv.High.Defined() {
		hi = FormatNum(float64(iv.High), 3) + "]"
	}
	return " in (" + lo + ", " + hi
}

// seedRuns are the run's results by seed: Runs, or with one seed that seed's Results.
func (r Run) seedRuns() []SeedRun {
	if r.Runs == nil {
		return []SeedRun{{Seed: r.Seeds[0], Results: r.Results}}
	}
	return r.Runs
}

// WriteTable writes the run as a table like the paper's, its warnings under it.
func (r Run) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s: %s\nR = %s, seeds %v, online batches %d..%d\n\n", r.Scenario, r.title, r.RetrainCost, r.Seeds, r.start, r.end)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "algorithm\tcost\tSCPE %\tgap\tquery acc\tretrains\toffline cost\tparameters\t")
	for _, x := range r.Results {
		cost, scpe, acc, n := FormatNum(float64(x.StrategyCost), 3), FormatNum(float64(x.SCPE), 2), FormatNum(float64(x.QueryAccuracy), 3), FormatNum(float64(x.RetrainCount), 0)
		if x.CI95 != nil {
			cost += " ±" + FormatNum(float64(x.CI95.StrategyCost), 2)
			scpe += " ±" + FormatNum(float64(x.CI95.SCPE), 1)
			acc += " ±" + FormatNum(float64(x.CI95.QueryAccuracy), 3)
			n = FormatNum(float64(x.RetrainCount), 1) + " ±" + FormatNum(float64(x.CI95.RetrainCount), 1)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", x.Algorithm.Display(), cost, scpe,
			FormatNum(float64(x.Gap), 3), acc, n, FormatNum(float64(x.OfflineCost), 3), FormatParams(x.Params)+x.Optimal.words())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nSCPE = 100 |cost - Oracle| / |Oracle| (\"-\" when the Oracle's cost is <= 0); gap = cost - Oracle.")
	if len(r.Seeds) > 1 {
		fmt.Fprintf(w, "Means over the %d seeds ± the half-width of their 95 %% t-interval (Student's t, %d degrees of freedom: t = %.3f); parameters: mean theta and theta_c, CARA-P's period and offset when every seed chose the same.\n",
			len(r.Seeds), len(r.Seeds)-1, tQuantile(len(r.Seeds)-1))
	}
	if err := r.writeDetections(w); err != nil {
		return err
	}
	WriteWarnings(w, r.Warnings)
	return nil
}
