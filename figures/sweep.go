package figures

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/experiment"
	"github.com/cara-sim/cara/scenarios"
)

// stat is the mean over seeds of one quantity at one retraining cost and its 95 % t-interval
// (lo = hi = mean with one seed).
type stat struct{ r, mean, lo, hi float64 }

// axis places a scenario's rows on the retraining-cost axis. Rows of one grid for every seed are
// grouped by R. Rows of per-seed grids (--costs auto gives each seed its own over (0, its R_max],
// and so does cara reproduce) are grouped by the step of their seed's grid and drawn at the mean R
// of that step over the seeds: the mean and the band are then over like steps, not over whichever
// seed happens to have a cost at that R.
type axis struct {
	perSeed bool
	step    map[rowAt]int   // per-seed grids: a row's step in its seed's grid
	at      map[int]float64 // per-seed grids: where a step is drawn
	scales  string          // the R(t) the costs are factors of, if any
}

type rowAt struct {
	seed uint64
	r    float64
}

// newAxis reads the grids off rows of one scenario.
func newAxis(rows []experiment.SweepRow) axis {
	costs := map[uint64][]float64{}
	ax := axis{}
	for _, r := range rows {
		if !slices.Contains(costs[r.Seed], r.RetrainCost) {
			costs[r.Seed] = append(costs[r.Seed], r.RetrainCost)
		}
		if r.RetrainCostScales != "" {
			ax.scales = r.RetrainCostScales
		}
	}
	var first []float64
	same, sameLen := true, true
	for _, c := range costs {
		slices.Sort(c)
		if first == nil {
			first = c
		}
		same = same && slices.Equal(c, first)
		sameLen = sameLen && len(c) == len(first)
	}
	// A sweep's rows say when each seed has its own grid; rows without (cara reproduce's, an
	// older cara's) are taken as per-seed grids when the seeds' costs differ but not their count.
	recorded := len(rows) > 0 && rows[0].Sweep != nil && rows[0].Sweep.RMax != nil
	if same || (!recorded && !sameLen) {
		return ax
	}
	ax.perSeed, ax.step, ax.at = true, map[rowAt]int{}, map[int]float64{}
	n := map[int]int{}
	for seed, c := range costs {
		grid := c
		for _, r := range rows {
			if r.Seed == seed && r.Sweep != nil && r.Sweep.RMax != nil {
				if spec, err := experiment.ParseCosts(r.Sweep.Costs); err == nil {
					grid, _ = spec.Grid([]float64{*r.Sweep.RMax}, 0)
				}
				break
			}
		}
		for _, r := range c {
			i := slices.Index(grid, r)
			if i < 0 {
				continue // not on the seed's grid: left out rather than drawn at a wrong step
			}
			ax.step[rowAt{seed, r}] = i
			ax.at[i] += r
			n[i]++
		}
	}
	for i := range ax.at {
		ax.at[i] /= float64(n[i])
	}
	return ax
}

// place is where row goes: its group and the R it is drawn at; ok is false for a row of a
// per-seed grid that is not on its seed's grid.
func (ax axis) place(row experiment.SweepRow) (group, r float64, ok bool) {
	if !ax.perSeed {
		return row.RetrainCost, row.RetrainCost, true
	}
	i, ok := ax.step[rowAt{row.Seed, row.RetrainCost}]
	return float64(i), ax.at[i], ok
}

// label is the axis's title.
func (ax axis) label() string {
	switch {
	case ax.scales != "":
		expr, _ := scenarios.CleanText(ax.scales, false)
		if r := []rune(expr); len(r) > 40 {
			expr = string(r[:39]) + "…"
		}
		return fmt.Sprintf("factor c of R(t): R_t = c (%s)", expr)
	case ax.perSeed:
		return "retraining cost R (mean over the seeds' own grids)"
	}
	return "retraining cost R (staleness units)"
}

