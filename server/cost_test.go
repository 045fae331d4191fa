package server

import (
	"os"
	"runtime"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/cara-sim/cara/tui"
)

// sessionsCost opens n more sessions of cols x rows on covcon-d's one run (computed by a first
// session), each stepped a little and then idle, and returns the live heap each holds.
func sessionsCost(t *testing.T, addr string, n, cols, rows int) float64 {
	t.Helper()
	before, canvases := heapInUse(), tui.CanvasesKept()
	var clients []*gossh.Client
	var screens []*screen
	for range n {
		c, sess, sc := withPTY(t, addr, cols, rows)
		clients = append(clients, c)
		if err := sess.Shell(); err != nil {
			t.Fatal(err)
		}
		sc.waitFor(t, "pick a scenario")
		sc.send("\r")
		sc.waitFor(t, "computed all")
		sc.send("lll")
		sc.waitFor(t, "batch 3/99")
		screens = append(screens, sc)
	}
	time.Sleep(500 * time.Millisecond) // the last frames written
	for _, sc := range screens {
		sc.forget()
	}
	// The canvases kept between drawings are bounded for all sessions together (tui.CanvasKeep), and
	// counted apart.
	each := (float64(int64(heapInUse())-int64(before)) - float64(tui.CanvasesKept()-canvases)) / float64(n)
	for _, c := range clients {
		c.Close()
	}
	return each
}

// What an idle player session holds on the server, on a run another session computed: its panes'
// text, its replays, the SSH channel's buffers (the clients' own output is left out). Each session
// kept its panes' last canvases (0.8 MB at 120x40) and the heat map's grid (2.5 MB at 500x200), and
// copied its finished run's matrix (0.32 MB for covcon-d); now the canvases and the matrix are
// shared and the grid is not kept. The room charges each session sessionBytes.
func TestSessionCost(t *testing.T) {
	if testing.Short() || os.Getenv("CARA_SLOW") == "" {
		t.Skip("a measurement of fourteen sessions: CARA_SLOW=1 runs it, as CI does")
	}
	_, addr, _ := startServing(t, Config{MaxSessions: 30})
	c, _, sc := atPicker(t, addr)
	defer c.Close()
	sc.send("\r")
	if err := sc.wait("computed all", 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	small := sessionsCost(t, addr, 10, 120, 40)
	large := sessionsCost(t, addr, 4, 500, 200)
	runtime.GC()
	t.Logf("an idle session holds %.2f MB at 120x40, %.2f MB at 500x200 (charged %.1f MB)", small/(1<<20), large/(1<<20), float64(sessionBytes)/(1<<20))
	if small > 0.6*(1<<20) {
		t.Errorf("an idle session at 120x40 holds %.2f MB, want under 0.6 MB", small/(1<<20))
	}
	if large > sessionBytes {
		t.Errorf("an idle session at 500x200 holds %.2f MB, over the %.1f MB it is charged", large/(1<<20), float64(sessionBytes)/(1<<20))
	}
}
