package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// resultJSON is one algorithm's outcome in `cara run --format json` (see the README).
type resultJSON struct {
	Algorithm     string         `json:"algorithm"`
	StrategyCost  num            `json:"strategy_cost"`
	SCPE          num            `json:"scpe"`
	Gap           num            `json:"gap"`
	QueryAccuracy num            `json:"query_accuracy"`
	Retrains      []int          `json:"retrains"`
	RetrainCount  num            `json:"retrain_count"`
	Params        map[string]num `json:"params"`
	OfflineCost   num            `json:"offline_cost"`
	Spread        *spreadJSON    `json:"spread,omitempty"`
}

// spreadJSON is the standard deviation over seeds of a mean result.
type spreadJSON struct {
	StrategyCost  num `json:"strategy_cost"`
	SCPE          num `json:"scpe"`
	Gap           num `json:"gap"`
	QueryAccuracy num `json:"query_accuracy"`
	RetrainCount  num `json:"retrain_count"`
}

// costText is a retraining cost as the scenario writes it: a JSON number when it is one, else the
// expression of t as a string.
type costText string

func (c costText) MarshalJSON() ([]byte, error) {
	if f, err := strconv.ParseFloat(string(c), 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return json.Marshal(f)
	}
	return json.Marshal(string(c))
}

type runJSON struct {
	Seed    uint64       `json:"seed"`
	Results []resultJSON `json:"results"`
}

type runOutput struct {
	Scenario    string       `json:"scenario"`
	RetrainCost costText     `json:"retrain_cost"`
	Seeds       []uint64     `json:"seeds"`
	Runs        []runJSON    `json:"runs,omitempty"`
	Results     []resultJSON `json:"results"`
}

func resultOf(r algos.Result) resultJSON {
	retrains := r.Strategy.Retrains
	if retrains == nil {
		retrains = []int{}
	}
	return resultJSON{Algorithm: r.Algorithm, StrategyCost: num(r.Strategy.Cost()), SCPE: num(r.SCPE), Gap: num(r.Gap),
		QueryAccuracy: num(r.QueryAccuracy), Retrains: retrains, RetrainCount: num(len(retrains)),
		Params: params(r.Params), OfflineCost: num(r.OfflineCost)}
}

// meanOf averages results of one algorithm over seeds (NaN values are left out of a mean).
func meanOf(rs []resultJSON) resultJSON {
	out := resultJSON{Algorithm: rs[0].Algorithm, Spread: &spreadJSON{}}
	stat := func(get func(resultJSON) num) (num, num) {
		var vals []float64
		for _, r := range rs {
			if v := float64(get(r)); !math.IsNaN(v) && !math.IsInf(v, 0) {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			return num(math.NaN()), num(math.NaN())
		}
		mean := 0.0
		for _, v := range vals {
			mean += v / float64(len(vals))
		}
		sd := 0.0
		for _, v := range vals {
			sd += (v - mean) * (v - mean) / float64(len(vals))
		}
		return num(mean), num(math.Sqrt(sd))
	}
	out.StrategyCost, out.Spread.StrategyCost = stat(func(r resultJSON) num { return r.StrategyCost })
	out.SCPE, out.Spread.SCPE = stat(func(r resultJSON) num { return r.SCPE })
	out.Gap, out.Spread.Gap = stat(func(r resultJSON) num { return r.Gap })
	out.QueryAccuracy, out.Spread.QueryAccuracy = stat(func(r resultJSON) num { return r.QueryAccuracy })
	out.RetrainCount, out.Spread.RetrainCount = stat(func(r resultJSON) num { return r.RetrainCount })
	out.OfflineCost, _ = stat(func(r resultJSON) num { return r.OfflineCost })
	keys := map[string]bool{}
	for _, r := range rs {
		for k := range r.Params {
			keys[k] = true
		}
	}
	if len(keys) > 0 {
		out.Params = map[string]num{}
		for k := range keys {
			out.Params[k], _ = stat(func(r resultJSON) num { return r.Params[k] })
		}
	}
	return out
}

func newRunCmd() *cobra.Command {
	var f scenarioFlags
	var format, figures, figFormat string
	var seeds int
	cmd := &cobra.Command{
		Use:   "run SCENARIO|FILE",
		Short: "Run every algorithm on a scenario and print a table like the paper's",
		Example: `  cara run covcon-d
  cara run covcon-d -R 40 --seeds 5 --format json
  cara run electricity --data ~/data/elec.csv
  cara run covcon-d --figures out/`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "table" && format != "csv" && format != "json" {
				return usagef("--format must be table, csv or json, got %q", format)
			}
			if seeds < 1 {
				return usagef("--seeds must be >= 1, got %d", seeds)
			}
			s, err := f.load(args[0])
			if err != nil {
				return err
			}
			out := runOutput{Scenario: s.Name, RetrainCost: costText(s.RetrainCostText)}
			var perSeed [][]resultJSON
			for i := range seeds {
				seed := s.Seed + uint64(i)
				// Figures draw the whole matrix, cross-block cells included.
				m, err := computeMatrix(cmd.Context(), s, seed, workers(cmd), figures == "", sim.ColumnOrder, cmd.ErrOrStderr())
				if err != nil {
					return err
				}
				res, err := algos.Evaluate(m, s.RetrainCost, s.Algorithms, m.T-1)
				if err != nil {
					return err
				}
				var rj []resultJSON
				for _, r := range res {
					rj = append(rj, resultOf(r))
				}
				out.Seeds = append(out.Seeds, seed)
				out.Runs = append(out.Runs, runJSON{Seed: seed, Results: rj})
				perSeed = append(perSeed, rj)
				if figures != "" && i == 0 {
					files, err := runFigures(s, seed, m, res, figures, figFormat)
					if err != nil {
						return err
					}
					for _, p := range files {
						fmt.Fprintln(cmd.ErrOrStderr(), "wrote", p)
					}
				}
			}
			if seeds == 1 {
				out.Results, out.Runs = perSeed[0], nil
			} else {
				for a := range perSeed[0] {
					var rs []resultJSON
					for _, p := range perSeed {
						rs = append(rs, p[a])
					}
					out.Results = append(out.Results, meanOf(rs))
				}
			}
			switch format {
			case "json":
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(out)
			case "csv":
				return writeRunCSV(cmd.OutOrStdout(), out)
			}
			return writeRunTable(cmd.OutOrStdout(), s, out)
		},
	}
	f.register(cmd, true)
	cmd.Flags().StringVar(&format, "format", "table", "table, csv or json")
	cmd.Flags().IntVar(&seeds, "seeds", 1, "run this many seeds (seed, seed+1, ...) and report means and spread")
	cmd.Flags().StringVar(&figures, "figures", "", "also draw this run's figures into DIR")
	cmd.Flags().StringVar(&figFormat, "figure-format", "png", "png or svg, with --figures")
	return cmd
}

