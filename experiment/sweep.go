package experiment

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/ctxio"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// AutoSteps is how many costs --costs auto spreads over (0, R_max].
const AutoSteps = 25

// CostSpec is a sweep's retraining costs: auto (N steps over (0, R_max]), or FROM:TO:N evenly
// spaced, both ends included.
type CostSpec struct {
	Auto     bool
	From, To float64
	N        int
}

// ParseCosts reads auto or FROM:TO:N.
func ParseCosts(s string) (CostSpec, error) {
	if s == "auto" {
		return CostSpec{Auto: true, N: AutoSteps}, nil
	}
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return CostSpec{}, fmt.Errorf("--costs must be auto or FROM:TO:N (e.g. 1:100:25), got %q", s)
	}
	from, e1 := strconv.ParseFloat(parts[0], 64)
	to, e2 := strconv.ParseFloat(parts[1], 64)
	n, e3 := strconv.Atoi(parts[2])
	if e1 != nil || e2 != nil || e3 != nil || n < 1 || !(from >= 0) || !(to >= from) || math.IsInf(to, 0) {
		return CostSpec{}, fmt.Errorf("--costs FROM:TO:N needs 0 <= FROM <= TO and N >= 1, got %q", s)
	}
	if from == to && n > 1 { // N equal costs would be one row each, kept once: N asked, 1 given
		return CostSpec{}, fmt.Errorf("--costs %s is %d equal costs; give N = 1 (%g:%g:1) or TO > FROM", s, n, from, to)
	}
	return CostSpec{From: from, To: to, N: n}, nil
}

// Grid lists the retraining costs: FROM:TO:N evenly spaced, or for auto N steps over (0, R_max]
// with R_max the largest of rmaxes (one per seed), so that every seed replays the same costs and
// figures over seeds average like with like. warning is set when R_max is about 0 against scale,
// the offline block's typical |C|.
func (c CostSpec) Grid(rmaxes []float64, scale float64) (costs []float64, warning string) {
	out := make([]float64, c.N)
	if !c.Auto {
		for i := range out {
			if c.N == 1 {
				out[i] = c.From
			} else {
				out[i] = c.From + (c.To-c.From)*float64(i)/float64(c.N-1)
			}
		}
		return out, ""
	}
	rmax := 0.0
	for _, r := range rmaxes {
		rmax = max(rmax, r)
	}
	if rmax <= negligible*scale {
		warning = fmt.Sprintf("R_max is about 0 (%.3g): no retrain pays on the offline block at any R; pass --costs FROM:TO:N", rmax)
		if rmax <= 0 {
			rmax = 1e-6 // a tiny range still shows that never retraining is optimal
		}
	}
	for i := range out {
		out[i] = rmax * float64(i+1) / float64(c.N)
	}
	return out, warning
}

// RRange is where the auto grid's R_max comes from and how seeds share it.
type RRange int

const (
	// RangePaper is the paper's (its appendix): R_max the smallest R at which the Oracle on the
	// offline matrix of batches 0..T_off inclusive ("0 <= t <= T_off") equals Never-retrain, one
	// grid per seed. Of every definition tried, it brought most of the paper's numbers within
	// x1.5 (docs/ARCHITECTURE.md).
	RangePaper RRange = iota
	// RangeRoundTwo is round two's: the Oracle on batches 0..T_off-1, one grid for every seed
	// from the largest R_max.
	RangeRoundTwo
)

// String is the name the command line uses: paper or round-two.
func (r RRange) String() string {
	if r == RangeRoundTwo {
		return "round-two"
	}
	return "paper"
}

// ParseRRange reads paper or round-two.
func ParseRRange(s string) (RRange, error) {
	switch s {
	case "paper":
		return RangePaper, nil
	case "round-two":
		return RangeRoundTwo, nil
	}
	return 0, fmt.Errorf("the R range must be paper or round-two, got %q", s)
}

// RMax is a seed's R_max under this definition (m holds column T_off: OfflineMatrix computes it).
func (r RRange) RMax(m algos.Matrix) float64 {
	if r == RangeRoundTwo {
		return algos.RMax(m, m.Offline())
	}
	return algos.RMax(m, m.Offline()+1)
}

// Grids lists each seed's retraining costs from its R_max and offline scale: with RangePaper its
// own grid, with RangeRoundTwo one grid from the largest R_max, the same for every seed. The
// warnings are those of Grid, once each.
func (c CostSpec) Grids(r RRange, rmaxes, scales []float64) (grids [][]float64, warnings []string) {
	if r == RangeRoundTwo || !c.Auto {
		g, w := c.Grid(rmaxes, slices.Max(append([]float64{0}, scales...)))
		for range rmaxes {
			grids = append(grids, g)
		}
		if w != "" {
			warnings = append(warnings, w)
		}
		return grids, warnings
	}
	for i, rmax := range rmaxes {
		g, w := c.Grid([]float64{rmax}, scales[i])
		grids = append(grids, g)
		if w != "" && !slices.Contains(warnings, w) {
			warnings = append(warnings, w)
		}
	}
	return grids, warnings
}

