package experiment

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/ctxio"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// Sweep is one sweep: every algorithm of Scenario over Seeds seeds (from the scenario's) at the
// costs of Costs, this Shard's units, appended to Out and resumed from it. Matrix computes a
// seed's matrix; a shard computes only those of the seeds it works on (Shard.Units).
//
// With --costs auto every seed shares one grid, N steps over (0, R_max] with R_max the largest of
// the seeds' (each from its offline block, the Oracle on batches 0..T_off inclusive equal to
// Never-retrain: docs/conventions.md), so that a figure's mean over seeds at an R is over the same
// R. A shard reads the R_max of every seed, its own or not, from Offline (the offline block alone,
// about a tenth of a matrix), before it writes a row; every row records the shared R_max, so that
// all shards agree and a resume can check it. When the scenario's R varies with t the costs are
// factors applied to R(t), as the player's R keys scale it.
type Sweep struct {
	Scenario *scenarios.Scenario
	Seeds    int
	Costs    CostSpec
	Shard    Shard
	Out      string
	Restart  bool      // empty Out first instead of resuming from it
	Stdout   io.Writer // where Out "-" goes
	Matrix   MatrixFunc
	Offline  MatrixFunc // a seed's matrix of batches 0..T_off alone; nil: Matrix
	Progress Progress
}

// Scales reports whether the sweep's costs are factors of the scenario's R(t) rather than
// constant costs: R varies with t, and a constant would replace it without a word.
func Scales(s *scenarios.Scenario) bool {
	r0 := s.RetrainCost(0)
	for t := 1; t < s.Batches; t++ {
		if s.RetrainCost(t) != r0 {
			return true
		}
	}
	return false
}

// sweepGrid is the sweep's costs, with the R_max they come from (nil for FROM:TO:N) and the
// warning of an R_max about 0.
type sweepGrid struct {
	costs   []float64
	rmax    *float64
	warning string
}

// grid is the sweep's grid: FROM:TO:N, or for auto N steps over (0, R_max], R_max the largest of
// the seeds' offline blocks' (in factors of R(t) when the scenario's R varies).
func (sw Sweep) grid(ctx context.Context) (sweepGrid, error) {
	if !sw.Costs.Auto {
		costs, _ := sw.Costs.Grid(nil, 0)
		return sweepGrid{costs, nil, ""}, nil
	}
	offline := sw.Offline
	if offline == nil {
		offline = sw.Matrix
	}
	var rmaxes []float64
	scale := 0.0
	for si := range sw.Seeds {
		seed := sw.Scenario.Seed + uint64(si)
		step(sw.Progress, 0, "seed %d: R_max from the offline block", seed)
		m, err := offline(ctx, sw.Scenario, seed)
		if err != nil {
			return sweepGrid{}, err
		}
		rmax, sc, err := sw.rmaxOf(m, seed)
		if err != nil {
			return sweepGrid{}, err
		}
		rmaxes, scale = append(rmaxes, rmax), max(scale, sc)
	}
	costs, warning := sw.Costs.Grid(rmaxes, scale)
	rmax := slices.Max(rmaxes)
	return sweepGrid{costs, &rmax, warning}, nil
}

// rmaxOf is a seed's R_max from its offline block in m, and the offline block's typical |C| that
// an R_max about 0 is measured against.
func (sw Sweep) rmaxOf(m *sim.Matrix, seed uint64) (rmax, scale float64, err error) {
	s := sw.Scenario
	scale = OfflineScale(m)
	if !Scales(s) {
		return RangePaper.RMax(m), scale, nil
	}
	rmax, ok := ScaleRMax(m, s.RetrainCost)
	if !ok {
		return 0, 0, fmt.Errorf("--costs %v: no factor of %s's retrain_cost %q makes never retraining optimal on seed %d's offline block (R(t) is 0 where a retrain pays at any factor); pass --costs FROM:TO:N, the factors to sweep",
			sw.Costs, s.Name, s.RetrainCostText, seed)
	}
	// A factor is about 0 against the offline block's |C| over the mean R(t) it multiplies.
	if mean := meanCost(s.RetrainCost, m.Offline()+1); mean > 0 {
		scale /= mean
	}
	return rmax, scale, nil
}

// meanCost is the mean of r over batches 0..n-1.
func meanCost(r algos.RetrainCost, n int) float64 {
	sum := 0.0
	for t := range n {
		sum += r(t)
	}
	return sum / float64(n)
}

