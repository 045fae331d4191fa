package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/experiment"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// caraIO runs the CLI in-process and returns stdout, stderr and the error.
func caraIO(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return out.String(), errOut.String(), err
}

// cara runs the CLI in-process and returns stdout and the error.
func cara(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, _, err := caraIO(t, args...)
	return out, err
}

const small = "testdata/small.yaml"

func decodeStrict(t *testing.T, s string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("output does not match the contract: %v\n%s", err, s)
	}
}

func TestMatrixJSONContract(t *testing.T) {
	t.Parallel()
	out, err := cara(t, "matrix", small, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Scenario      string       `json:"scenario"`
		Batches       int          `json:"batches"`
		Offline       int          `json:"offline"`
		Gamma         float64      `json:"gamma"`
		A             [][]*float64 `json:"A"`
		B             [][]*float64 `json:"B"`
		C             [][]*float64 `json:"C"`
		ErrorRate     [][]*float64 `json:"error_rate"`
		QueryAccuracy [][]*float64 `json:"query_accuracy"`
		Drifts        []struct {
			From, To int
			Kind     string
		} `json:"drifts"`
		Warnings []string `json:"warnings"`
	}
	decodeStrict(t, out, &m)
	// A nearest-centroid model fits its own batch little better than the next: many cells of C
	// are negative, and the warning gives their share, counted here from C itself.
	neg, all := 0, 0
	for tp := range m.C {
		for tt := tp + 1; tt < len(m.C); tt++ {
			if tp < m.Offline && tt >= m.Offline && !(tp == m.Offline-1 && tt == m.Offline) {
				continue // a cell across the blocks: no algorithm reads it, and run does not compute it
			}
			all++
			if *m.C[tp][tt] < 0 {
				neg++
			}
		}
	}
	want := fmt.Sprintf("%.0f %% of the off-diagonal cells of C (within the offline block and within the online block) are negative", 100*float64(neg)/float64(all))
	if 4*neg <= all || len(m.Warnings) != 1 || !strings.HasPrefix(m.Warnings[0], want) {
		t.Errorf("warnings %q, want one starting %q (%d of %d negative)", m.Warnings, want, neg, all)
	}
	// Issue 26, item 5: run (which skips the cells across the blocks) gives the same share.
	run, err := cara(t, "run", small, "--format", "json")
	if err != nil || !strings.Contains(run, want) {
		t.Errorf("run's warning is not %q: %v\n%s", want, err, run)
	}
	if m.Scenario != "small" || m.Batches != 12 || m.Offline != 4 || !(m.Gamma > 0) {
		t.Fatalf("header: %+v", m)
	}
	for _, g := range [][][]*float64{m.A, m.B, m.C, m.ErrorRate, m.QueryAccuracy} {
		if len(g) != 12 || len(g[0]) != 12 {
			t.Fatalf("matrix is %dx%d, want 12x12", len(g), len(g[0]))
		}
	}
	for tp := range 12 {
		for tt := range 12 {
			defined := m.C[tp][tt] != nil
			if defined != (tp <= tt) {
				t.Fatalf("C[%d][%d] defined=%v", tp, tt, defined)
			}
			if tp < tt && math.Abs(*m.C[tp][tt]-(*m.A[tp][tt]-*m.B[tp][tt])) > 1e-12 {
				t.Fatalf("C != A - B at [%d][%d]", tp, tt)
			}
		}
		if *m.C[tp][tp] != 0.5 {
			t.Errorf("C's diagonal holds %v, want R = 0.5", *m.C[tp][tp])
		}
	}
	if len(m.Drifts) != 1 || m.Drifts[0].From != 6 {
		t.Errorf("drifts %+v, want one at 6", m.Drifts)
	}
}

type resultContract struct {
	Algorithm     string              `json:"algorithm"`
	StrategyCost  *float64            `json:"strategy_cost"`
	SCPE          *float64            `json:"scpe"`
	Gap           *float64            `json:"gap"`
	QueryAccuracy *float64            `json:"query_accuracy"`
	Retrains      []int               `json:"retrains"`
	RetrainCount  float64             `json:"retrain_count"`
	Params        map[string]*float64 `json:"params"`
	OfflineCost   *float64            `json:"offline_cost"`
	Optimal       map[string]*float64 `json:"optimal"`
	Spread        map[string]*float64 `json:"spread"`
	CI95          map[string]*float64 `json:"ci95"`
	Alarms        []int               `json:"alarms"`
	Detection     *detectionContract  `json:"detection"`
}

type detectionContract struct {
	Window int `json:"window"`
	Drifts []struct {
		From   int  `json:"from"`
		To     int  `json:"to"`
		Alarm  *int `json:"alarm"`
		Delay  *int `json:"delay"`
		Points *int `json:"delay_points"`
	} `json:"drifts"`
	FalseAlarms []int    `json:"false_alarms"`
	Detected    float64  `json:"detected"`
	Missed      float64  `json:"missed"`
	FalseCount  float64  `json:"false_alarm_count"`
	MeanDelay   *float64 `json:"mean_delay"`
	MeanPoints  *float64 `json:"mean_delay_points"`
}

type driftContract struct {
	From int    `json:"from"`
	To   int    `json:"to"`
	Kind string `json:"kind"`
}

type runContract struct {
	Scenario    string          `json:"scenario"`
	RetrainCost any             `json:"retrain_cost"`
	Seeds       []uint64        `json:"seeds"`
	Warnings    []string        `json:"warnings"`
	Drifts      []driftContract `json:"drifts"`
	Runs        []struct {
		Seed     uint64           `json:"seed"`
		Warnings []string         `json:"warnings"`
		Drifts   []driftContract  `json:"drifts"`
		Results  []resultContract `json:"results"`
	} `json:"runs"`
	Results []resultContract `json:"results"`
}