// series groups rows of one algorithm along ax and summarises value over seeds, skipping
// undefined values. Costs come out ascending.
func series(rows []experiment.SweepRow, ax axis, value func(experiment.SweepRow) (float64, bool)) []stat {
	byR := map[float64][]float64{}
	at := map[float64]float64{}
	for _, row := range rows {
		g, r, ok := ax.place(row)
		if v, defined := value(row); ok && defined && !math.IsInf(v, 0) && !math.IsNaN(v) {
			byR[g] = append(byR[g], v)
			at[g] = r
		}
	}
	out := make([]stat, 0, len(byR))
	for g, vs := range byR {
		s := stat{r: at[g]}
		for _, v := range vs {
			s.mean += v / float64(len(vs))
		}
		s.lo, s.hi = s.mean, s.mean
		if h := experiment.HalfWidth95(vs); !math.IsNaN(h) {
			s.lo, s.hi = s.mean-h, s.mean+h
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].r < out[j].r })
	return out
}

// addSeries draws a mean line with a translucent band for its 95 % interval over seeds.
func addSeries(p *plot.Plot, name algos.Name, drawn []algos.Name, st []stat, legend bool) error {
	if len(st) == 0 {
		return nil
	}
	c := algoColor(name)
	mean := make(plotter.XYs, len(st))
	band := make(plotter.XYs, 0, 2*len(st))
	for i, s := range st {
		mean[i] = plotter.XY{X: s.r, Y: s.mean}
		band = append(band, plotter.XY{X: s.r, Y: s.hi})
	}
	for i := len(st) - 1; i >= 0; i-- {
		band = append(band, plotter.XY{X: st[i].r, Y: st[i].lo})
	}
	poly, err := plotter.NewPolygon(band)
	if err != nil {
		return err
	}
	r, g, b, _ := c.RGBA()
	poly.Color = rgba(r, g, b, 50)
	poly.LineStyle.Width = 0
	line, err := plotter.NewLine(mean)
	if err != nil {
		return err
	}
	line.Color = c
	line.Width = vg.Points(1.5)
	line.Dashes = dashesOf(name, drawn)
	p.Add(poly, line)
	if legend {
		p.Legend.Add(name.Display(), line)
	}
	return nil
}

// SweepFigures draws, for each scenario in rows, the strategy cost, retrain count and query
// accuracy against R (one line per algorithm, the mean over seeds with a band for the spread:
// the paper's figures 5 and 6) as "<scenario>-sweep", and the CARA variants' tuned parameters
// against R (figure 4b) as "<scenario>-params". It returns the files written.
func SweepFigures(rows []experiment.SweepRow, dir string, f Format) ([]string, error) {
	byScenario := map[string][]experiment.SweepRow{}
	var order []string
	for _, row := range rows {
		if _, ok := byScenario[row.Scenario]; !ok {
			order = append(order, row.Scenario)
		}
		byScenario[row.Scenario] = append(byScenario[row.Scenario], row)
	}
	var files []string
	for _, sc := range order {
		sweep, params, err := scenarioSweep(sc, byScenario[sc])
		if err != nil {
			return files, fmt.Errorf("%s: %w", sc, err)
		}
		paths, err := grid(sweep, takeLegend(sweep[0][0]), 16*vg.Centimeter, 24*vg.Centimeter, dir, sc+"-sweep", f)
		files = append(files, paths...)
		if err != nil {
			return files, err
		}
		paths, err = grid(params, nil, 16*vg.Centimeter, 20*vg.Centimeter, dir, sc+"-params", f)
		files = append(files, paths...)
		if err != nil {
			return files, err
		}
	}
	return files, nil
}

