package experiment

import (
	"context"
	"fmt"
	"io"
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
// With --costs auto each seed has its own grid, N steps over (0, R_max] with R_max from that
// seed's offline block (the convention of docs/conventions.md, and cara reproduce's), read from
// the matrix the shard computes anyway; every row records its seed's R_max, so that any shard
// evaluating the seed agrees on its grid and a resume can check it. When the scenario's R varies
// with t the costs are factors applied to R(t), as the player's R keys scale it.
type Sweep struct {
	Scenario *scenarios.Scenario
	Seeds    int
	Costs    CostSpec
	Shard    Shard
	Out      string
	Restart  bool      // empty Out first instead of resuming from it
	Stdout   io.Writer // where Out "-" goes
	Matrix   MatrixFunc
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

// seedGrid is one seed's costs, with the R_max they come from (nil for FROM:TO:N) and the
// warning of an R_max about 0.
type seedGrid struct {
	costs   []float64
	rmax    *float64
	warning string
}

// gridOf is seed's grid: FROM:TO:N, or for auto N steps over (0, R_max], R_max from the seed's
// offline block in m (in factors of R(t) when the scenario's R varies).
func (sw Sweep) gridOf(m *sim.Matrix, seed uint64) (seedGrid, error) {
	if !sw.Costs.Auto {
		costs, _ := sw.Costs.Grid(nil, 0)
		return seedGrid{costs, nil, ""}, nil
	}
	s, scale := sw.Scenario, OfflineScale(m)
	var rmax float64
	if !Scales(s) {
		rmax = RangePaper.RMax(m)
	} else {
		var ok bool
		if rmax, ok = ScaleRMax(m, s.RetrainCost); !ok {
			return seedGrid{}, fmt.Errorf("--costs %v: no factor of %s's retrain_cost %q makes never retraining optimal on seed %d's offline block (R(t) is 0 where a retrain pays at any factor); pass --costs FROM:TO:N, the factors to sweep",
				sw.Costs, s.Name, s.RetrainCostText, seed)
		}
		// A factor is about 0 against the offline block's |C| over the mean R(t) it multiplies.
		if mean := meanCost(s.RetrainCost, m.Offline()+1); mean > 0 {
			scale /= mean
		}
	}
	costs, warning := sw.Costs.Grid([]float64{rmax}, scale)
	return seedGrid{costs, &rmax, warning}, nil
}

// meanCost is the mean of r over batches 0..n-1.
func meanCost(r algos.RetrainCost, n int) float64 {
	sum := 0.0
	for t := range n {
		sum += r(t)
	}
	return sum / float64(n)
}

// knownGrid is a seed's costs as the file's rows record them (their R_max, for auto), and whether
// the rows tell.
func (sw Sweep) knownGrid(rmaxes map[uint64]float64, seed uint64) ([]float64, bool) {
	if !sw.Costs.Auto {
		costs, _ := sw.Costs.Grid(nil, 0)
		return costs, true
	}
	rmax, ok := rmaxes[seed]
	if !ok {
		return nil, false
	}
	costs, _ := sw.Costs.Grid([]float64{rmax}, 0)
	return costs, true
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
	rmaxes := map[uint64]float64{} // each seed's R_max, as the file's rows of this sweep record it
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
	var warnings []string
	unit := 0
	for si := range sw.Seeds {
		mine, ok := units[si]
		if !ok {
			continue
		}
		seed := sw.Scenario.Seed + uint64(si)
		if costs, known := sw.knownGrid(rmaxes, seed); known && sw.allDone(done, seed, costs, mine) {
			unit += len(mine)
			step(sw.Progress, unit, "seed %d already done", seed)
			continue
		}
		step(sw.Progress, unit, "seed %d: computing the matrix", seed)
		m, err := sw.Matrix(ctx, sw.Scenario, seed)
		if err != nil {
			return warnings, err
		}
		g, err := sw.gridOf(m, seed)
		if err != nil {
			return warnings, err
		}
		if was, ok := rmaxes[seed]; ok && g.rmax != nil && was != *g.rmax {
			return warnings, fmt.Errorf("%s: the rows of %s seed %d say R_max = %v, and its matrix gives %v now: they were not written by this sweep; pass --restart to start the file over, or -o another file",
				sw.Out, sw.Scenario.Name, seed, was, *g.rmax)
		}
		for _, ri := range mine {
			if err := ctx.Err(); err != nil {
				return warnings, err
			}
			ws, err := sw.unit(file, done, m, seed, g, ri)
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
func (sw Sweep) unit(w io.Writer, done map[RowKey]bool, m *sim.Matrix, seed uint64, g seedGrid, ri int) ([]string, error) {
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
