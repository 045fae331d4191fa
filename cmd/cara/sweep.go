package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// sweepRow is one line of a sweep file: one algorithm at one retraining cost and seed (the README
// documents it; `cara plot` and `cara merge` read it).
type sweepRow struct {
	Scenario       string         `json:"scenario"`
	Seed           uint64         `json:"seed"`
	RetrainCost    float64        `json:"retrain_cost"`
	Algorithm      string         `json:"algorithm"`
	StrategyCost   num            `json:"strategy_cost"`
	SCPE           num            `json:"scpe"`
	Gap            num            `json:"gap"`
	QueryAccuracy  num            `json:"query_accuracy"`
	Retrains       int            `json:"retrains"`
	RetrainBatches []int          `json:"retrain_batches"`
	Params         map[string]num `json:"params"`
	OfflineCost    num            `json:"offline_cost"`
	Warnings       []string       `json:"warnings"`
}

// rowKey identifies a row for resuming and merging. Costs are compared through their shortest
// decimal form, which round-trips through JSON exactly.
type rowKey struct {
	scenario  string
	seed      uint64
	r         string
	algorithm string
}

func keyOf(r sweepRow) rowKey {
	return rowKey{r.Scenario, r.Seed, strconv.FormatFloat(r.RetrainCost, 'g', -1, 64), r.Algorithm}
}

// costSpec is --costs: auto, or FROM:TO:N evenly spaced (both ends included).
type costSpec struct {
	auto     bool
	from, to float64
	n        int
}

const autoSteps = 25

func parseCosts(s string) (costSpec, error) {
	if s == "auto" {
		return costSpec{auto: true, n: autoSteps}, nil
	}
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return costSpec{}, usagef("--costs must be auto or FROM:TO:N (e.g. 1:100:25), got %q", s)
	}
	from, e1 := strconv.ParseFloat(parts[0], 64)
	to, e2 := strconv.ParseFloat(parts[1], 64)
	n, e3 := strconv.Atoi(parts[2])
	if e1 != nil || e2 != nil || e3 != nil || n < 1 || !(from >= 0) || !(to >= from) || math.IsInf(to, 0) {
		return costSpec{}, usagef("--costs FROM:TO:N needs 0 <= FROM <= TO and N >= 1, got %q", s)
	}
	return costSpec{from: from, to: to, n: n}, nil
}

// grid lists the retraining costs: FROM:TO:N evenly spaced, or for auto n steps over (0, R_max]
// with R_max the largest over the seeds (rmaxes), so that every seed replays the same costs and a
// plot over seeds averages like with like. warning is set when R_max is about 0.
func (c costSpec) grid(rmaxes []float64, scale float64) (costs []float64, warning string) {
	out := make([]float64, c.n)
	if !c.auto {
		for i := range out {
			if c.n == 1 {
				out[i] = c.from
			} else {
				out[i] = c.from + (c.to-c.from)*float64(i)/float64(c.n-1)
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
		out[i] = rmax * float64(i+1) / float64(c.n)
	}
	return out, warning
}

// negligible is how small R_max is against the offline block's typical |C| to count as about 0.
const negligible = 1e-6

// offlineScale is the mean |C[t', t]| over the offline block's off-diagonal cells: the scale an
// R_max is compared with.
func offlineScale(m algos.Matrix) float64 {
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

// offlineMatrix computes only the offline block of a seed's matrix (and one online column, which
// the engine needs): R_max reads nothing else, and every cell is the full run's, bit for bit.
func offlineMatrix(ctx context.Context, s *scenarios.Scenario, seed uint64, workers int) (*sim.Matrix, error) {
	cfg, err := s.Config(seed)
	if err != nil {
		return nil, err
	}
	cfg.Stream = prefixStream{cfg.Stream, s.Offline + 1}
	cfg.Workers, cfg.SkipCross = workers, true
	return sim.Run(ctx, cfg, nil)
}

// autoGrid is the auto cost grid of seeds seed0.. seed0+seeds-1: R_max of each from its offline
// block, one grid from the largest.
func autoGrid(ctx context.Context, cs costSpec, seed0 uint64, seeds int, offline func(seed uint64) (*sim.Matrix, error)) ([]float64, string, error) {
	if !cs.auto {
		costs, _ := cs.grid(nil, 0)
		return costs, "", nil
	}
	var rmaxes []float64
	scale := 0.0
	for i := range seeds {
		m, err := offline(seed0 + uint64(i))
		if err != nil {
			return nil, "", err
		}
		if err := ctx.Err(); err != nil {
			return nil, "", err
		}
		rmaxes = append(rmaxes, algos.RMax(m))
		scale = max(scale, offlineScale(m))
	}
	costs, warning := cs.grid(rmaxes, scale)
	return costs, warning, nil
}

// shard is --shard I/N: this run does the units (seed, cost index) whose index k over all units,
// in order, has k % N == I-1, so N runs with I = 1..N share the work without overlap.
type shard struct{ i, n int }

func parseShard(s string) (shard, error) {
	if s == "" {
		return shard{1, 1}, nil
	}
	var i, n int
	if _, err := fmt.Sscanf(s, "%d/%d", &i, &n); err != nil || n < 1 || i < 1 || i > n || fmt.Sprintf("%d/%d", i, n) != s {
		return shard{}, usagef("--shard must be I/N with 1 <= I <= N (e.g. 2/8), got %q", s)
	}
	return shard{i, n}, nil
}

func (s shard) has(k int) bool { return k%s.n == s.i-1 }

// readRows reads a sweep file, reporting a malformed line as name:line. A last line without its
// newline (an interrupted write) is dropped when tolerateTorn is set, and its offset returned.
func readRows(r io.Reader, name string, tolerateTorn bool) ([]sweepRow, int64, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, 0, err
	}
	good := int64(len(data))
	if tolerateTorn && len(data) > 0 && data[len(data)-1] != '\n' {
		good = int64(bytes.LastIndexByte(data, '\n') + 1)
		data = data[:good]
	}
	var rows []sweepRow
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var row sweepRow
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&row); err != nil || row.Scenario == "" || row.Algorithm == "" {
			if err == nil {
				err = errors.New("scenario and algorithm are required")
			}
			return nil, 0, fmt.Errorf("%s:%d: not a sweep line: %v", name, line, err)
		}
		rows = append(rows, row)
	}
	return rows, good, sc.Err()
}

