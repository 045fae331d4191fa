package main

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

// matrixJSON is the contract of `cara matrix --format json` (see the README): every matrix T x T,
// indexed [t'][t], null below the diagonal and where a cell is not computed; C's diagonal holds R_t.
type matrixJSON struct {
	Scenario      string      `json:"scenario"`
	Batches       int         `json:"batches"`
	Offline       int         `json:"offline"`
	Gamma         float64     `json:"gamma"`
	A             [][]*num    `json:"A"`
	B             [][]*num    `json:"B"`
	C             [][]*num    `json:"C"`
	ErrorRate     [][]*num    `json:"error_rate"`
	QueryAccuracy [][]*num    `json:"query_accuracy"`
	Drifts        []sim.Drift `json:"drifts"`
}

func newMatrixCmd() *cobra.Command {
	var f scenarioFlags
	var format, out string
	cmd := &cobra.Command{
		Use:   "matrix SCENARIO|FILE",
		Short: "Compute the full cost matrix of a scenario and write it as JSON or CSV",
		Example: `  cara matrix covcon-d --format json -o covcon-d.json
  cara matrix my-scenario.yaml --format csv`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "json" && format != "csv" {
				return usagef("--format must be json or csv, got %q", format)
			}
			s, err := f.load(args[0])
			if err != nil {
				return err
			}
			m, err := computeMatrix(cmd.Context(), s, s.Seed, workers(cmd), false, sim.ColumnOrder, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			return writeOut(cmd.OutOrStdout(), out, func(w io.Writer) error {
				if format == "csv" {
					return writeMatrixCSV(w, m, s.RetrainCost)
				}
				return writeMatrixJSON(w, m, s.RetrainCost)
			})
		},
	}
	f.register(cmd, true)
	cmd.Flags().StringVar(&format, "format", "json", "json or csv")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to FILE instead of standard output")
	return cmd
}

func matrixJSONOf(m *sim.Matrix, r algos.RetrainCost) matrixJSON {
	grid := func() [][]*num {
		g := make([][]*num, m.T)
		for i := range g {
			g[i] = make([]*num, m.T)
		}
		return g
	}
	out := matrixJSON{Scenario: m.Scenario, Batches: m.T, Offline: m.Off, Gamma: m.Gamma,
		A: grid(), B: grid(), C: grid(), ErrorRate: grid(), QueryAccuracy: grid(), Drifts: m.Drifts}
	if out.Drifts == nil {
		out.Drifts = []sim.Drift{}
	}
	set := func(g [][]*num, tp, t int, v float64) {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			n := num(v)
			g[tp][t] = &n
		}
	}
	for t := 0; t < m.T; t++ {
		for tp := 0; tp <= t; tp++ {
			c := m.Cell(tp, t)
			if !c.Done {
				continue
			}
			set(out.A, tp, t, c.A)
			set(out.B, tp, t, c.B)
			if tp == t {
				set(out.C, tp, t, r(t))
			} else {
				set(out.C, tp, t, c.C())
			}
			set(out.ErrorRate, tp, t, c.ErrorRate)
			set(out.QueryAccuracy, tp, t, c.QueryAccuracy)
		}
	}
	return out
}

func writeMatrixJSON(w io.Writer, m *sim.Matrix, r algos.RetrainCost) error {
	enc := json.NewEncoder(w)
	return enc.Encode(matrixJSONOf(m, r))
}

func writeMatrixCSV(w io.Writer, m *sim.Matrix, r algos.RetrainCost) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"t_prime", "t", "A", "B", "C", "error_rate", "query_accuracy"})
	f := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	for t := 0; t < m.T; t++ {
		for tp := 0; tp <= t; tp++ {
			c := m.Cell(tp, t)
			if !c.Done {
				continue
			}
			cv := c.C()
			if tp == t {
				cv = r(t)
			}
			cw.Write([]string{strconv.Itoa(tp), strconv.Itoa(t), f(c.A), f(c.B), f(cv), f(c.ErrorRate), f(c.QueryAccuracy)})
		}
	}
	cw.Flush()
	return cw.Error()
}
