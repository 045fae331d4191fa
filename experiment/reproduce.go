package experiment

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

//go:embed paper_tables.json
var paperTablesJSON []byte

// PaperTables holds the paper's tables 2-4 (or the appendix's LR tables): scenario -> algorithm
// -> value, per metric.
type PaperTables struct {
	SCPE          map[string]map[algos.Name]float64 `json:"scpe"`
	QueryAccuracy map[string]map[algos.Name]float64 `json:"query_accuracy"`
	Retrains      map[string]map[algos.Name]float64 `json:"retrains"`
}

// paperFile is paper_tables.json: the random forest's tables, and the logistic regression's.
type paperFile struct {
	PaperTables
	Logistic PaperTables `json:"logistic"`
}

// Paper returns the paper's tables 2-4 (random forest).
func Paper() (PaperTables, error) {
	var p paperFile
	err := json.Unmarshal(paperTablesJSON, &p)
	return p.PaperTables, err
}

// PaperLogistic returns the appendix's tables of the same metrics with logistic regression
// (scikit-learn's SGDClassifier, loss "log"), the scenarios of ReproScenarios only.
func PaperLogistic() (PaperTables, error) {
	var p paperFile
	err := json.Unmarshal(paperTablesJSON, &p)
	return p.Logistic, err
}

// ModelForest and ModelLogistic name the model a reproduction runs: the paper's random forest
// (tables 2-4) or its appendix's logistic regression (the LR tables).
const (
	ModelForest   = "random_forest"
	ModelLogistic = "logistic"
)

// ReproScenarios are the scenarios of the paper's tables: the six synthetic ones, then Electricity.
var ReproScenarios = []string{"covcon-d", "covcon-s", "circle-d", "circle-s", "gauss-d", "gauss-s", "electricity"}

// reproAlgos are the columns of the paper's tables (Page-Hinkley is ours, not the paper's).
var reproAlgos = []algos.Name{algos.NameCaraT, algos.NameCaraCT, algos.NameCaraP, algos.NameOracle,
	algos.NameNever, algos.NameMarkov, algos.NameADWIN, algos.NameDDM}

// Means holds, per scenario and algorithm, a metric averaged over retraining costs and seeds.
type Means map[string]map[algos.Name]Num

// PerSeed holds, per scenario and algorithm, a metric averaged over each seed's retraining costs:
// one number a seed, in seed order (NaN where a seed has no defined value), the sample the
// intervals and the paired tests are computed from.
type PerSeed map[string]map[algos.Name][]Num

// Metrics are one of each: SCPE, query accuracy and retrains.
type Metrics[T any] struct {
	SCPE          T `json:"scpe"`
	QueryAccuracy T `json:"query_accuracy"`
	Retrains      T `json:"retrains"`
}

// Verdict is one of the paper's claims checked against a reproduction.
type Verdict struct {
	Claim  string `json:"claim"`
	Agrees bool   `json:"agrees"`
	Detail string `json:"detail"`
}

// Reproduction is one run of `cara reproduce`, and the contract of its JSON (fields in the order
// they have always been written: alphabetical).
type Reproduction struct {
	CI95               Metrics[Means]    `json:"ci95"` // the half-width of each mean's 95 % t-interval over seeds
	ClaimsByDataset    []DatasetClaims   `json:"claims_by_dataset"`
	CostSteps          int               `json:"cost_steps"`
	DetectorFeed       string            `json:"detector_feed"`       // batch or first-drift
	DetectorReset      string            `json:"detector_reset"`      // never or on_retrain
	ElectricityShuffle string            `json:"electricity_shuffle"` // within_batch or none
	Fidelity           Fidelity          `json:"fidelity"`
	Model              string            `json:"model"` // random_forest or logistic
	Paper              PaperTables       `json:"paper"`
	QueryAccuracy      Means             `json:"query_accuracy"`
	Quick              bool              `json:"quick"`
	RRange             string            `json:"r_range"` // paper or round-two
	Retrains           Means             `json:"retrains"`
	SCPE               Means             `json:"scpe"`
	SeedMeans          Metrics[PerSeed]  `json:"seed_means"`
	Seeds              int               `json:"seeds"`
	Skipped            map[string]string `json:"skipped"`
	Tie                string            `json:"tie"` // CARA-T's and CARA-CT's tie rule: mid, low or high
	Trees              int               `json:"trees"`
	Verdicts           []Verdict         `json:"verdicts"`
	Warnings           []string          `json:"warnings"`

	Rows  []SweepRow `json:"-"` // every evaluation as a sweep line, when asked for (figures)
	order []string   // scenarios in the order run
}