func TestRunJSONContract(t *testing.T) {
	t.Parallel()
	out, err := cara(t, "run", small, "--format", "json", "-R", "0.8")
	if err != nil {
		t.Fatal(err)
	}
	var r runContract
	decodeStrict(t, out, &r)
	if r.Scenario != "small" || r.RetrainCost != 0.8 || !slices.Equal(r.Seeds, []uint64{3}) || r.Runs != nil {
		t.Fatalf("header: %+v", r)
	}
	if len(r.Results) != 9 || r.Results[0].Algorithm != "oracle" || *r.Results[0].SCPE != 0 {
		t.Fatalf("results: %+v", r.Results)
	}
	oracle := *r.Results[0].StrategyCost
	for _, x := range r.Results {
		if *x.StrategyCost < oracle-1e-9 || len(x.Retrains) != int(x.RetrainCount) {
			t.Errorf("%s: cost %v (Oracle %v), retrains %v count %v", x.Algorithm, *x.StrategyCost, oracle, x.Retrains, x.RetrainCount)
		}
	}
	if r.Results[1].Params["theta"] == nil && r.Results[1].OfflineCost == nil {
		t.Error("CARA-T has neither a tuned theta nor an offline cost")
	}

	out, err = cara(t, "run", small, "--format", "json", "--seeds", "3")
	if err != nil {
		t.Fatal(err)
	}
	var multi runContract
	decodeStrict(t, out, &multi)
	if len(multi.Runs) != 3 || !slices.Equal(multi.Seeds, []uint64{3, 4, 5}) || multi.Results[0].Spread == nil {
		t.Fatalf("several seeds: runs %d seeds %v", len(multi.Runs), multi.Seeds)
	}
	// The mean is the mean of the runs.
	sum := 0.0
	for _, run := range multi.Runs {
		sum += *run.Results[2].StrategyCost
	}
	if got := *multi.Results[2].StrategyCost; math.Abs(got-sum/3) > 1e-9 {
		t.Errorf("mean strategy cost %v, runs average %v", got, sum/3)
	}
	// Its 95 % interval: t(0.975, 2) (scipy.stats.t.ppf: 4.302652729911275) times the sample
	// standard deviation over sqrt(3).
	ss := 0.0
	for _, run := range multi.Runs {
		ss += math.Pow(*run.Results[2].StrategyCost-sum/3, 2)
	}
	if got, want := *multi.Results[2].CI95["strategy_cost"], 4.302652729911275*math.Sqrt(ss/2)/math.Sqrt(3); math.Abs(got-want) > 1e-9*want {
		t.Errorf("ci95 of the strategy cost %v, want %v", got, want)
	}
	// Means carry no retrain batches (each run has its own); theta is the mean of the runs';
	// CARA-P's period and offset appear only when every seed chose the same.
	for _, r := range multi.Results {
		if r.Retrains != nil {
			t.Errorf("%s: mean has retrains %v", r.Algorithm, r.Retrains)
		}
	}
	theta := 0.0
	for _, run := range multi.Runs {
		if v := run.Results[1].Params["theta"]; v != nil {
			theta += *v / 3
		} else {
			theta = math.Inf(1) // null stands for +Inf
		}
	}
	if got := multi.Results[1].Params["theta"]; got == nil && !math.IsInf(theta, 1) || got != nil && math.Abs(*got-theta) > 1e-9 {
		t.Errorf("mean theta %v, want %v", got, theta)
	}
	p0 := multi.Runs[0].Results[3].Params
	same := true
	for _, run := range multi.Runs {
		p := run.Results[3].Params
		same = same && fmt.Sprint(p["period"]) == fmt.Sprint(p0["period"]) && fmt.Sprint(p["offset"]) == fmt.Sprint(p0["offset"])
	}
	_, has := multi.Results[3].Params["period"]
	if has != same {
		t.Errorf("CARA-P mean params %v; every seed the same: %v", multi.Results[3].Params, same)
	}
}

func TestRunTableShowsUndefinedSCPE(t *testing.T) {
	t.Parallel()
	// R = 0 on a scenario whose staleness can be 0: whatever the Oracle pays, the table must not
	// print NaN.
	out, err := cara(t, "run", small, "-R", "0")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "NaN") || !strings.Contains(out, "Oracle") {
		t.Errorf("table:\n%s", out)
	}
}

