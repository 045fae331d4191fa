package tui

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// A model from outside whose queries are not rows of the data and that gives no answers at them
// (docs/examples/byo's fleet, its queries another CSV): once the run is in, the results carry the
// engine's warning that query accuracy is not available and say so under the table, with no
// column of dashes; the registry's matrix, which the player shows, has the engine's warning.
func TestQueryAccuracyNotAvailable(t *testing.T) {
	s := loadEmbedded(t, "../docs/examples/byo/fleet.yaml",
		"queries={csv: fleet.csv.gz, label: failure, batch_column: week}", "kernel.gamma=auto")
	p := pumpedScenario(t, s, asciiStyles(), 160, 48)
	goTo(p, s.Batches-1)
	if !slices.ContainsFunc(p.s.Matrix.Warnings(), func(w string) bool { return strings.HasPrefix(w, "query accuracy is not available") }) {
		t.Fatalf("the player's matrix lacks the engine's warning: %q", p.s.Matrix.Warnings())
	}
	box := strings.Join(strings.Fields(ansi.Strip(paneBox(p, pane.Results))), " ")
	for _, want := range []string{"! query accuracy is not available: the queries are not rows of the data", "query accuracy not available: see the warning above"} {
		if !strings.Contains(box, want) {
			t.Errorf("the results lack %q:\n%s", want, paneBox(p, pane.Results))
		}
	}
	if strings.Contains(box, "query acc ") || strings.Contains(box, "q.acc") {
		t.Errorf("a column of query accuracy with nothing in it:\n%s", paneBox(p, pane.Results))
	}
}

// A scenario that runs the four more detectors and three fixed schedules shows every one of them
// in the player (v's "all"), each with a key of its own in the decisions and the results; each
// detector's score in the player is cara run's over the whole block (same seed, same drifts:
// KSWIN's sampling from seed 3 included), and the every-7 row retrains at the online t with t mod 7 = 0.
func TestDetectorsAndSchedulesInThePlayer(t *testing.T) {
	sets := []string{"seed=3", "data.size=200", "model.random_forest.trees=5", "detectors.run=all",
		"schedules=[{every: 7}, {every: 5, offset: 2}, {at: [40, 70]}]"}
	s := loadEmbedded(t, "covcon-d", sets...)
	p := pumpedScenario(t, s, asciiStyles(), 160, 48)
	goTo(p, s.Batches-1)
	f := p.frame()
	want := []algos.Name{"oracle", "cara-t", "cara-ct", "cara-p", "never", "markov", "adwin", "ddm", "page-hinkley",
		"eddm", "hddm-a", "hddm-w", "kswin", "every-7", "every-5+2", "at"}
	if !slices.Equal(f.Visible, want) {
		t.Fatalf("visible %v, want %v", f.Visible, want)
	}
	keys := map[string]algos.Name{}
	for _, a := range want {
		k := pane.AlgoKey(a, false)
		if other, ok := keys[k]; ok {
			t.Errorf("%s and %s share the key %q", a, other, k)
		}
		keys[k] = a
	}
	res := strings.Join(strings.Fields(ansi.Strip(paneBox(p, pane.Results))), " ")
	for _, a := range want[1:] {
		if l := pane.KeyedLabel(a, false, 0); !strings.Contains(res, strings.Join(strings.Fields(l), " ")+" ") {
			t.Errorf("the results have no row %q:\n%s", l, res)
		}
	}
	// As cara run computes it: the engine's own matrix, every algorithm over the whole block.
	cfg, err := s.Config(s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	m, err := sim.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := s.Evaluation.Evaluate(m, s.RetrainCost, s.Algorithms, m.Batches()-1)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range whole {
		got, ok := f.Result(r.Algorithm)
		if !ok {
			t.Errorf("%s: not in the player", r.Algorithm)
			continue
		}
		if !slices.Equal(got.Strategy.Retrains, r.Strategy.Retrains) || got.Strategy.Cost() != r.Strategy.Cost() {
			t.Errorf("%s retrains at %v (cost %v) in the player, %v (%v) in cara run", r.Algorithm, got.Strategy.Retrains, got.Strategy.Cost(), r.Strategy.Retrains, r.Strategy.Cost())
		}
		if !reflect.DeepEqual(got.Detection, r.Detection) {
			t.Errorf("%s: score %+v in the player, %+v in cara run", r.Algorithm, got.Detection, r.Detection)
		}
		if r.Algorithm.IsDetector() && r.Detection == nil {
			t.Errorf("%s: no score against covcon-d's drifts", r.Algorithm)
		}
	}
	e7, _ := f.Result("every-7")
	for _, tt := range e7.Strategy.Retrains {
		if tt%7 != 0 {
			t.Errorf("every-7 retrains at %d", tt)
		}
	}
}
