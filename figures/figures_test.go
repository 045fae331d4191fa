package figures

import (
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/experiment"
	"github.com/cara-sim/cara/sim"
)

// smallMatrix is a hand-filled 8-batch matrix (3 offline) with a block of high staleness for
// model 0 after batch 4, so the strategies drawn on it differ.
func smallMatrix() *sim.Matrix {
	m := sim.NewMatrix(8, 3)
	m.Scenario = "small"
	rng := rand.New(rand.NewPCG(1, 2))
	for t := 0; t < m.Batches(); t++ {
		for tp := 0; tp <= t; tp++ {
			c := sim.Cell{A: rng.Float64(), QueryAccuracy: 0.9, Errors: algos.NewBits(10)}
			if tp == 0 && t > 4 {
				c.A += 5
			}
			if tp == t {
				c.A = 0
			}
			m.Set(tp, t, c)
		}
	}
	return m
}

func checkPNG(t *testing.T, path string, minW, minH int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s does not decode as PNG: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() < minW || b.Dy() < minH {
		t.Errorf("%s is %dx%d, want at least %dx%d", path, b.Dx(), b.Dy(), minW, minH)
	}
}

func checkSVG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := xml.NewDecoder(f)
	root := ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s does not parse as XML: %v", path, err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Errorf("%s: root element %q, want svg", path, root)
	}
}

func TestMatrixAndCumulativeFigures(t *testing.T) {
	m := smallMatrix()
	r := algos.Constant(2)
	c := algos.Costs{M: m, R: r}
	oracle := algos.Oracle(c, m.Offline(), m.Batches()-1)
	dir := t.TempDir()
	for _, f := range []Format{PNG, SVG} {
		path, err := MatrixFigure(m, r, []Path{{"oracle", oracle}}, dir, "matrix", f)
		if err != nil {
			t.Fatal(err)
		}
		cum, err := CumulativeFigure("small", 2, []algos.Result{{Algorithm: "oracle", Strategy: oracle}}, dir, "cumulative", f)
		if err != nil {
			t.Fatal(err)
		}
		if f == PNG {
			// 22 cm at vgimg's default 96 dpi is about 831 pixels; an SVG beside each PNG.
			if len(path) != 2 || len(cum) != 2 {
				t.Fatalf("PNG: files %v and %v, want a PNG and its SVG each", path, cum)
			}
			checkPNG(t, path[0], 800, 580)
			checkPNG(t, cum[0], 650, 430)
			checkSVG(t, path[1])
			checkSVG(t, cum[1])
		} else {
			if len(path) != 1 || len(cum) != 1 {
				t.Fatalf("SVG: files %v and %v, want one each", path, cum)
			}
			checkSVG(t, path[0])
			checkSVG(t, cum[0])
		}
	}
}

func TestCostGrid(t *testing.T) {
	m := smallMatrix()
	g := costGrid{m, algos.Constant(7)}
	if v := g.Z(2, 2); v != 7 {
		t.Errorf("diagonal = %v, want R = 7", v)
	}
	if v := g.Z(1, 3); !math.IsNaN(v) {
		t.Errorf("below the diagonal = %v, want NaN", v)
	}
	if v, want := g.Z(5, 0), m.Cell(0, 5).A-m.Cell(0, 5).B; v != want {
		t.Errorf("C[0,5] = %v, want A-B = %v", v, want)
	}
}

const sweepLines = `{"scenario":"s","seed":1,"retrain_cost":1,"algorithm":"oracle","strategy_cost":3,"scpe":0,"gap":0,"query_accuracy":0.9,"retrains":2,"retrain_batches":[4,6],"params":null,"offline_cost":null}
{"scenario":"s","seed":2,"retrain_cost":1,"algorithm":"oracle","strategy_cost":5,"scpe":0,"gap":0,"query_accuracy":0.8,"retrains":1,"retrain_batches":[4],"params":null,"offline_cost":null}
{"scenario":"s","seed":1,"retrain_cost":2,"algorithm":"cara-t","strategy_cost":6,"scpe":20,"gap":1,"query_accuracy":null,"retrains":1,"retrain_batches":[5],"params":{"theta":1.5},"offline_cost":4}
{"scenario":"s","seed":1,"retrain_cost":3,"algorithm":"cara-t","strategy_cost":7,"scpe":null,"gap":1,"query_accuracy":0.7,"retrains":0,"retrain_batches":[],"params":{"theta":null},"offline_cost":4}
`

func sweepRows(t *testing.T) []experiment.SweepRow {
	t.Helper()
	rows, _, err := experiment.ReadRows(strings.NewReader(sweepLines), "results.jsonl", false)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// t1 is t(0.975, 1), scipy.stats.t.ppf's: a band over two seeds is the mean ± t1 |a - b| / 2.
const t1 = 12.706204736432095

func near(a, b stat) bool {
	c := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(y)) }
	return c(a.r, b.r) && c(a.mean, b.mean) && c(a.lo, b.lo) && c(a.hi, b.hi)
}

func nearAll(a, b []stat) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !near(a[i], b[i]) {
			return false
		}
	}
	return true
}

