package scenarios

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/sim"
)

// byoFiles writes a 6-batch CSV scenario whose model is a predictions file into a new folder: data
// (30 rows a batch, batch column week 10..15, labels ok and fail, three features on their own
// scales), logged queries with labels (8 a batch), and the predictions of a made-up model that is
// no model cara has (its class a function of t', t and the row). It returns the folder, the
// scenario's text and the made-up model.
func byoFiles(t *testing.T) (dir, text string, predict func(tp, t, row int) string) {
	t.Helper()
	dir = t.TempDir()
	predict = func(tp, t, row int) string {
		if (7*tp+3*t+row)%3 == 0 || (t > 2 && row%5 == tp%5) {
			return "fail"
		}
		return "ok"
	}
	value := func(t, row, f int) float64 { // a fixed pseudo-random value, on feature f's scale
		h := math.Sin(float64(1+t*131+row*17+f*7)) * 43758.5453
		frac := h - math.Floor(h)
		return []float64{1, 100, 0.01}[f] * (frac + 0.1*float64(t))
	}
	var data, queries, preds strings.Builder
	data.WriteString("week,a,b,c,state\n")
	queries.WriteString("week,a,b,c,state\n")
	preds.WriteString("model,batch,row,prediction,set\n")
	for bt := range 6 {
		for row := range 30 {
			y := "ok"
			if value(bt, row, 0) > 0.55+0.05*float64(bt) {
				y = "fail"
			}
			fmt.Fprintf(&data, "%d,%v,%v,%v,%s\n", 10+bt, value(bt, row, 0), value(bt, row, 1), value(bt, row, 2), y)
		}
		for j := range 8 {
			fmt.Fprintf(&queries, "%d,%v,%v,%v,%s\n", 10+bt, value(bt, 100+j, 0), value(bt, 100+j, 1), value(bt, 100+j, 2), []string{"ok", "fail"}[j%2])
		}
	}
	for tp := range 6 {
		for bt := tp; bt < 6; bt++ {
			for row := range 30 {
				fmt.Fprintf(&preds, "%d,%d,%d,%s,data\n", tp, bt, row, predict(tp, bt, row))
			}
			for j := range 8 {
				fmt.Fprintf(&preds, "%d,%d,%d,%s,query\n", tp, bt, j, predict(tp, bt, 100+j))
			}
		}
	}
	for name, body := range map[string]string{"data.csv": data.String(), "queries.csv": queries.String(), "preds.csv": preds.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	text = `name: byo
batches: 6
offline: 3
data: {csv: data.csv, label: state, batch_column: week}
queries: {csv: queries.csv, label: state, batch_column: week}
model: {predictions: preds.csv}
errors: {weights: {fail: 3}}
retrain_cost: "0.5 + 0.1*t"
`
	return dir, text, predict
}

// The byo-model check: a 6-batch CSV scenario whose model is a predictions file gives the C the
// paper's definitions give for those predictions, computed here from the files alone (to 1e-12):
// A = QDM(Q_t, D_t, M_t') and B = QDM(Q_t, D_t', M_t') with each error weighted by its class,
// gamma = 1/(d x the variance of the offline values pooled), R(t) on the diagonal; and each
// cell's query accuracy is the share of the file's answers at the queries that are right. The
// Oracle costs no more than any algorithm.
func TestPredictionsFileIsThePapersC(t *testing.T) {
	dir, text, predict := byoFiles(t)
	s, err := Parse(filepath.Join(dir, "byo.yaml"), []byte(text), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := s.Config(s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	m, err := sim.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The files, read by hand: rows of batch t, features and labels.
	read := func(name string) (x [][][]float64, y [][]string) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		x, y = make([][][]float64, 6), make([][]string, 6)
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
			f := strings.Split(line, ",")
			var week int
			fmt.Sscan(f[0], &week)
			var p []float64
			for _, v := range f[1:4] {
				var n float64
				fmt.Sscan(v, &n)
				p = append(p, n)
			}
			x[week-10], y[week-10] = append(x[week-10], p), append(y[week-10], f[4])
		}
		return x, y
	}
	X, Y := read("data.csv")
	Q, QY := read("queries.csv")
	var sum, sum2, n float64
	for bt := range 3 {
		for _, p := range X[bt] {
			for _, v := range p {
				sum, sum2, n = sum+v, sum2+v*v, n+1
			}
		}
	}
	gamma := 1 / (3 * (sum2/n - (sum/n)*(sum/n)))
	weight := map[string]float64{"ok": 1, "fail": 3}
	qdm := func(tp, data, queries int) float64 {
		total := 0.0
		for _, q := range Q[queries] {
			for i, x := range X[data] {
				if predict(tp, data, i) == Y[data][i] {
					continue
				}
				d2 := 0.0
				for f := range q {
					d2 += (q[f] - x[f]) * (q[f] - x[f])
				}
				total += math.Exp(-gamma*d2) * weight[Y[data][i]] / float64(len(X[data]))
			}
		}
		return total
	}
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
	if !close(m.Gamma, gamma) {
		t.Fatalf("gamma %v, the definition's %v", m.Gamma, gamma)
	}
	for bt := range 6 {
		for tp := 0; tp <= bt; tp++ {
			c := m.Cell(tp, bt)
			a, b := qdm(tp, bt, bt), qdm(tp, tp, bt)
			if !close(c.A, a) || !close(c.B, b) {
				t.Errorf("cell (%d, %d): A %v B %v, the definitions' %v %v", tp, bt, c.A, c.B, a, b)
			}
			right := 0
			for j := range Q[bt] {
				if predict(tp, bt, 100+j) == QY[bt][j] {
					right++
				}
			}
			if acc := float64(right) / float64(len(Q[bt])); c.QueryAccuracy != acc {
				t.Errorf("cell (%d, %d): query accuracy %v, the file's answers %v", tp, bt, c.QueryAccuracy, acc)
			}
		}
		if r := s.RetrainCost(bt); r != 0.5+0.1*float64(bt) {
			t.Errorf("R(%d) = %v", bt, r)
		}
	}
	results, err := s.Evaluation.Evaluate(m, s.RetrainCost, s.Algorithms, s.Batches-1)
	if err != nil {
		t.Fatal(err)
	}
	oracle := results[0]
	if oracle.Algorithm != algos.NameOracle {
		t.Fatalf("the first result is %s", oracle.Algorithm)
	}
	for _, r := range results[1:] {
		if r.Strategy.Cost() < oracle.Strategy.Cost()-1e-12 {
			t.Errorf("%s costs %v, less than the Oracle's %v", r.Algorithm, r.Strategy.Cost(), oracle.Strategy.Cost())
		}
	}
}

// A predictions file missing one prediction is refused, naming the file and the prediction.
func TestPredictionsFileMissingARow(t *testing.T) {
	dir, text, _ := byoFiles(t)
	path := filepath.Join(dir, "preds.csv")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gone := strings.Replace(string(b), "2,4,7,", "2,4,x,", 1)
	lines := strings.Split(gone, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "2,4,x,") {
			lines = append(lines[:i], lines[i+1:]...)
			break
		}
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Parse(filepath.Join(dir, "byo.yaml"), []byte(text), dir, Options{})
	want := "byo.yaml:6:22: model.predictions: " + path + ": no prediction of model 2 for batch 4 row 7"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// A served scenario reads a predictions file only inside the server's folder, as its CSV data:
// a path that climbs out, an absolute one, or a link that leads out is refused; one inside reads.
func TestUntrustedPredictions(t *testing.T) {
	dir, text, _ := byoFiles(t)
	outside := filepath.Join(t.TempDir(), "preds.csv")
	b, err := os.ReadFile(filepath.Join(dir, "preds.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link.csv")); err != nil {
		t.Fatal(err)
	}
	opt := Options{Untrusted: true, FilesDir: dir}
	if _, err := Parse("sent.yaml", []byte(text), "", opt); err != nil {
		t.Fatalf("a file in the folder: %v", err)
	}
	for _, path := range []string{"../" + filepath.Base(filepath.Dir(outside)) + "/preds.csv", outside, "link.csv", "/etc/passwd"} {
		_, err := Parse("sent.yaml", []byte(strings.Replace(text, "predictions: preds.csv", "predictions: "+path, 1)), "", opt)
		if err == nil || !strings.Contains(err.Error(), "a scenario sent to a server may read only files in the server's data folder") {
			t.Errorf("%s: %v", path, err)
		}
	}
}

// A predictions file changed on disk is another scenario: its identity (what a server's reload
// compares) and its hash (what a sweep resumes by) both change.
func TestPredictionsFileIdentity(t *testing.T) {
	dir, text, _ := byoFiles(t)
	load := func() *Scenario {
		s, err := Parse(filepath.Join(dir, "byo.yaml"), []byte(text), dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := load(), load()
	if a.Identity() != b.Identity() || a.Hash() != b.Hash() {
		t.Fatal("two loads of the same files differ")
	}
	path := filepath.Join(dir, "preds.csv")
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	flipped := strings.Replace(string(body), "0,0,1,ok,data", "0,0,1,fail,data", 1)
	if flipped == string(body) {
		t.Fatal("nothing to change")
	}
	if err := os.WriteFile(path, []byte(flipped), 0o644); err != nil {
		t.Fatal(err)
	}
	c := load()
	if c.Identity() == a.Identity() || c.Hash() == a.Hash() {
		t.Error("the changed predictions file is the same scenario")
	}
}