func readLines(t *testing.T, path string) []experiment.SweepRow {
	t.Helper()
	rows, err := readSweepFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestSweepResumeShardMerge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	full := filepath.Join(dir, "full.jsonl")
	if _, err := cara(t, "sweep", small, "--costs", "0.1:2:4", "--seeds", "2", "-o", full); err != nil {
		t.Fatal(err)
	}
	rows := readLines(t, full)
	if len(rows) != 2*4*9 {
		t.Fatalf("%d rows, want 2 seeds x 4 costs x 9 algorithms = 72", len(rows))
	}
	// Resume: cut the file after 20 rows and half of the 21st, run again: the torn line goes,
	// the 20 stay, the rest comes back, nothing twice.
	b, _ := os.ReadFile(full)
	lines := strings.SplitAfter(string(b), "\n")
	partial := filepath.Join(dir, "partial.jsonl")
	os.WriteFile(partial, []byte(strings.Join(lines[:20], "")+lines[20][:len(lines[20])/2]), 0o644)
	if _, err := cara(t, "sweep", small, "--costs", "0.1:2:4", "--seeds", "2", "-o", partial); err != nil {
		t.Fatal(err)
	}
	resumed := readLines(t, partial)
	if len(resumed) != 72 {
		t.Fatalf("resumed file has %d rows, want 72", len(resumed))
	}
	experiment.SortRows(resumed)
	experiment.SortRows(rows)
	for i := range rows {
		if rows[i].Key() != resumed[i].Key() || rows[i].StrategyCost != resumed[i].StrategyCost {
			t.Fatalf("row %d differs after resume: %+v vs %+v", i, rows[i], resumed[i])
		}
	}
	// Shards: three disjoint parts that merge into the full sweep, byte for byte. Two seeds over
	// three shards: seed 3's costs are split over shards 1 and 3, and a note says both compute its
	// matrix.
	var parts []string
	seen := map[experiment.RowKey]int{}
	for i := 1; i <= 3; i++ {
		p := filepath.Join(dir, "part"+string(rune('0'+i))+".jsonl")
		_, errOut, err := caraIO(t, "sweep", small, "--costs", "0.1:2:4", "--seeds", "2", "--shard", string(rune('0'+i))+"/3", "-o", p)
		if err != nil {
			t.Fatal(err)
		}
		if note := "seed 3's 4 costs are split over shards 1, 3"; (i != 2) != strings.Contains(errOut, note) {
			t.Errorf("shard %d/3: stderr %q, want the note %q only on shards 1 and 3", i, errOut, note)
		}
		for _, r := range readLines(t, p) {
			seen[r.Key()]++
		}
		parts = append(parts, p)
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("%v in %d shards", k, n)
		}
	}
	if len(seen) != 72 {
		t.Errorf("shards cover %d rows, want 72", len(seen))
	}
	merged := filepath.Join(dir, "merged.jsonl")
	if _, err := cara(t, append([]string{"merge", "-o", merged}, append(parts, parts[0])...)...); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mustRead(t, merged), mustRead(t, full)) {
		t.Error("the merged shards differ from the whole sweep (duplicates should be dropped, rows sorted as the sweep writes them)")
	}
	// Without one shard the merge is refused, naming what is missing, unless --partial.
	_, err := cara(t, "merge", "-o", merged, parts[0], parts[2])
	if err == nil || !strings.Contains(err.Error(), "small (--costs 0.1:2:4, seeds 3 to 4 (--seed 3 --seeds 2)) lacks 36 of its 72 rows: seed 4 (all of it)") {
		t.Errorf("a merge without shard 2: %v", err)
	}
	if _, errOut, err := caraIO(t, "merge", "--partial", "-o", merged, parts[0], parts[2]); err != nil || !strings.Contains(errOut, "warning: incomplete: small") || len(readLines(t, merged)) != 36 {
		t.Errorf("--partial: %v %q", err, errOut)
	}
	// plot draws a part, and says it is one.
	if _, errOut, err := caraIO(t, "plot", parts[1], "-o", filepath.Join(dir, "figs")); err != nil || !strings.Contains(errOut, "incomplete: small (--costs 0.1:2:4, seeds 3 to 4 (--seed 3 --seeds 2)) lacks 36 of its 72 rows: seed 3 (all of it)") {
		t.Errorf("plot of one shard: %v %q", err, errOut)
	}
	// Two sweeps of one scenario over different grids: refused, naming both grids and files.
	other := filepath.Join(dir, "other.jsonl")
	if _, err := cara(t, "sweep", small, "--costs", "0.1:3:4", "--seeds", "2", "-o", other); err != nil {
		t.Fatal(err)
	}
	_, err = cara(t, "merge", "-o", merged, full, other)
	if want := "rows of small come from two sweeps, of different cost grids: --costs 0.1:2:4 in " + full + ", --costs 0.1:3:4 in " + other; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a merge of two grids: %v, want %q", err, want)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(lines[0]+"{not json\n"), 0o644)
	_, err = cara(t, "merge", "-o", merged, bad)
	if err == nil || !strings.Contains(err.Error(), "bad.jsonl:2: not a sweep line") {
		t.Errorf("malformed line: error %v", err)
	}
}

func TestFlagErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"sweep", small, "--costs", "1:2", "-o", "x"}, `--costs must be auto, auto:N or FROM:TO:N (e.g. 1:100:25), got "1:2"`},
		{[]string{"sweep", small, "--shard", "3/2", "-o", "x"}, `--shard must be I/N with 1 <= I <= N (e.g. 2/8), got "3/2"`},
		{[]string{"sweep", small, "--shard-index", "2/2", "-o", "x"}, `--shard-index must be K/N with 0 <= K < N (e.g. 0/8: the first of 8), got "2/2"`},
		{[]string{"sweep", small, "--shard", "1/2", "--shard-index", "0/2", "-o", "x"}, "--shard and --shard-index name the same thing; give one"},
		{[]string{"sweep", small}, "sweep needs -o FILE"},
		{[]string{"run", small, "--format", "xml"}, `--format must be table, csv, json or parquet, got "xml"`},
		{[]string{"run", small, "--trees", "5"}, "--trees 5 applies to a scenario with model.random_forest; this one's model is nearest_centroid"},
		{[]string{"run", small, "-R", "nan"}, "-R must be a number >= 0, got NaN"},
		{[]string{"run", small, "-R", "inf"}, "-R must be a number >= 0, got +Inf"},
		{[]string{"run", "no-such-scenario"}, `no scenario "no-such-scenario": not a file, and not an embedded scenario (circle-d`},
		{[]string{"run", small, "-R", "-1"}, "-R must be a number >= 0, got -1"},
		{[]string{"play", small}, "the terminal UI needs a terminal"},
		{[]string{"play", small, "--tour"}, "small has no tour; these have one: circle-d, covcon-d, covcon-s, gauss-d, scenario1-far, scenario1-near, scenario2"},
		{[]string{"serve", "--presenter-keys", "no-such-keys"}, "--presenter-keys: open no-such-keys: no such file or directory"},
		{[]string{"run", "covcon-d", "--max-work", "1e6"}, "covcon-d is too big for this machine's budget: 100 batches x 1000 points x 100 queries = 1e+07, over the limit of 1e+06; raise it with --max-work 1e+07"},
		// Issue 13, section 4.
		{[]string{"run", small, "--seed", "-1"}, "--seed must be a whole number >= 0, got -1"},
		{[]string{"run", small, "--workers", "-2"}, "--workers must be >= 0 (0: all cores), got -2"},
		{[]string{"run", small, "--max-work", "-5"}, "--max-work must be >= 0 (0: no limit), got -5"},
		{[]string{"matrix", small, "-o", os.TempDir()}, "-o " + os.TempDir() + " is a folder; give a file name"},
		{[]string{"matrix", small, "-o", filepath.Join(os.TempDir(), "no-such-folder-x", "m.json")}, "the folder " + filepath.Join(os.TempDir(), "no-such-folder-x") + " does not exist"},
		{[]string{"sweep", small, "-o", os.TempDir()}, "-o " + os.TempDir() + " is a folder"},
		{[]string{"merge", "-o", os.TempDir(), small}, "-o " + os.TempDir() + " is a folder"},
		{[]string{"run", small, "--detector-reset", "always"}, `--detector-reset must be never or on_retrain, got "always"`},
		// Issue 26.
		{[]string{"run", small, "--set", "name="}, "--set name: is required"},
		{[]string{"run", small, "--set", "batches="}, "--set batches: is required"},
		{[]string{"run"}, "run wants one SCENARIO|FILE, got none (cara list names the scenarios; see cara run --help)"},
		{[]string{"run", small, "--set", "tour.0.at=3"}, "--set tour.0.at: the scenario has no tour, so no item 0 of it to change"},
		{[]string{"completion", "tcsh"}, `unknown command "tcsh" for "cara completion"`},
		{[]string{"plot", "x.jsonl", "-o", "-"}, "-o -: figures are files in a folder"},
		{[]string{"run", small, "--figures", "-"}, "--figures -: figures are files in a folder"},
		{[]string{"reproduce", "--figures", "-"}, "--figures -: figures are files in a folder"},
		{[]string{"sweep", small, "--costs", "0.5:0.5:5", "-o", "x"}, "--costs 0.5:0.5:5 is 5 equal costs; give N = 1 (0.5:0.5:1) or TO > FROM"},
		{[]string{"run", small, "--data", "testdata/small.yaml"}, "testdata/small.yaml: --data testdata/small.yaml: the scenario generates its data, so there is no data.csv to replace"},
		{[]string{"run", "/dev/zero"}, "reading scenario /dev/zero: /dev/zero is not a text file (byte 1 is 0x00): a scenario is a YAML text file"},
		{[]string{"run", "../../docs/examples/prior-shift.yaml", "--data", "/dev/zero"}, "data.csv: /dev/zero is not a text file (byte 1 is 0x00)"},
		{[]string{"run", "testdata/budget/huge.yaml"}, "huge needs about 36.4 TiB of memory (1000000 batches: a matrix of 500000500000 cells"},
		// Issue 33: huge seeds and counts say they are too large, not "not a whole number".
		{[]string{"run", small, "--seed", "1e30"}, `invalid argument "1e30" for "--seed" flag: 1e30 is too large: a whole number here is at most 9223372036854775807`},
		{[]string{"run", small, "--seed", "12345678901234567890"}, "12345678901234567890 is too large: a whole number here is at most 9223372036854775807"},
		{[]string{"run", small, "--seeds", "12345678901234567890"}, `invalid argument "12345678901234567890" for "--seeds" flag: 12345678901234567890 is too large`},
		{[]string{"run", small, "--seeds", "1e3"}, "1e3 is a whole number written with an exponent or a fraction: write it in digits (1000)"},
		{[]string{"run", small, "--set", "seed=1e30"}, "--set seed: must be in 0..9223372036854775807, got 1e30: too large"},
		{[]string{"run", small, "--set", "batches=12345678901234567890"}, "--set batches: must be in 2..1000000, got 12345678901234567890: too large"},
	}
	for _, tc := range tests {
		_, err := cara(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		}
	}
	var ue usageError
	for _, args := range [][]string{{"run", small, "--seeds", "0"}, {"run", small, "--seed", "-1"}, {"run", small, "--workers", "-1"}} {
		if _, err := cara(t, args...); !errors.As(err, &ue) {
			t.Errorf("%v is not a usage error: %v", args, err)
		}
	}
}

func TestRunFiguresAndPlot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := cara(t, "run", small, "--figures", dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"small-matrix.png", "small-cumulative.png", "small-batches.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() < 1000 {
			t.Errorf("%s: %v", f, err)
		}
	}
	sweepFile := filepath.Join(dir, "s.jsonl")
	if _, err := cara(t, "sweep", small, "--costs", "0.1:1:3", "-o", sweepFile); err != nil {
		t.Fatal(err)
	}
	out, err := cara(t, "plot", sweepFile, "-o", dir, "--format", "svg")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "small-sweep.svg") || !strings.Contains(out, "small-params.svg") {
		t.Errorf("plot wrote:\n%s", out)
	}
}

