package experiment

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
)

// SweepRow is one line of a sweep file (`cara sweep -o results.jsonl`, the contract in
// docs/commands.md): one algorithm at one retraining cost and seed. Undefined numbers (SCPE when
// the Oracle's cost is <= 0, accuracy without query labels, an unbounded threshold) are null in
// the file and NaN here.
type SweepRow struct {
	Scenario       string         `json:"scenario"`
	Seed           uint64         `json:"seed"`
	RetrainCost    float64        `json:"retrain_cost"`
	Algorithm      algos.Name     `json:"algorithm"`
	StrategyCost   Num            `json:"strategy_cost"`
	SCPE           Num            `json:"scpe"`
	Gap            Num            `json:"gap"`
	QueryAccuracy  Num            `json:"query_accuracy"`
	Retrains       int            `json:"retrains"`
	RetrainBatches []int          `json:"retrain_batches"`
	Params         map[string]Num `json:"params"`
	OfflineCost    Num            `json:"offline_cost"`
	Warnings       []string       `json:"warnings"`
	// ScenarioHash is the scenario's Hash (its resolved file and data): a sweep resumes only into
	// rows of the same hash, and merge joins only those. "" in files of an older cara.
	ScenarioHash string `json:"scenario_hash,omitempty"`
	// Sweep is the sweep the row belongs to; nil in files of an older cara.
	Sweep *SweepOf `json:"sweep,omitempty"`
	// RetrainCostScales is the scenario's R(t) when it varies with t: RetrainCost is then a factor
	// applied to it (R_t = RetrainCost * R(t)), not a constant that replaces it.
	RetrainCostScales string `json:"retrain_cost_scales,omitempty"`
}

// SweepOf is what makes rows one sweep: its grid as --costs reads it (auto:N or FROM:TO:N) and its
// seeds (FirstSeed to FirstSeed+Seeds-1), so that resume and merge tell two sweeps apart and merge
// knows which rows a complete sweep has; and, for an auto grid, RMax, the R_max its grid was
// computed from (the largest of the seeds' offline blocks', the same in every row of the sweep;
// an older cara's sweeps gave each seed its own), so that every shard agrees on the grid.
type SweepOf struct {
	Costs     string   `json:"costs"`
	FirstSeed uint64   `json:"first_seed"`
	Seeds     int      `json:"seeds"`
	RMax      *float64 `json:"r_max,omitempty"`
}

// RowOf is one algorithm's result at (seed, R) as a sweep line, with the warnings of that seed
// and cost.
func RowOf(scenario string, seed uint64, r float64, x algos.Result, warnings []string) SweepRow {
	j := ResultOf(x)
	return SweepRow{Scenario: scenario, Seed: seed, RetrainCost: r, Algorithm: j.Algorithm,
		StrategyCost: j.StrategyCost, SCPE: j.SCPE, Gap: j.Gap, QueryAccuracy: j.QueryAccuracy,
		Retrains: len(j.Retrains), RetrainBatches: j.Retrains, Params: j.Params, OfflineCost: j.OfflineCost,
		Warnings: nonNil(warnings)}
}

// RowKey identifies a row for resuming and merging. Costs are compared through their shortest
// decimal form, which round-trips through JSON exactly.
type RowKey struct {
	Scenario  string
	Seed      uint64
	R         string
	Algorithm algos.Name
}

// Key is the row's RowKey.
func (r SweepRow) Key() RowKey {
	return RowKey{r.Scenario, r.Seed, strconv.FormatFloat(r.RetrainCost, 'g', -1, 64), r.Algorithm}
}

// WriteRow writes one row as one line, in one write: an interruption never leaves half a row
// behind (and a torn line from a crash is dropped on resume).
func WriteRow(w io.Writer, r SweepRow) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteRows writes rows one a line.
func WriteRows(w io.Writer, rows []SweepRow) error {
	bw := bufio.NewWriter(w)
	for _, r := range rows {
		if err := WriteRow(bw, r); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// ReadRows reads a sweep file, reporting a malformed line as name:line. A last line without its
// newline (an interrupted write) is dropped when tolerateTorn is set, and the offset where the
// whole lines end returned; otherwise it is read like the others.
func ReadRows(r io.Reader, name string, tolerateTorn bool) ([]SweepRow, int64, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, 0, err
	}
	good := int64(len(data))
	if tolerateTorn && len(data) > 0 && data[len(data)-1] != '\n' {
		good = int64(bytes.LastIndexByte(data, '\n') + 1)
		data = data[:good]
	}
	var rows []SweepRow
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		row, err := parseRow(b)
		if err != nil {
			return nil, 0, fmt.Errorf("%s:%d: not a sweep line: %v", name, line, err)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", name, err)
	}
	return rows, good, nil
}

func parseRow(b []byte) (SweepRow, error) {
	var row SweepRow
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&row); err != nil {
		return row, err
	}
	if row.Scenario == "" || row.Algorithm == "" {
		return row, errors.New("scenario and algorithm are required")
	}
	return row, nil
}

