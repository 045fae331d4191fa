package modelcmd

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cara-sim/cara/sim"
)

// The test binary is also the model command: run with CARA_TEST_MODEL set, it is a model of that
// behaviour instead of the tests (helper below).
func TestMain(m *testing.M) {
	if mode := os.Getenv("CARA_TEST_MODEL"); mode != "" {
		os.Exit(helper(mode))
	}
	os.Exit(m.Run())
}

// helper is the model command the tests start: serve (a random forest of 5 trees, through Serve)
// or one of the ways a command goes wrong.
func helper(mode string) int {
	switch mode {
	case "serve":
		if err := Serve(os.Stdin, os.Stdout, sim.RandomForest{Trees: 5}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "exit":
		fmt.Fprintln(os.Stderr, "Traceback (most recent call last):\n  ValueError: the model file is missing")
		return 3
	case "hang":
		time.Sleep(time.Minute)
	case "print":
		fmt.Println("fitting the model...")
		time.Sleep(time.Minute)
	case "protocol":
		fmt.Println(`{"type":"hello","protocol":2}`)
		time.Sleep(time.Minute)
	case "count", "crash", "noisy":
		// Hello and the batches answered, then the first prediction short by one (count), or an
		// exit at the first fit after a flood of standard error (crash), or a model that writes
		// to standard error all along and answers well (noisy).
		var buf [1 << 20]byte
		in := os.Stdin
		pending := ""
		for {
			n, err := in.Read(buf[:])
			pending += string(buf[:n])
			for {
				i := strings.IndexByte(pending, '\n')
				if i < 0 {
					break
				}
				line := pending[:i]
				pending = pending[i+1:]
				switch {
				case strings.Contains(line, `"hello"`):
					fmt.Println(`{"type":"hello","protocol":1}`)
				case strings.Contains(line, `"fit"`) && mode == "crash":
					fmt.Fprintln(os.Stderr, strings.Repeat("noise ", 2000)+"\nMemoryError: out of memory")
					return 1
				case strings.Contains(line, `"predict"`) && mode == "count":
					fmt.Println(`{"type":"predict","y":[0]}`)
				case strings.Contains(line, `"predict"`):
					fmt.Fprintln(os.Stderr, "predicting")
					n := rows
					if strings.Contains(line, `"queries"`) {
						n = 5
					}
					fmt.Println(`{"type":"predict","y":[` + strings.Repeat("0,", n-1) + `0]}`)
				case strings.Contains(line, `"bye"`):
					return 0
				default:
					fmt.Println(`{"type":"ok"}`)
				}
			}
			if err != nil {
				return 0
			}
		}
	}
	return 0
}

// rows is the rows of every batch of testStream.
const rows = 40

// testStream is a small drifting stream: two Gaussian blobs that swap labels at batch 3.
type testStream struct{ T int }

func (s testStream) Len() int            { return s.T }
func (s testStream) Features() int       { return 2 }
func (s testStream) Drifts() []sim.Drift { return nil }
func (s testStream) Batch(t int) (*sim.Batch, error) {
	rng := sim.NewRand(11, uint64(t))
	b := &sim.Batch{T: t, X: sim.Points{D: 2}, Q: sim.Points{D: 2}}
	for i := range rows {
		c := uint8(i % 2)
		x, y := rng.NormFloat64()+2*float64(c), rng.NormFloat64()
		b.X.V = append(b.X.V, x, y)
		if t >= 3 {
			c = 1 - c
		}
		b.Y = append(b.Y, c)
	}
	for range 5 {
		b.Q.V = append(b.Q.V, rng.NormFloat64()+1, rng.NormFloat64())
		b.QY = append(b.QY, uint8(rng.IntN(2)))
	}
	return b, nil
}

func command(t *testing.T, mode string) *Command {
	t.Helper()
	t.Setenv("CARA_TEST_MODEL", mode)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &Command{Argv: []string{exe}, Timeout: 2 * time.Second, Features: []string{"a", "b"}, Classes: [2]string{"no", "yes"}}
}

// A built-in model served as a command (Serve) gives the matrix cara computes with the model
// itself, bit for bit, in either order of the engine, with class weights and a window: the
// protocol carries the features and labels exactly, and the run treats a model from outside as
// its own.
func TestServedModelIsTheBuiltIn(t *testing.T) {
	for _, c := range []struct {
		order   sim.Order
		window  int
		weights []float64
	}{{sim.ColumnOrder, 0, nil}, {sim.RowOrder, 2, []float64{1, 4}}} {
		base := sim.Config{Stream: testStream{T: 6}, Seed: 5, Offline: 3, Gamma: sim.GammaSpec{Mode: sim.GammaScale},
			Order: c.order, Workers: 2, Window: c.window, Weights: c.weights}
		own := base
		own.Trainer = sim.RandomForest{Trees: 5}
		want, err := sim.Run(context.Background(), own, nil)
		if err != nil {
			t.Fatal(err)
		}
		outside := base
		outside.Outside = command(t, "serve")
		got, err := sim.Run(context.Background(), outside, nil)
		if err != nil {
			t.Fatal(err)
		}
		for ti := range 6 {
			for tp := 0; tp <= ti; tp++ {
				g, w := got.Cell(tp, ti), want.Cell(tp, ti)
				if math.Float64bits(g.A) != math.Float64bits(w.A) || math.Float64bits(g.B) != math.Float64bits(w.B) ||
					math.Float64bits(g.QueryAccuracy) != math.Float64bits(w.QueryAccuracy) || g.ErrorRate != w.ErrorRate {
					t.Fatalf("order %d: cell (%d, %d) is A %v B %v acc %v from the command, A %v B %v acc %v from cara",
						c.order, tp, ti, g.A, g.B, g.QueryAccuracy, w.A, w.B, w.QueryAccuracy)
				}
			}
		}
	}
}

// A command that goes wrong is reported with the step it was on, what went wrong, and the end of
// its standard error (bounded); none leaves the run waiting.
func TestCommandErrors(t *testing.T) {
	for _, c := range []struct {
		mode string
		want []string
	}{
		{"exit", []string{"model command ", ": hello: the command ended its output before it answered: it exited with status 3", "ValueError: the model file is missing"}},
		{"hang", []string{": hello: no answer within 2s (model.timeout)"}},
		{"print", []string{`: hello: answered "fitting the model...", which is not a JSON object with a type`, "standard error"}},
		{"protocol", []string{": hello: the command speaks protocol 2; this cara speaks protocol 1"}},
		{"count", []string{": predict model 0 on batch 0's data: answered 1 predictions for the 40 rows"}},
		{"crash", []string{": fit model 0: the command ended its output before it answered: it exited with status 1",
			"the last 2048 bytes of its standard error (12028 in all)", "MemoryError: out of memory"}},
	} {
		t.Run(c.mode, func(t *testing.T) {
			cfg := sim.Config{Stream: testStream{T: 4}, Seed: 1, Offline: 2, Outside: command(t, c.mode)}
			start := time.Now()
			_, err := sim.Run(context.Background(), cfg, nil)
			if err == nil {
				t.Fatal("the run succeeded")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error does not say %q:\n%v", w, err)
				}
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("the run took %s to fail", took)
			}
		})
	}
}

// A command that writes to its standard error as it works, and answers well, is no error.
func TestNoisyCommand(t *testing.T) {
	cfg := sim.Config{Stream: testStream{T: 4}, Seed: 1, Offline: 2, Outside: command(t, "noisy")}
	m, err := sim.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	// It predicts class 0 everywhere: a cell's error rate is the share of class 1.
	if r := m.Cell(0, 3).ErrorRate; r != 0.5 {
		t.Errorf("error rate %v, want 0.5", r)
	}
}
