package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/tui/internal/run"
)

// The scatter's axes belong to the run: a scenario file edited and read again (a server's SIGHUP)
// at the same path and seed gets the axes of its own data, not those of the file before.
func TestBoundsFollowTheFile(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "small.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "small.yaml")
	runs := live.NewRuns(live.RunsConfig{MaxComputing: 1, Cache: 4})
	defer runs.Close()
	scan := func() *run.Bounds {
		t.Helper()
		s, err := scenarios.Load(path, scenarios.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sess, err := run.New(s, 3, runs, nil)
		if err != nil {
			t.Fatal(err)
		}
		sess.Start()
		defer sess.Stop()
		msg, ok := run.ScanBounds(sess)().(run.BoundsMsg)
		if !ok {
			t.Fatal("no bounds")
		}
		return msg.Bounds
	}
	os.WriteFile(path, src, 0o644)
	before := scan()
	os.WriteFile(path, bytes.Replace(src, []byte(`mean: "0.4 + 0.02*t"`), []byte(`mean: "10 + 0.02*t"`), 1), 0o644)
	after := scan()
	// The data's mean moved by 9.6 (the queries' did not): the new axes reach past 8, the old
	// ones stopped below 2.
	if !(before.Hi[0] < 2) || !(after.Hi[0] > 8) {
		t.Errorf("x1's axis %v..%v before the edit, %v..%v after: stale", before.Lo[0], before.Hi[0], after.Lo[0], after.Hi[0])
	}
}