// Reproduce is how to run a reproduction: Load reads a scenario (with the caller's overrides:
// trees, data, model, detector protocol, Electricity's shuffle) and Matrix computes one; Range
// says where each seed's cost grid comes from; Model (ModelForest or ModelLogistic) which of the
// paper's tables and claims the run is set beside, ElectricityShuffle what Load does to
// Electricity's rows (recorded only); FirstSeed, when set, sees each scenario's first seed at its
// own retraining cost (the command line draws figures from it); KeepRows keeps every evaluation as
// a sweep row.
type Reproduce struct {
	Seeds, Trees, Steps int
	Quick               bool
	Range               RRange
	Model               string
	ElectricityShuffle  string
	Load                func(name string) (*scenarios.Scenario, error)
	Matrix              MatrixFunc
	FirstSeed           func(s *scenarios.Scenario, m *sim.Matrix, res []algos.Result) error
	KeepRows            bool
	Progress            Progress
}

// Run runs the paper's experiments: every scenario of ReproScenarios over Seeds seeds and Steps
// costs in (0, R_max] (by default one grid per seed, from the Oracle on its offline batches
// 0..T_off), averaged as the paper's tables 2-4 are, the paper's claims checked against the means
// and the distance to the paper's numbers scored.
func (rp Reproduce) Run(ctx context.Context) (*Reproduction, error) {
	model := rp.Model
	if model == "" {
		model = ModelForest
	}
	paper, err := Paper()
	if model == ModelLogistic {
		paper, err = PaperLogistic()
	}
	if err != nil {
		return nil, err
	}
	rep := &Reproduction{Quick: rp.Quick, Seeds: rp.Seeds, CostSteps: rp.Steps, Trees: rp.Trees, Paper: paper,
		Model: model, RRange: rp.Range.String(), ElectricityShuffle: rp.ElectricityShuffle,
		SCPE: Means{}, QueryAccuracy: Means{}, Retrains: Means{}, Skipped: map[string]string{}, Warnings: []string{},
		SeedMeans: Metrics[PerSeed]{PerSeed{}, PerSeed{}, PerSeed{}}, CI95: Metrics[Means]{Means{}, Means{}, Means{}}}
	start(rp.Progress, len(ReproScenarios)*rp.Seeds)
	unit := 0
	for _, name := range ReproScenarios {
		s, err := rp.Load(name)
		if err != nil {
			if name == "electricity" { // a --data that does not load: the synthetic tables still stand
				rep.Skipped[name] = err.Error()
				unit += rp.Seeds
				continue
			}
			return nil, err
		}
		rep.order = append(rep.order, name)
		rep.DetectorFeed, rep.DetectorReset = s.Evaluation.DetectorFeed.String(), s.Evaluation.DetectorReset.String()
		rep.Tie = s.Evaluation.Tie.String()
		if err := rp.scenario(ctx, rep, s, &unit); err != nil {
			return nil, err
		}
	}
	finish(rp.Progress)
	rep.Verdicts = rep.verdicts()
	rep.ClaimsByDataset = rep.claimsByDataset()
	rep.Fidelity = rep.score()
	return rep, nil
}

