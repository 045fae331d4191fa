package experiment

import (
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

// The Parquet outputs (docs/schemas/) are long tables, one row per cell, per (seed, algorithm)
// or per sweep line, so that pandas, polars and DuckDB read them as they are. A number the JSON
// writes as null (NaN: SCPE when the Oracle's cost is <= 0, accuracy without query labels, a
// parameter the algorithm has not) is a null; an infinite threshold (never retrain) stays +Inf,
// as CSV writes it. What is one value for the whole file (the scenario, gamma, the warnings) is
// in the file's key-value metadata under "cara", as JSON.

// parquetRowGroup bounds what a writer holds before it writes: rows go out in groups of this
// many, so a 3000-batch matrix (4.5 million cells) is written in 35 pieces, not kept whole.
const parquetRowGroup = 1 << 17

// MetadataKey is the key of the file's metadata that cara's Parquet outputs write.
const MetadataKey = "cara"

// parquetNum is a number as the Parquet outputs write it: nil (null) for NaN.
func parquetNum(f float64) *float64 {
	if math.IsNaN(f) {
		return nil
	}
	return &f
}

// param is a tuned parameter as a Parquet column: nil when the algorithm has none.
func param(p map[string]Num, key string) *float64 {
	if v, ok := p[key]; ok {
		return parquetNum(float64(v))
	}
	return nil
}

func newParquetWriter[T any](w io.Writer, meta any) (*parquet.GenericWriter[T], error) {
	b, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	return parquet.NewGenericWriter[T](w, parquet.Compression(&snappy.Codec{}),
		parquet.MaxRowsPerRowGroup(parquetRowGroup), parquet.KeyValueMetadata(MetadataKey, string(b))), nil
}

// writeAll writes rows made by next (false when there are none left) in chunks, then closes.
func writeAll[T any](pw *parquet.GenericWriter[T], next func(*T) bool) error {
	chunk := make([]T, 0, 4096)
	for {
		var row T
		more := next(&row)
		if more {
			chunk = append(chunk, row)
		}
		if len(chunk) == cap(chunk) || (!more && len(chunk) > 0) {
			if _, err := pw.Write(chunk); err != nil {
				return err
			}
			chunk = chunk[:0]
		}
		if !more {
			return pw.Close()
		}
	}
}

// MatrixCell is one row of `cara matrix --format parquet`: one computed cell (t', t), t' <= t.
// C's diagonal holds R_t, as in the JSON.
type MatrixCell struct {
	TPrime        int32    `parquet:"t_prime"`
	T             int32    `parquet:"t"`
	A             *float64 `parquet:"A,optional"`
	B             *float64 `parquet:"B,optional"`
	C             *float64 `parquet:"C,optional"`
	ErrorRate     *float64 `parquet:"error_rate,optional"`
	QueryAccuracy *float64 `parquet:"query_accuracy,optional"`
}

// MatrixMeta is the metadata of a matrix's Parquet file.
type MatrixMeta struct {
	Scenario string      `json:"scenario"`
	Batches  int         `json:"batches"`
	Offline  int         `json:"offline"`
	Gamma    float64     `json:"gamma"`
	Drifts   []sim.Drift `json:"drifts"`
	Warnings []string    `json:"warnings"`
}

// WriteMatrixParquet writes one row per computed cell, column by column (the order of the CSV).
func WriteMatrixParquet(w io.Writer, m *sim.Matrix, r algos.RetrainCost) error {
	drifts := m.Drifts
	if drifts == nil {
		drifts = []sim.Drift{}
	}
	pw, err := newParquetWriter[MatrixCell](w, MatrixMeta{m.Scenario, m.Batches(), m.Offline(), m.Gamma, drifts,
		nonNil(algos.MatrixWarnings(m, m.Batches()-1))})
	if err != nil {
		return err
	}
	tp, t := 0, 0
	return writeAll(pw, func(row *MatrixCell) bool {
		for ; t < m.Batches(); t, tp = t+1, 0 {
			for ; tp <= t; tp++ {
				c := m.Cell(tp, t)
				if !c.Done {
					continue
				}
				cv := c.C()
				if tp == t {
					cv = r(t)
				}
				*row = MatrixCell{int32(tp), int32(t), parquetNum(c.A), parquetNum(c.B), parquetNum(cv),
					parquetNum(c.ErrorRate), parquetNum(c.QueryAccuracy)}
				tp++
				return true
			}
		}
		return false
	})
}

// RunRow is one row of `cara run --format parquet`: one algorithm on one seed (the CSV's columns,
// with the retrain batches, the optimal interval of CARA-T's or CARA-CT's threshold, and a
// detector's alarms and score).
type RunRow struct {
	Scenario      string   `parquet:"scenario"`
	RetrainCost   string   `parquet:"retrain_cost"`
	Seed          uint64   `parquet:"seed"`
	Algorithm     string   `parquet:"algorithm"`
	StrategyCost  *float64 `parquet:"strategy_cost,optional"`
	SCPE          *float64 `parquet:"scpe,optional"`
	Gap           *float64 `parquet:"gap,optional"`
	QueryAccuracy *float64 `parquet:"query_accuracy,optional"`
	RetrainCount  int32    `parquet:"retrain_count"`
	Retrains      []int32  `parquet:"retrains,list"`
	Theta         *float64 `parquet:"theta,optional"`
	ThetaC        *float64 `parquet:"theta_c,optional"`
	Period        *float64 `parquet:"period,optional"`
	Offset        *float64 `parquet:"offset,optional"`
	OfflineCost   *float64 `parquet:"offline_cost,optional"`
	OptimalLow    *float64 `parquet:"optimal_low,optional"`
	OptimalHigh   *float64 `parquet:"optimal_high,optional"`
	// A detector's alarms and their score against the known drifts (null where not scored).
	Alarms      []int32  `parquet:"alarms,list"`
	Detected    *float64 `parquet:"detected,optional"`
	Missed      *float64 `parquet:"missed,optional"`
	FalseAlarms *float64 `parquet:"false_alarm_count,optional"`
	MeanDelay   *float64 `parquet:"mean_delay,optional"`
}

// RunMeta is the metadata of a run's Parquet file.
type RunMeta struct {
	Scenario    string   `json:"scenario"`
	RetrainCost CostText `json:"retrain_cost"`
	Seeds       []uint64 `json:"seeds"`
	Warnings    []string `json:"warnings"`
}

// WriteParquet writes one row per seed and algorithm, as WriteCSV.
func (r Run) WriteParquet(w io.Writer) error {
	pw, err := newParquetWriter[RunRow](w, RunMeta{r.Scenario, r.RetrainCost, r.Seeds, r.Warnings})
	if err != nil {
		return err
	}
	var rows []RunRow
	for _, run := range r.seedRuns() {
		for _, x := range run.Results {
			row := RunRow{Scenario: r.Scenario, RetrainCost: string(r.RetrainCost), Seed: run.Seed, Algorithm: string(x.Algorithm),
				StrategyCost: parquetNum(float64(x.StrategyCost)), SCPE: parquetNum(float64(x.SCPE)), Gap: parquetNum(float64(x.Gap)),
				QueryAccuracy: parquetNum(float64(x.QueryAccuracy)), RetrainCount: int32(x.RetrainCount), Retrains: int32s(x.Retrains),
				Theta: param(x.Params, "theta"), ThetaC: param(x.Params, "theta_c"), Period: param(x.Params, "period"),
				Offset: param(x.Params, "offset"), OfflineCost: parquetNum(float64(x.OfflineCost))}
			if o := x.Optimal; o != nil {
				row.OptimalLow, row.OptimalHigh = parquetInterval(o.Low), parquetInterval(o.High)
			}
			row.Alarms = int32s(x.Alarms)
			if d := x.Detection; d != nil {
				row.Detected, row.Missed = parquetNum(float64(d.Detected)), parquetNum(float64(d.Missed))
				row.FalseAlarms, row.MeanDelay = parquetNum(float64(d.FalseCount)), parquetNum(float64(d.MeanDelay))
			}
			rows = append(rows, row)
		}
	}
	i := 0
	return writeAll(pw, func(row *RunRow) bool {
		if i == len(rows) {
			return false
		}
		*row = rows[i]
		i++
		return true
	})
}

// parquetInterval is an end of an optimal interval: null when unbounded (as in the JSON).
func parquetInterval(n Num) *float64 {
	if !n.Defined() {
		return nil
	}
	f := float64(n)
	return &f
}

func int32s(v []int) []int32 {
	out := make([]int32, len(v))
	for i, x := range v {
		out[i] = int32(x)
	}
	return out
}

// SweepParquetRow is one row of a sweep merged to Parquet (`cara merge -o x.parquet`): a sweep
// line, its parameters and its sweep's grid as columns.
type SweepParquetRow struct {
	Scenario          string   `parquet:"scenario"`
	Seed              uint64   `parquet:"seed"`
	RetrainCost       float64  `parquet:"retrain_cost"`
	Algorithm         string   `parquet:"algorithm"`
	StrategyCost      *float64 `parquet:"strategy_cost,optional"`
	SCPE              *float64 `parquet:"scpe,optional"`
	Gap               *float64 `parquet:"gap,optional"`
	QueryAccuracy     *float64 `parquet:"query_accuracy,optional"`
	Retrains          int32    `parquet:"retrains"`
	RetrainBatches    []int32  `parquet:"retrain_batches,list"`
	Theta             *float64 `parquet:"theta,optional"`
	ThetaC            *float64 `parquet:"theta_c,optional"`
	Period            *float64 `parquet:"period,optional"`
	Offset            *float64 `parquet:"offset,optional"`
	OfflineCost       *float64 `parquet:"offline_cost,optional"`
	Warnings          []string `parquet:"warnings,list"`
	ScenarioHash      string   `parquet:"scenario_hash"`
	Costs             string   `parquet:"costs"`
	FirstSeed         uint64   `parquet:"first_seed"`
	Seeds             int32    `parquet:"seeds"`
	RMax              *float64 `parquet:"r_max,optional"`
	RetrainCostScales string   `parquet:"retrain_cost_scales"`
}

// WriteRowsParquet writes sweep rows as Parquet, one row each, in order.
func WriteRowsParquet(w io.Writer, rows []SweepRow) error {
	pw, err := newParquetWriter[SweepParquetRow](w, map[string]string{"format": "cara sweep rows", "rows": strconv.Itoa(len(rows))})
	if err != nil {
		return err
	}
	i := 0
	return writeAll(pw, func(p *SweepParquetRow) bool {
		if i == len(rows) {
			return false
		}
		r := rows[i]
		i++
		*p = SweepParquetRow{Scenario: r.Scenario, Seed: r.Seed, RetrainCost: r.RetrainCost, Algorithm: string(r.Algorithm),
			StrategyCost: parquetNum(float64(r.StrategyCost)), SCPE: parquetNum(float64(r.SCPE)), Gap: parquetNum(float64(r.Gap)),
			QueryAccuracy: parquetNum(float64(r.QueryAccuracy)), Retrains: int32(r.Retrains), RetrainBatches: int32s(r.RetrainBatches),
			Theta: param(r.Params, "theta"), ThetaC: param(r.Params, "theta_c"), Period: param(r.Params, "period"),
			Offset: param(r.Params, "offset"), OfflineCost: parquetNum(float64(r.OfflineCost)), Warnings: nonNil(r.Warnings),
			ScenarioHash: r.ScenarioHash, RetrainCostScales: r.RetrainCostScales}
		if sw := r.Sweep; sw != nil {
			p.Costs, p.FirstSeed, p.Seeds = sw.Costs, sw.FirstSeed, int32(sw.Seeds)
			if sw.RMax != nil {
				p.RMax = parquetNum(*sw.RMax)
			}
		}
		return true
	})
}
