package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/experiment"
	"github.com/cara-sim/cara/sim"
)

func newMatrixCmd() *cobra.Command {
	var f scenarioFlags
	var format, out string
	var po predictionsOut
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
			if err := checkOutputFile(out); out != "" && out != "-" && err != nil {
				return err
			}
			if err := po.check(); err != nil {
				return err
			}
			s, err := f.load(args[0])
			if err != nil {
				return err
			}
			record, err := po.record(s, s.Seed)
			if err != nil {
				return err
			}
			m, err := computeMatrix(cmd.Context(), s, s.Seed, workers(cmd), false, sim.ColumnOrder, cmd.ErrOrStderr(), record)
			if err != nil {
				return err
			}
			if err := po.write(cmd, s); err != nil {
				return err
			}
			if format == "csv" { // JSON carries them; CSV has no place for them
				for _, w := range algos.MatrixWarnings(m, m.Batches()-1) {
					fmt.Fprintln(cmd.ErrOrStderr(), "cara: warning:", w)
				}
			}
			return writeOut(cmd, out, func(w io.Writer) error {
				if format == "csv" {
					return experiment.WriteMatrixCSV(w, m, s.RetrainCost)
				}
				return experiment.MatrixOf(m, s.RetrainCost).WriteJSON(w)
			})
		},
	}
	f.register(cmd, true)
	cmd.Flags().StringVar(&format, "format", "json", "json or csv")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to FILE instead of standard output")
	po.register(cmd)
	return cmd
}
