package experiment

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

func TestCostsAndGrids(t *testing.T) {
	c, err := ParseCosts("1:3:5")
	if err != nil {
		t.Fatal(err)
	}
	if got, w := c.Grid(nil, 0); !slices.Equal(got, []float64{1, 1.5, 2, 2.5, 3}) || w != "" {
		t.Errorf("1:3:5 = %v %q", got, w)
	}
	auto, _ := ParseCosts("auto")
	if auto.N != AutoSteps || auto.String() != "auto:25" {
		t.Errorf("auto = %+v, %q", auto, auto)
	}
	auto.N = 4
	// One grid from the largest R_max: 8 over (0, 8] in 4 steps.
	if got, w := auto.Grid([]float64{3, 8, 5}, 1); !slices.Equal(got, []float64{2, 4, 6, 8}) || w != "" {
		t.Errorf("auto = %v %q", got, w)
	}
	if _, w := auto.Grid([]float64{1e-9, 0}, 10); !strings.HasPrefix(w, "R_max is about 0 (1e-09)") {
		t.Errorf("tiny R_max: warning %q", w)
	}
	// The paper's range: each seed its own grid over (0, its R_max], R = 0 never in it; round
	// two's: every seed the grid of the largest.
	per, ws := auto.Grids(RangePaper, []float64{4, 8}, []float64{1, 1})
	if len(per) != 2 || !slices.Equal(per[0], []float64{1, 2, 3, 4}) || !slices.Equal(per[1], []float64{2, 4, 6, 8}) || len(ws) != 0 {
		t.Errorf("per-seed grids %v %v", per, ws)
	}
	shared, _ := auto.Grids(RangeRoundTwo, []float64{4, 8}, []float64{1, 1})
	if len(shared) != 2 || !slices.Equal(shared[0], []float64{2, 4, 6, 8}) || !slices.Equal(shared[1], shared[0]) {
		t.Errorf("round-two grids %v", shared)
	}
	if _, ws := auto.Grids(RangePaper, []float64{1e-9, 1e-9}, []float64{10, 10}); len(ws) != 1 {
		t.Errorf("the same warning for two seeds: %v", ws)
	}
	for _, r := range []RRange{RangePaper, RangeRoundTwo} {
		if got, err := ParseRRange(r.String()); err != nil || got != r {
			t.Errorf("%v: %v %v", r, got, err)
		}
	}
	if _, err := ParseRRange("whole"); err == nil {
		t.Error("an unknown R range was accepted")
	}
	// A spec reads back from its String: rows carry it, and merge compares it.
	for _, in := range []string{"auto", "auto:7", "0.5:40:6", "1e-3:2.5:3", "2:2:1"} {
		c, err := ParseCosts(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if back, err := ParseCosts(c.String()); err != nil || back != c {
			t.Errorf("%s: String %q reads back as %+v (%v)", in, c, back, err)
		}
	}
	for _, bad := range []string{"1:2", "2:1:3", "0:1:0", "a:b:c", "auto:0", "auto:x", "auto:07", "0:1:100001", "auto:100001"} {
		if _, err := ParseCosts(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// Every shard split covers each (seed, cost) once. With at least as many seeds as shards a shard
// owns whole seeds, so the matrices computed over all shards are the seeds, each once; with fewer,
// a shard works on one seed and the shards of a seed are those Sharing names.
func TestShardUnits(t *testing.T) {
	for _, tc := range []struct{ seeds, n, costs int }{
		{8, 4, 6}, {5, 4, 6}, {4, 4, 1}, {1, 1, 3}, {3, 8, 6}, {1, 8, 6}, {2, 3, 5}, {3, 5, 4}, {24, 4, 25},
	} {
		name := fmt.Sprintf("%d seeds, %d shards, %d costs", tc.seeds, tc.n, tc.costs)
		count := map[[2]int]int{}
		matrices := 0
		for i := 1; i <= tc.n; i++ {
			sh := Shard{i, tc.n}
			units := sh.Units(tc.seeds, tc.costs)
			matrices += len(units)
			for si, ks := range units {
				if !slices.IsSorted(ks) {
					t.Errorf("%s: shard %v, seed %d: costs %v not ascending", name, sh, si, ks)
				}
				for _, k := range ks {
					count[[2]int{si, k}]++
				}
				if tc.seeds >= tc.n {
					if len(ks) != tc.costs || si%tc.n != i-1 {
						t.Errorf("%s: shard %v has costs %v of seed %d, want the whole seed %d mod %d", name, sh, ks, si, si, tc.n)
					}
				} else if !slices.Contains(sh.Sharing(si, tc.seeds), i) {
					t.Errorf("%s: shard %v works on seed %d, whose sharing shards are %v", name, sh, si, sh.Sharing(si, tc.seeds))
				}
			}
			if len(units) > 1 && tc.seeds < tc.n {
				t.Errorf("%s: shard %v works on %d seeds", name, sh, len(units))
			}
			if note := sh.Note(0, tc.seeds, tc.costs); (len(units) == 0) != strings.Contains(note, "nothing to do") {
				t.Errorf("%s: shard %v with %d seeds of units: note %q", name, sh, len(units), note)
			}
		}
		if len(count) != tc.seeds*tc.costs {
			t.Errorf("%s: %d units covered, want %d", name, len(count), tc.seeds*tc.costs)
		}
		for u, n := range count {
			if n != 1 {
				t.Errorf("%s: unit %v in %d shards", name, u, n)
			}
		}
		if want := min(tc.n, tc.seeds*tc.costs); tc.seeds >= tc.n && matrices != tc.seeds || tc.seeds < tc.n && matrices > want {
			t.Errorf("%s: %d matrices over all shards", name, matrices)
		}
	}
	if got := (Shard{4, 8}).Note(10, 3, 6); !strings.Contains(got, "seed 10's 6 costs are split over shards 1, 4, 7 (this one evaluates 2)") {
		t.Errorf("note: %q", got)
	}
	if got := (Shard{3, 4}).Note(0, 8, 6); got != "" {
		t.Errorf("a shard owning whole seeds: note %q", got)
	}
	sh, err := ParseShard("2/3")
	if err != nil || sh != (Shard{2, 3}) || sh.String() != "2/3" {
		t.Errorf("2/3: %+v %v", sh, err)
	}
	for _, bad := range []string{"0/3", "4/3", "1/0", "1/2/3", "02/3"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if sh, err := ParseShardIndex("0/8"); err != nil || sh != (Shard{1, 8}) {
		t.Errorf("--shard-index 0/8: %+v %v", sh, err)
	}
	for _, bad := range []string{"8/8", "-1/8", "1/0", "01/8"} {
		if _, err := ParseShardIndex(bad); err == nil {
			t.Errorf("--shard-index %q accepted", bad)
		}
	}
}

// sweepRun runs a sweep of s into out and reads its rows back; matrices counts the matrices it
// computed, by seed.
func sweepRun(t *testing.T, s *scenarios.Scenario, seeds int, costs string, sh Shard, out string, matrices map[uint64]int, mu *sync.Mutex) ([]SweepRow, error) {
	t.Helper()
	cs, err := ParseCosts(costs)
	if err != nil {
		t.Fatal(err)
	}
	sw := Sweep{Scenario: s, Seeds: seeds, Costs: cs, Shard: sh, Out: out,
		Matrix: func(ctx context.Context, s *scenarios.Scenario, seed uint64) (*sim.Matrix, error) {
			if matrices != nil {
				mu.Lock()
				matrices[seed]++
				mu.Unlock()
			}
			return plainMatrix(ctx, s, seed)
		},
		Offline: func(ctx context.Context, s *scenarios.Scenario, seed uint64) (*sim.Matrix, error) {
			cfg, err := s.Config(seed)
			if err != nil {
				return nil, err
			}
			cfg.Stream = sim.FirstBatches(cfg.Stream, cfg.Offline+1)
			return sim.Run(ctx, cfg, nil)
		}}
	if _, err := sw.Run(context.Background()); err != nil {
		return nil, err
	}
	return readFile(t, out), nil
}

func readFile(t *testing.T, path string) []SweepRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, _, err := ReadRows(f, path, false)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func rowBytes(t *testing.T, rows []SweepRow) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteRows(&b, rows); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Shards merged equal the whole sweep row for row, byte for byte, and over all shards each seed's
// matrix is computed once when there are at least as many seeds as shards; with --costs auto the
// seeds share one grid, from the largest of their R_max (each shard reads every seed's from its
// offline block alone), which every row records.
func TestSweepShards(t *testing.T) {
	s := loadSmall(t)
	dir := t.TempDir()
	var mu sync.Mutex
	computed := map[uint64]int{}
	whole, err := sweepRun(t, s, 4, "auto:3", Shard{1, 1}, filepath.Join(dir, "whole.jsonl"), computed, &mu)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole) != 4*3*9 {
		t.Fatalf("%d rows, want 4 seeds x 3 costs x 9 algorithms = 108", len(whole))
	}
	merged, err := Merge(SweepFile{"whole", whole})
	if err != nil {
		t.Fatal(err)
	}
	if rowBytes(t, merged) != rowBytes(t, whole) {
		t.Error("the whole sweep is not written in merge's order")
	}
	rmax := 0.0
	for seed := s.Seed; seed < s.Seed+4; seed++ {
		m, _ := plainMatrix(context.Background(), s, seed)
		rmax = max(rmax, RangePaper.RMax(m))
	}
	if rmax <= 0 {
		t.Fatal("every seed's R_max is 0: the test shows nothing")
	}
	want, _ := CostSpec{Auto: true, N: 3}.Grid([]float64{rmax}, 1)
	for seed := s.Seed; seed < s.Seed+4; seed++ {
		var got []float64
		for _, r := range whole {
			if r.Seed == seed && r.Algorithm == algos.NameOracle {
				got = append(got, r.RetrainCost)
				if w := (SweepOf{Costs: "auto:3", FirstSeed: s.Seed, Seeds: 4, RMax: &rmax}); r.Sweep == nil || r.Sweep.RMax == nil ||
					*r.Sweep.RMax != rmax || w.Costs != r.Sweep.Costs || w.FirstSeed != r.Sweep.FirstSeed || w.Seeds != r.Sweep.Seeds || r.RetrainCostScales != "" {
					t.Errorf("seed %d: row records %+v, scales %q; want %+v (R_max %v)", seed, r.Sweep, r.RetrainCostScales, w, rmax)
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("seed %d: costs %v, want the shared grid %v", seed, got, want)
		}
	}
	for _, n := range []int{2, 3, 6} {
		clear(computed)
		var files []SweepFile
		for i := 1; i <= n; i++ {
			out := filepath.Join(dir, fmt.Sprintf("part-%d-of-%d.jsonl", i, n))
			rows, err := sweepRun(t, s, 4, "auto:3", Shard{i, n}, out, computed, &mu)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, SweepFile{out, rows})
		}
		parts, err := Merge(files...)
		if err != nil {
			t.Fatal(err)
		}
		if rowBytes(t, parts) != rowBytes(t, whole) {
			t.Errorf("%d shards merged differ from the whole sweep", n)
		}
		if m := Missing(parts); m != nil {
			t.Errorf("%d shards: missing %v", n, m)
		}
		total := 0
		for seed, k := range computed {
			total += k
			if n <= 4 && k != 1 {
				t.Errorf("%d shards: seed %d's matrix computed %d times", n, seed, k)
			}
		}
		// 6 shards of 4 seeds: seeds 0 and 1 are split over two shards each.
		if want := max(4, n); total != want {
			t.Errorf("%d shards: %d matrices computed, want %d (%v)", n, total, want, computed)
		}
	}
	// A second run adds nothing and computes nothing.
	clear(computed)
	if again, err := sweepRun(t, s, 4, "auto:3", Shard{1, 1}, filepath.Join(dir, "whole.jsonl"), computed, &mu); err != nil || len(again) != len(whole) || len(computed) != 0 {
		t.Errorf("a second run: %d rows (want %d), %d matrices, %v", len(again), len(whole), len(computed), err)
	}
}

// Resuming into rows of another sweep of the same scenario is refused, naming both.
func TestSweepResumeRefusesOtherSweeps(t *testing.T) {
	s := loadSmall(t)
	out := filepath.Join(t.TempDir(), "r.jsonl")
	if _, err := sweepRun(t, s, 2, "0.1:1:3", Shard{1, 1}, out, nil, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		seeds int
		costs string
		want  string
	}{
		{2, "0.1:2:3", "holds a sweep of small over --costs 0.1:1:3; this one is over --costs 0.1:2:3"},
		{2, "auto", "over --costs 0.1:1:3; this one is over --costs auto:25"},
		{3, "0.1:1:3", "holds a sweep of small over seeds 3 to 4 (--seed 3 --seeds 2); this one is over seeds 3 to 5 (--seed 3 --seeds 3)"},
	} {
		if _, err := sweepRun(t, s, tc.seeds, tc.costs, Shard{1, 1}, out, nil, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--seeds %d --costs %s: %v, want %q", tc.seeds, tc.costs, err, tc.want)
		}
	}
	// Rows that say another R_max for a seed than its matrix gives were not written by this sweep.
	auto := filepath.Join(t.TempDir(), "auto.jsonl")
	rows, err := sweepRun(t, s, 1, "auto:2", Shard{1, 1}, auto, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	*rows[0].Sweep.RMax += 1
	f, _ := os.Create(auto)
	WriteRows(f, rows[:1])
	f.Close()
	if _, err := sweepRun(t, s, 1, "auto:2", Shard{1, 1}, auto, nil, nil); err == nil || !strings.Contains(err.Error(), "say R_max = ") {
		t.Errorf("a stale R_max: %v", err)
	}
}

// Merge keeps the first of duplicate rows and sorts by scenario, seed, cost and display order;
// rows of two sweeps of one scenario are refused, naming both files and what differs.
func TestMerge(t *testing.T) {
	row := func(seed uint64, r float64, a algos.Name, cost float64) SweepRow {
		return SweepRow{Scenario: "s", Seed: seed, RetrainCost: r, Algorithm: a, StrategyCost: Num(cost), ScenarioHash: "h",
			Sweep: &SweepOf{Costs: "1:2:2", FirstSeed: 1, Seeds: 2}}
	}
	a := []SweepRow{row(2, 1, algos.NameCaraT, 1), row(1, 2, algos.NameOracle, 2)}
	b := []SweepRow{row(2, 1, algos.NameCaraT, 99), row(2, 1, algos.NameOracle, 3), row(1, 1, algos.NameDDM, 4)}
	got, err := Merge(SweepFile{"a", a}, SweepFile{"b", b})
	if err != nil {
		t.Fatal(err)
	}
	var costs []Num
	for _, r := range got {
		costs = append(costs, r.StrategyCost)
	}
	if !slices.Equal(costs, []Num{4, 2, 3, 1}) {
		t.Errorf("merged costs %v, want [4 2 3 1]", costs)
	}
	// Three of the 2 seeds x 2 costs x 3 algorithms are there.
	if m := Missing(got); len(m) != 1 || !strings.Contains(m[0], "s (--costs 1:2:2, seeds 1 to 2 (--seed 1 --seeds 2)) lacks 8 of its 12 rows: seed 1 at R = 1, 2; seed 2 at R = 1, 2") {
		t.Errorf("missing %q", m)
	}

	other := func(f func(*SweepRow)) []SweepRow {
		r := row(1, 1, algos.NameOracle, 1)
		sw := *r.Sweep
		r.Sweep = &sw
		f(&r)
		return []SweepRow{r}
	}
	for _, tc := range []struct {
		change func(*SweepRow)
		want   string
	}{
		{func(r *SweepRow) { r.Sweep.Costs = "1:3:2" }, "rows of s come from two sweeps, of different cost grids: --costs 1:2:2 in a.jsonl, --costs 1:3:2 in b.jsonl"},
		{func(r *SweepRow) { r.Sweep.Seeds = 4 }, "of different seeds: seeds 1 to 2 (--seed 1 --seeds 2) in a.jsonl, seeds 1 to 4 (--seed 1 --seeds 4) in b.jsonl"},
		{func(r *SweepRow) { r.Sweep.FirstSeed = 0 }, "of different seeds: seeds 1 to 2 (--seed 1 --seeds 2) in a.jsonl, seeds 0 to 1"},
		{func(r *SweepRow) { r.ScenarioHash = "g" }, `of different content (the scenario file, a --set, a flag or the data): hash "h" in a.jsonl, hash "g" in b.jsonl`},
		{func(r *SweepRow) { r.Sweep = nil }, "one written by an older cara"},
		{func(r *SweepRow) { three := 3.0; r.Sweep.RMax = &three }, "s seed 1 has R_max NaN in a.jsonl and 3 in b.jsonl"},
	} {
		x := other(func(*SweepRow) {})
		if _, err := Merge(SweepFile{"a.jsonl", x}, SweepFile{"b.jsonl", other(tc.change)}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}

// A scenario whose R is an expression of t is swept over factors of it: each row's cost is the
// factor, the row names R(t), and the numbers are those of R_t = factor * R(t).
func TestSweepScalesAnExpression(t *testing.T) {
	// Seed 1, whose offline block has retrains worth paying for (seed 3's has none).
	src := strings.Replace(strings.Replace(small, "retrain_cost: 0.5", `retrain_cost: "0.2 + 0.05*t"`, 1), "seed: 3", "seed: 1", 1)
	s, err := scenarios.Parse("small.yaml", []byte(src), "", scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !Scales(s) || Scales(loadSmall(t)) {
		t.Fatal("Scales: an expression of t scales, a constant does not")
	}
	dir := t.TempDir()
	rows, err := sweepRun(t, s, 1, "0.5:2:4", Shard{1, 1}, filepath.Join(dir, "f.jsonl"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := plainMatrix(context.Background(), s, s.Seed)
	for _, r := range rows {
		if r.RetrainCostScales != "0.2 + 0.05*t" {
			t.Fatalf("row scales %q", r.RetrainCostScales)
		}
		res, err := algos.Evaluate(m, Scaled(s.RetrainCost, r.RetrainCost), []algos.Name{r.Algorithm}, m.Batches()-1)
		if err != nil {
			t.Fatal(err)
		}
		if got := res[0].Strategy.Cost(); float64(r.StrategyCost) != got {
			t.Errorf("%s at factor %v: %v, want %v (R_t = factor * R(t))", r.Algorithm, r.RetrainCost, r.StrategyCost, got)
		}
	}
	// auto: R_max is the smallest factor at which the Oracle on batches 0..T_off never retrains.
	rows, err = sweepRun(t, s, 1, "auto:4", Shard{1, 1}, filepath.Join(dir, "a.jsonl"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := *rows[0].Sweep.RMax
	never := func(f float64) bool {
		return len(algos.OracleRetrains(algos.Costs{M: m, R: Scaled(s.RetrainCost, f)}, 0, m.Offline())) == 0
	}
	if !(f > 0) || !never(f) || never(math.Nextafter(f, 0)) {
		t.Errorf("factor R_max %v: never retrains there %v, just below %v", f, never(f), never(math.Nextafter(f, 0)))
	}
	if rows[len(rows)-1].RetrainCost != f {
		t.Errorf("the grid ends at %v, want R_max %v", rows[len(rows)-1].RetrainCost, f)
	}
}

// For a constant R, ScaleRMax of R = 1 is the smallest R at which the Oracle never retrains on the
// offline block: the definition RMax meets, RMax perhaps a few ulps above.
func TestScaleRMaxOfAConstant(t *testing.T) {
	s := loadSmall(t)
	for seed := s.Seed; seed < s.Seed+3; seed++ {
		m, _ := plainMatrix(context.Background(), s, seed)
		f, ok := ScaleRMax(m, algos.Constant(1))
		r := RangePaper.RMax(m)
		if !ok || f > r || (r-f) > 1e-9*r {
			t.Errorf("seed %d: ScaleRMax %v (%v), RMax %v", seed, f, ok, r)
		}
	}
}

// Seeds missing whole are told as runs: a seed alone, a run of them, and a run cut by a seed that
// has some of its rows.
func TestMissingSeedRuns(t *testing.T) {
	row := func(seed uint64, a algos.Name) SweepRow {
		return SweepRow{Scenario: "s", Seed: seed, RetrainCost: 1, Algorithm: a, StrategyCost: 1, ScenarioHash: "h",
			Sweep: &SweepOf{Costs: "1:1:1", FirstSeed: 0, Seeds: 8}}
	}
	// Seeds 0 and 4 complete, 5 has one of its two rows, 1-3 and 6-7 none: one R (1:1:1), two algorithms.
	rows := []SweepRow{
		row(0, algos.NameOracle), row(0, algos.NameCaraT),
		row(4, algos.NameOracle), row(4, algos.NameCaraT),
		row(5, algos.NameOracle),
	}
	want := "lacks 11 of its 16 rows: seeds 1 to 3 (all of them); seed 5 at R = 1; seeds 6 to 7 (all of them)"
	if m := Missing(rows); len(m) != 1 || !strings.HasSuffix(m[0], want) {
		t.Errorf("missing %q, want it to end %q", m, want)
	}
	// A seed missing alone keeps the singular.
	rows = append(rows, row(1, algos.NameOracle), row(1, algos.NameCaraT), row(3, algos.NameOracle), row(3, algos.NameCaraT),
		row(5, algos.NameCaraT), row(6, algos.NameOracle), row(6, algos.NameCaraT), row(7, algos.NameOracle), row(7, algos.NameCaraT))
	if m := Missing(rows); len(m) != 1 || !strings.HasSuffix(m[0], "lacks 2 of its 16 rows: seed 2 (all of it)") {
		t.Errorf("missing %q", m)
	}
}