// Issue 43: --costs auto with several seeds gives them one grid, N steps over (0, R_max], R_max the
// largest of the seeds' (the paper's, each from its own offline block).
func TestSweepGridShared(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "auto.jsonl")
	if _, err := cara(t, "sweep", small, "--seeds", "3", "-o", out); err != nil {
		t.Fatal(err)
	}
	s, err := (&scenarioFlags{}).load(small)
	if err != nil {
		t.Fatal(err)
	}
	costs := map[uint64][]float64{}
	for _, r := range readLines(t, out) {
		if r.Algorithm == "oracle" {
			costs[r.Seed] = append(costs[r.Seed], r.RetrainCost)
		}
	}
	if len(costs) != 3 {
		t.Fatalf("%d seeds", len(costs))
	}
	rmax := 0.0
	for i := range 3 {
		m, err := computeMatrix(context.Background(), s, s.Seed+uint64(i), 1, false, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		rmax = max(rmax, algos.RMax(m, m.Offline()+1))
	}
	for seed, c := range costs {
		if len(c) != experiment.AutoSteps || c[len(c)-1] != rmax || c[0] != c[len(c)-1]/experiment.AutoSteps {
			t.Errorf("seed %d: costs %v; want %d steps up to the largest R_max %v", seed, c, experiment.AutoSteps, rmax)
		}
	}
}

