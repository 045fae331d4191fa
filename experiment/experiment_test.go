package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

func TestMeanParams(t *testing.T) {
	p := func(kv ...float64) map[string]Num {
		m := map[string]Num{}
		for i, k := range []string{"theta", "theta_c", "period", "offset"} {
			if i < len(kv) {
				m[k] = Num(kv[i])
			}
		}
		return m
	}
	nan, inf := math.NaN(), math.Inf(1)
	// Thresholds average; (p, o) shown only when every seed agrees: (3, 1) twice.
	got := MeanParams([]Result{{Params: p(1, 2, 3, 1)}, {Params: p(3, 4, 3, 1)}})
	if got["theta"] != 2 || got["theta_c"] != 3 || got["period"] != 3 || got["offset"] != 1 {
		t.Errorf("agreeing seeds: %v", got)
	}
	// Periods 3 and 2 (offsets 1 and 1): no period, no offset. A seed with theta +Inf: mean +Inf.
	got = MeanParams([]Result{{Params: p(1, 2, 3, 1)}, {Params: p(inf, 4, 2, 1)}})
	if _, ok := got["period"]; ok || !math.IsInf(float64(got["theta"]), 1) {
		t.Errorf("disagreeing seeds: %v", got)
	}
	// Never (period +Inf, offset undefined) on every seed is an agreement.
	got = MeanParams([]Result{{Params: map[string]Num{"period": Num(inf), "offset": Num(nan)}}, {Params: map[string]Num{"period": Num(inf), "offset": Num(nan)}}})
	if !math.IsInf(float64(got["period"]), 1) || !math.IsNaN(float64(got["offset"])) {
		t.Errorf("never on every seed: %v", got)
	}
	if got := MeanParams([]Result{{}, {}}); got != nil {
		t.Errorf("no params: %v", got)
	}
}