// SortRows orders rows by scenario, seed, cost and the algorithms' display order.
func SortRows(rows []SweepRow) {
	slices.SortStableFunc(rows, func(a, b SweepRow) int {
		switch {
		case a.Scenario != b.Scenario:
			return strings.Compare(a.Scenario, b.Scenario)
		case a.Seed != b.Seed:
			if a.Seed < b.Seed {
				return -1
			}
			return 1
		case a.RetrainCost != b.RetrainCost:
			if a.RetrainCost < b.RetrainCost {
				return -1
			}
			return 1
		}
		return a.Algorithm.Rank() - b.Algorithm.Rank()
	})
}

// SweepFile is the rows of one sweep file, named as messages name it.
type SweepFile struct {
	Name string
	Rows []SweepRow
}

// sweepKey is what makes rows one sweep: they merge only when it is the same.
type sweepKey struct {
	hash, costs, scales string
	first               uint64
	seeds               int
}

func (r SweepRow) sweepKey() sweepKey {
	k := sweepKey{hash: r.ScenarioHash, scales: r.RetrainCostScales}
	if r.Sweep != nil {
		k.costs, k.first, k.seeds = r.Sweep.Costs, r.Sweep.FirstSeed, r.Sweep.Seeds
	}
	return k
}

// rmax is the row's seed's R_max, NaN when it has none (a FROM:TO:N grid, an older cara).
func (r SweepRow) rmax() float64 {
	if r.Sweep == nil || r.Sweep.RMax == nil {
		return math.NaN()
	}
	return *r.Sweep.RMax
}

// Merge joins the rows of several sweep files (shards), the first of duplicate rows kept, sorted.
// Rows of one scenario name from two sweeps are an error naming both files and what differs: the
// content (ScenarioHash), the cost grid, the seeds, or a seed's R_max. Averaging them would mean
// nothing, and neither sweep would be complete.
func Merge(files ...SweepFile) ([]SweepRow, error) {
	type first struct {
		file string
		row  SweepRow
	}
	var all []SweepRow
	seen := map[RowKey]bool{}
	sweeps := map[string]first{} // scenario -> the first row of it, and its file
	rmaxes := map[RowKey]first{} // (scenario, seed) -> the first row of it
	for _, f := range files {
		for _, r := range f.Rows {
			if was, ok := sweeps[r.Scenario]; !ok {
				sweeps[r.Scenario] = first{f.Name, r}
			} else if err := differ(r.Scenario, was.file, was.row, f.Name, r); err != nil {
				return nil, err
			}
			k := RowKey{Scenario: r.Scenario, Seed: r.Seed}
			if was, ok := rmaxes[k]; !ok {
				rmaxes[k] = first{f.Name, r}
			} else if a, b := was.row.rmax(), r.rmax(); a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
				return nil, fmt.Errorf("%s seed %d has R_max %v in %s and %v in %s: they are not shards of one sweep",
					shown(r.Scenario), r.Seed, a, was.file, b, f.Name)
			}
			if k := r.Key(); !seen[k] {
				seen[k] = true
				all = append(all, r)
			}
		}
	}
	SortRows(all)
	return all, nil
}

