package server

import (
	"net"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics is what `cara serve` publishes for Prometheus: gauges read at scrape time from the server
// and its run registry, counters of refusals and recovered panics, and the Go runtime's standard
// ones (go_goroutines among them). Each server has its own registry, so tests can run several.
type metrics struct {
	reg             *prometheus.Registry
	refused         *prometheus.CounterVec
	panics          prometheus.Counter
	authFailures    *prometheus.CounterVec
	keepAliveClosed prometheus.Counter
	execs           prometheus.Counter
	workRefused     *prometheus.CounterVec
	hostKey         *prometheus.GaugeVec // set once the key is read
}

// workReasons are why work is refused (cara_work_refused_total).
var workReasons = []string{"memory", "max_work", "command_work", "queue_timeout", "commands_full", "commands_per_client", "uploads_full", "upload_needs_key", "stalled"}

func newMetrics(s *Server) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cara_sessions_refused_total",
			Help: "SSH sessions and connections refused, by reason: room_full, no_pty, exec, long_name (a user name over 256 bytes, in a room that asks no login), per_address (sessions from one address at --max-per-address), per_connection, connect_timeout, silent (a connection that said nothing: closed after 2 s, or giving its place at the per-address limit)."}, []string{"reason"}),
		panics: prometheus.NewCounter(prometheus.CounterOpts{Name: "cara_panics_recovered_total",
			Help: "Panics recovered in sessions and engine runs (each logged with its stack)."}),
		execs: prometheus.NewCounter(prometheus.CounterOpts{Name: "cara_commands_total",
			Help: "Headless commands run for clients (ssh HOST run ...), once within the command limits."}),
		authFailures: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cara_auth_failures_total",
			Help: "Logins refused, by method: password (each answered more slowly from the same address), publickey."}, []string{"method"}),
	}
	m.workRefused = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cara_work_refused_total",
		Help: "Work refused or stopped, by reason: memory (could never fit the room's memory), max_work, command_work (a command's matrix over --max-command-work), queue_timeout (waited too long for memory and a slot), commands_full, commands_per_client, uploads_full, upload_needs_key, stalled (a command whose client stopped reading, or past its time)."}, []string{"reason"})
	for _, r := range workReasons {
		m.workRefused.WithLabelValues(r)
	}
	m.keepAliveClosed = prometheus.NewCounter(prometheus.CounterOpts{Name: "cara_keepalive_closed_total",
		Help: "Connections closed because the client stopped answering keepalives (--keepalive)."})
	for _, method := range []string{"password", "publickey"} {
		m.authFailures.WithLabelValues(method)
	}
	for _, r := range []string{"room_full", "no_pty", "exec", "long_name", "per_address", "per_connection", "connect_timeout", "silent"} {
		m.refused.WithLabelValues(r) // present at 0 from the start, so rates work
	}
	gauge := func(name, help string, f func() float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f)
	}
	hostKey := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "cara_host_key_info",
		Help: "The host key's SHA256 fingerprint (as ssh-keygen -lf prints it), for students to check: always 1."}, []string{"fingerprint"})
	m.hostKey = hostKey
	m.reg.MustRegister(
		hostKey,
		collectors.NewGoCollector(), // go_memstats_heap_alloc_bytes: the Go heap
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), // process_resident_memory_bytes: the RSS
		m.refused, m.panics, m.execs, m.authFailures, m.keepAliveClosed, m.workRefused,
		gauge("cara_memory_bytes", "The room's memory (--memory, or the smallest limit the process runs under): GOMEMLIMIT.", func() float64 { return float64(s.cfg.Memory) }),
		gauge("cara_gomemlimit_bytes", "The Go runtime's memory limit (GOMEMLIMIT): cara serve sets it to the room's memory.", func() float64 { return float64(debug.SetMemoryLimit(-1)) }),
		gauge("cara_memory_work_bytes", "Of it, what admitted work may hold in all (three quarters).", func() float64 { return float64(s.budget.Capacity()) }),
		gauge("cara_memory_used_bytes", "What admitted work holds now (estimates for work computing, measures for runs kept), sessions and uploads included.", func() float64 { return float64(s.budget.Stats().Held) }),
		gauge("cara_memory_used_peak_bytes", "The most admitted work held at once since the server started.", func() float64 { return float64(s.budget.Stats().Peak) }),
		gauge("cara_memory_free_bytes", "What more work could hold now.", func() float64 { return float64(s.budget.Free()) }),
		gauge("cara_work_queued", "Work waiting for the room's memory or a compute slot: runs, commands' matrices, checks.", func() float64 { return float64(s.budget.Stats().Queued) }),
		gauge("cara_commands_running", "Headless commands running (computing, or between their matrices).", func() float64 { r, _ := s.commands.counts(); return float64(r) }),
		gauge("cara_commands_queued", "Headless commands waiting for the room's memory or a compute slot.", func() float64 { _, q := s.commands.counts(); return float64(q) }),
		gauge("cara_uploads", "Uploaded scenarios held.", func() float64 { n, _ := s.uploads.stats(); return float64(n) }),
		gauge("cara_upload_bytes", "Bytes of uploaded scenarios' text held.", func() float64 { _, b := s.uploads.stats(); return float64(b) }),
		gauge("cara_sessions", "SSH sessions open.", func() float64 { return float64(s.sessions.Load()) }),
		gauge("cara_runs_computing", "Matrices being computed: the players' runs and the commands' matrices (those holding a compute slot).", func() float64 {
			return float64(s.runs.Stats().Computing) + float64(s.commands.computing.Load())
		}),
		gauge("cara_commands_computing", "Of cara_runs_computing, the commands' matrices.", func() float64 { return float64(s.commands.computing.Load()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "cara_commands_yielded_total",
			Help: "Times a command gave its compute slot to a player's run waiting for one."}, func() float64 { return float64(s.budget.Stats().Yielded) }),
		gauge("cara_runs_queued", "Matrices waiting for a compute slot (--max-computing).", func() float64 { return float64(s.runs.Stats().Queued) }),
		gauge("cara_runs_cached", "Computed matrices held for sharing, watched or not.", func() float64 { return float64(s.runs.Stats().Finished) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "cara_runs_started_total",
			Help: "Matrix computations started (sessions sharing a run start one)."}, func() float64 { return float64(s.runs.Stats().Started) }),
		gauge("cara_room_presenters", "Sessions presenting (0 or 1; --presenter-keys).", func() float64 { p, _, _ := s.room.Counts(); return float64(p) }),
		gauge("cara_room_followers", "Sessions following the presenter.", func() float64 { _, f, _ := s.room.Counts(); return float64(f) }),
		gauge("cara_room_free", "Sessions in the room not following (free, or no presenter on).", func() float64 { _, _, f := s.room.Counts(); return float64(f) }),
		gauge("cara_answers_failing", "1 while the answers file (--answers) cannot be written: answers are kept in memory and the presenter is told.", func() float64 {
			if s.answers.state().Err != nil {
				return 1
			}
			return 0
		}),
		gauge("cara_answers_pending", "Answers kept in memory, not yet written to the answers file (at most 1 MiB of them).", func() float64 { return float64(s.answers.state().Pending) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "cara_answers_written_total", Help: "Answers written to the answers file."},
			func() float64 { return float64(s.answers.state().Written) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "cara_answers_write_failures_total", Help: "Writes to the answers file that failed (each answer is kept and tried again)."},
			func() float64 { return float64(s.answers.state().Failures) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "cara_answers_lost_total", Help: "Answers not written at all (memory's bound reached, or still failing at the stop): each is in the log, whole."},
			func() float64 { return float64(s.answers.state().Lost) }),
		gauge("cara_cache_bytes", "Bytes held by the runs' recorded columns (cells and error bits).", func() float64 { return float64(s.runs.Stats().Bytes) }),
	)
	return m
}

// metricsAddr resolves --metrics: a bare :PORT means loopback, not every interface.
func metricsAddr(addr string) string {
	if host, port, err := net.SplitHostPort(addr); err == nil && host == "" {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return addr
}

// ServeMetrics listens on addr and serves /metrics until the server closes; it returns the bound
// address's listener error, if any, at once.
func (s *Server) ServeMetrics(addr string) error {
	ln, err := net.Listen("tcp", metricsAddr(addr))
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}))
	h := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	s.http.Store(h)
	s.cfg.Log.Info("metrics", "url", "http://"+ln.Addr().String()+"/metrics")
	go h.Serve(ln)
	s.metricsURL = "http://" + ln.Addr().String() + "/metrics"
	return nil
}