func newSweepCmd() *cobra.Command {
	var f scenarioFlags
	var costsFlag, shardFlag, out string
	var seeds int
	cmd := &cobra.Command{
		Use:   "sweep SCENARIO|FILE -o results.jsonl",
		Short: "Run every algorithm over a range of retraining costs and seeds, one JSON line per result",
		Long: `sweep writes the data of the paper's figures 5 and 6: every (seed, R, algorithm) as one JSON
line. The matrix is computed once per seed; every R replays it. An interrupted sweep leaves a valid
file; running the same command again resumes, skipping the rows already there. --shard I/N runs
one of N disjoint parts, for a batch scheduler; cara merge joins the parts.`,
		Example: `  cara sweep covcon-d --seeds 5 -o covcon-d.jsonl
  cara sweep covcon-d --costs 1:100:50 -o r.jsonl
  cara sweep covcon-d --seeds 5 --shard 3/8 -o part3.jsonl && cara merge -o all.jsonl part*.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usagef("sweep needs -o FILE (the results, one JSON line each)")
			}
			if seeds < 1 {
				return usagef("--seeds must be >= 1, got %d", seeds)
			}
			cs, err := parseCosts(costsFlag)
			if err != nil {
				return err
			}
			sh, err := parseShard(shardFlag)
			if err != nil {
				return err
			}
			s, err := f.load(args[0])
			if err != nil {
				return err
			}
			if err := checkOutputFile(out); err != nil {
				return err
			}
			job := sweepJob{name: s.Name, seed0: s.Seed, seeds: seeds, costs: cs, shard: sh, out: out,
				names: s.Algorithms, eval: s.Evaluation,
				matrix: func(seed uint64) (*sim.Matrix, error) {
					return computeMatrix(cmd.Context(), s, seed, workers(cmd), true, sim.ColumnOrder, nil)
				},
				offline: func(seed uint64) (*sim.Matrix, error) {
					return offlineMatrix(cmd.Context(), s, seed, workers(cmd))
				}}
			warnings, err := job.run(cmd)
			for _, w := range warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "cara: warning:", w)
			}
			return err
		},
	}
	f.register(cmd, false)
	f.registerDetectorReset(cmd)
	cmd.Flags().StringVar(&costsFlag, "costs", "auto", "auto (25 steps over (0, R_max], R_max the largest over the seeds) or FROM:TO:N")
	cmd.Flags().IntVar(&seeds, "seeds", 1, "seeds to run: the scenario's seed, seed+1, ...")
	cmd.Flags().StringVar(&shardFlag, "shard", "", "run part I of N (I/N), for batch schedulers")
	cmd.Flags().StringVarP(&out, "output", "o", "", "the results file (JSON lines); appended to and resumed")
	return cmd
}

// sweepJob is one sweep: which units, where they go, and how to compute a seed's matrix (whole,
// and its offline block alone for the cost grid).
type sweepJob struct {
	name    string
	seed0   uint64
	seeds   int
	costs   costSpec
	shard   shard
	out     string
	names   []string
	eval    algos.Options
	matrix  func(seed uint64) (*sim.Matrix, error)
	offline func(seed uint64) (*sim.Matrix, error)
}

// run runs the units of this shard that the output file does not hold yet, and returns the
// distinct warnings of the rows it wrote.
func (j sweepJob) run(cmd *cobra.Command) ([]string, error) {
	done := map[rowKey]bool{}
	file, err := os.OpenFile(j.out, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	rows, good, err := readRows(file, j.out, true)
	if err != nil {
		return nil, fmt.Errorf("%w (not resuming into a file that is not a sweep file)", err)
	}
	if err := file.Truncate(good); err != nil {
		return nil, err
	}
	if _, err := file.Seek(good, io.SeekStart); err != nil {
		return nil, err
	}
	for _, r := range rows {
		done[keyOf(r)] = true
	}
	total := 0
	for k := 0; k < j.seeds*j.costs.n; k++ {
		if j.shard.has(k) {
			total++
		}
	}
	bar := newProgress(cmd.ErrOrStderr(), total)
	bar.set(0, "the cost grid: R_max of every seed's offline block")
	costs, gridWarning, err := autoGrid(cmd.Context(), j.costs, j.seed0, j.seeds, j.offline)
	if err != nil {
		return nil, err
	}
	var warnings []string
	warn := func(ws []string) {
		for _, w := range ws {
			if !slices.Contains(warnings, w) {
				warnings = append(warnings, w)
			}
		}
	}
	unit := 0
	for si := range j.seeds {
		seed := j.seed0 + uint64(si)
		var mine []int
		for ri := range j.costs.n {
			if j.shard.has(si*j.costs.n + ri) {
				mine = append(mine, ri)
			}
		}
		all := true
		for _, ri := range mine {
			for _, a := range j.names {
				all = all && done[keyOf(sweepRow{Scenario: j.name, Seed: seed, RetrainCost: costs[ri], Algorithm: a})]
			}
		}
		if all {
			unit += len(mine)
			bar.set(unit, "seed %d already done", seed)
			continue
		}
		bar.set(unit, "seed %d: computing the matrix", seed)
		m, err := j.matrix(seed)
		if err != nil {
			return warnings, err
		}
		for _, ri := range mine {
			if err := cmd.Context().Err(); err != nil {
				return warnings, err
			}
			r := costs[ri]
			res, err := j.eval.Evaluate(m, algos.Constant(r), j.names, m.T-1)
			if err != nil {
				return warnings, err
			}
			rowWarnings := algos.Warnings(m, m.T-1, res)
			if gridWarning != "" {
				rowWarnings = append(rowWarnings, gridWarning)
			}
			warn(rowWarnings)
			for _, x := range res {
				row := sweepRowOfResult(j.name, seed, r, x, rowWarnings)
				if done[keyOf(row)] {
					continue
				}
				b, err := json.Marshal(row)
				if err != nil {
					return warnings, err
				}
				// One write per whole line: an interruption never leaves half a row behind
				// (and a torn line from a crash is dropped on resume).
				if _, err := file.Write(append(b, '\n')); err != nil {
					return warnings, err
				}
				done[keyOf(row)] = true
			}
			unit++
			bar.set(unit, "seed %d, R = %.4g", seed, r)
		}
	}
	bar.finish()
	return warnings, file.Sync()
}

// sweepRowOfResult is one algorithm's result at (seed, R) as a sweep line.
func sweepRowOfResult(scenario string, seed uint64, r float64, x algos.Result, warnings []string) sweepRow {
	j := resultOf(x)
	return sweepRow{Scenario: scenario, Seed: seed, RetrainCost: r, Algorithm: j.Algorithm,
		StrategyCost: j.StrategyCost, SCPE: j.SCPE, Gap: j.Gap, QueryAccuracy: j.QueryAccuracy,
		Retrains: len(j.Retrains), RetrainBatches: j.Retrains, Params: j.Params, OfflineCost: j.OfflineCost,
		Warnings: nonNil(warnings)}
}

func newMergeCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:     "merge -o OUT FILE...",
		Short:   "Join sweep files (shards) into one, dropping duplicate rows",
		Example: `  cara merge -o covcon-d.jsonl part1.jsonl part2.jsonl part3.jsonl`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usagef("merge needs -o FILE")
			}
			if err := checkOutputFile(out); err != nil {
				return err
			}
			var all []sweepRow
			seen := map[rowKey]bool{}
			for _, path := range args {
				f, err := os.Open(path)
				if err != nil {
					return err
				}
				rows, _, err := readRows(f, path, false)
				f.Close()
				if err != nil {
					return err
				}
				for _, r := range rows {
					if k := keyOf(r); !seen[k] {
						seen[k] = true
						all = append(all, r)
					}
				}
			}
			sortRows(all)
			return writeOut(cmd.OutOrStdout(), out, func(w io.Writer) error {
				bw := bufio.NewWriter(w)
				for _, r := range all {
					b, err := json.Marshal(r)
					if err != nil {
						return err
					}
					bw.Write(append(b, '\n'))
				}
				return bw.Flush()
			})
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the merged file")
	return cmd
}

// sortRows orders rows by scenario, seed, cost and the algorithms' display order.
func sortRows(rows []sweepRow) {
	slices.SortStableFunc(rows, func(a, b sweepRow) int {
		switch {
		case a.Scenario != b.Scenario:
			return strings.Compare(a.Scenario, b.Scenario)
		case a.Seed != b.Seed:
			return cmpU(a.Seed, b.Seed)
		case a.RetrainCost != b.RetrainCost:
			if a.RetrainCost < b.RetrainCost {
				return -1
			}
			return 1
		}
		return slices.Index(algos.Names, a.Algorithm) - slices.Index(algos.Names, b.Algorithm)
	})
}

func cmpU(a, b uint64) int {
	if a < b {
		return -1
	}
	return 1
}