// differ names what makes rows a (of file fa) and b (of fb), both of scenario sc, two sweeps.
func differ(sc, fa string, a SweepRow, fb string, b SweepRow) error {
	x, y := a.sweepKey(), b.sweepKey()
	if x == y {
		return nil
	}
	var what, was, is string
	switch {
	case x.hash != y.hash:
		what, was, is = "different content (the scenario file, a --set, a flag or the data)", "hash "+quoteOr(x.hash), "hash "+quoteOr(y.hash)
	case x.costs == "" || y.costs == "":
		what, was, is = "one written by an older cara, which recorded no cost grid", "--costs "+quoteOr(x.costs), "--costs "+quoteOr(y.costs)
	case x.costs != y.costs:
		what, was, is = "different cost grids", "--costs "+shown(x.costs), "--costs "+shown(y.costs)
	case x.first != y.first || x.seeds != y.seeds:
		what, was, is = "different seeds", SeedRange(x.first, x.seeds), SeedRange(y.first, y.seeds)
	default:
		what, was, is = "different R(t)", quoteOr(x.scales), quoteOr(y.scales)
	}
	where := fmt.Sprintf("%s in %s, %s in %s", was, fa, is, fb)
	if fa == fb {
		where = fmt.Sprintf("%s and %s in %s", was, is, fa)
	}
	return fmt.Errorf("rows of %s come from two sweeps, of %s: %s; merge joins the shards of one sweep (sweep the other into its own file)",
		shown(sc), what, where)
}

// shown is a name read from a sweep file as a message may print it: a row's text is untrusted.
func shown(s string) string {
	c, _ := scenarios.CleanText(s, false)
	return c
}

func quoteOr(s string) string {
	if s == "" {
		return "(none)"
	}
	return strconv.Quote(s)
}

// Missing lists, for each sweep in rows (merged: one per scenario), the units (seed, cost) that a
// complete sweep has and rows lack, as lines a person reads; nil when every sweep is complete.
// Rows of an older cara, which recorded no grid, are taken as they are.
func Missing(rows []SweepRow) []string {
	type seedKey struct {
		scenario string
		seed     uint64
	}
	var order []string
	first := map[string]SweepRow{}
	rmax := map[seedKey]float64{} // the seeds that have rows, with their R_max
	algs := map[string]map[algos.Name]bool{}
	have := map[RowKey]bool{}
	for _, r := range rows {
		if _, ok := first[r.Scenario]; !ok {
			order = append(order, r.Scenario)
			first[r.Scenario], algs[r.Scenario] = r, map[algos.Name]bool{}
		}
		rmax[seedKey{r.Scenario, r.Seed}] = r.rmax()
		algs[r.Scenario][r.Algorithm] = true
		have[r.Key()] = true
	}
	var out []string
	for _, sc := range order {
		sw := first[sc].Sweep
		if sw == nil {
			continue
		}
		spec, err := ParseCosts(sw.Costs)
		if err != nil || sw.Seeds < 1 {
			continue
		}
		var lines []string
		lacking, total := 0, sw.Seeds*spec.N*len(algs[sc])
		// Seeds missing whole come in runs (a shard or a job that never ran): one line a run, so
		// that a cancelled array of 70 seeds reads "seeds 129 to 198 (all of them)".
		wholeFrom, whole := uint64(0), 0
		endWhole := func() {
			switch whole {
			case 0:
			case 1:
				lines = append(lines, fmt.Sprintf("seed %d (all of it)", wholeFrom))
			default:
				lines = append(lines, fmt.Sprintf("seeds %d to %d (all of them)", wholeFrom, wholeFrom+uint64(whole)-1))
			}
			whole = 0
		}
		for si := range sw.Seeds {
			seed := sw.FirstSeed + uint64(si)
			rm, ok := rmax[seedKey{sc, seed}]
			if !ok {
				if whole == 0 {
					wholeFrom = seed
				}
				whole++
				lacking += spec.N * len(algs[sc])
				continue
			}
			endWhole()
			costs, _ := spec.Grid([]float64{rm}, 0)
			var at []string
			for _, c := range costs {
				short := strconv.FormatFloat(c, 'g', 4, 64)
				for a := range algs[sc] {
					if !have[(SweepRow{Scenario: sc, Seed: seed, RetrainCost: c, Algorithm: a}).Key()] {
						lacking++
						if len(at) == 0 || at[len(at)-1] != short {
							at = append(at, short)
						}
					}
				}
			}
			if len(at) > 0 {
				lines = append(lines, fmt.Sprintf("seed %d at R = %s", seed, strings.Join(at, ", ")))
			}
		}
		endWhole()
		if lacking > 0 {
			out = append(out, fmt.Sprintf("%s (--costs %s, %s) lacks %d of its %d rows: %s", shown(sc), shown(sw.Costs),
				SeedRange(sw.FirstSeed, sw.Seeds), lacking, total, strings.Join(lines, "; ")))
		}
	}
	return out
}
