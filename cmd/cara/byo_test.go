package main

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/server"
	"github.com/cara-sim/cara/sim"
	"github.com/cara-sim/cara/sim/modelcmd"
)

// serveTestModel is the test binary run as a model command: a random forest of 5 trees served
// over protocol 1 (modelcmd.Serve), as a Go program that is a model would be.
func serveTestModel() int {
	if err := modelcmd.Serve(os.Stdin, os.Stdout, sim.RandomForest{Trees: 5}); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	return 0
}

// fleetCSV writes a CSV stream of 5 weeks of 80 rows (three features on their own scales, labels
// ok and fail) beside a scenario of it whose queries are a fraction of the data, with a shuffle,
// class weights and a standardised kernel; it returns the scenario's path.
func fleetCSV(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("truck,week,hours,temp,vib,state\n")
	for w := range 5 {
		for i := range 80 {
			h := math.Sin(float64(w*977+i*31)) * 1e4
			v := math.Abs(math.Sin(float64(w*13+i*7))) * (2 + 0.2*float64(w))
			state := "ok"
			if v > 1.5 {
				state = "fail"
			}
			b.WriteString(strings.Join([]string{strconv.Itoa(i), strconv.Itoa(w), ftoa(math.Round(math.Abs(h))), ftoa(300 + math.Mod(h, 7)), ftoa(v), state}, ",") + "\n")
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "fleet.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "fleet.yaml")
	text := "name: fleet\noffline: 2\ndata: {csv: fleet.csv, label: state, batch_column: week, ignore: [truck], shuffle: within_batch}\n" +
		"queries: {from: data, fraction: 0.3}\nmodel: {random_forest: {trees: 7}}\nkernel: {standardize: true}\n" +
		"errors: {weights: {fail: 4}}\nretrain_cost: 1\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// matrixOf computes the matrix of the scenario at path with sets, at seed (the scenario's own when 0).
func matrixOf(t *testing.T, path string, seed uint64, sets ...string) (*scenarios.Scenario, *sim.Matrix) {
	t.Helper()
	s, err := scenarios.Load(path, scenarios.Options{Set: sets})
	if err != nil {
		t.Fatal(err)
	}
	if seed == 0 {
		seed = s.Seed
	}
	m, err := computeMatrix(context.Background(), s, seed, 2, false, sim.ColumnOrder, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, m
}

// sameCells fails unless got and want hold the same bits in every cell: A, B, error rate, query
// accuracy, errors.
func sameCells(t *testing.T, what string, got, want *sim.Matrix) {
	t.Helper()
	bits := math.Float64bits
	for bt := range want.Batches() {
		for tp := 0; tp <= bt; tp++ {
			g, w := got.Cell(tp, bt), want.Cell(tp, bt)
			same := bits(g.A) == bits(w.A) && bits(g.B) == bits(w.B) && bits(g.ErrorRate) == bits(w.ErrorRate) &&
				bits(g.QueryAccuracy) == bits(w.QueryAccuracy) && len(g.Errors.Words) == len(w.Errors.Words)
			for i := range g.Errors.Words {
				same = same && g.Errors.Words[i] == w.Errors.Words[i]
			}
			if !same {
				t.Fatalf("%s: cell (%d, %d): A %v B %v acc %v, want A %v B %v acc %v", what, tp, bt, g.A, g.B, g.QueryAccuracy, w.A, w.B, w.QueryAccuracy)
			}
		}
	}
}

// --predictions-out round-trips a built-in model bit for bit, in each form: its predictions read
// back as model: {predictions: FILE} give the same A, B, C, error rates and query accuracies, for a
// CSV stream read with a shuffle and queries drawn from its data, and for generated data whose
// generated queries take their answers from set=query rows. The file holds the rows as read,
// before the shuffle: another seed's shuffle finds every model's errors at its rows.
func TestPredictionsOutRoundTrip(t *testing.T) {
	csvScenario := fleetCSV(t)
	for _, c := range []struct{ scenario, cmd string }{{csvScenario, "matrix"}, {small, "run"}} {
		_, want := matrixOf(t, c.scenario, 0)
		for _, form := range []string{"p.csv", "p.csv.gz", "p.parquet"} {
			out := filepath.Join(t.TempDir(), form)
			if _, errOut, err := caraIO(t, c.cmd, c.scenario, "--predictions-out", out, "--format", "json"); err != nil || !strings.Contains(errOut, "wrote "+out) {
				t.Fatalf("%s %s --predictions-out %s: %v\n%s", c.cmd, c.scenario, out, err, errOut)
			}
			_, got := matrixOf(t, c.scenario, 0, "model={predictions: "+out+"}")
			sameCells(t, c.scenario+" through "+form, got, want)
		}
	}
	// Seed 1 shuffles every batch otherwise; the file's rows still name the same points.
	out := filepath.Join(t.TempDir(), "p.csv")
	if _, _, err := caraIO(t, "matrix", csvScenario, "--predictions-out", out); err != nil {
		t.Fatal(err)
	}
	_, zero := matrixOf(t, csvScenario, 0, "model={predictions: "+out+"}")
	_, one := matrixOf(t, csvScenario, 1, "model={predictions: "+out+"}")
	for bt := range 5 {
		for tp := 0; tp <= bt; tp++ {
			if a, b := zero.Cell(tp, bt).Errors.Count(), one.Cell(tp, bt).Errors.Count(); a != b {
				t.Fatalf("cell (%d, %d): %d errors at seed 0, %d at seed 1", tp, bt, a, b)
			}
		}
	}
	// Generated data change with the seed: the file is for the scenario's own.
	if _, _, err := caraIO(t, "run", small, "--set", "model={predictions: "+filepath.Join(filepath.Dir(out), "p.csv")+"}", "--seeds", "2"); err == nil {
		t.Error("a predictions file of generated data ran on a second seed")
	}
}

// A model command written in Go (this test binary, serving a random forest over protocol 1) gives
// the matrix of the same forest fitted by cara, bit for bit, on a generated scenario and on a CSV
// one; --predictions-out keeps its answers, which a run without the command reads back.
func TestModelCommandInGo(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CARA_TEST_MODEL", "serve")
	command := "model={command: [" + exe + "]}"
	for _, scenario := range []string{small, fleetCSV(t)} {
		sets := []string{"model={random_forest: {trees: 5}}"}
		_, want := matrixOf(t, scenario, 0, sets...)
		_, got := matrixOf(t, scenario, 0, append(sets, command)...)
		sameCells(t, scenario, got, want)
		out := filepath.Join(t.TempDir(), "answers.parquet")
		args := []string{"matrix", scenario, "--predictions-out", out}
		for _, s := range append(sets, command) {
			args = append(args, "--set", s)
		}
		if _, errOut, err := caraIO(t, args...); err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		_, again := matrixOf(t, scenario, 0, append(sets, "model={predictions: "+out+"}")...)
		sameCells(t, scenario+": the command's answers read back", again, want)
	}
}

// ssh HOST run|validate never starts a model command: a file the server offers, and a scenario on
// standard input, are refused with the reason, and the program is never started.
func TestServedCommandsRunNoModelCommand(t *testing.T) {
	dir := t.TempDir()
	mark := filepath.Join(dir, "ran")
	text := strings.Replace(string(mustRead(t, small)), "model: {nearest_centroid: {}}", "model: {command: [sh, -c, 'touch "+mark+"']}", 1)
	if err := os.WriteFile(filepath.Join(dir, "cmd.yaml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, addr := serveCommands(t, server.Config{ScenariosDir: dir})
	for _, c := range []struct{ stdin, command string }{{"", "run cmd"}, {text, "run -"}, {text, "validate -"}, {"", "matrix cmd"}} {
		out, errOut, code := sshCommand(t, addr, c.stdin, c.command)
		if code == 0 || !strings.Contains(errOut, "model.command: a served room starts no program") {
			t.Errorf("ssh %s: exit %d, %q %q", c.command, code, out, errOut)
		}
		t.Logf("ssh %s says: %s", c.command, strings.TrimSpace(errOut))
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("the model command ran")
	}
}