// negligible is how small R_max is against the offline block's typical |C| to count as about 0.
const negligible = 1e-6

// OfflineScale is the mean |C[t', t]| over the offline block's off-diagonal cells: the scale an
// R_max is compared with.
func OfflineScale(m algos.Matrix) float64 {
	sum, n := 0.0, 0
	for t := 1; t < m.Offline(); t++ {
		for tp := range t {
			if v := m.Staleness(tp, t); !math.IsNaN(v) {
				sum += math.Abs(v)
				n++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// prefixStream is a stream cut to its first n batches.
type prefixStream struct {
	sim.Stream
	n int
}

func (p prefixStream) Len() int { return p.n }

// OfflineMatrix computes only the offline block of a seed's matrix (and one online column, which
// the engine needs): R_max reads nothing else, and every cell is the full run's, bit for bit.
func OfflineMatrix(ctx context.Context, s *scenarios.Scenario, seed uint64, workers int) (*sim.Matrix, error) {
	cfg, err := s.Config(seed)
	if err != nil {
		return nil, err
	}
	cfg.Stream = prefixStream{cfg.Stream, s.Offline + 1}
	cfg.Workers, cfg.SkipCross = workers, true
	return sim.Run(ctx, cfg, nil)
}

// Shard is --shard I/N: a sweep's part I of N does the units (seed, cost index) whose index k over
// all units, in order, has k mod N == I-1, so N runs with I = 1..N share the work without overlap.
type Shard struct{ I, N int }

// ParseShard reads I/N; "" is the whole sweep, 1/1.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{1, 1}, nil
	}
	var i, n int
	if _, err := fmt.Sscanf(s, "%d/%d", &i, &n); err != nil || n < 1 || i < 1 || i > n || fmt.Sprintf("%d/%d", i, n) != s {
		return Shard{}, fmt.Errorf("--shard must be I/N with 1 <= I <= N (e.g. 2/8), got %q", s)
	}
	return Shard{i, n}, nil
}

// Has reports whether unit k belongs to this shard.
func (s Shard) Has(k int) bool { return k%s.N == s.I-1 }

// Sweep is one sweep: every algorithm of Scenario over Seeds seeds (from the scenario's) at the
// costs of Costs, this Shard's units, appended to Out and resumed from it. Matrix computes a
// seed's whole matrix, Offline its offline block alone (for the auto grid).
type Sweep struct {
	Scenario *scenarios.Scenario
	Seeds    int
	Costs    CostSpec
	Shard    Shard
	Out      string
	Restart  bool      // empty Out first instead of resuming from it
	Stdout   io.Writer // where Out "-" goes
	Matrix   MatrixFunc
	Offline  MatrixFunc
	Progress Progress
}

// grid is the sweep's cost grid: for auto, from every seed's offline R_max.
func (sw Sweep) grid(ctx context.Context) ([]float64, string, error) {
	if !sw.Costs.Auto {
		costs, _ := sw.Costs.Grid(nil, 0)
		return costs, "", nil
	}
	var rmaxes []float64
	scale := 0.0
	for i := range sw.Seeds {
		m, err := sw.Offline(ctx, sw.Scenario, sw.Scenario.Seed+uint64(i))
		if err != nil {
			return nil, "", err
		}
		// The paper's R_max (batches 0..T_off inclusive); one grid for all seeds, from the
		// largest, so that the figures average the seeds at the same costs.
		rmaxes = append(rmaxes, RangePaper.RMax(m))
		scale = max(scale, OfflineScale(m))
	}
	costs, warning := sw.Costs.Grid(rmaxes, scale)
	return costs, warning, nil
}

// output is where a sweep's rows go.
type output struct {
	io.Writer
	sync, close func() error
}

// resume opens the output, drops a torn last line (or, with Restart, everything) and returns the
// rows it holds. Out "-" is Stdout; a FIFO, a pipe or a device (-o /dev/stdout, -o /dev/full) is
// written as it is, under ctx, and not read: it holds no rows to resume from, and /dev/zero
// would never end.
func (sw Sweep) resume(ctx context.Context) (output, []SweepRow, error) {
	if sw.Out == "-" {
		return output{sw.Stdout, func() error { return nil }, func() error { return nil }}, nil, nil
	}
	if ctxio.Blocking(sw.Out) {
		f, err := ctxio.Open(ctx, sw.Out, os.O_WRONLY, 0)
		if err != nil {
			return output{}, nil, err
		}
		return output{f, func() error { return nil }, f.Close}, nil, nil
	}
	file, err := os.OpenFile(sw.Out, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return output{}, nil, err
	}
	var rows []SweepRow
	var good int64
	if !sw.Restart {
		if rows, good, err = ReadRows(file, sw.Out, true); err != nil {
			file.Close()
			return output{}, nil, fmt.Errorf("%w (not resuming into a file that is not a sweep file)", err)
		}
	}
	if err := file.Truncate(good); err != nil {
		file.Close()
		return output{}, nil, err
	}
	if _, err := file.Seek(good, io.SeekStart); err != nil {
		file.Close()
		return output{}, nil, err
	}
	return output{file, file.Sync, file.Close}, rows, nil
}

// checkResume refuses to resume into rows that another sweep wrote: rows of this scenario's name
// but another content (hash), or, for this sweep's seeds, at a cost its grid does not have (other
// --costs, or another R_max). Keeping them would mix two sweeps without a word.
func (sw Sweep) checkResume(rows []SweepRow, costs []float64) error {
	s := sw.Scenario
	hash := s.Hash()
	grid := map[string]bool{}
	for _, c := range costs {
		grid[strconv.FormatFloat(c, 'g', -1, 64)] = true
	}
	again := "; pass --restart to start the file over, or -o another file"
	for _, r := range rows {
		if r.Scenario != s.Name {
			continue
		}
		if r.ScenarioHash != hash {
			was := "hash " + r.ScenarioHash
			if r.ScenarioHash == "" {
				was = "no hash: written by an older cara"
			}
			return fmt.Errorf("%s holds rows of %s from other content (%s) than this sweep's (hash %s): the scenario file, a --set, --data, --queries, a flag or the CSV data differ%s",
				sw.Out, s.Name, was, hash, again)
		}
		if r.Seed >= s.Seed && r.Seed < s.Seed+uint64(sw.Seeds) && !grid[r.Key().R] {
			return fmt.Errorf("%s holds a row of %s seed %d at R = %v, which this sweep's grid (%d costs, %.4g to %.4g) does not have: it was written with other --costs, or another R_max%s",
				sw.Out, s.Name, r.Seed, r.RetrainCost, len(costs), costs[0], costs[len(costs)-1], again)
		}
	}
	return nil
}

// Run runs the units of the shard that the output does not hold yet and returns the distinct
// warnings of the rows it wrote.
func (sw Sweep) Run(ctx context.Context) ([]string, error) {
	file, rows, err := sw.resume(ctx)
	if err != nil {
		return nil, err
	}
	defer file.close()
	done := map[RowKey]bool{}
	for _, r := range rows {
		done[r.Key()] = true
	}
	n := sw.Costs.N
	units := map[int][]int{} // seed index -> this shard's cost indices
	total := 0
	for k := range sw.Seeds * n {
		if sw.Shard.Has(k) {
			units[k/n] = append(units[k/n], k%n)
			total++
		}
	}
	start(sw.Progress, total)
	step(sw.Progress, 0, "the cost grid")
	costs, gridWarning, err := sw.grid(ctx)
	if err != nil {
		return nil, err
	}
	if err := sw.checkResume(rows, costs); err != nil {
		return nil, err
	}
	var warnings []string
	unit := 0
	for si := range sw.Seeds {
		seed := sw.Scenario.Seed + uint64(si)
		mine := units[si]
		if sw.allDone(done, seed, costs, mine) {
			unit += len(mine)
			step(sw.Progress, unit, "seed %d already done", seed)
			continue
		}
		step(sw.Progress, unit, "seed %d: computing the matrix", seed)
		m, err := sw.Matrix(ctx, sw.Scenario, seed)
		if err != nil {
			return warnings, err
		}
		for _, ri := range mine {
			if err := ctx.Err(); err != nil {
				return warnings, err
			}
			ws, err := sw.unit(file, done, m, seed, costs[ri], gridWarning)
			if err != nil {
				return warnings, err
			}
			for _, w := range ws {
				if !slices.Contains(warnings, w) {
					warnings = append(warnings, w)
				}
			}
			unit++
			step(sw.Progress, unit, "seed %d, R = %.4g", seed, costs[ri])
		}
	}
	finish(sw.Progress)
	return warnings, file.sync()
}

// allDone reports whether every row of the seed's units is already in the file.
func (sw Sweep) allDone(done map[RowKey]bool, seed uint64, costs []float64, mine []int) bool {
	for _, ri := range mine {
		for _, a := range sw.Scenario.Algorithms {
			if !done[(SweepRow{Scenario: sw.Scenario.Name, Seed: seed, RetrainCost: costs[ri], Algorithm: a}).Key()] {
				return false
			}
		}
	}
	return true
}

// unit evaluates one (seed, R) and appends the rows the file lacks; it returns their warnings.
func (sw Sweep) unit(w io.Writer, done map[RowKey]bool, m *sim.Matrix, seed uint64, r float64, gridWarning string) ([]string, error) {
	s := sw.Scenario
	res, err := s.Evaluation.Evaluate(m, algos.Constant(r), s.Algorithms, m.Batches()-1)
	if err != nil {
		return nil, err
	}
	warnings := algos.Warnings(m, m.Batches()-1, res)
	hash := s.Hash()
	if gridWarning != "" {
		warnings = append(warnings, gridWarning)
	}
	for _, x := range res {
		row := RowOf(s.Name, seed, r, x, warnings)
		row.ScenarioHash = hash
		if done[row.Key()] {
			continue
		}
		if err := WriteRow(w, row); err != nil {
			return nil, err
		}
		done[row.Key()] = true
	}
	return warnings, nil
}