func writeRunTable(w io.Writer, s *scenarios.Scenario, out runOutput) error {
	fmt.Fprintf(w, "%s: %s\nR = %s, seeds %v, online batches %d..%d\n\n", s.Name, s.Title, s.RetrainCostText, out.Seeds, s.Offline, s.Batches-1)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "algorithm\tcost\tSCPE %\tgap\tquery acc\tretrains\toffline cost\tparameters\t")
	for _, r := range out.Results {
		cost, scpe, acc, n := fmtNum(float64(r.StrategyCost), 3), fmtNum(float64(r.SCPE), 2), fmtNum(float64(r.QueryAccuracy), 3), fmtNum(float64(r.RetrainCount), 0)
		if r.Spread != nil {
			cost += " ±" + fmtNum(float64(r.Spread.StrategyCost), 2)
			scpe += " ±" + fmtNum(float64(r.Spread.SCPE), 1)
			n = fmtNum(float64(r.RetrainCount), 1)
		}
		p := map[string]float64{}
		for k, v := range r.Params {
			p[k] = float64(v)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", algos.DisplayName(r.Algorithm), cost, scpe,
			fmtNum(float64(r.Gap), 3), acc, n, fmtNum(float64(r.OfflineCost), 3), fmtParams(p))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nSCPE = 100 |cost - Oracle| / |Oracle| (\"-\" when the Oracle's cost is 0); gap = cost - Oracle.")
	return nil
}

func writeRunCSV(w io.Writer, out runOutput) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"scenario", "retrain_cost", "seed", "algorithm", "strategy_cost", "scpe", "gap", "query_accuracy", "retrain_count", "theta", "theta_c", "period", "offset", "offline_cost"})
	f := func(n num) string {
		if math.IsNaN(float64(n)) {
			return ""
		}
		return strconv.FormatFloat(float64(n), 'g', -1, 64)
	}
	rows := out.Runs
	if rows == nil {
		rows = []runJSON{{Seed: out.Seeds[0], Results: out.Results}}
	}
	for _, run := range rows {
		for _, r := range run.Results {
			p := func(k string) string {
				if v, ok := r.Params[k]; ok {
					return f(v)
				}
				return ""
			}
			cw.Write([]string{out.Scenario, string(out.RetrainCost), strconv.FormatUint(run.Seed, 10), r.Algorithm, f(r.StrategyCost), f(r.SCPE),
				f(r.Gap), f(r.QueryAccuracy), f(r.RetrainCount), p("theta"), p("theta_c"), p("period"), p("offset"), f(r.OfflineCost)})
		}
	}
	cw.Flush()
	return cw.Error()
}
