package experiment

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

// Matrix is the contract of `cara matrix --format json` (docs/commands.md's): every matrix T x T,
// indexed [t'][t], null below the diagonal and where a cell is not computed; C's diagonal holds
// R_t.
type Matrix struct {
	Scenario      string      `json:"scenario"`
	Batches       int         `json:"batches"`
	Offline       int         `json:"offline"`
	Gamma         float64     `json:"gamma"`
	A             [][]*Num    `json:"A"`
	B             [][]*Num    `json:"B"`
	C             [][]*Num    `json:"C"`
	ErrorRate     [][]*Num    `json:"error_rate"`
	QueryAccuracy [][]*Num    `json:"query_accuracy"`
	Drifts        []sim.Drift `json:"drifts"`
	Warnings      []string    `json:"warnings"`
}

// WriteMatrixJSON writes m at retraining cost r as the contract (Matrix) writes it, one line of
// JSON, streamed: a grid's rows go out as they are formatted, so a 3000-batch matrix needs no copy
// of its 45 million numbers (as [][]*Num they were 0.9 GB beside the cells). The bytes are
// encoding/json's for Matrix, to the last digit.
func WriteMatrixJSON(w io.Writer, m *sim.Matrix, r algos.RetrainCost) error {
	T := m.Batches()
	drifts := m.Drifts
	if drifts == nil {
		drifts = []sim.Drift{}
	}
	head, err := json.Marshal(struct {
		Scenario string  `json:"scenario"`
		Batches  int     `json:"batches"`
		Offline  int     `json:"offline"`
		Gamma    float64 `json:"gamma"`
	}{m.Scenario, T, m.Offline(), m.Gamma})
	if err != nil {
		return err
	}
	tail, err := json.Marshal(struct {
		Drifts   []sim.Drift `json:"drifts"`
		Warnings []string    `json:"warnings"`
	}{drifts, nonNil(algos.MatrixWarnings(m, T-1))})
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.Write(head[:len(head)-1])
	grids := []struct {
		key   string
		value func(tp, t int, c *sim.Cell) float64
	}{
		{"A", func(_, _ int, c *sim.Cell) float64 { return c.A }},
		{"B", func(_, _ int, c *sim.Cell) float64 { return c.B }},
		{"C", func(tp, t int, c *sim.Cell) float64 {
			if tp == t {
				return r(t)
			}
			return c.C()
		}},
		{"error_rate", func(_, _ int, c *sim.Cell) float64 { return c.ErrorRate }},
		{"query_accuracy", func(_, _ int, c *sim.Cell) float64 { return c.QueryAccuracy }},
	}
	var buf []byte
	for _, g := range grids {
		bw.WriteString(`,"` + g.key + `":[`)
		for tp := range T {
			buf = append(buf[:0], '[')
			for t := range T {
				if t > 0 {
					buf = append(buf, ',')
				}
				v := math.NaN()
				if c := m.Cell(min(tp, t), t); tp <= t && c.Done {
					v = g.value(tp, t, c)
				}
				buf = appendJSONNum(buf, v)
			}
			buf = append(buf, ']')
			if tp < T-1 {
				buf = append(buf, ',')
			}
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
		bw.WriteByte(']')
	}
	bw.WriteByte(',')
	bw.Write(tail[1:])
	bw.WriteByte('\n')
	return bw.Flush()
}

// appendJSONNum appends f as encoding/json writes a float64 (its shortest decimal, in exponent
// form below 1e-6 and from 1e21 on, "e-07" as "e-7"), null when it is NaN or infinite (Num).
func appendJSONNum(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// eachCell calls f on every computed cell, column by column, with C's value (R_t on the diagonal).
func eachCell(m *sim.Matrix, r algos.RetrainCost, f func(tp, t int, c *sim.Cell, cv float64)) {
	for t := range m.Batches() {
		for tp := 0; tp <= t; tp++ {
			c := m.Cell(tp, t)
			if !c.Done {
				continue
			}
			cv := c.C()
			if tp == t {
				cv = r(t)
			}
			f(tp, t, c, cv)
		}
	}
}

// ReadMatrix reads a matrix written by WriteJSON.
func ReadMatrix(r io.Reader) (Matrix, error) {
	var m Matrix
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	err := dec.Decode(&m)
	return m, err
}

// WriteMatrixCSV writes one row per computed cell: t_prime,t,A,B,C,error_rate,query_accuracy.
func WriteMatrixCSV(w io.Writer, m *sim.Matrix, r algos.RetrainCost) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"t_prime", "t", "A", "B", "C", "error_rate", "query_accuracy"})
	f := csvNum
	eachCell(m, r, func(tp, t int, c *sim.Cell, cv float64) {
		cw.Write([]string{strconv.Itoa(tp), strconv.Itoa(t), f(c.A), f(c.B), f(cv), f(c.ErrorRate), f(c.QueryAccuracy)})
	})
	cw.Flush()
	return cw.Error()
}
