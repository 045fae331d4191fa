package figures

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// SweepRow is one line of a sweep file (`cara sweep -o results.jsonl`): one algorithm at one
// retraining cost and seed. Undefined numbers (SCPE when the Oracle's cost is 0, accuracy without
// query labels, an unbounded threshold) are null.
type SweepRow struct {
	Scenario       string              `json:"scenario"`
	Seed           uint64              `json:"seed"`
	RetrainCost    float64             `json:"retrain_cost"`
	Algorithm      string              `json:"algorithm"`
	StrategyCost   float64             `json:"strategy_cost"`
	SCPE           *float64            `json:"scpe"`
	Gap            float64             `json:"gap"`
	QueryAccuracy  *float64            `json:"query_accuracy"`
	Retrains       int                 `json:"retrains"`
	RetrainBatches []int               `json:"retrain_batches"`
	Params         map[string]*float64 `json:"params"`
	OfflineCost    *float64            `json:"offline_cost"`
}

// ReadSweep reads a sweep file. name is used in errors ("results.jsonl:7: ..."); blank lines are
// skipped; a malformed line is an error naming it.
func ReadSweep(r io.Reader, name string) ([]SweepRow, error) {
	var rows []SweepRow
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var row SweepRow
		if err := json.Unmarshal(b, &row); err != nil {
			return nil, fmt.Errorf("%s:%d: not a sweep line: %v", name, line, err)
		}
		if row.Scenario == "" || row.Algorithm == "" {
			return nil, fmt.Errorf("%s:%d: not a sweep line: scenario and algorithm are required", name, line)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no sweep lines", name)
	}
	return rows, nil
}

// stat is the mean and the range over seeds of one quantity at one retraining cost.
type stat struct{ r, mean, lo, hi float64 }

// series groups rows of one algorithm by retraining cost and summarises value over seeds, skipping
// undefined values. Costs come out ascending.
func series(rows []SweepRow, value func(SweepRow) (float64, bool)) []stat {
	byR := map[float64][]float64{}
	for _, row := range rows {
		if v, ok := value(row); ok && !math.IsInf(v, 0) && !math.IsNaN(v) {
			byR[row.RetrainCost] = append(byR[row.RetrainCost], v)
		}
	}
	out := make([]stat, 0, len(byR))
	for r, vs := range byR {
		s := stat{r: r, lo: math.Inf(1), hi: math.Inf(-1)}
		for _, v := range vs {
			s.mean += v / float64(len(vs))
			s.lo, s.hi = min(s.lo, v), max(s.hi, v)
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].r < out[j].r })
	return out
}

// addSeries draws a mean line with a translucent band for the spread over seeds.
func addSeries(p *plot.Plot, name string, st []stat, legend bool) error {
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
	p.Add(poly, line)
	if legend {
		p.Legend.Add(displayName(name), line)
	}
	return nil
}

// SweepFigures draws, for each scenario in rows, the strategy cost, retrain count and query
// accuracy against R (one line per algorithm, the mean over seeds with a band for the spread:
// the paper's figures 5 and 6) as "<scenario>-sweep", and the CARA variants' tuned parameters
// against R (figure 4b) as "<scenario>-params". It returns the files written.
func SweepFigures(rows []SweepRow, dir string, f Format) ([]string, error) {
	byScenario := map[string][]SweepRow{}
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
		path, err := grid(sweep, 16*vg.Centimeter, 24*vg.Centimeter, dir, sc+"-sweep", f)
		if err != nil {
			return files, err
		}
		files = append(files, path)
		if path, err = grid(params, 16*vg.Centimeter, 20*vg.Centimeter, dir, sc+"-params", f); err != nil {
			return files, err
		}
		files = append(files, path)
	}
	return files, nil
}

func scenarioSweep(sc string, rows []SweepRow) (sweep, params [][]*plot.Plot, err error) {
	byAlgo := map[string][]SweepRow{}
	var algos []string
	for _, row := range rows {
		if _, ok := byAlgo[row.Algorithm]; !ok {
			algos = append(algos, row.Algorithm)
		}
		byAlgo[row.Algorithm] = append(byAlgo[row.Algorithm], row)
	}
	slices.SortStableFunc(algos, func(a, b string) int { return algoRank(a) - algoRank(b) })

	panels := []struct {
		title, ylabel string
		value         func(SweepRow) (float64, bool)
	}{
		{"Strategy cost", "strategy cost (staleness units)", func(r SweepRow) (float64, bool) { return r.StrategyCost, true }},
		{"Retrains", "RETRAIN decisions (count)", func(r SweepRow) (float64, bool) { return float64(r.Retrains), true }},
		{"Query accuracy", "prequential query accuracy (fraction)", func(r SweepRow) (float64, bool) {
			if r.QueryAccuracy == nil {
				return 0, false
			}
			return *r.QueryAccuracy, true
		}},
	}
	for i, pn := range panels {
		p := newPlot(fmt.Sprintf("%s: %s against retraining cost", sc, pn.title), "retraining cost R (staleness units)", pn.ylabel)
		for _, a := range algos {
			if err := addSeries(p, a, series(byAlgo[a], pn.value), i == 0); err != nil {
				return nil, nil, err
			}
		}
		sweep = append(sweep, []*plot.Plot{p})
	}

	paramPanels := []struct{ algo, key, title, ylabel string }{
		{"cara-t", "theta", "CARA-T threshold", "theta (staleness units)"},
		{"cara-ct", "theta_c", "CARA-CT cumulative threshold", "theta_c (staleness units)"},
		{"cara-p", "period", "CARA-P period", "period p (batches)"},
	}
	for _, pp := range paramPanels {
		p := newPlot(fmt.Sprintf("%s: tuned %s against retraining cost", sc, pp.title), "retraining cost R (staleness units)", pp.ylabel)
		key := pp.key
		st := series(byAlgo[pp.algo], func(r SweepRow) (float64, bool) {
			v, ok := r.Params[key]
			if !ok || v == nil {
				return 0, false
			}
			return *v, true
		})
		if err := addSeries(p, pp.algo, st, true); err != nil {
			return nil, nil, err
		}
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
	p.Add(plotter.NewGrid())
	return p
}
