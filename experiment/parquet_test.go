package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

// same reports whether a nullable column holds v: null for NaN.
func same(p *float64, v float64) bool {
	if math.IsNaN(v) {
		return p == nil
	}
	return p != nil && *p == v
}

// The streamed JSON is encoding/json's own encoding of the contract type, byte for byte: built here
// the old way (a Matrix of *Num grids, json.Encoder) from the same cells, with the numbers JSON
// writes in exponent form (1e-7, 1e21) and null (NaN) among them.
func TestWriteMatrixJSONIsTheContract(t *testing.T) {
	t.Parallel()
	s := loadSmall(t)
	m, err := plainMatrix(context.Background(), s, s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	odd := []float64{1e-7, -2.5e-9, 1e21, 123456789012345678901234.0, 0, math.Copysign(0, -1), math.NaN(), 0.1}
	for i, v := range odd {
		c := m.Cell(0, i+1)
		c.A = v
	}
	r := algos.Constant(0.5)
	var got bytes.Buffer
	if err := WriteMatrixJSON(&got, m, r); err != nil {
		t.Fatal(err)
	}
	T := m.Batches()
	grid := func(get func(tp, t int, c *sim.Cell) float64) [][]*Num {
		g := make([][]*Num, T)
		for tp := range g {
			g[tp] = make([]*Num, T)
			for tt := tp; tt < T; tt++ {
				if c := m.Cell(tp, tt); c.Done {
					if v := get(tp, tt, c); !math.IsNaN(v) && !math.IsInf(v, 0) {
						n := Num(v)
						g[tp][tt] = &n
					}
				}
			}
		}
		return g
	}
	want := Matrix{Scenario: m.Scenario, Batches: T, Offline: m.Offline(), Gamma: m.Gamma,
		A:             grid(func(_, _ int, c *sim.Cell) float64 { return c.A }),
		B:             grid(func(_, _ int, c *sim.Cell) float64 { return c.B }),
		C:             grid(func(tp, tt int, c *sim.Cell) float64 { return map[bool]float64{true: r(tt), false: c.C()}[tp == tt] }),
		ErrorRate:     grid(func(_, _ int, c *sim.Cell) float64 { return c.ErrorRate }),
		QueryAccuracy: grid(func(_, _ int, c *sim.Cell) float64 { return c.QueryAccuracy }),
		Drifts:        m.Drifts, Warnings: nonNil(algos.MatrixWarnings(m, T-1))}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(want); err != nil {
		t.Fatal(err)
	}
	if got.String() != buf.String() {
		t.Fatalf("streamed JSON differs from encoding/json's:\n got %.300s\nwant %.300s", got.String(), buf.String())
	}
	if !strings.Contains(got.String(), "1e-7") || !strings.Contains(got.String(), "1e+21") {
		t.Errorf("the odd numbers are not in the output: %.300s", got.String())
	}
	back, err := ReadMatrix(&got)
	if err != nil || back.Batches != T {
		t.Fatalf("ReadMatrix: %v", err)
	}
}

// A matrix, a run and sweep rows written as Parquet read back (with parquet-go, as pandas, polars
// and DuckDB would read them) with every computed cell, result and row, NaN as null, +Inf kept,
// and the file's metadata.
func TestParquetReadsBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := loadSmall(t)
	m, err := plainMatrix(ctx, s, s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteMatrixParquet(&buf, m, s.RetrainCost); err != nil {
		t.Fatal(err)
	}
	cells, err := parquet.Read[MatrixCell](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	T := m.Batches()
	if len(cells) != T*(T+1)/2 {
		t.Fatalf("%d rows, want %d cells", len(cells), T*(T+1)/2)
	}
	for _, c := range cells {
		tp, tt := int(c.TPrime), int(c.T)
		want := m.Cell(tp, tt)
		wantC := want.C()
		if tp == tt {
			wantC = s.RetrainCost(tt)
		}
		if !same(c.A, want.A) || !same(c.B, want.B) || !same(c.C, wantC) || !same(c.ErrorRate, want.ErrorRate) || !same(c.QueryAccuracy, want.QueryAccuracy) {
			t.Fatalf("cell (%d, %d): %+v, want %+v", tp, tt, c, want)
		}
	}
	f, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var meta MatrixMeta
	if v, ok := f.Lookup(MetadataKey); !ok || json.Unmarshal([]byte(v), &meta) != nil || meta.Batches != T || meta.Gamma != m.Gamma || len(meta.Warnings) == 0 {
		t.Errorf("metadata %q: %+v", v, meta)
	}

	run, err := RunSeeds(ctx, s, 2, plainMatrix, nil)
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := run.WriteParquet(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := parquet.Read[RunRow](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2*len(run.Runs[0].Results) {
		t.Fatalf("%d run rows, want %d", len(rows), 2*len(run.Runs[0].Results))
	}
	for i, row := range rows {
		x := run.Runs[i/len(run.Runs[0].Results)].Results[i%len(run.Runs[0].Results)]
		if row.Algorithm != string(x.Algorithm) || *row.StrategyCost != float64(x.StrategyCost) || len(row.Retrains) != len(x.Retrains) {
			t.Errorf("row %d: %+v, want %+v", i, row, x)
		}
		if (row.Theta != nil) != (x.Algorithm == algos.NameCaraT) || (row.OptimalHigh != nil || row.OptimalLow != nil) && x.Optimal == nil {
			t.Errorf("row %d (%s): theta %v, optimal (%v, %v]", i, row.Algorithm, row.Theta, row.OptimalLow, row.OptimalHigh)
		}
	}

	// A matrix without query labels: accuracy null in every row.
	buf.Reset()
	for tt := range T {
		for tp := 0; tp <= tt; tp++ {
			m.Cell(tp, tt).QueryAccuracy = math.NaN()
		}
	}
	if err := WriteMatrixParquet(&buf, m, s.RetrainCost); err != nil {
		t.Fatal(err)
	}
	if cells, err = parquet.Read[MatrixCell](bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil || cells[3].QueryAccuracy != nil || cells[3].A == nil {
		t.Errorf("NaN accuracy read back as %v (%v)", cells[3].QueryAccuracy, err)
	}

	inf := math.Inf(1)
	sweep := []SweepRow{
		{Scenario: "a", Seed: 1, RetrainCost: 2, Algorithm: algos.NameCaraT, StrategyCost: 3, SCPE: Num(math.NaN()), Retrains: 1,
			RetrainBatches: []int{7}, Params: map[string]Num{"theta": Num(inf)}, Warnings: []string{"w"}, Sweep: &SweepOf{Costs: "auto:25", Seeds: 2}},
		{Scenario: "a", Seed: 1, RetrainCost: 2, Algorithm: algos.NameNever, StrategyCost: 4},
	}
	buf.Reset()
	if err := WriteRowsParquet(&buf, sweep); err != nil {
		t.Fatal(err)
	}
	got, err := parquet.Read[SweepParquetRow](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].SCPE != nil || !math.IsInf(*got[0].Theta, 1) || got[0].RetrainBatches[0] != 7 || got[0].Warnings[0] != "w" ||
		got[0].Costs != "auto:25" || got[0].RMax != nil || got[1].Theta != nil || *got[1].StrategyCost != 4 {
		t.Errorf("sweep rows read back as %+v", got)
	}
}
