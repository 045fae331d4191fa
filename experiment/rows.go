package experiment

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/cara-sim/cara/algos"
)

// SweepRow is one line of a sweep file (`cara sweep -o results.jsonl`, the README's contract): one
// algorithm at one retraining cost and seed. Undefined numbers (SCPE when the Oracle's cost is
// <= 0, accuracy without query labels, an unbounded threshold) are null in the file and NaN here.
type SweepRow struct {
	Scenario       string         `json:"scenario"`
	Seed           uint64         `json:"seed"`
	RetrainCost    float64        `json:"retrain_cost"`
	Algorithm      algos.Name     `json:"algorithm"`
	StrategyCost   Num            `json:"strategy_cost"`
	SCPE           Num            `json:"scpe"`
	Gap            Num            `json:"gap"`
	QueryAccuracy  Num            `json:"query_accuracy"`
	Retrains       int            `json:"retrains"`
	RetrainBatches []int          `json:"retrain_batches"`
	Params         map[string]Num `json:"params"`
	OfflineCost    Num            `json:"offline_cost"`
	Warnings       []string       `json:"warnings"`
	// ScenarioHash is the scenario's Hash (its resolved file and data): a sweep resumes only into
	// rows of the same hash, and merge joins only those. "" in files of an older cara.
	ScenarioHash string `json:"scenario_hash,omitempty"`
}

// RowOf is one algorithm's result at (seed, R) as a sweep line, with the warnings of that seed
// and cost.
func RowOf(scenario string, seed uint64, r float64, x algos.Result, warnings []string) SweepRow {
	j := ResultOf(x)
	return SweepRow{Scenario: scenario, Seed: seed, RetrainCost: r, Algorithm: j.Algorithm,
		StrategyCost: j.StrategyCost, SCPE: j.SCPE, Gap: j.Gap, QueryAccuracy: j.QueryAccuracy,
		Retrains: len(j.Retrains), RetrainBatches: j.Retrains, Params: j.Params, OfflineCost: j.OfflineCost,
		Warnings: nonNil(warnings)}
}

// RowKey identifies a row for resuming and merging. Costs are compared through their shortest
// decimal form, which round-trips through JSON exactly.
type RowKey struct {
	Scenario  string
	Seed      uint64
	R         string
	Algorithm algos.Name
}

// Key is the row's RowKey.
func (r SweepRow) Key() RowKey {
	return RowKey{r.Scenario, r.Seed, strconv.FormatFloat(r.RetrainCost, 'g', -1, 64), r.Algorithm}
}

// WriteRow writes one row as one line, in one write: an interruption never leaves half a row
// behind (and a torn line from a crash is dropped on resume).
func WriteRow(w io.Writer, r SweepRow) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteRows writes rows one a line.
func WriteRows(w io.Writer, rows []SweepRow) error {
	bw := bufio.NewWriter(w)
	for _, r := range rows {
		if err := WriteRow(bw, r); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// ReadRows reads a sweep file, reporting a malformed line as name:line. A last line without its
// newline (an interrupted write) is dropped when tolerateTorn is set, and the offset where the
// whole lines end returned; otherwise it is read like the others.
func ReadRows(r io.Reader, name string, tolerateTorn bool) ([]SweepRow, int64, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, 0, err
	}
	good := int64(len(data))
	if tolerateTorn && len(data) > 0 && data[len(data)-1] != '\n' {
		good = int64(bytes.LastIndexByte(data, '\n') + 1)
		data = data[:good]
	}
	var rows []SweepRow
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		row, err := parseRow(b)
		if err != nil {
			return nil, 0, fmt.Errorf("%s:%d: not a sweep line: %v", name, line, err)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", name, err)
	}
	return rows, good, nil
}

func parseRow(b []byte) (SweepRow, error) {
	var row SweepRow
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&row); err != nil {
		return row, err
	}
	if row.Scenario == "" || row.Algorithm == "" {
		return row, errors.New("scenario and algorithm are required")
	}
	return row, nil
}

// SortRows orders rows by scenario, seed, cost and the algorithms' display order.
func SortRows(rows []SweepRow) {
	slices.SortStableFunc(rows, func(a, b SweepRow) int {
		switch {
		case a.Scenario != b.Scenario:
			return strings.Compare(a.Scenario, b.Scenario)
		case a.Seed != b.Seed:
			if a.Seed < b.Seed {
				return -1
			}
			return 1
		case a.RetrainCost != b.RetrainCost:
			if a.RetrainCost < b.RetrainCost {
				return -1
			}
			return 1
		}
		return a.Algorithm.Rank() - b.Algorithm.Rank()
	})
}

// Merge joins the rows of several sweep files (shards), the first of duplicate rows kept, sorted.
// Rows of one scenario name but different content (ScenarioHash) are an error: they are two
// sweeps, and averaging them would mean nothing.
func Merge(files ...[]SweepRow) ([]SweepRow, error) {
	var all []SweepRow
	seen := map[RowKey]bool{}
	hashes := map[string]string{}
	for _, rows := range files {
		for _, r := range rows {
			if h, ok := hashes[r.Scenario]; ok && h != r.ScenarioHash {
				return nil, fmt.Errorf("rows of %s come from two different scenarios (hashes %q and %q): sweep them into separate files", r.Scenario, h, r.ScenarioHash)
			}
			hashes[r.Scenario] = r.ScenarioHash
			if k := r.Key(); !seen[k] {
				seen[k] = true
				all = append(all, r)
			}
		}
	}
	SortRows(all)
	return all, nil
}
