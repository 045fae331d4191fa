package experiment

import (
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

// MatrixOf is a computed matrix at retraining cost r as the contract writes it.
func MatrixOf(m *sim.Matrix, r algos.RetrainCost) Matrix {
	T := m.Batches()
	grid := func() [][]*Num {
		g := make([][]*Num, T)
		for i := range g {
			g[i] = make([]*Num, T)
		}
		return g
	}
	out := Matrix{Scenario: m.Scenario, Batches: T, Offline: m.Offline(), Gamma: m.Gamma,
		A: grid(), B: grid(), C: grid(), ErrorRate: grid(), QueryAccuracy: grid(), Drifts: m.Drifts,
		Warnings: nonNil(algos.MatrixWarnings(m, T-1))}
	if out.Drifts == nil {
		out.Drifts = []sim.Drift{}
	}
	set := func(g [][]*Num, tp, t int, v float64) {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			n := Num(v)
			g[tp][t] = &n
		}
	}
	eachCell(m, r, func(tp, t int, c *sim.Cell, cv float64) {
		set(out.A, tp, t, c.A)
		set(out.B, tp, t, c.B)
		set(out.C, tp, t, cv)
		set(out.ErrorRate, tp, t, c.ErrorRate)
		set(out.QueryAccuracy, tp, t, c.QueryAccuracy)
	})
	return out
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

// WriteJSON writes the matrix as one line of JSON.
func (m Matrix) WriteJSON(w io.Writer) error { return json.NewEncoder(w).Encode(m) }

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