func scenarioSweep(sc string, rows []experiment.SweepRow) (sweep, params [][]*plot.Plot, err error) {
	ax := newAxis(rows)
	byAlgo := map[algos.Name][]experiment.SweepRow{}
	var names []algos.Name
	for _, row := range rows {
		if _, ok := byAlgo[row.Algorithm]; !ok {
			names = append(names, row.Algorithm)
		}
		byAlgo[row.Algorithm] = append(byAlgo[row.Algorithm], row)
	}
	slices.SortStableFunc(names, func(a, b algos.Name) int { return a.Rank() - b.Rank() })

	inf := math.Inf(1)
	panels := []struct {
		title, ylabel string
		value         func(experiment.SweepRow) (float64, bool)
		lo, hi        float64 // where the quantity, and so its band, can lie
	}{
		{"Strategy cost", "strategy cost (staleness units)", func(r experiment.SweepRow) (float64, bool) { return float64(r.StrategyCost), true }, -inf, inf},
		{"Retrains", "RETRAIN decisions (count)", func(r experiment.SweepRow) (float64, bool) { return float64(r.Retrains), true }, 0, inf},
		{"Query accuracy", "prequential query accuracy (fraction)", func(r experiment.SweepRow) (float64, bool) {
			return float64(r.QueryAccuracy), r.QueryAccuracy.Defined()
		}, 0, 1},
	}
	seeds := map[uint64]bool{}
	for _, row := range rows {
		seeds[row.Seed] = true
	}
	band := "one seed: no band"
	if len(seeds) > 1 {
		band = fmt.Sprintf("mean over %d seeds, band: its 95 %% t-interval", len(seeds))
	}
	for i, pn := range panels {
		title := fmt.Sprintf("%s: %s against retraining cost", sc, pn.title)
		if i == 0 {
			title += "\n" + band
		}
		p := newPlot(title, ax.label(), pn.ylabel)
		for _, a := range names {
			st := series(byAlgo[a], ax, pn.value)
			for k := range st {
				st[k].lo, st[k].hi = max(st[k].lo, pn.lo), min(st[k].hi, pn.hi)
			}
			if err := addSeries(p, a, names, st, i == 0); err != nil {
				return nil, nil, err
			}
		}
		if pn.hi == 1 {
			clampAxis(&p.Y, pn.lo, pn.hi, 0.1)
		}
		startAtZero(p)
		sweep = append(sweep, []*plot.Plot{p})
	}

	paramPanels := []struct {
		algo               algos.Name
		key, title, ylabel string
	}{
		{algos.NameCaraT, "theta", "CARA-T threshold", "theta (staleness units)"},
		{algos.NameCaraCT, "theta_c", "CARA-CT cumulative threshold", "theta_c (staleness units)"},
		{algos.NameCaraP, "period", "CARA-P period", "period p (batches)"},
	}
	for _, pp := range paramPanels {
		p := newPlot(fmt.Sprintf("%s: tuned %s against retraining cost", sc, pp.title), ax.label(), pp.ylabel)
		key := pp.key
		st := series(byAlgo[pp.algo], ax, func(r experiment.SweepRow) (float64, bool) {
			v, ok := r.Params[key]
			return float64(v), ok && v.Defined()
		})
		if err := addSeries(p, pp.algo, nil, st, false); err != nil { // the title names it
			return nil, nil, err
		}
		startAtZero(p)
		params = append(params, []*plot.Plot{p})
	}
	return sweep, params, nil
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.X.Tick.Marker, p.Y.Tick.Marker = roundTicks{}, roundTicks{}
	p.Add(plotter.NewGrid())
	return p
}

// clampAxis keeps an axis within [lo, hi] (an accuracy's [0, 1]), at least span wide: gonum
// widens a flat range by 1 either side (accuracies of 1 everywhere drew an axis from 0 to 2).
func clampAxis(a *plot.Axis, lo, hi, span float64) {
	a.Min, a.Max = max(a.Min, lo), min(a.Max, hi)
	if a.Max-a.Min < span {
		a.Min = max(lo, a.Max-span)
		a.Max = min(hi, a.Min+span)
	}
}

// startAtZero starts a cost axis at 0: the grid is (0, R_max], and round ticks then start at 0.
func startAtZero(p *plot.Plot) { p.X.Min = min(p.X.Min, 0) }
