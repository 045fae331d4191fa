package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/figures"
	"github.com/cara-sim/cara/sim"
)

//go:embed paper_tables.json
var paperTablesJSON []byte

// paperTables holds the paper's tables 2-4: metric -> scenario -> algorithm -> value.
type paperTables struct {
	SCPE          map[string]map[string]float64 `json:"scpe"`
	QueryAccuracy map[string]map[string]float64 `json:"query_accuracy"`
	Retrains      map[string]map[string]float64 `json:"retrains"`
}

func loadPaper() (paperTables, error) {
	var p paperTables
	err := json.Unmarshal(paperTablesJSON, &p)
	return p, err
}

// reproScenarios are the paper's synthetic scenarios, then Electricity when its CSV is found.
var reproScenarios = []string{"covcon-d", "covcon-s", "circle-d", "circle-s", "gauss-d", "gauss-s", "electricity"}

// reproAlgos are the columns of the paper's tables (Page-Hinkley is ours, not the paper's).
var reproAlgos = []string{"cara-t", "cara-ct", "cara-p", "oracle", "never", "markov", "adwin", "ddm"}

// means holds, per scenario and algorithm, a metric averaged over retraining costs and seeds.
type means map[string]map[string]float64

// reproduction is one run of `cara reproduce`; jsonSafe gives its JSON form.
type reproduction struct {
	Quick                    bool
	Seeds, Steps, Trees      int
	Skipped                  map[string]string
	SCPE, Accuracy, Retrains means
	Paper                    paperTables
	Verdicts                 []verdict
	order                    []string // scenarios in the order run
}

type verdict struct {
	Claim  string `json:"claim"`
	Agrees bool   `json:"agrees"`
	Detail string `json:"detail"`
}

