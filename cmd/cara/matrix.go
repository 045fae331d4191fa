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
		Short: "Compute the full cost matrix of a scenario and write it as JSON, CSV or Parquet",
		Example: `  cara matrix covcon-d --format json -o covcon-d.json
  cara matrix my-scenario.yaml --format csv
  cara matrix covcon-d --format parquet -o covcon-d.parquet`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "json" && format != "csv" && format != "parquet" {
				return usagef("--format must be json, csv or parquet, got %q", format)
			}
			if err := checkBinaryOut(cmd, format, out); err != nil {
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
			// Row by row, one model in memory at a time, and no per-point errors kept: the file
			// holds only numbers. A 1000-batch covcon-d peaked at 0.97 GB in column order.
			m, err := computeMatrix(cmd.Context(), s, s.Seed, workers(cmd), false, sim.RowOrder, cmd.ErrOrStderr(), record,
				func(cfg *sim.Config) { cfg.DropErrors = true })
			if err != nil {
				return err
			}
			if err := po.write(cmd, s); err != nil {
				return err
			}
			if format == "csv" { // JSON and Parquet carry them; CSV has no place for them
				for _, w := range algos.MatrixWarnings(m, m.Batches()-1) {
					fmt.Fprintln(cmd.ErrOrStderr(), "cara: warning:", w)
				}
			}
			return writeOut(cmd, out, func(w io.Writer) error {
				switch format {
				case "csv":
					return experiment.WriteMatrixCSV(w, m, s.RetrainCost)
				case "parquet":
					return experiment.WriteMatrixParquet(w, m, s.RetrainCost)
				}
				return experiment.WriteMatrixJSON(w, m, s.RetrainCost)
			})
		},
	}
	f.register(cmd, true)
	cmd.Flags().StringVar(&format, "format", "json", "json, csv or parquet (one row per cell)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to FILE instead of standard output")
	po.register(cmd)
	return cmd
}
