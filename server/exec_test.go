package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cara-sim/cara/internal/simtest"
	"github.com/cara-sim/cara/sim"
)

// knnCommand is a command's exec as cmd/cara's computeMatrix is: each matrix admitted (Admit),
// computed by the engine, yielding between columns (Yield). It reports its matrix's columns on
// cols and ends when its context does.
func knnCommand(t *testing.T, cols chan<- int) Exec {
	s := loadScenario(t, "covcon-d", "model={knn: {k: 1000}}")
	return func(ctx context.Context, req ExecRequest) int {
		release, err := req.Admit(ctx, s, 1)
		if err != nil {
			fmt.Fprintf(req.Stderr, "cara: %v\n", err)
			return 1
		}
		defer release()
		cfg, err := s.Config(1)
		if err != nil {
			t.Error(err)
			return 1
		}
		cfg.Workers = req.Workers
		_, err = sim.Run(ctx, cfg, func(ev sim.Event) error {
			select {
			case cols <- ev.Index:
			default:
			}
			return req.Yield(ctx)
		})
		if err != nil {
			fmt.Fprintf(req.Stderr, "cara: %v\n", err)
			return 1
		}
		return 0
	}
}

// A command is the room's background work: a k=1000 kNN over 100 batches of 1000 points (at
// --max-work, and twenty minutes of one core) holds the one compute slot of a 2-core room only
// until a player's run waits for it; it gives the slot up between columns, the player's matrix
// arrives within 40 s, and the command goes on after it. The metrics count the command's
// computing. On main the player waited for the command's time limit.
func TestServeCommandYields(t *testing.T) {
	cols := make(chan int, 1)
	// A command prints nothing while it computes: the idle timeout must not end it first.
	srv, addr, _ := startServing(t, Config{MaxComputing: 1, Workers: 1, MaxCommandWork: -1, IdleTimeout: 10 * time.Minute, Exec: knnCommand(t, cols)})
	within := 40 * time.Second
	if raceEnabled {
		within *= 4 // the race detector slows the forest several times
	}
	done := make(chan string, 1)
	go func() {
		_, errOut, code := command(t, addr, "mallory", "", "run knn")
		done <- fmt.Sprintf("%d %s", code, errOut)
	}()
	select {
	case <-cols:
	case r := <-done:
		t.Fatalf("the command ended before computing: %s", r)
	case <-time.After(within):
		t.Fatalf("the command computed no column in %v", within)
	}
	m := scrape(t, srv.metricsURL)
	if m["cara_runs_computing"] != 1 || m["cara_commands_computing"] != 1 {
		t.Errorf("while the command computes: cara_runs_computing %v, cara_commands_computing %v; want 1 and 1",
			m["cara_runs_computing"], m["cara_commands_computing"])
	}
	start := time.Now()
	player := loadScenario(t, "covcon-d")
	st, err := player.Stream(player.Seed)
	if err != nil {
		t.Fatal(err)
	}
	w := srv.Runs().Watch(player, st, player.Seed) // what a student's player opens
	defer w.Leave()
	for w.Matrix() == nil {
		if time.Since(start) > within {
			t.Fatalf("a player's matrix not in after %v beside a command: budget %+v", within, srv.Budget())
		}
		time.Sleep(50 * time.Millisecond)
	}
	took := time.Since(start)
	t.Logf("the player's matrix in after %v beside a k=1000 kNN command", took.Round(time.Millisecond))
	if st := srv.Budget(); st.Yielded < 1 {
		t.Errorf("budget %+v: the command never yielded", st)
	}
	// The command takes its slot back and goes on.
	drain := func() {
		for {
			select {
			case <-cols:
			default:
				return
			}
		}
	}
	drain()
	select {
	case <-cols:
	case r := <-done:
		t.Fatalf("the command ended instead of going on: %s", r)
	case <-time.After(within): // a column of k=1000 takes seconds, and many times that under -race beside other packages
		t.Fatalf("the command computed no column in %v after the player's run", within)
	}
	simtest.Eventually(t, "the command counted as computing again", func() bool {
		m := scrape(t, srv.metricsURL)
		return m["cara_runs_computing"] == 1 && m["cara_commands_computing"] == 1 && m["cara_commands_yielded_total"] >= 1
	})
	srv.Close() // ends the command
	<-done
}

// A command's matrix over --max-command-work is refused at once, saying the sum and what would
// fit: covcon-d as a k=1000 kNN is 5050 cells x 1000 points x 100 queries x k 1000 = 5.05e11;
// 2e10 allows k <= 2e10/5.05e8 = 39, or b(b+1)/2 <= 2e10/1e8 = 200 cells: 19 batches.
func TestServeCommandWork(t *testing.T) {
	cols := make(chan int, 1)
	srv, addr, _ := startServing(t, Config{MaxComputing: 1, Exec: knnCommand(t, cols)})
	_, errOut, code := command(t, addr, "mallory", "", "run knn")
	want := "covcon-d is more computing than a command may take in this room: 5050 cells x 1000 points x 100 queries x k 1000 = 5.05e+11, over the room's 2e+10"
	if code != 1 || !strings.Contains(errOut, want) || !strings.Contains(errOut, "model.knn.k <= 39 or batches <= 19 would fit") {
		t.Errorf("exit %d, %q; want the refusal %q with what would fit", code, errOut, want)
	}
	if got := scrape(t, srv.metricsURL)[`cara_work_refused_total{reason="command_work"}`]; got != 1 {
		t.Errorf("refused for command_work: %v, want 1", got)
	}
	if st := srv.Budget(); st.Busy != 0 || st.Queued != 0 {
		t.Errorf("a refused command holds %+v", st)
	}
	// A forest's matrix is counted at k 1: covcon-d itself (5.05e8) is far within.
	w, err := commandWork(loadScenario(t, "covcon-d"))
	if err != nil || w.Work != 5050*1000*100 || w.K != 1 {
		t.Errorf("covcon-d's work %+v, %v", w, err)
	}
}
