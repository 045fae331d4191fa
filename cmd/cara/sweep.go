package main

import (
	"bufio"
	"bytes"
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

// costs lists the retraining costs; auto spreads n steps over (0, R_max] of that seed's matrix.
func (c costSpec) costs(m *sim.Matrix) []float64 {
	out := make([]float64, c.n)
	if c.auto {
		rmax := algos.RMax(m)
		if rmax <= 0 {
			rmax = 1e-6 // never retraining is optimal at any cost: a tiny range still shows it
		}
		for i := range out {
			out[i] = rmax * float64(i+1) / float64(c.n)
		}
		return out
	}
	for i := range out {
		if c.n == 1 {
			out[i] = c.from
		} else {
			out[i] = c.from + (c.to-c.from)*float64(i)/float64(c.n-1)
		}
	}
	return out
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
			return sweep(cmd, s.Name, seeds, cs, sh, out, func(seed uint64) (*sim.Matrix, error) {
				return computeMatrix(cmd.Context(), s, seed, workers(cmd), true, sim.ColumnOrder, nil)
			}, s.Seed, s.Algorithms)
		},
	}
	f.register(cmd, false)
	cmd.Flags().StringVar(&costsFlag, "costs", "auto", "auto (25 steps over (0, R_max]) or FROM:TO:N")
	cmd.Flags().IntVar(&seeds, "seeds", 1, "seeds to run: the scenario's seed, seed+1, ...")
	cmd.Flags().StringVar(&shardFlag, "shard", "", "run part I of N (I/N), for batch schedulers")
	cmd.Flags().StringVarP(&out, "output", "o", "", "the results file (JSON lines); appended to and resumed")
	return cmd
}

// sweep runs the units of this shard that the output file does not hold yet.
func sweep(cmd *cobra.Command, name string, seeds int, cs costSpec, sh shard, out string,
	matrix func(seed uint64) (*sim.Matrix, error), seed0 uint64, names []string) error {
	done := map[rowKey]bool{}
	file, err := os.OpenFile(out, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer file.Close()
	rows, good, err := readRows(file, out, true)
	if err != nil {
		return fmt.Errorf("%w (not resuming into a file that is not a sweep file)", err)
	}
	if err := file.Truncate(good); err != nil {
		return err
	}
	if _, err := file.Seek(good, io.SeekStart); err != nil {
		return err
	}
	for _, r := range rows {
		done[keyOf(r)] = true
	}
	total := 0
	for k := 0; k < seeds*cs.n; k++ {
		if sh.has(k) {
			total++
		}
	}
	bar := newProgress(cmd.ErrOrStderr(), total)
	unit := 0
	for si := range seeds {
		seed := seed0 + uint64(si)
		var mine []int
		for ri := range cs.n {
			if sh.has(si*cs.n + ri) {
				mine = append(mine, ri)
			}
		}
		if len(mine) == 0 {
			continue
		}
		// Fixed costs tell which units are done before any work; auto costs need the matrix.
		var m *sim.Matrix
		var costs []float64
		if !cs.auto {
			costs = cs.costs(nil)
			all := true
			for _, ri := range mine {
				for _, a := range names {
					all = all && done[keyOf(sweepRow{Scenario: name, Seed: seed, RetrainCost: costs[ri], Algorithm: a})]
				}
			}
			if all {
				unit += len(mine)
				bar.set(unit, "seed %d already done", seed)
				continue
			}
		}
		bar.set(unit, "seed %d: computing the matrix", seed)
		if m, err = matrix(seed); err != nil {
			return err
		}
		costs = cs.costs(m)
		for _, ri := range mine {
			if err := cmd.Context().Err(); err != nil {
				return err
			}
			r := costs[ri]
			res, err := algos.Evaluate(m, algos.Constant(r), names, m.T-1)
			if err != nil {
				return err
			}
			for _, x := range res {
				j := resultOf(x)
				row := sweepRow{Scenario: name, Seed: seed, RetrainCost: r, Algorithm: j.Algorithm,
					StrategyCost: j.StrategyCost, SCPE: j.SCPE, Gap: j.Gap, QueryAccuracy: j.QueryAccuracy,
					Retrains: len(j.Retrains), RetrainBatches: j.Retrains, Params: j.Params, OfflineCost: j.OfflineCost}
				if done[keyOf(row)] {
					continue
				}
				b, err := json.Marshal(row)
				if err != nil {
					return err
				}
				// One write per whole line: an interruption never leaves half a row behind
				// (and a torn line from a crash is dropped on resume).
				if _, err := file.Write(append(b, '\n')); err != nil {
					return err
				}
				done[keyOf(row)] = true
			}
			unit++
			bar.set(unit, "seed %d, R = %.4g", seed, r)
		}
	}
	bar.finish()
	return file.Sync()
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
