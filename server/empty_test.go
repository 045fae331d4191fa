package server

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cara-sim/cara/internal/simtest"
)

// When the room empties (its last session leaves, and no command runs), the heap's free memory
// goes back to the system after emptyDelay and the log says what a second class starts from; not
// while one session is still there.
func TestServeEmptyRoom(t *testing.T) {
	const delay = 100 * time.Millisecond
	_, addr, logs := startServingHooks(t, Config{}, hooks{emptyDelay: delay})
	a, _, _ := atPicker(t, addr)
	b, _, _ := atPicker(t, addr)
	a.Close()
	time.Sleep(4 * delay)
	if strings.Contains(logs.String(), "room empty") {
		t.Fatalf("memory freed while a session is open:\n%s", logs.String())
	}
	garbage := make([][]byte, 64)
	for i := range garbage {
		garbage[i] = make([]byte, 1<<20) // 64 MiB the collector will find free
	}
	garbage = nil
	runtime.GC()
	b.Close()
	simtest.Eventually(t, "the room empty logged", func() bool { return strings.Contains(logs.String(), "room empty") })
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if idle := m.HeapIdle - m.HeapReleased; idle > 16<<20 {
		t.Errorf("%d MiB of free heap kept from the system after the room emptied", idle>>20)
	}
	line := logs.String()[strings.Index(logs.String(), "room empty"):]
	line = line[:strings.Index(line, "\n")]
	for _, f := range []string{"rss_before=", "rss_after=", "runs_cached=", "cache=", "budget_held="} {
		if !strings.Contains(line, f) {
			t.Errorf("the empty room's line lacks %s: %s", f, line)
		}
	}
	t.Log(line)
}