// scenario computes one scenario's matrices, its cost grid and its means.
func (rp Reproduce) scenario(ctx context.Context, rep *Reproduction, s *scenarios.Scenario, unit *int) error {
	var ms []*sim.Matrix
	var rmaxes, scales []float64
	for si := range rp.Seeds {
		step(rp.Progress, *unit, "%s seed %d", s.Name, si)
		m, err := rp.Matrix(ctx, s, s.Seed+uint64(si))
		if err != nil {
			return err
		}
		ms = append(ms, m)
		rmaxes = append(rmaxes, rp.Range.RMax(m))
		scales = append(scales, OfflineScale(m))
		*unit++
	}
	grids, warnings := CostSpec{Auto: true, N: rp.Steps}.Grids(rp.Range, rmaxes, scales)
	for _, w := range warnings {
		rep.Warnings = append(rep.Warnings, s.Name+": "+w)
	}
	if rp.FirstSeed != nil {
		res, err := s.Evaluation.Evaluate(ms[0], s.RetrainCost, algos.Names, ms[0].Batches()-1)
		if err != nil {
			return err
		}
		if err := rp.FirstSeed(s, ms[0], res); err != nil {
			return err
		}
	}
	var acc [3]meanAcc // SCPE, query accuracy, retrains
	perSeed := make([][3]meanAcc, len(ms))
	for si, m := range ms {
		for _, r := range grids[si] {
			res, err := s.Evaluation.Evaluate(m, algos.Constant(r), reproAlgos, m.Batches()-1)
			if err != nil {
				return err
			}
			for _, x := range res {
				if rp.KeepRows {
					rep.Rows = append(rep.Rows, RowOf(s.Name, s.Seed+uint64(si), r, x, nil))
				}
				for i, v := range []float64{x.SCPE, x.QueryAccuracy, float64(len(x.Strategy.Retrains))} {
					acc[i].add(x.Algorithm, v)
					perSeed[si][i].add(x.Algorithm, v)
				}
			}
		}
	}
	rep.SCPE[s.Name], rep.QueryAccuracy[s.Name], rep.Retrains[s.Name] = acc[0].means(), acc[1].means(), acc[2].means()
	for i, ps := range []PerSeed{rep.SeedMeans.SCPE, rep.SeedMeans.QueryAccuracy, rep.SeedMeans.Retrains} {
		ci := []Means{rep.CI95.SCPE, rep.CI95.QueryAccuracy, rep.CI95.Retrains}[i]
		ps[s.Name], ci[s.Name] = map[algos.Name][]Num{}, map[algos.Name]Num{}
		for _, a := range reproAlgos {
			xs := make([]float64, len(ms))
			for si := range ms {
				xs[si] = float64(perSeed[si][i].means()[a])
				ps[s.Name][a] = append(ps[s.Name][a], Num(xs[si]))
			}
			ci[s.Name][a] = Num(HalfWidth95(xs))
		}
	}
	return nil
}

// meanAcc accumulates per-algorithm sums of defined values.
type meanAcc struct {
	sum map[algos.Name]float64
	n   map[algos.Name]int
}

func (a *meanAcc) add(name algos.Name, v float64) {
	if a.sum == nil {
		a.sum, a.n = map[algos.Name]float64{}, map[algos.Name]int{}
	}
	if _, ok := a.n[name]; !ok {
		a.n[name] = 0
	}
	if !math.IsNaN(v) {
		a.sum[name] += v
		a.n[name]++
	}
}

// means are the means, NaN for an algorithm with no defined value.
func (a *meanAcc) means() map[algos.Name]Num {
	out := map[algos.Name]Num{}
	for name, n := range a.n {
		out[name] = Num(math.NaN())
		if n > 0 {
			out[name] = Num(a.sum[name] / float64(n))
		}
	}
	return out
}

// WriteJSON writes the reproduction as indented JSON.
func (r *Reproduction) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadReproduction reads a reproduction written by WriteJSON.
func ReadReproduction(rd io.Reader) (*Reproduction, error) {
	var r Reproduction
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, err
	}
	for _, s := range ReproScenarios {
		if _, ok := r.SCPE[s]; ok {
			r.order = append(r.order, s)
		}
	}
	return &r, nil
}