func TestSeries(t *testing.T) {
	rows := sweepRows(t)
	// The Oracle at R = 1 over seeds 1 and 2: mean (3+5)/2 = 4, its 95 % t-interval 4 ± t(0.975, 1)
	// s / sqrt(2) with s = sqrt(2): 4 ± 12.7062 (scipy.stats.t.ppf).
	st := series(rows[:2], newAxis(rows), func(r experiment.SweepRow) (float64, bool) { return float64(r.StrategyCost), true })
	if len(st) != 1 || !near(st[0], stat{r: 1, mean: 4, lo: 4 - t1, hi: 4 + t1}) {
		t.Errorf("series = %+v, want one stat {1 4 %v %v}", st, 4-t1, 4+t1)
	}
	// One seed: no band.
	if st := series(rows[:1], newAxis(rows[:1]), func(r experiment.SweepRow) (float64, bool) { return float64(r.StrategyCost), true }); len(st) != 1 || st[0] != (stat{r: 1, mean: 3, lo: 3, hi: 3}) {
		t.Errorf("one seed: %+v", st)
	}
	// An unbounded threshold (null) is left out rather than drawn at infinity.
	th := series(rows[2:], newAxis(rows), func(r experiment.SweepRow) (float64, bool) {
		v, ok := r.Params["theta"]
		return float64(v), ok && v.Defined()
	})
	if len(th) != 1 || th[0].r != 2 {
		t.Errorf("theta series = %+v, want only R = 2", th)
	}
}

// Each seed its own grid (--costs auto): the mean and band are over the seeds at one step of their
// grids, drawn at the mean R of that step, whether the rows record the grid (a sweep's) or not
// (cara reproduce's); rows of one grid stay grouped by R, and factors of R(t) say so.
func TestSeriesPerSeedGrids(t *testing.T) {
	row := func(seed uint64, r, rmax, cost float64) experiment.SweepRow {
		return experiment.SweepRow{Scenario: "s", Seed: seed, RetrainCost: r, Algorithm: algos.NameOracle, StrategyCost: experiment.Num(cost),
			Sweep: &experiment.SweepOf{Costs: "auto:2", Seeds: 2, RMax: &rmax}}
	}
	// Seed 0: R_max 2, costs 1 and 2; seed 1: R_max 4, costs 2 and 4.
	rows := []experiment.SweepRow{row(0, 1, 2, 10), row(0, 2, 2, 20), row(1, 2, 4, 30), row(1, 4, 4, 50)}
	cost := func(r experiment.SweepRow) (float64, bool) { return float64(r.StrategyCost), true }
	want := []stat{{r: 1.5, mean: 20, lo: 20 - 10*t1, hi: 20 + 10*t1}, {r: 3, mean: 35, lo: 35 - 15*t1, hi: 35 + 15*t1}}
	ax := newAxis(rows)
	if got := series(rows, ax, cost); !ax.perSeed || !nearAll(got, want) {
		t.Errorf("recorded grids: %+v, want %+v", got, want)
	}
	for i := range rows {
		rows[i].Sweep = nil
	}
	if got := series(rows, newAxis(rows), cost); !nearAll(got, want) {
		t.Errorf("unrecorded grids of one length: %+v, want %+v", got, want)
	}
	// One grid for both seeds: by R, as before (seed 1's R = 2 and seed 0's together).
	rows[3].RetrainCost, rows[0].RetrainCost = 1, 2
	rows[1].RetrainCost = 1
	if got := series(rows, newAxis(rows), cost); len(got) != 2 || !near(got[0], stat{r: 1, mean: 35, lo: 35 - 15*t1, hi: 35 + 15*t1}) {
		t.Errorf("one grid: %+v", got)
	}
	rows[0].RetrainCostScales = "1 + t\x1b"
	if got := newAxis(rows).label(); got != `factor c of R(t): R_t = c (1 + t\x1b)` {
		t.Errorf("label %q", got)
	}
}

func TestSweepFigures(t *testing.T) {
	rows := sweepRows(t)
	dir := t.TempDir()
	files, err := SweepFigures(rows, dir, PNG)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "s-sweep.png"), filepath.Join(dir, "s-sweep.svg"), filepath.Join(dir, "s-params.png"), filepath.Join(dir, "s-params.svg")}
	if strings.Join(files, ",") != strings.Join(want, ",") {
		t.Fatalf("files = %v, want %v", files, want)
	}
	for _, f := range files {
		if strings.HasSuffix(f, ".png") {
			checkPNG(t, f, 500, 500)
		} else {
			checkSVG(t, f)
		}
	}
}

func TestBatchesFigure(t *testing.T) {
	b := &sim.Batch{T: 3, X: sim.Points{D: 2, V: []float64{0, 0, 1, 1, 0.5, 0.2}}, Y: []uint8{0, 1, 1},
		Q: sim.Points{D: 2, V: []float64{0.4, 0.4}}}
	errs := algos.NewBits(3)
	errs.Set(2)
	dir := t.TempDir()
	path, err := BatchesFigure("small", []BatchFrame{{Batch: b, Model: 1, Errors: errs}}, dir, "batches", SVG)
	if err != nil {
		t.Fatal(err)
	}
	checkSVG(t, path[0])
	one := &sim.Batch{T: 0, X: sim.Points{D: 1, V: []float64{0}}, Y: []uint8{0}}
	if _, err := BatchesFigure("line", []BatchFrame{{Batch: one}}, dir, "x", PNG); err == nil || !strings.Contains(err.Error(), "at least 2 features") {
		t.Errorf("1-D batch: error = %v, want a clear refusal", err)
	}
}