func TestCostTextJSON(t *testing.T) {
	for in, want := range map[CostText]string{"20": "20", "0.5": "0.5", "10 + 5*sin(t/10)": `"10 + 5*sin(t/10)"`} {
		b, err := json.Marshal(in)
		if err != nil || string(b) != want {
			t.Errorf("%q: %s %v, want %s", in, b, err, want)
		}
		var back CostText
		if err := json.Unmarshal(b, &back); err != nil || back != in {
			t.Errorf("%s read back as %q, %v", b, back, err)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{{math.NaN(), "-"}, {math.Inf(1), "inf"}, {math.Inf(-1), "-inf"}, {1.23456, "1.23"}} {
		if got := FormatNum(tc.v, 2); got != tc.want {
			t.Errorf("FormatNum(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
	p := map[string]Num{"offset": 2, "theta": 1.5, "period": Num(math.Inf(1))}
	if got := FormatParams(p); got != "theta=1.500 period=inf offset=2" {
		t.Errorf("FormatParams = %q", got)
	}
}

// The mean and spread over seeds are the population mean and standard deviation of the defined
// values: 1, 2 and 6 (NaN left out) have mean 3 and deviation sqrt(14/3).
func TestMeanOf(t *testing.T) {
	rs := []Result{{Algorithm: algos.NameCaraT, StrategyCost: 1, SCPE: Num(math.NaN())}, {StrategyCost: 2, SCPE: 4}, {StrategyCost: 6, SCPE: 8}}
	m := MeanOf(rs)
	if m.StrategyCost != 3 || math.Abs(float64(m.Spread.StrategyCost)-math.Sqrt(14.0/3)) > 1e-15 {
		t.Errorf("strategy cost %v ± %v, want 3 ± %v", m.StrategyCost, m.Spread.StrategyCost, math.Sqrt(14.0/3))
	}
	if m.SCPE != 6 || m.Spread.SCPE != 2 || m.Retrains != nil || m.Algorithm != algos.NameCaraT {
		t.Errorf("SCPE %v ± %v, retrains %v", m.SCPE, m.Spread.SCPE, m.Retrains)
	}
}

const rowsText = `{"scenario":"s","seed":1,"retrain_cost":1,"algorithm":"oracle","strategy_cost":3,"scpe":0,"gap":0,"query_accuracy":0.9,"retrains":2,"retrain_batches":[4,6],"params":null,"offline_cost":null}
{"scenario":"s","seed":1,"retrain_cost":1,"algorithm":"cara-t","strategy_cost":6,"scpe":20,"gap":1,"query_accuracy":null,"retrains":1,"retrain_batches":[5],"params":{"theta":null},"offline_cost":4,"warnings":["w"]}
`

// Rows round-trip byte for byte (nulls included), with or without the warnings field; a torn
// last line is dropped when resuming and an error otherwise; a bad line is named.
func TestRowsReadWrite(t *testing.T) {
	rows, good, err := ReadRows(strings.NewReader(rowsText+"\n"), "r.jsonl", false)
	if err != nil || len(rows) != 2 || good != int64(len(rowsText)+1) {
		t.Fatalf("%d rows, good %d, %v", len(rows), good, err)
	}
	if !math.IsNaN(float64(rows[1].QueryAccuracy)) || rows[1].Params["theta"].Defined() || rows[1].Warnings[0] != "w" {
		t.Errorf("row 2: %+v", rows[1])
	}
	var buf bytes.Buffer
	rows[0].Warnings = []string{}
	if err := WriteRows(&buf, rows); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(rowsText, `"offline_cost":null}`, `"offline_cost":null,"warnings":[]}`, 1)
	if buf.String() != want {
		t.Errorf("written:\n%s\nwant:\n%s", buf.String(), want)
	}
	torn := rowsText + `{"scenario":"s","se`
	rows, good, err = ReadRows(strings.NewReader(torn), "r.jsonl", true)
	if err != nil || len(rows) != 2 || good != int64(len(rowsText)) {
		t.Errorf("torn, resuming: %d rows, good %d, %v", len(rows), good, err)
	}
	if _, _, err := ReadRows(strings.NewReader(torn), "r.jsonl", false); err == nil || !strings.HasPrefix(err.Error(), "r.jsonl:3: not a sweep line") {
		t.Errorf("torn, reading: %v", err)
	}
	for in, want := range map[string]string{
		`{"seed": 1}`: "r.jsonl:1: not a sweep line: scenario and algorithm are required",
		`{"scenario":"s","algorithm":"x","colour":1}`: `r.jsonl:1: not a sweep line: json: unknown field "colour"`,
	} {
		if _, _, err := ReadRows(strings.NewReader(in+"\n"), "r.jsonl", false); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", in, err, want)
		}
	}
}

// small is a scenario that computes in milliseconds.
const small = `name: small
seed: 3
batches: 12
offline: 4
data:
  size: 100
  features: 2
  gaussian: {mean: "0.4 + 0.02*t", std: 0.2}
  concepts:
    - {at: 0, label: "x2 > x1"}
    - {at: 6, label: "x2 < x1"}
queries: {size: 20, gaussian: {mean: 0.5, std: 0.1}}
model: {nearest_centroid: {}}
retrain_cost: 0.5
`

func loadSmall(t *testing.T) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Parse("small.yaml", []byte(small), "", scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func plainMatrix(ctx context.Context, s *scenarios.Scenario, seed uint64) (*sim.Matrix, error) {
	cfg, err := s.Config(seed)
	if err != nil {
		return nil, err
	}
	return sim.Run(ctx, cfg, nil)
}

// A run over three seeds: each seed's results as algos.Evaluate gives them, the means their means,
// and the JSON reads back as it was written.
func TestRunSeeds(t *testing.T) {
	s := loadSmall(t)
	var hooked []uint64
	run, err := RunSeeds(context.Background(), s, 3, plainMatrix, func(seed uint64, m *sim.Matrix, res []algos.Result) error {
		hooked = append(hooked, seed)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(hooked, []uint64{3, 4, 5}) || !slices.Equal(run.Seeds, hooked) || len(run.Runs) != 3 {
		t.Fatalf("seeds %v, hooked %v, %d runs", run.Seeds, hooked, len(run.Runs))
	}
	m, _ := plainMatrix(context.Background(), s, 4)
	res, _ := algos.Evaluate(m, s.RetrainCost, s.Algorithms, m.Batches()-1)
	for i, r := range res {
		if got := run.Runs[1].Results[i]; got.StrategyCost != Num(r.Strategy.Cost()) || !slices.Equal(got.Retrains, append([]int{}, r.Strategy.Retrains...)) {
			t.Errorf("seed 4 %s: %+v", r.Algorithm, got)
		}
	}
	var buf bytes.Buffer
	if err := run.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadRun(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	back.WriteJSON(&again)
	if again.String() != buf.String() {
		t.Error("the run JSON does not read back as written")
	}
}

// The paper's tables load, and the verdicts are majorities over the scenarios run: a claim that
// holds on 2 of 3 scenarios agrees, on 1 of 3 it does not.
func TestVerdicts(t *testing.T) {
	p, err := Paper()
	if err != nil || p.SCPE["covcon-d"][algos.NameCaraT] != 17.72 || p.Retrains["electricity"][algos.NameADWIN] != 20 {
		t.Fatalf("paper tables: %v %v", p.SCPE["covcon-d"], err)
	}
	means := func(v map[algos.Name]Num) map[algos.Name]Num { return v }
	r := &Reproduction{order: []string{"a", "b", "c"},
		SCPE: Means{
			"a": means(map[algos.Name]Num{algos.NameCaraT: 1, algos.NameCaraCT: 2, algos.NameCaraP: 3, algos.NameNever: 4, algos.NameMarkov: 5, algos.NameADWIN: 6, algos.NameDDM: 7}),
			"b": means(map[algos.Name]Num{algos.NameCaraT: 1, algos.NameCaraCT: 2, algos.NameCaraP: 3, algos.NameNever: 4, algos.NameMarkov: 5, algos.NameADWIN: 6, algos.NameDDM: 7}),
			"c": means(map[algos.Name]Num{algos.NameCaraT: 9, algos.NameCaraCT: 8, algos.NameCaraP: 7, algos.NameNever: 0, algos.NameMarkov: 5, algos.NameADWIN: 6, algos.NameDDM: 7}),
		},
		Retrains: Means{
			"a": means(map[algos.Name]Num{algos.NameOracle: 1, algos.NameADWIN: 9, algos.NameDDM: 2}),
			"b": means(map[algos.Name]Num{algos.NameOracle: 1, algos.NameADWIN: 1, algos.NameDDM: 9}),
			"c": means(map[algos.Name]Num{algos.NameOracle: 1, algos.NameADWIN: 2, algos.NameDDM: 9}),
		},
		QueryAccuracy: Means{},
	}
	v := r.verdicts()
	want := map[string]string{
		"A CARA variant has the lowest SCPE of all algorithms on most datasets (8.1)": "true on 2 of 3: a, b",
		"CARA-T has the lowest SCPE among the CARA variants on most datasets (8.1)":   "true on 2 of 3: a, b",
		"ADWIN retrains most (table 4)":                                               "false on 1 of 3: a",
	}
	for _, x := range v {
		if w, ok := want[x.Claim]; ok {
			if got := strings.Join([]string{map[bool]string{true: "true", false: "false"}[x.Agrees], x.Detail}, " "); !strings.HasPrefix(got, w+"; paired tests: ") {
				t.Errorf("%s: %s, want %s", x.Claim, got, w)
			}
			delete(want, x.Claim)
		}
	}
	if len(want) != 0 {
		t.Errorf("claims not checked: %v", want)
	}
}

// Issue 43: the paired test behind a claim on each dataset. Claim 1 (a CARA variant lowest) is
// tested as the best CARA variant's SCPE against the best other's (CARA-T against Never-retrain
// here), seed by seed: on "a" firmly below (holds), on "b" below on the means but spread (not
// significant at 3 seeds), on "c" firmly above (does not hold). Claim 3 (ADWIN and DDM above
// CARA-T) rests on two comparisons: the one against the claim decides.
func TestClaimTests(t *testing.T) {
	seeds := func(v ...Num) []Num { return v }
	r := &Reproduction{order: []string{"a", "b", "c"}, Seeds: 3,
		SCPE: Means{
			"a": {algos.NameCaraT: 1, algos.NameCaraCT: 2, algos.NameCaraP: 3, algos.NameNever: 4, algos.NameMarkov: 5, algos.NameADWIN: 6, algos.NameDDM: 7},
			"b": {algos.NameCaraT: 1, algos.NameCaraCT: 2, algos.NameCaraP: 3, algos.NameNever: 4, algos.NameMarkov: 5, algos.NameADWIN: 6, algos.NameDDM: 7},
			"c": {algos.NameCaraT: 9, algos.NameCaraCT: 10, algos.NameCaraP: 11, algos.NameNever: 0, algos.NameMarkov: 5, algos.NameADWIN: 6, algos.NameDDM: 7},
		},
		SeedMeans: Metrics[PerSeed]{SCPE: PerSeed{
			"a": {algos.NameCaraT: seeds(1, 1.2, 0.9), algos.NameNever: seeds(4, 4.5, 3.8), algos.NameADWIN: seeds(6, 6, 6), algos.NameDDM: seeds(7, 7.1, 6.9)},
			"b": {algos.NameCaraT: seeds(1, 5, -3), algos.NameNever: seeds(4, 4, 4)},
			"c": {algos.NameCaraT: seeds(9, 9.5, 8.7), algos.NameNever: seeds(0, 0.2, 0.1), algos.NameADWIN: seeds(6, 6.2, 5.9), algos.NameDDM: seeds(20, 21, 19)},
		}},
	}
	want := map[string]string{"a": Holds, "b": "not significant at 3 seeds", "c": DoesNotHold}
	for s, w := range want {
		got := r.test(claims[0], s)
		if got.Outcome != w || got.Compared != "CARA-T - Never-retrain < 0" || len(got.Diffs) != 3 {
			t.Errorf("claim 1 on %s: %+v, want %s", s, got, w)
		}
	}
	// a: CARA-T - ADWIN = [-5 -4.8 -5.1] and - DDM = [-6 -5.9 -6]: both hold, the weaker (larger p) shown.
	if got := r.test(claims[2], "a"); got.Outcome != Holds || got.P < r.test(claim{tests: func(*Reproduction, string) []comparison {
		return []comparison{below(scpe, algos.NameCaraT, algos.NameDDM)}
	}}, "a").P {
		t.Errorf("claim 3 on a: %+v, want the weaker of two that hold", got)
	}
	// c: below DDM but above ADWIN, firmly: does not hold, against ADWIN.
	if got := r.test(claims[2], "c"); got.Outcome != DoesNotHold || got.Compared != "CARA-T - ADWIN < 0" {
		t.Errorf("claim 3 on c: %+v", got)
	}
}

// The fidelity score on a hand-made table: paper 10, 20, 40, 5 and a Never-retrain entry; ours
// 14 (ratio 1.4: within), 31 (1.55: not), 40 (1: within), 0 (no ratio) and a Never entry that
// must be left out, as must the paper's zero. The mean |log ratio| is over the three ratios.
func TestScoreTable(t *testing.T) {
	paper := map[string]map[algos.Name]float64{
		"a": {algos.NameCaraT: 10, algos.NameCaraCT: 20, algos.NameNever: 100, algos.NameOracle: 0},
		"b": {algos.NameCaraT: 40, algos.NameDDM: 5},
	}
	ours := Means{
		"a": {algos.NameCaraT: 14, algos.NameCaraCT: 31, algos.NameNever: 100, algos.NameOracle: 3},
		"b": {algos.NameCaraT: 40, algos.NameDDM: 0},
	}
	among := []algos.Name{algos.NameCaraT, algos.NameCaraCT, algos.NameOracle, algos.NameNever, algos.NameDDM}
	got := scoreTable("t", ours, paper, []string{"a", "b"}, among)
	wantMean := (math.Log(1.4) + math.Log(1.55) + 0) / 3
	if got.Of != 4 || got.Within != 2 || got.NoRatio != 1 || math.Abs(got.MeanAbsLogRatio-wantMean) > 1e-12 {
		t.Errorf("score %+v, want 2 of 4 within, 1 without a ratio, mean %v", got, wantMean)
	}
	// Exactly x1.5 either way is within; merging weighs each table's mean by its ratios.
	edge := scoreTable("e", Means{"a": {algos.NameCaraT: 15, algos.NameCaraCT: 20 / 1.5}}, paper, []string{"a"}, among[:2])
	if edge.Within != 2 {
		t.Errorf("x1.5 exactly: %+v, want both within", edge)
	}
	all := merge("all", got, edge)
	if wantAll := (3*wantMean + 2*math.Log(1.5)) / 5; all.Of != 6 || all.Within != 4 || math.Abs(all.MeanAbsLogRatio-wantAll) > 1e-12 {
		t.Errorf("merged %+v, want 4 of 6, mean %v", all, wantAll)
	}
	var b strings.Builder
	(Fidelity{Tables: []Score{got}, Overall: all}).write(&b)
	if !strings.Contains(b.String(), "2 of   4 within x1.5") || !strings.Contains(b.String(), "1 of ours 0 or undefined") {
		t.Errorf("printed:\n%s", b.String())
	}
}

// The appendix's LR tables load beside tables 2-4.
func TestPaperLogistic(t *testing.T) {
	p, err := PaperLogistic()
	if err != nil || p.QueryAccuracy["circle-s"][algos.NameOracle] != 0.09 || p.Retrains["covcon-d"][algos.NameADWIN] != 46 || len(p.SCPE) != 7 {
		t.Fatalf("LR tables: %v %v", p.QueryAccuracy["circle-s"], err)
	}
}

// Issue 33: table 3 on an absolute tolerance. Paper 0.80, 0.90, 0.50 (Never-retrain counts) and
// 0.70; ours 0.8149 (0.81 as printed: within 0.02), 0.8751 (0.88: within, the edge), 0.47 (0.03
// off: not) and undefined (counted, not within, not in the mean). Mean (0.01 + 0.02 + 0.03)/3.
func TestScoreAbs(t *testing.T) {
	paper := map[string]map[algos.Name]float64{"a": {algos.NameCaraT: 0.80, algos.NameOracle: 0.90, algos.NameNever: 0.50}, "b": {algos.NameDDM: 0.70}}
	ours := Means{"a": {algos.NameCaraT: 0.8149, algos.NameOracle: 0.8751, algos.NameNever: 0.47}, "b": {algos.NameDDM: Num(math.NaN())}}
	got := scoreAbs("t3", 0.02, ours, paper, []string{"a", "b"}, []algos.Name{algos.NameCaraT, algos.NameOracle, algos.NameNever, algos.NameDDM})
	if got.Of != 4 || got.Within != 2 || math.Abs(got.MeanAbsDiff-0.02) > 1e-12 {
		t.Errorf("score %+v, want 2 of 4 within 0.02, mean 0.02", got)
	}
	var b strings.Builder
	(Fidelity{Tables: []Score{{Table: "x", Of: 1}}, Accuracy: got}).write(&b)
	if !strings.Contains(b.String(), "t3                             2 of   4 within 0.02, mean |ours - paper| 0.020") {
		t.Errorf("printed:\n%s", b.String())
	}
}

// Issue 33: the claims per dataset, on our means and on the paper's own table. On dataset "x" the
// paper's SCPE has CARA-T lowest (claims 1 to 3 hold there) and ours has DDM lowest and CARA-T
// above CARA-CT (all three fail: contradicted where the paper's table satisfies them); on "y"
// both have CARA-T lowest.
func TestClaimsByDataset(t *testing.T) {
	row := func(caraT, ddm Num) map[algos.Name]Num {
		return map[algos.Name]Num{algos.NameCaraT: caraT, algos.NameCaraCT: 50, algos.NameCaraP: 60, algos.NameNever: 90, algos.NameMarkov: 70, algos.NameADWIN: 80, algos.NameDDM: ddm}
	}
	paperRow := func(m map[algos.Name]Num) map[algos.Name]float64 {
		out := map[algos.Name]float64{}
		for a, v := range m {
			out[a] = float64(v)
		}
		return out
	}
	r := &Reproduction{order: []string{"x", "y"},
		SCPE:          Means{"x": row(55, 10), "y": row(10, 85)},
		QueryAccuracy: Means{}, Retrains: Means{},
		Paper: PaperTables{SCPE: map[string]map[algos.Name]float64{"x": paperRow(row(10, 85)), "y": paperRow(row(10, 85))}}}
	r.ClaimsByDataset = r.claimsByDataset()
	if len(r.ClaimsByDataset) != len(claims) {
		t.Fatalf("%d claims, want %d", len(r.ClaimsByDataset), len(claims))
	}
	for _, dc := range r.ClaimsByDataset[:3] {
		if dc.Holds["x"] || !dc.PaperHolds["x"] || !dc.Holds["y"] || !dc.PaperHolds["y"] {
			t.Errorf("%s: ours %v, paper's %v", dc.Claim, dc.Holds, dc.PaperHolds)
		}
	}
	var b strings.Builder
	r.writeClaimsByDataset(&b)
	out := b.String()
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "1. A CARA variant has the lowest SCPE of all algorithms") && strings.Contains(line, "yes") {
			if f := strings.Fields(line); strings.Join(f[len(f)-2:], " ") != "no* yes" {
				t.Errorf("claim 1's row %q, want it to end no* yes", line)
			}
		}
	}
	if !strings.Contains(out, "5 of 12 (claim, dataset) pairs hold on our means, 8 of 12 on the paper's own tables; ours contradict 3 that the paper's tables satisfy (x 3)") {
		t.Errorf("printed:\n%s", out)
	}
}