// knownGrid is the sweep's costs as the file's rows record them (the shared R_max, for auto),
// and whether the rows tell. Rows of per-seed grids (an older cara's) are an error: this sweep
// would not extend them.
func (sw Sweep) knownGrid(rmaxes map[uint64]float64) ([]float64, bool, error) {
	if !sw.Costs.Auto {
		costs, _ := sw.Costs.Grid(nil, 0)
		return costs, true, nil
	}
	seeds := slices.Sorted(maps.Keys(rmaxes))
	if len(seeds) == 0 {
		return nil, false, nil
	}
	rmax := rmaxes[seeds[0]]
	for _, seed := range seeds[1:] {
		if rmaxes[seed] != rmax {
			return nil, false, fmt.Errorf("%s holds rows of %s with a grid per seed (seed %d's R_max %v, seed %d's %v), written by an older cara; --costs auto now gives every seed one grid; pass --restart to start the file over, or -o another file",
				sw.Out, sw.Scenario.Name, seeds[0], rmax, seed, rmaxes[seed])
		}
	}
	costs, _ := sw.Costs.Grid([]float64{rmax}, 0)
	return costs, true, nil
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
// but another content (hash), another cost grid or other seeds. Keeping them would mix two sweeps
// without a word.
func (sw Sweep) checkResume(rows []SweepRow) error {
	s := sw.Scenario
	hash := s.Hash()
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
		switch was := r.Sweep; {
		case was == nil:
			return fmt.Errorf("%s holds rows of %s written by an older cara, which recorded no cost grid%s", sw.Out, s.Name, again)
		case was.Costs != sw.Costs.String():
			return fmt.Errorf("%s holds a sweep of %s over --costs %s; this one is over --costs %v%s", sw.Out, s.Name, was.Costs, sw.Costs, again)
		case was.FirstSeed != s.Seed || was.Seeds != sw.Seeds:
			return fmt.Errorf("%s holds a sweep of %s over %s; this one is over %s%s", sw.Out, s.Name,
				SeedRange(was.FirstSeed, was.Seeds), SeedRange(s.Seed, sw.Seeds), again)
		}
	}
	return nil
}

// SeedRange names the seeds first..first+n-1 as a message says them.
func SeedRange(first uint64, n int) string {
	if n == 1 {
		return fmt.Sprintf("seed %d (--seed %d --seeds 1)", first, first)
	}
	return fmt.Sprintf("seeds %d to %d (--seed %d --seeds %d)", first, first+uint64(n)-1, first, n)
}

// Run runs the units of the shard that the output does not hold yet and returns the distinct
// warnings of the rows it wrote.
func (sw Sweep) Run(ctx context.Context) ([]string, error) {
	file, rows, err := sw.resume(ctx)
	if err != nil {
		return nil, err
	}
	defer file.close()
	if err := sw.checkResume(rows); err != nil {
		return nil, err
	}
	done := map[RowKey]bool{}
	rmaxes := map[uint64]float64{} // the R_max each seed's rows of this sweep record
	for _, r := range rows {
		done[r.Key()] = true
		if r.Scenario == sw.Scenario.Name && sw.Costs.Auto && !math.IsNaN(r.rmax()) {
			rmaxes[r.Seed] = r.rmax()
		}
	}
	units := sw.Shard.Units(sw.Seeds, sw.Costs.N)
	total := 0
	for _, u := range units {
		total += len(u)
	}
	start(sw.Progress, total)
	costName := "R"
	if Scales(sw.Scenario) {
		costName = "factor of R(t)"
	}
	known, isKnown, err := sw.knownGrid(rmaxes)
	if err != nil {
		return nil, err
	}
	var g *sweepGrid // computed before the first row is written
	var warnings []string
	unit := 0
	for si := range sw.Seeds {
		mine, ok := units[si]
		if !ok {
			continue
		}
		seed := sw.Scenario.Seed + uint64(si)
		if isKnown && sw.allDone(done, seed, known, mine) {
			unit += len(mine)
			step(sw.Progress, unit, "seed %d already done", seed)
			continue
		}
		if g == nil {
			grid, err := sw.grid(ctx)
			if err != nil {
				return warnings, err
			}
			for _, was := range slices.Sorted(maps.Keys(rmaxes)) {
				if rm := rmaxes[was]; grid.rmax != nil && rm != *grid.rmax {
					return warnings, fmt.Errorf("%s: the rows of %s seed %d say R_max = %v, and the seeds' offline blocks give %v now (the largest of seeds %d to %d): they were not written by this sweep; pass --restart to start the file over, or -o another file",
						sw.Out, sw.Scenario.Name, was, rm, *grid.rmax, sw.Scenario.Seed, sw.Scenario.Seed+uint64(sw.Seeds)-1)
				}
			}
			g = &grid
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
			ws, err := sw.unit(file, done, m, seed, *g, ri)
			if err != nil {
				return warnings, err
			}
			for _, w := range ws {
				if !slices.Contains(warnings, w) {
					warnings = append(warnings, w)
				}
			}
			unit++
			step(sw.Progress, unit, "seed %d, %s = %.4g", seed, costName, g.costs[ri])
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

// unit evaluates one (seed, cost) and appends the rows the file lacks; it returns their warnings.
func (sw Sweep) unit(w io.Writer, done map[RowKey]bool, m *sim.Matrix, seed uint64, g sweepGrid, ri int) ([]string, error) {
	s := sw.Scenario
	c := g.costs[ri]
	r, scales := algos.Constant(c), ""
	if Scales(s) {
		r, scales = Scaled(s.RetrainCost, c), s.RetrainCostText
	}
	res, err := s.Evaluation.Evaluate(m, r, s.Algorithms, m.Batches()-1)
	if err != nil {
		return nil, err
	}
	warnings := algos.Warnings(m, m.Batches()-1, res)
	hash := s.Hash()
	if g.warning != "" {
		warnings = append(warnings, g.warning)
	}
	for _, x := range res {
		row := RowOf(s.Name, seed, c, x, warnings)
		row.ScenarioHash, row.RetrainCostScales = hash, scales
		row.Sweep = &SweepOf{Costs: sw.Costs.String(), FirstSeed: s.Seed, Seeds: sw.Seeds, RMax: g.rmax}
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