// --shard-index K/N is --shard K+1/N; a scenario whose R is an expression of t is swept by a
// factor applied to it, each row naming R(t), and plot's axis says so.
func TestSweepShardIndexAndFactors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	if _, err := cara(t, "sweep", small, "--costs", "0.1:2:3", "--seeds", "3", "--shard", "2/3", "-o", a); err != nil {
		t.Fatal(err)
	}
	if _, err := cara(t, "sweep", small, "--costs", "0.1:2:3", "--seeds", "3", "--shard-index", "1/3", "-o", b); err != nil {
		t.Fatal(err)
	}
	if rows := readLines(t, a); len(rows) != 3*9 || rows[0].Seed != 4 || !bytes.Equal(mustRead(t, a), mustRead(t, b)) {
		t.Errorf("--shard 2/3 wrote %d rows of seed %d; --shard-index 1/3 the same: %v", len(rows), rows[0].Seed, bytes.Equal(mustRead(t, a), mustRead(t, b)))
	}
	f := filepath.Join(dir, "f.jsonl")
	if _, err := cara(t, "sweep", small, "--set", "retrain_cost=0.2 + 0.05*t", "--costs", "0.5:2:4", "-o", f); err != nil {
		t.Fatal(err)
	}
	rows := readLines(t, f)
	if rows[0].RetrainCostScales != "0.2 + 0.05*t" || rows[0].RetrainCost != 0.5 || rows[len(rows)-1].RetrainCost != 2 {
		t.Errorf("factor rows: scales %q, factors %v..%v", rows[0].RetrainCostScales, rows[0].RetrainCost, rows[len(rows)-1].RetrainCost)
	}
	// The Oracle at factor 2 is the Oracle of R_t = 2 (0.2 + 0.05 t), which -R cannot say but
	// --set can.
	out, err := cara(t, "run", small, "--set", "retrain_cost=2*(0.2 + 0.05*t)", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var run struct {
		Results []struct {
			Algorithm    string  `json:"algorithm"`
			StrategyCost float64 `json:"strategy_cost"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &run); err != nil {
		t.Fatal(err)
	}
	last := rows[len(rows)-9:]
	if len(run.Results) != len(last) {
		t.Fatalf("run gave %d results, the sweep %d rows a factor", len(run.Results), len(last))
	}
	for i, r := range run.Results {
		if string(last[i].Algorithm) != r.Algorithm || math.Abs(float64(last[i].StrategyCost)-r.StrategyCost) > 1e-9*math.Abs(r.StrategyCost) {
			t.Errorf("%s at factor 2: %v, run with R_t = 2 R(t): %s %v", last[i].Algorithm, last[i].StrategyCost, r.Algorithm, r.StrategyCost)
		}
	}
}

// stillScenario writes a stream that never changes (the same points, a static concept, no noise):
// every cell of C is 0, and R is r.
func stillScenario(t *testing.T, dir string, r float64) string {
	t.Helper()
	path := filepath.Join(dir, "still.yaml")
	src := fmt.Sprintf(`name: still
batches: 8
offline: 4
data: {size: 60, features: 2, uniform: {low: 0, high: 1}, label: "x2 > x1", resample: false}
queries: {size: 10, uniform: {low: 0, high: 1}}
model: {nearest_centroid: {}}
retrain_cost: %v
`, r)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// On a stream that never changes no retrain pays at any R, and the sweep says so in its rows and
// on stderr.
func TestSweepWarnsWhenRMaxIsZero(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	scenario := stillScenario(t, dir, 1)
	out := filepath.Join(dir, "still.jsonl")
	root := newRootCmd()
	var stdout, stderr bytes.Buffer
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	root.SetArgs([]string{"sweep", scenario, "-o", out})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	const want = "R_max is about 0 (0): no retrain pays on the offline block at any R; pass --costs FROM:TO:N"
	if !strings.Contains(stderr.String(), "cara: warning: "+want) {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	for _, r := range readLines(t, out) {
		if !slices.Contains(r.Warnings, want) {
			t.Fatalf("row without the warning: %+v", r)
		}
	}
}

// SCPE is null and warned about whenever the Oracle's cost is <= 0; the gap is always given.
func TestRunWarnsWhenOracleCostIsNotPositive(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	scenario := stillScenario(t, dir, 0)
	out, err := cara(t, "run", scenario, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var r runContract
	decodeStrict(t, out, &r)
	// Nothing drifts: the tuned variants have nothing to learn either (issue 33).
	if len(r.Warnings) != 2 || !strings.HasPrefix(r.Warnings[0], "the Oracle's cost is 0 (<= 0): SCPE is undefined and reported as null") ||
		!strings.HasPrefix(r.Warnings[1], "CARA-T, CARA-CT, CARA-P learned nothing from the offline block") {
		t.Errorf("warnings %q", r.Warnings)
	}
	for _, x := range r.Results {
		if x.SCPE != nil || x.Gap == nil {
			t.Errorf("%s: SCPE %v gap %v", x.Algorithm, x.SCPE, x.Gap)
		}
	}
	table, err := cara(t, "run", scenario)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table, "\nwarning: the Oracle's cost is 0 (<= 0)") {
		t.Errorf("table without the warning under it:\n%s", table)
	}
}

// --detector-reset replaces the scenario's detectors.reset: on_retrain from the flag gives the
// file's on_retrain results, and on small the never-reset ADWIN retrains more (it also detects
// the drop in error after its own retrains).
func TestDetectorResetFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	withReset := filepath.Join(dir, "reset.yaml")
	os.WriteFile(withReset, append(src, []byte("detectors: {reset: on_retrain}\n")...), 0o644)
	adwin := func(args ...string) float64 {
		out, err := cara(t, append([]string{"run", "--format", "json", "--seeds", "3"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var r runContract
		decodeStrict(t, out, &r)
		for _, x := range r.Results {
			if x.Algorithm == "adwin" {
				return x.RetrainCount
			}
		}
		t.Fatal("no adwin")
		return 0
	}
	def, flag, file := adwin(small), adwin(small, "--detector-reset", "on_retrain"), adwin(withReset)
	back := adwin(withReset, "--detector-reset", "never")
	if flag != file || back != def || !(def > flag) {
		t.Errorf("ADWIN mean retrains: default %v, flag on_retrain %v, file on_retrain %v, file overridden to never %v", def, flag, file, back)
	}
}

// Issue 26, item 10: exit status 2 is for usage mistakes only; a bug (a panic) is reported as one
// and exits 1, never with Go's 2; a missing argument or an unknown shell is a usage mistake.
func TestExitStatus(t *testing.T) {
	t.Parallel()
	panicking := func() *cobra.Command {
		root := newRootCmd()
		root.AddCommand(&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error {
			var v []int
			_ = v[len(v)-1] // index out of range, as --set name= did (issue 26, item 6)
			return nil
		}})
		return root
	}
	tests := []struct {
		name     string
		root     *cobra.Command
		args     []string
		code     int
		inStderr string
	}{
		{"ok", newRootCmd(), []string{"validate", small}, 0, ""},
		{"missing argument", newRootCmd(), []string{"run"}, 2, "cara: run wants one SCENARIO|FILE, got none"},
		{"extra argument", newRootCmd(), []string{"run", small, small}, 2, "cara: run wants one SCENARIO|FILE, got 2"},
		{"unknown shell", newRootCmd(), []string{"completion", "tcsh"}, 2, `unknown command "tcsh"`},
		{"bad input", newRootCmd(), []string{"run", "no-such-scenario"}, 1, "no scenario"},
		{"empty --set value", newRootCmd(), []string{"run", small, "--set", "name="}, 1, "cara: --set name: is required"},
		{"a bug", panicking(), []string{"boom"}, 1, "cara: internal error (a bug in cara"},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		tc.root.SetOut(&stdout)
		tc.root.SetErr(&stderr)
		tc.root.SetArgs(tc.args)
		if code := execute(context.Background(), tc.root, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.inStderr) {
			t.Errorf("%s: exit %d, want %d; stderr %q, want it to hold %q", tc.name, code, tc.code, stderr.String(), tc.inStderr)
		}
	}
}

// Issue 26, item 1: a sweep resumes only into rows of the same content and cost grid; anything
// else is an error naming both, until --restart starts the file over. Merge refuses to mix them.
func TestSweepResumeRefusesStaleRows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "f.jsonl")
	sweep := func(extra ...string) error {
		_, err := cara(t, append([]string{"sweep", small, "--costs", "0.1:2:4", "-o", out}, extra...)...)
		return err
	}
	if err := sweep(); err != nil {
		t.Fatal(err)
	}
	before := mustRead(t, out)
	hash := readLines(t, out)[0].ScenarioHash
	if len(hash) != 16 {
		t.Fatalf("scenario hash %q, want 16 hex digits", hash)
	}
	// The same scenario written otherwise (a comment, another title and tour text) is the same content.
	relaid := filepath.Join(dir, "small.yaml")
	src := strings.Replace(string(mustRead(t, small)), `title: "Small: a test scenario"`, "# relaid\ntitle: Another title", 1)
	os.WriteFile(relaid, []byte(src), 0o644)
	if _, err := cara(t, "sweep", relaid, "--costs", "0.1:2:4", "-o", out); err != nil {
		t.Fatalf("a comment and a title made the content differ: %v", err)
	}
	for _, tc := range []struct {
		name  string
		extra []string
		want  string
	}{
		{"another --set", []string{"--set", "data.noise=0.3"}, "f.jsonl holds rows of small from other content (hash " + hash + ") than this sweep's (hash "},
		{"another grid", []string{"--costs", "0.1:3:4"}, "f.jsonl holds a sweep of small over --costs 0.1:2:4; this one is over --costs 0.1:3:4"},
		{"other seeds", []string{"--seeds", "2"}, "f.jsonl holds a sweep of small over seed 3 (--seed 3 --seeds 1); this one is over seeds 3 to 4 (--seed 3 --seeds 2)"},
	} {
		err := sweep(tc.extra...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--restart") {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
		if !bytes.Equal(mustRead(t, out), before) {
			t.Errorf("%s: the refused sweep changed the file", tc.name)
		}
	}
	other := filepath.Join(dir, "other.jsonl")
	os.WriteFile(other, before, 0o644)
	if err := sweep("--set", "data.noise=0.3", "--restart"); err != nil {
		t.Fatal(err)
	}
	rows := readLines(t, out)
	if len(rows) != 4*9 || rows[0].ScenarioHash == hash || rows[len(rows)-1].ScenarioHash != rows[0].ScenarioHash {
		t.Errorf("--restart: %d rows, hashes %q..%q (old %q)", len(rows), rows[0].ScenarioHash, rows[len(rows)-1].ScenarioHash, hash)
	}
	if _, err := cara(t, "merge", "-o", filepath.Join(dir, "m.jsonl"), out, other); err == nil || !strings.Contains(err.Error(), "rows of small come from two sweeps, of different content") {
		t.Errorf("merge of two contents: %v", err)
	}
}

// The flags that change a scenario are --set overrides under other names: `-R 40` then any
// what-if keeps R 40 (the what-if reads the file again), as --set retrain_cost=40 does, and the
// seed and tree flags likewise; an error in one names the flag.
func TestFlagsAreOverrides(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		name string
		want func(s *scenarios.Scenario) bool
	}{
		{[]string{"-R", "40"}, small, func(s *scenarios.Scenario) bool { return s.RetrainCost(3) == 40 && s.RetrainCostText == "40" }},
		{[]string{"--set", "retrain_cost=40"}, small, func(s *scenarios.Scenario) bool { return s.RetrainCost(3) == 40 }},
		{[]string{"--set", "retrain_cost=3", "-R", "40"}, small, func(s *scenarios.Scenario) bool { return s.RetrainCost(3) == 40 }},
		{[]string{"--seed", "17"}, small, func(s *scenarios.Scenario) bool { return s.Seed == 17 }},
		{[]string{"--trees", "7"}, "covcon-d", func(s *scenarios.Scenario) bool { return s.Model.(sim.RandomForest).Trees == 7 }},
		{[]string{"--detector-reset", "on_retrain"}, small, func(s *scenarios.Scenario) bool {
			return s.Evaluation.DetectorReset == algos.ResetOnRetrain
		}},
	} {
		var f scenarioFlags
		cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
		f.register(cmd, true)
		f.registerDetectorReset(cmd)
		if err := cmd.ParseFlags(tc.args); err != nil {
			t.Fatal(err)
		}
		s, err := f.load(tc.name)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		w, err := s.WhatIf([]string{"queries.size=7"})
		if err != nil {
			t.Fatalf("%v: what-if: %v", tc.args, err)
		}
		if !tc.want(s) || !tc.want(w) {
			t.Errorf("%v: loaded %v, under a what-if %v", tc.args, tc.want(s), tc.want(w))
		}
		// A what-if of R itself still wins over the flag.
		if w, err := s.WhatIf([]string{"retrain_cost=2"}); err != nil || w.RetrainCost(3) != 2 {
			t.Errorf("%v: a what-if on R: %v", tc.args, err)
		}
	}
}

// Issue 26: sweep -o - writes to stdout (it made a file named "-"), and -o /dev/zero is written
// to, not read as rows to resume from until memory runs out (item 8).
func TestSweepToStdoutAndDevices(t *testing.T) { // not parallel: it changes the working folder
	scenario := mustAbs(t, small)
	dir := t.TempDir()
	t.Chdir(dir)
	out, err := cara(t, "sweep", scenario, "--costs", "1:2:2", "-o", "-")
	if err != nil {
		t.Fatal(err)
	}
	rows, _, err := experiment.ReadRows(strings.NewReader(out), "stdout", false)
	if err != nil || len(rows) != 2*9 {
		t.Errorf("stdout holds %d rows (%v), want 18", len(rows), err)
	}
	if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
		t.Error(`-o - made a file named "-"`)
	}
	if _, err := cara(t, "sweep", scenario, "--costs", "1:2:2", "-o", "/dev/zero"); err != nil {
		t.Errorf("-o /dev/zero: %v", err)
	}
}

func mustAbs(t *testing.T, path string) string {
	t.Helper()
	p, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Issue 26, items 11 and 12 through the CLI: a scenario's control characters reach neither
// stdout nor stderr of cara run; a scenario named as a path is refused as cara new refuses it;
// a sweep file whose rows name "../escaped" gets its figures inside the folder asked for.
func TestUntrustedTextAndNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := strings.Replace(string(mustRead(t, small)), `title: "Small: a test scenario"`, `title: "\e[2J\e]0;pwned\a Small"`, 1)
	src = strings.Replace(src, "about: >\n", "about: >\n  \x1b[31mred\x1b[0m\n", 1)
	evil := filepath.Join(dir, "evil.yaml")
	os.WriteFile(evil, []byte(src), 0o644)
	for _, format := range []string{"table", "csv", "json"} {
		out, errOut, err := caraIO(t, "run", evil, "--format", format)
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(out+errOut, "\x1b\x07") {
			t.Errorf("--format %s: a control character reached the terminal:\n%q\n%q", format, out, errOut)
		}
		if format == "table" && !strings.Contains(out, `\x1b[2J\x1b]0;pwned\x07 Small`) {
			t.Errorf("the title is not shown escaped:\n%s", out)
		}
	}

	os.WriteFile(filepath.Join(dir, "path.yaml"), []byte(strings.Replace(string(mustRead(t, small)), "name: small", `name: "../escaped"`, 1)), 0o644)
	for _, args := range [][]string{{"run", filepath.Join(dir, "path.yaml"), "--figures", filepath.Join(dir, "figs")}, {"new", filepath.Join(dir, "..escaped")}} {
		if _, err := cara(t, args...); err == nil || !strings.Contains(err.Error(), "is not a usable scenario name: use letters, digits") {
			t.Errorf("%v: %v", args, err)
		}
	}

	rows := filepath.Join(dir, "rows.jsonl")
	if _, err := cara(t, "sweep", small, "--costs", "1:2:2", "-o", rows); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(rows, bytes.ReplaceAll(mustRead(t, rows), []byte(`"scenario":"small"`), []byte(`"scenario":"../escaped"`)), 0o644)
	figs := filepath.Join(dir, "a", "figs")
	out, err := cara(t, "plot", rows, "-o", figs)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(out) {
		if filepath.Dir(p) != figs {
			t.Errorf("plot wrote %s, outside %s", p, figs)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "a", "escaped*")); len(m) > 0 {
		t.Errorf("plot wrote %v", m)
	}

	// Two sweep files joined with cat: duplicates count once, with a note; rows of one name and
	// two contents are refused.
	twice := filepath.Join(dir, "twice.jsonl")
	os.WriteFile(twice, append(mustRead(t, rows), mustRead(t, rows)...), 0o644)
	_, errOut, err := caraIO(t, "plot", twice, "-o", figs)
	if err != nil || !strings.Contains(errOut, "18 duplicate row(s) (same scenario, seed, R and algorithm) counted once") {
		t.Errorf("plot of a file twice: %v %q", err, errOut)
	}
	other := filepath.Join(dir, "other.jsonl")
	if _, err := cara(t, "sweep", small, "--costs", "1:2:2", "--set", "data.noise=0.1", "-o", other); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(twice, append(mustRead(t, filepath.Join(dir, "rows.jsonl")), bytes.ReplaceAll(mustRead(t, other), []byte(`"scenario":"small"`), []byte(`"scenario":"../escaped"`))...), 0o644)
	if _, err := cara(t, "plot", twice, "-o", figs); err == nil || !strings.Contains(err.Error(), "rows of ../escaped come from two sweeps, of different content") {
		t.Errorf("plot of two contents under one name: %v", err)
	}
}

// Issue 26, item 4: a strategy cost that overflows is null in JSON with a warning that says so,
// and the table prints big costs in exponent form, not 309 digits.
func TestRunWarnsOnOverflow(t *testing.T) {
	t.Parallel()
	out, err := cara(t, "run", small, "--set", "retrain_cost=1e308", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var run struct {
		Results []struct {
			Algorithm    string   `json:"algorithm"`
			StrategyCost *float64 `json:"strategy_cost"`
			Retrains     []int    `json:"retrains"`
		} `json:"results"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &run); err != nil {
		t.Fatal(err)
	}
	var overflowed []string
	for _, r := range run.Results {
		// Two retrains at 1e308 each make +Inf; one is 1e308 itself, as every strategy pays C[T_start, T_start].
		if len(r.Retrains) >= 1 {
			if r.StrategyCost != nil {
				t.Errorf("%s retrains %v, cost %v, want null", r.Algorithm, r.Retrains, *r.StrategyCost)
			}
			overflowed = append(overflowed, r.Algorithm)
		}
	}
	if len(overflowed) == 0 || !slices.ContainsFunc(run.Warnings, func(w string) bool { return strings.Contains(w, "overflows a 64-bit float") }) {
		t.Errorf("overflowed %v, warnings %q", overflowed, run.Warnings)
	}
	table, err := cara(t, "run", small, "--set", "retrain_cost=1e308")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table, " 1.000e+308 ") || strings.Contains(table, "10000000000") || !strings.Contains(table, "warning: the strategy cost of ") {
		t.Errorf("table:\n%s", table)
	}
}