func newReproduceCmd() *cobra.Command {
	var seeds, trees int
	var quick bool
	var format, data, figDir string
	cmd := &cobra.Command{
		Use:   "reproduce",
		Short: "Run the paper's experiments and set our tables beside the paper's",
		Long: `reproduce runs every algorithm on the paper's six synthetic scenarios (and Electricity when
its CSV is found) over 25 retraining costs in (0, R_max] and several seeds, averages SCPE, query
accuracy and the number of retrains as the paper's tables 2-4 do, prints them beside the paper's
published numbers, and says for each of the paper's claims whether our run agrees.

--quick uses 1 seed, a 10-tree forest and 8 costs: under a minute, for a first look.`,
		Example: `  cara reproduce --quick
  cara reproduce --seeds 5 --format json > reproduction.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "table" && format != "json" {
				return usagef("--format must be table or json, got %q", format)
			}
			steps := autoSteps
			if quick {
				seeds, trees, steps = 1, 10, 8
			}
			if seeds < 1 {
				return usagef("--seeds must be >= 1, got %d", seeds)
			}
			paper, err := loadPaper()
			if err != nil {
				return err
			}
			rep := &reproduction{Quick: quick, Seeds: seeds, Steps: steps, Trees: trees, Paper: paper,
				SCPE: means{}, Accuracy: means{}, Retrains: means{}, Skipped: map[string]string{}}
			var sweepRows []figures.SweepRow
			var figFiles []string
			bar := newProgress(cmd.ErrOrStderr(), len(reproScenarios)*seeds)
			unit := 0
			for _, name := range reproScenarios {
				f := scenarioFlags{trees: trees, seed: -1, r: math.NaN()}
				if name == "electricity" {
					f.data = data
				}
				s, err := f.load(name)
				if err != nil {
					if name == "electricity" {
						rep.Skipped[name] = err.Error()
						unit += seeds
						continue
					}
					return err
				}
				rep.order = append(rep.order, name)
				acc := map[string][3]float64{} // per algorithm: sum of SCPE, accuracy, retrains
				counts := map[string][3]int{}
				for si := range seeds {
					bar.set(unit, "%s seed %d", name, si)
					m, err := computeMatrix(cmd.Context(), s, s.Seed+uint64(si), workers(cmd), true, sim.ColumnOrder, nil)
					if err != nil {
						return err
					}
					if figDir != "" && si == 0 {
						res, err := algos.Evaluate(m, s.RetrainCost, algos.Names, m.T-1)
						if err != nil {
							return err
						}
						files, err := runFigures(s, s.Seed, m, res, figDir, "png")
						if err != nil {
							return err
						}
						figFiles = append(figFiles, files...)
					}
					cs := costSpec{auto: true, n: steps}
					for _, r := range cs.costs(m) {
						res, err := algos.Evaluate(m, algos.Constant(r), reproAlgos, m.T-1)
						if err != nil {
							return err
						}
						if figDir != "" {
							for _, x := range res {
								sweepRows = append(sweepRows, sweepRowOf(name, s.Seed+uint64(si), r, x))
							}
						}
						for _, x := range res {
							a, c := acc[x.Algorithm], counts[x.Algorithm]
							for i, v := range []float64{x.SCPE, x.QueryAccuracy, float64(len(x.Strategy.Retrains))} {
								if !math.IsNaN(v) {
									a[i] += v
									c[i]++
								}
							}
							acc[x.Algorithm], counts[x.Algorithm] = a, c
						}
					}
					unit++
				}
				for i, dst := range []means{rep.SCPE, rep.Accuracy, rep.Retrains} {
					dst[name] = map[string]float64{}
					for a := range acc {
						if counts[a][i] > 0 {
							dst[name][a] = acc[a][i] / float64(counts[a][i])
						} else {
							dst[name][a] = math.NaN()
						}
					}
				}
			}
			bar.finish()
			if figDir != "" {
				files, err := figures.SweepFigures(sweepRows, figDir, figures.PNG)
				if err != nil {
					return err
				}
				for _, f := range append(figFiles, files...) {
					fmt.Fprintln(cmd.ErrOrStderr(), "wrote", f)
				}
			}
			rep.Verdicts = rep.verdicts()
			if format == "json" {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rep.jsonSafe())
			}
			rep.write(cmd.OutOrStdout())
			return nil
		},
	}
	cmd.Flags().IntVar(&seeds, "seeds", 5, "seeds per scenario (the paper used 5)")
	cmd.Flags().IntVar(&trees, "trees", 0, "trees per forest (0: the scenarios' 100)")
	cmd.Flags().BoolVar(&quick, "quick", false, "1 seed, 10 trees, 8 costs: under a minute")
	cmd.Flags().StringVar(&format, "format", "table", "table or json")
	cmd.Flags().StringVar(&data, "data", "", "the Electricity CSV (default: looked for in ./data and ../shared/data)")
	cmd.Flags().StringVar(&figDir, "figures", "", "also draw every figure of the paper's scenarios into DIR (PNG)")
	return cmd
}

// jsonSafe is the reproduction with undefined means as JSON nulls.
func (r *reproduction) jsonSafe() any {
	conv := func(m means) map[string]map[string]num {
		out := map[string]map[string]num{}
		for s, row := range m {
			out[s] = map[string]num{}
			for a, v := range row {
				out[s][a] = num(v)
			}
		}
		return out
	}
	return map[string]any{"quick": r.Quick, "seeds": r.Seeds, "cost_steps": r.Steps, "trees": r.Trees,
		"skipped": r.Skipped, "scpe": conv(r.SCPE), "query_accuracy": conv(r.Accuracy),
		"retrains": conv(r.Retrains), "paper": r.Paper, "verdicts": r.Verdicts}
}

func (r *reproduction) write(w io.Writer) {
	if r.Quick {
		fmt.Fprintln(w, "QUICK RUN: 1 seed, 10-tree forests, 8 retraining costs. For the paper's setting run without --quick.")
	}
	fmt.Fprintf(w, "Means over %d retraining costs in (0, R_max] and %d seed(s). Each cell: ours / paper's.\n", r.Steps, r.Seeds)
	tables := []struct {
		title string
		ours  means
		paper map[string]map[string]float64
		prec  int
		algos []string
	}{
		{"Table 2: SCPE (%, lower is better)", r.SCPE, r.Paper.SCPE, 1, slices.DeleteFunc(slices.Clone(reproAlgos), func(a string) bool { return a == "oracle" })},
		{"Table 3: query accuracy (higher is better)", r.Accuracy, r.Paper.QueryAccuracy, 2, reproAlgos},
		{"Table 4: RETRAIN decisions", r.Retrains, r.Paper.Retrains, 1, reproAlgos},
	}
	for _, tb := range tables {
		fmt.Fprintf(w, "\n%s\n", tb.title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		head := []string{"scenario"}
		for _, a := range tb.algos {
			head = append(head, algos.DisplayName(a))
		}
		fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
		for _, s := range r.order {
			row := []string{s}
			for _, a := range tb.algos {
				p, ok := tb.paper[s][a]
				ps := "?"
				if ok {
					ps = fmtNum(p, tb.prec)
				}
				row = append(row, fmtNum(tb.ours[s][a], tb.prec)+" / "+ps)
			}
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
		}
		tw.Flush()
	}
	for s, why := range r.Skipped {
		fmt.Fprintf(w, "\nskipped %s: %s\n", s, why)
	}
	fmt.Fprintln(w, "\nThe paper's claims, checked against this run:")
	for _, v := range r.Verdicts {
		mark := "agrees   "
		if !v.Agrees {
			mark = "DISAGREES"
		}
		fmt.Fprintf(w, "  %s  %s\n             %s\n", mark, v.Claim, v.Detail)
	}
}

// verdicts checks the paper's claims (sections 8.1-8.3) against our means.
func (r *reproduction) verdicts() []verdict {
	var out []verdict
	best := func(m map[string]float64, among []string, lower bool) string {
		b := ""
		for _, a := range among {
			v, ok := m[a]
			if !ok || math.IsNaN(v) {
				continue
			}
			if b == "" || (lower && v < m[b]) || (!lower && v > m[b]) {
				b = a
			}
		}
		return b
	}
	count := func(pred func(s string) bool) (int, []string) {
		n := 0
		var which []string
		for _, s := range r.order {
			if pred(s) {
				n++
				which = append(which, s)
			}
		}
		return n, which
	}
	cara := []string{"cara-t", "cara-ct", "cara-p"}
	all := []string{"cara-t", "cara-ct", "cara-p", "never", "markov", "adwin", "ddm"}
	majority := func(n int) bool { return 2*n > len(r.order) }

	n, which := count(func(s string) bool { return slices.Contains(cara, best(r.SCPE[s], all, true)) })
	out = append(out, verdict{"A CARA variant has the lowest SCPE of all algorithms on most datasets (8.1)", majority(n),
		fmt.Sprintf("on %d of %d: %s", n, len(r.order), strings.Join(which, ", "))})

	n, which = count(func(s string) bool { return best(r.SCPE[s], cara, true) == "cara-t" })
	out = append(out, verdict{"CARA-T has the lowest SCPE among the CARA variants on most datasets (8.1)", majority(n),
		fmt.Sprintf("on %d of %d: %s", n, len(r.order), strings.Join(which, ", "))})

	n, which = count(func(s string) bool {
		return r.SCPE[s]["adwin"] > r.SCPE[s]["cara-t"] && r.SCPE[s]["ddm"] > r.SCPE[s]["cara-t"]
	})
	out = append(out, verdict{"ADWIN and DDM have a higher SCPE than CARA-T (8.1)", majority(n),
		fmt.Sprintf("on %d of %d: %s", n, len(r.order), strings.Join(which, ", "))})

	n, which = count(func(s string) bool {
		return best(r.Retrains[s], []string{"cara-t", "cara-ct", "cara-p", "oracle", "markov", "adwin", "ddm"}, false) == "adwin"
	})
	out = append(out, verdict{"ADWIN retrains most (table 4)", majority(n),
		fmt.Sprintf("on %d of %d: %s", n, len(r.order), strings.Join(which, ", "))})

	n, which = count(func(s string) bool {
		o := r.Accuracy[s]["oracle"]
		return o >= r.Accuracy[s]["adwin"]-0.02 && o >= r.Accuracy[s]["ddm"]-0.02
	})
	out = append(out, verdict{"The Oracle's query accuracy is better than or close to (within 0.02) ADWIN's and DDM's (8.2)", majority(n),
		fmt.Sprintf("on %d of %d: %s", n, len(r.order), strings.Join(which, ", "))})

	n, which = count(func(s string) bool {
		return r.Retrains[s]["oracle"] < r.Retrains[s]["adwin"] && r.Retrains[s]["oracle"] < r.Retrains[s]["ddm"]
	})
	out = append(out, verdict{"The Oracle retrains less than ADWIN and DDM (8.2)", majority(n),
		fmt.Sprintf("on %d of %d: %s", n, len(r.order), strings.Join(which, ", "))})

	if slices.Contains(r.order, "covcon-s") {
		ok := r.SCPE["covcon-s"]["cara-p"] > r.SCPE["covcon-s"]["cara-t"]
		out = append(out, verdict{"Periodic CARA-P does worse than CARA-T where the queries are static (CovCon-S, 8.1)", ok,
			fmt.Sprintf("CovCon-S SCPE: CARA-P %.1f, CARA-T %.1f", r.SCPE["covcon-s"]["cara-p"], r.SCPE["covcon-s"]["cara-t"])})
	}
	return out
}

// sweepRowOf is one result as the figures read a sweep line.
func sweepRowOf(scenario string, seed uint64, r float64, x algos.Result) figures.SweepRow {
	ptr := func(v float64) *float64 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return &v
	}
	row := figures.SweepRow{Scenario: scenario, Seed: seed, RetrainCost: r, Algorithm: x.Algorithm,
		StrategyCost: x.Strategy.Cost(), SCPE: ptr(x.SCPE), Gap: x.Gap, QueryAccuracy: ptr(x.QueryAccuracy),
		Retrains: len(x.Strategy.Retrains), RetrainBatches: x.Strategy.Retrains, OfflineCost: ptr(x.OfflineCost)}
	if x.Params != nil {
		row.Params = map[string]*float64{}
		for k, v := range x.Params {
			row.Params[k] = ptr(v)
		}
	}
	return row
}
