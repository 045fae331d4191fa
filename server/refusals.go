package server

import (
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"
)

// refusalInterval is how often refusals are logged at most: the first of an interval at once, with
// its client, and those that follow it as one count per reason when the interval ends. A flood of
// 20,000 connections in two seconds is a few lines, not 20,000.
const refusalInterval = 10 * time.Second

// refusals logs refused connections, sessions and logins at a bounded rate. Safe for concurrent
// use; it holds a timer only while it has counts to write.
type refusals struct {
	log *slog.Logger
	mu  sync.Mutex
	// quiet is when the next refusal may be logged at once; until then refusals are counted.
	quiet  time.Time
	counts map[string]int
	timer  *time.Timer
}

func newRefusals(log *slog.Logger) *refusals {
	return &refusals{log: log, counts: map[string]int{}}
}

// note logs a refusal of client for reason (at once, or counted for the interval's summary); msg
// and attrs are the line written when it is logged at once.
func (r *refusals) note(reason, msg string, attrs ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	if now.After(r.quiet) && len(r.counts) == 0 {
		r.quiet = now.Add(refusalInterval)
		r.log.Warn(msg, append(attrs, "reason", reason)...)
		return
	}
	r.counts[reason]++
	if r.timer == nil {
		r.timer = time.AfterFunc(time.Until(r.quiet), r.flush)
	}
}

// flush writes the counts of the interval that ended.
func (r *refusals) flush() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.timer = nil
	if len(r.counts) == 0 {
		return
	}
	attrs := []any{"interval", refusalInterval}
	for _, k := range slices.Sorted(maps.Keys(r.counts)) {
		attrs = append(attrs, k, r.counts[k])
	}
	r.log.Warn("refusals since the last line (counts by reason; logged at most once an interval)", attrs...)
	clear(r.counts)
	r.quiet = time.Now().Add(refusalInterval)
}

// refusal counts a refused connection or session and logs it at the bounded rate.
func (s *Server) refusal(reason, client string) {
	s.metrics.refused.WithLabelValues(reason).Inc()
	s.refusals.note(reason, "connection refused", "client", client, "max_per_address", s.cfg.MaxPerAddress)
}
