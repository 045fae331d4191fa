package server

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/cara-sim/cara/internal/budget"
)

// emptyDelay is how long the room stays empty (no session, no command) before its memory goes back
// to the system: a class that leaves at the bell, not a student reconnecting.
const emptyDelay = 10 * time.Second

// left is called when a session ends; the last one out starts the empty room's timer.
func (s *Server) left() {
	if s.sessions.Load() != 0 || !s.emptying.CompareAndSwap(false, true) {
		return
	}
	d := emptyDelay
	if s.hooks.emptyDelay > 0 {
		d = s.hooks.emptyDelay
	}
	time.AfterFunc(d, func() {
		defer s.emptying.Store(false)
		if running, queued := s.commands.counts(); s.sessions.Load() != 0 || running+queued != 0 || s.stopping.Load() {
			return
		}
		s.freeMemory()
	})
}

// freeMemory returns what the Go heap holds free to the system (the collector would, but slowly:
// a room that held 480 MB for 100 students kept it for minutes), and logs what a second class
// starts from: the RSS, and the runs kept for sharing (--cache).
func (s *Server) freeMemory() {
	before := rss()
	debug.FreeOSMemory()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	st := s.runs.Stats()
	s.cfg.Log.Info("room empty: memory returned to the system; a second class starts from rss_after",
		"rss_before", budget.Bytes(before).String(), "rss_after", budget.Bytes(rss()).String(),
		"heap", budget.Bytes(m.HeapAlloc).String(), "runs_cached", st.Finished, "cache", budget.Bytes(st.Bytes).String(),
		"budget_held", budget.Bytes(s.budget.Stats().Held).String())
}

// rss is the process's resident memory in bytes (0 where /proc does not say).
func rss() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