// WriteTable writes our tables 2-4 beside the paper's, the skipped scenarios, the warnings and
// the verdicts.
func (r *Reproduction) WriteTable(w io.Writer) {
	if r.Quick {
		fmt.Fprintf(w, "QUICK RUN: %d seed(s), 10-tree forests, 8 retraining costs. For the paper's setting run without --quick.\n", r.Seeds)
	}
	model := "random forest: the paper's tables 2-4"
	if r.Model == ModelLogistic {
		model = "logistic regression by SGD: the appendix's LR tables"
	}
	grid := "one grid per seed, R_max the smallest R at which the Oracle on batches 0..T_off inclusive equals Never-retrain; cara sweep shares one grid over the seeds"
	if r.RRange == RangeRoundTwo.String() {
		grid = "one grid from the largest R_max over the seeds, the Oracle on batches 0..T_off-1 (round two's range)"
	}
	fmt.Fprintf(w, "Model: %s. Means over %d retraining costs in (0, R_max] (%s) and %d seed(s).\n", model, r.CostSteps, grid, r.Seeds)
	fmt.Fprintf(w, "Detectors fed %s, reset %s. Electricity's rows: %s.\n", feedWords(r.DetectorFeed), r.DetectorReset, shuffleWords(r.ElectricityShuffle))
	if r.Tie != "" && r.Tie != algos.TieMid.String() {
		fmt.Fprintf(w, "CARA-T and CARA-CT take the %s end of their optimal interval of thresholds (--tie %s; the default is its midpoint).\n", r.Tie, r.Tie)
	}
	fmt.Fprintf(w, "Each cell: ours %s / paper's.\n", intervalWords(r.Seeds))
	tables := []struct {
		title string
		ours  Means
		ci    Means
		paper map[string]map[algos.Name]float64
		prec  int
		algos []algos.Name
	}{
		{"Table 2: SCPE (%, lower is better)", r.SCPE, r.CI95.SCPE, r.Paper.SCPE, 1, slices.DeleteFunc(slices.Clone(reproAlgos), func(a algos.Name) bool { return a == algos.NameOracle })},
		{"Table 3: query accuracy (higher is better)", r.QueryAccuracy, r.CI95.QueryAccuracy, r.Paper.QueryAccuracy, 2, reproAlgos},
		{"Table 4: RETRAIN decisions", r.Retrains, r.CI95.Retrains, r.Paper.Retrains, 1, reproAlgos},
	}
	for _, tb := range tables {
		fmt.Fprintf(w, "\n%s\n", tb.title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		head := []string{"scenario"}
		for _, a := range tb.algos {
			head = append(head, a.Display())
		}
		fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
		for _, s := range r.order {
			row := []string{s}
			for _, a := range tb.algos {
				ps := "?"
				if p, ok := tb.paper[s][a]; ok {
					ps = FormatNum(p, tb.prec)
				}
				ours, ok := tb.ours[s][a]
				if !ok {
					ours = Num(math.NaN())
				}
				cell := FormatNum(float64(ours), tb.prec)
				if h, ok := tb.ci[s][a]; ok && h.Defined() {
					cell += " ±" + FormatNum(float64(h), tb.prec)
				}
				row = append(row, cell+" / "+ps)
			}
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
		}
		tw.Flush()
	}
	r.Fidelity.write(w)
	for s, why := range r.Skipped {
		fmt.Fprintf(w, "\nskipped %s: %s\n", s, why)
	}
	WriteWarnings(w, r.Warnings)
	if r.Model == ModelLogistic {
		fmt.Fprintln(w, "\nLR-SGD here: "+LRSGD)
	}
	fmt.Fprintln(w, "\nThe paper's claims, checked against this run:")
	for _, v := range r.Verdicts {
		mark := "agrees   "
		if !v.Agrees {
			mark = "DISAGREES"
		}
		fmt.Fprintf(w, "  %s  %s\n             %s\n", mark, v.Claim, v.Detail)
	}
	r.writeClaimsByDataset(w)
}

// intervalWords says what the ± in a table is.
func intervalWords(seeds int) string {
	if seeds < 2 {
		return "(one seed: no interval over seeds)"
	}
	return fmt.Sprintf("±the half-width of its 95 %% t-interval over the %d seeds (each seed's mean over its costs; t(0.975, %d) = %.3f)",
		seeds, seeds-1, tQuantile(seeds-1))
}

// LRSGD says what the appendix's "LR-SGD" is in this implementation, and where it differs.
const LRSGD = "logistic regression fitted by SGD on the log loss (the paper: scikit-learn's SGDClassifier, " +
	"loss \"log\", default hyperparameters), with SGDClassifier's defaults: L2 penalty alpha 1e-4, the " +
	"\"optimal\" learning rate, an unpenalised intercept, the samples shuffled every epoch, at most 1000 " +
	"epochs, stopping after 5 epochs without a gain of tol 1e-3, on the raw features. It differs in the " +
	"shuffles, drawn from the scenario's seed rather than NumPy's, so the weights are not scikit-learn's " +
	"bit for bit."

// feedWords and shuffleWords say a protocol in the table's words.
func feedWords(feed string) string {
	if feed == algos.FeedFirstDrift.String() {
		return "until a batch's first drift (round two)"
	}
	return "whole batches, with a call at T_start (Algorithm 1)"
}

func shuffleWords(shuffle string) string {
	switch shuffle {
	case "within_batch":
		return "shuffled within each batch (shuffle: within_batch)"
	case "none", "":
		return "in file order"
	}
	return shuffle
}
