package scenarios

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cara-sim/cara/sim"
)

const base = `name: t
seed: 1
batches: 10
offline: 3
data:
  size: 50
  features: 2
  uniform: {low: 0, high: 1}
  label: "x2 > x1"
queries: {from: data, size: 5}
model: {nearest_centroid: {}}
retrain_cost: 1
`

// with replaces one line of base (matched by its prefix) with repl.
func with(prefix, repl string) string {
	var out []string
	for _, l := range strings.Split(base, "\n") {
		if strings.HasPrefix(l, prefix) {
			l = repl
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func TestBadScenarios(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"unknown key", base + "colour: red\n", `bad.yaml:13:1: unknown field "colour"`},
		{"unknown nested key", with("  size: 50", "  sise: 50"), `bad.yaml:6:3: unknown field "sise"`},
		{"wrong type", with("batches: 10", "batches: [1, 2]"), "bad.yaml:3:10: expected a single value, got a list"},
		{"not a number", with("batches: 10", "batches: ten"), `bad.yaml:3:10: batches: must be a whole number, got "ten"`},
		{"zero size", with("  size: 50", "  size: 0"), "bad.yaml:6:9: data.size: must be in 1..100000000, got 0"},
		{"negative size", with("  size: 50", "  size: -5"), "bad.yaml:6:9: data.size: must be in 1..100000000, got -5"},
		{"offline too big", with("offline: 3", "offline: 10"), "bad.yaml:4:10: offline: must be in 1..9 (fewer than the 10 batches, leaving an online block), got 10"},
		{"bad expression", with(`  label: "x2 > x1"`, `  label: "x2 > > x1"`), `bad.yaml:9:10: data.label: bad expression: unexpected token Operator(">")`},
		{"unknown variable", with(`  label: "x2 > x1"`, `  label: "x3 > x1"`), `bad.yaml:9:10: data.label: bad expression: unknown name x3 (at column 1 of "x3 > x1"); expressions may use t, x1..x2`},
		{"divide by zero at some t", with("retrain_cost: 1", `retrain_cost: "1/(t-4)^2"`), `bad.yaml:12:15: retrain_cost: expression "1/(t-4)^2" is +Inf at t=4`},
		{"negative cost at some t", with("retrain_cost: 1", `retrain_cost: "5 - t"`), `bad.yaml:12:15: retrain_cost: expression "5 - t" is -1 at t=6; a retraining cost must be >= 0`},
		{"gamma <= 0", base + "kernel: {gamma: 0}\n", `bad.yaml:13:17: kernel.gamma: must be scale, auto or a number > 0, got "0"`},
		{"unknown algorithm", base + "algorithms: [oracle, cara-x]\n", `bad.yaml:13:22: algorithms: unknown algorithm "cara-x" (valid: oracle, cara-t`},
		{"two models", with("model: {nearest_centroid: {}}", "model: {nearest_centroid: {}, knn: {k: 3}}"), "bad.yaml:11:8: model: give exactly one of random_forest, logistic, knn, nearest_centroid (found 2)"},
		{"missing data", strings.Replace(base, "data:", "dota:", 1), `bad.yaml:5:1: unknown field "dota"`},
		{"label and concepts", with(`  label: "x2 > x1"`, "  label: \"x2 > x1\"\n  concepts: [{at: 0, label: \"x1 > 0\"}]"), "bad.yaml:6:7: data: give exactly one of label (an expression true for class 1) or concepts (a timeline)"},
		{"first concept not at 0", with(`  label: "x2 > x1"`, `  concepts: [{at: 2, label: "x1 > 0"}]`), "bad.yaml:9:19: data.concepts[0].at: the first concept must start at 0, got 2"},
		{"std list length", with("  uniform: {low: 0, high: 1}", "  gaussian: {mean: [0, 1, 2], std: 1}"), "bad.yaml:8:20: data.gaussian.mean: has 3 values; give 1 (for every feature) or 2 (one per feature)"},
		{"noise out of range", base[:len(base)-1] + "\n" + "  noise: 2\n", ""},
		{"syntax", "name: [unclosed\n", "bad.yaml:1:7:"},
	}
	for _, tc := range tests {
		_, err := Parse("bad.yaml", []byte(tc.src), t.TempDir(), Options{})
		if tc.want == "" {
			if err == nil {
				t.Errorf("%s: no error", tc.name)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n got  %v\n want %s...", tc.name, err, tc.want)
		}
	}
}

func TestExpressionsAndGenerators(t *testing.T) {
	src := strings.Replace(with(`  label: "x2 > x1"`, `  label: "sqrt(x1^2) + abs(-x2) > min(1, max(0, floor(2.5)/2)) + 0*exp(log(e))*sin(pi)*cos(0)"`),
		"  uniform: {low: 0, high: 1}", "  mixture:\n    - {weight: \"t % 2\", gaussian: {mean: [0, 10], std: 0}}\n    - {weight: 1, uniform: {low: 5, high: 5}}", 1)
	s, err := Parse("ok.yaml", []byte(src), "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Stream(7)
	if err != nil {
		t.Fatal(err)
	}
	// At even t the Gaussian's weight (t % 2) is 0: every point is the uniform's (5, 5). At odd t
	// both components have weight 1.
	b0, _ := st.Batch(0)
	for i := range b0.X.Len() {
		if r := b0.X.Row(i); r[0] != 5 || r[1] != 5 {
			t.Fatalf("t=0 point %v, want (5,5)", r)
		}
	}
	b1, _ := st.Batch(1)
	gauss := 0
	for i := range b1.X.Len() {
		if r := b1.X.Row(i); r[0] == 0 && r[1] == 10 {
			gauss++
		}
	}
	if gauss < 10 || gauss > 40 {
		t.Errorf("t=1: %d of 50 points from the Gaussian, want about half", gauss)
	}
	// Label: x1 + x2 > 1 for (5,5) -> class 1; (0,10) -> 10 > 1 -> class 1.
	for i, y := range b1.Y {
		if y != 1 {
			t.Fatalf("point %d labelled %d", i, y)
		}
	}
	// Same seed, same batch; another seed, another batch.
	again, _ := st.Batch(1)
	if again.X.V[0] != b1.X.V[0] {
		t.Error("Batch(1) differs between calls")
	}
}

func TestConceptTransitions(t *testing.T) {
	c := concept{at: 10, width: 4, sigmoid: true}
	if p := c.probability(12); math.Abs(p-0.5) > 1e-12 {
		t.Errorf("sigmoid at its centre: %v, want 0.5", p)
	}
	if p := c.probability(10); p > 0.2 {
		t.Errorf("sigmoid at its start: %v", p)
	}
	l := concept{at: 10, width: 4}
	for tau, want := range map[float64]float64{9: 0, 10: 0, 11: 0.25, 12: 0.5, 14: 1, 20: 1} {
		if p := l.probability(tau); p != want {
			t.Errorf("linear at %v: %v, want %v", tau, p, want)
		}
	}
	if a := (concept{at: 3}); a.probability(2.99) != 0 || a.probability(3) != 1 {
		t.Error("abrupt concept")
	}
}

func TestDriftsAndDeterminism(t *testing.T) {
	s, err := Load("circle-d", Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := s.Stream(0)
	d := st.Drifts()
	if len(d) != 3 || d[0].From != 25 || d[0].Kind != "gradual" {
		t.Errorf("circle drifts %+v", d)
	}
	c, _ := Load("covcon-d", Options{})
	cs, _ := c.Stream(0)
	cd := cs.Drifts()
	if len(cd) != 9 || cd[0].Kind != "abrupt" || cd[1].Kind != "recurring" {
		t.Errorf("covcon drifts %+v", cd)
	}
	// Label noise at 10 %: about 100 of 1000 labels of circle-d's batch 5 disagree with the concept.
	b, _ := st.Batch(5)
	flipped := 0
	for i := range b.X.Len() {
		r := b.X.Row(i)
		want := uint8(0)
		if (r[0]-0.2)*(r[0]-0.2)+(r[1]-0.5)*(r[1]-0.5) > 0.15*0.15 {
			want = 1
		}
		if b.Y[i] != want {
			flipped++
		}
	}
	if flipped < 70 || flipped > 130 {
		t.Errorf("%d of 1000 labels flipped, want about 100", flipped)
	}
}

func TestScenario2ExactZeros(t *testing.T) {
	s, err := Load("scenario2", Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := s.Config(s.Seed)
	m, err := sim.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	grew := false
	for tt := 1; tt < m.T; tt++ {
		for tp := 0; tp < tt; tp++ {
			if c := m.Cell(tp, tt); c.C() != 0 {
				t.Errorf("QDMdiff(%d,%d) = %v, want exactly 0", tp, tt, c.C())
			}
		}
		// The absolute staleness A of M_0 grows as the queries approach the boundary.
		if m.Cell(0, tt).A > m.Cell(0, 1).A {
			grew = true
		}
	}
	if !grew {
		t.Error("QDM of M_0 does not grow as the queries move toward the boundary")
	}
}

func TestLoggedExample(t *testing.T) {
	// The example file, with small CSVs beside it.
	dir := t.TempDir()
	var data, queries strings.Builder
	data.WriteString("batch,x1,x2,colour,y\n")
	queries.WriteString("batch,x1,x2,colour,y\n")
	for b := range 12 {
		for i := range 6 {
			x1, x2 := float64(i)/6, float64((i*7+b)%6)/6
			y := "no"
			if x2 > x1 {
				y = "yes"
			}
			colour := []string{"red", "blue"}[i%2]
			data.WriteString(strings.Join([]string{itoa(b), ftoa(x1), ftoa(x2), colour, y}, ",") + "\n")
			if i < 2 {
				queries.WriteString(strings.Join([]string{itoa(b), ftoa(x2), ftoa(x1), colour, y}, ",") + "\n")
			}
		}
	}
	os.WriteFile(filepath.Join(dir, "data.csv"), []byte(data.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "queries.csv"), []byte(queries.String()), 0o644)
	yaml := `name: logged
seed: 1
batches: 12
offline: 6
data: {csv: data.csv, label: y, batch_column: batch}
queries: {csv: queries.csv, label: y, batch_column: batch}
model: {nearest_centroid: {}}
kernel: {gamma: 0.5}
retrain_cost: 0.3
`
	path := filepath.Join(dir, "logged.yaml")
	os.WriteFile(path, []byte(yaml), 0o644)
	s, err := Load(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Batches != 12 || s.Features != 4 { // x1, x2, colour=red, colour=blue
		t.Fatalf("batches %d features %d", s.Batches, s.Features)
	}
	cfg, _ := s.Config(1)
	m, err := sim.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if q := m.Cell(0, 0).QueryAccuracy; math.IsNaN(q) {
		t.Error("query labels from queries.csv were not read")
	}
}

func itoa(i int) string     { return strconv.Itoa(i) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