// "What C can and cannot see" (docs/conventions.md), measured on docs/examples: an overfitting
// model makes a stream without drift look stale, and a pure prior shift leaves C negative while
// the kept model errs more than a fresh one.
func TestWhatCCannotSee(t *testing.T) {
	t.Parallel()
	matrix := func(args ...string) (c, errRate [][]*float64) {
		out, err := cara(t, append([]string{"matrix", "--format", "json"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			C         [][]*float64 `json:"C"`
			ErrorRate [][]*float64 `json:"error_rate"`
		}
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatal(err)
		}
		return m.C, m.ErrorRate
	}
	median := func(c [][]*float64) float64 {
		var v []float64
		for tp := range c {
			for tt := tp + 1; tt < len(c); tt++ {
				v = append(v, *c[tp][tt])
			}
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	overfit := "../../docs/examples/overfit.yaml"
	c1, _ := matrix(overfit)
	c25, _ := matrix(overfit, "--set", "model.knn.k=25")
	if m1, m25 := median(c1), median(c25); !(m1 > 4 && m25 < 0.5) {
		t.Errorf("overfit: median C %.3f with k = 1, %.3f with k = 25; docs/conventions.md says about 5 and 0.15", m1, m25)
	}
	c, e := matrix("../../docs/examples/prior-shift.yaml")
	if cc, kept, fresh := *c[5][19], *e[5][19], *e[19][19]; !(cc < -4 && kept > 1.5*fresh) {
		t.Errorf("prior shift: C[5, 19] = %.3f, the kept model errs on %.3f, a fresh one on %.3f; docs/conventions.md says -4.3, 0.107, 0.067", cc, kept, fresh)
	}
}
