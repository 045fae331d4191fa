package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/cara-sim/cara/internal/budget"
	"github.com/cara-sim/cara/internal/simtest"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/tui"
)

// command runs one command as user over a new connection: stdout, stderr and exit status.
func command(t *testing.T, addr, user, stdin, cmd string, auth ...gossh.AuthMethod) (string, string, int) {
	t.Helper()
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user, Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	sess.Stdin, sess.Stdout, sess.Stderr = strings.NewReader(stdin), &out, &errOut
	err = sess.Run(cmd)
	var exit *gossh.ExitError
	switch {
	case err == nil:
		return out.String(), errOut.String(), 0
	case errors.As(err, &exit):
		return out.String(), errOut.String(), exit.ExitStatus()
	}
	return out.String(), errOut.String() + err.Error(), -1
}

// The room's memory: --memory is what the server reports and what work is admitted against
// (three quarters of it, less the players' canvases), open sessions are charged to it, and the
// metrics say so.
func TestServeMemory(t *testing.T) {
	srv, addr, _ := startServing(t, Config{Memory: 256 << 20})
	if got := srv.Config(); got.Memory != 256<<20 || got.MemoryFrom != "--memory" {
		t.Errorf("memory %d from %q", got.Memory, got.MemoryFrom)
	}
	if st := srv.Budget(); st.Capacity != 192<<20 || st.Held != tui.CanvasKeep {
		t.Errorf("budget %+v, want 192 MiB for work and the canvases held", st)
	}
	c, _, sc := atPicker(t, addr)
	if st := srv.Budget(); st.Pinned != tui.CanvasKeep+sessionBytes {
		t.Errorf("one session open: %d pinned, want %d", st.Pinned, tui.CanvasKeep+sessionBytes)
	}
	m := scrape(t, srv.metricsURL)
	used := float64(tui.CanvasKeep + sessionBytes)
	for k, want := range map[string]float64{"cara_memory_bytes": 256 << 20, "cara_memory_work_bytes": 192 << 20,
		"cara_memory_used_bytes": used, "cara_memory_free_bytes": 192<<20 - used, "cara_work_queued": 0,
		"cara_commands_running": 0, "cara_commands_queued": 0, "cara_uploads": 0, "cara_upload_bytes": 0} {
		if m[k] != want {
			t.Errorf("%s %v, want %v", k, m[k], want)
		}
	}
	if m["process_resident_memory_bytes"] <= 0 || m["go_memstats_heap_alloc_bytes"] <= 0 {
		t.Error("no process RSS or Go heap in the metrics")
	}
	sc.send("q")
	c.Close()
	simtest.Eventually(t, "the session's charge given back", func() bool { return srv.Budget().Pinned == tui.CanvasKeep })
	if _, err := New(Config{Listen: "127.0.0.1:0", HostKey: filepath.Join(t.TempDir(), "k"), MaxSessions: 1, Memory: 100 << 20}); err == nil ||
		!strings.Contains(err.Error(), "--memory 100 MiB is too little for a room") {
		t.Errorf("a room of 10 MiB: %v", err)
	}
	if d := budget.Default(); true {
		if _, err := New(Config{Listen: "127.0.0.1:0", HostKey: filepath.Join(t.TempDir(), "k"), MaxSessions: 1}); err != nil {
			t.Fatal(err)
		}
		t.Logf("the default here: %v from %s", budget.Bytes(d.Bytes), d.From)
	}
}

// In the player, a :set that makes a run the room's memory could never hold is refused with what
// would fit, and the session goes on with the run it had (3000 trees killed a server under a 3 GB
// cap after 8 s).
func TestServeSetTooBig(t *testing.T) {
	t.Parallel()
	srv, addr, _ := startServing(t, Config{Memory: 400 << 20})
	c, _, sc := atPicker(t, addr)
	defer c.Close()
	sc.send("\r")                                                  // covcon-d
	if err := sc.wait("computed all", 5*time.Minute); err != nil { // minutes under the race detector
		t.Fatal(err)
	}
	mark := sc.mark()
	sc.send(":set model.random_forest.trees=3000\r")
	if err := sc.waitAfter(mark, "3000 trees need about", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := sc.waitAfter(mark, "try trees <= ", time.Second); err != nil {
		t.Error(err)
	}
	if st := srv.Runs().Stats(); st.Started != 1 || st.Computing != 0 || st.Queued != 0 {
		t.Errorf("after the refusal: %+v, want the one run only", st)
	}
	if got := scrape(t, srv.metricsURL)[`cara_work_refused_total{reason="memory"}`]; got != 1 {
		t.Errorf("refused for memory: %v, want 1", got)
	}
	sc.send("l")
	sc.waitFor(t, "batch 1/99")
}

// A command takes no session place; one client has at most MaxCommandsPerClient running or
// queued, the room MaxCommands; a command's matrix waits behind what holds the room's memory or
// slots, saying so, for at most CommandQueue. (17 connections x 3 queued runs made every other
// student see "room full".)
func TestServeCommandLimits(t *testing.T) {
	s := loadScenario(t, "covcon-d", "data.size=250", "model.random_forest.trees=10")
	hold := make(chan struct{})
	var mu sync.Mutex
	var errs []string
	exec := func(ctx context.Context, req ExecRequest) int {
		release, err := req.Admit(ctx, s, 1)
		if err != nil {
			mu.Lock()
			errs = append(errs, err.Error())
			mu.Unlock()
			fmt.Fprintf(req.Stderr, "cara: %v\n", err)
			return 1
		}
		defer release()
		if req.Args[0] == "hold" {
			<-hold
		}
		return 0
	}
	srv, addr, _ := startServing(t, Config{MaxSessions: 2, MaxComputing: 1, MaxCommands: 4, MaxCommandsPerClient: 2,
		CommandQueue: 500 * time.Millisecond, Exec: exec})
	idle := runtime.NumGoroutine()
	var wg sync.WaitGroup
	results := make(chan string, 8)
	run := func(user, cmd string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errOut, code := command(t, addr, user, "", cmd)
			results <- fmt.Sprintf("%s %s: %d %s", user, cmd, code, strings.TrimSpace(errOut))
		}()
	}
	run("mallory", "hold") // takes the one compute slot and keeps it
	simtest.Eventually(t, "the first command computing", func() bool { return srv.Budget().Busy == 1 })
	run("mallory", "wait") // queued behind it
	simtest.Eventually(t, "the second queued", func() bool { r, q := srv.commands.counts(); return r == 1 && q == 1 })
	if _, errOut, code := command(t, addr, "mallory", "", "third"); code != 1 || !strings.Contains(errOut, "you have 2 commands running or queued, the most one client may") {
		t.Errorf("a client's third command: exit %d, %q", code, errOut)
	}
	// Players still get in: commands hold no session place.
	var players []*gossh.Client
	for range 2 {
		c, _, _ := atPicker(t, addr)
		defer c.Close()
		players = append(players, c)
	}
	run("eve", "hold2")
	run("trudy", "hold3")
	simtest.Eventually(t, "four commands in the room", func() bool { r, q := srv.commands.counts(); return r+q == 4 })
	if _, errOut, code := command(t, addr, "victor", "", "x"); code != 1 || !strings.Contains(errOut, "at most 4 commands at once") {
		t.Errorf("a fifth command in the room: exit %d, %q", code, errOut)
	}
	// The queued ones give up after CommandQueue, saying where they waited and why they stopped.
	var got []string
	for range 3 {
		got = append(got, <-results)
	}
	for _, g := range got {
		if !strings.Contains(g, ": 1 cara: queued: ") || !strings.Contains(g, "waited 500ms for the room's memory and a compute slot") {
			t.Errorf("a queued command: %s", g)
		}
	}
	close(hold)
	wg.Wait()
	if r := <-results; !strings.HasPrefix(r, "mallory hold: 0") {
		t.Errorf("the holding command: %s", r)
	}
	m := scrape(t, srv.metricsURL)
	for reason, want := range map[string]float64{"commands_per_client": 1, "commands_full": 1, "queue_timeout": 3} {
		if got := m[`cara_work_refused_total{reason="`+reason+`"}`]; got != want {
			t.Errorf("refused for %s: %v, want %v", reason, got, want)
		}
	}
	if st := srv.Budget(); st.Busy != 0 || st.Queued != 0 {
		t.Errorf("all done: budget %+v", st)
	}
	for _, c := range players {
		c.Close()
	}
	goroutinesBack(t, "commands", idle)
}

// --command-timeout ends a command whose client stops reading, and frees what it held: a client that
// never reads a command printing without end (ssh HOST sweep ... | sleep 150 held the only command
// slot for 93 s past a 20 s limit).
func TestServeCommandStall(t *testing.T) {
	ended := make(chan time.Duration, 1)
	exec := func(ctx context.Context, req ExecRequest) int {
		start := time.Now()
		release, err := req.Admit(ctx, loadScenario(t, "covcon-d", "data.size=250", "model.random_forest.trees=10"), 1)
		if err != nil {
			return 1
		}
		defer release()
		line := bytes.Repeat([]byte("x"), 32<<10)
		for ctx.Err() == nil {
			if _, err := req.Stdout.Write(line); err != nil {
				break
			}
		}
		ended <- time.Since(start)
		return 1
	}
	srv, addr, _ := startServing(t, Config{MaxComputing: 1, CommandTimeout: time.Second, Exec: exec})
	idle := runtime.NumGoroutine()
	heap := heapInUse()
	c, err := dial(t, addr)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.StdoutPipe(); err != nil { // never read: the window fills, writes block
		t.Fatal(err)
	}
	if err := sess.Start("sweep covcon-d --seeds 100"); err != nil {
		t.Fatal(err)
	}
	select {
	case d := <-ended:
		t.Logf("the command ended %v after it began (limit 1 s)", d.Round(10*time.Millisecond))
		if d > 4*time.Second {
			t.Errorf("the command ended after %v, its limit 1 s", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a command whose client stopped reading was still running 10 s later (limit 1 s)")
	}
	simtest.Eventually(t, "the command's slot and count given back", func() bool {
		r, q := srv.commands.counts()
		return srv.Budget().Busy == 0 && r+q == 0
	})
	if got := scrape(t, srv.metricsURL)[`cara_work_refused_total{reason="stalled"}`]; got != 1 {
		t.Errorf("stalled %v, want 1", got)
	}
	c.Close()
	goroutinesBack(t, "stalled command", idle)
	heapBack(t, "stalled command", heap)
}

// Uploads are kept as text (parsed when opened), within a bound on their bytes that refuses new
// ones rather than dropping anyone's; in a password room an upload needs a key login; and list
// names what is offered without the server's paths. 24 uploads of a scenario reading the
// Electricity stream (2.45 MB each when kept parsed) hold their text, a few kB.
func TestServeUploadsAsText(t *testing.T) {
	dir, _ := scenarioDir(t, "lesson.yaml")
	elec, err := scenarios.Load("electricity", scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text, err := elec.Text()
	if err != nil {
		t.Fatal(err)
	}
	// Three students of eight uploads each fill the room's upload bytes (each upload's check reads
	// the Electricity stream: 80 of them took 10 s of the suite, and prove no more).
	const students = 3
	srv, addr, _ := startServing(t, Config{ScenariosDir: dir, UploadBytes: int64(students*8*len(text)) + int64(len(text))/2, Exec: func(context.Context, ExecRequest) int { return 0 }})
	idle := runtime.NumGoroutine()
	heap := heapInUse()
	for u := range students {
		for i := range 8 {
			if out, errOut, code := command(t, addr, fmt.Sprintf("student%d", u), string(text), fmt.Sprintf("upload e%d", i)); code != 0 {
				t.Fatalf("upload %d of student %d: exit %d, %q %q", i, u, code, out, errOut)
			}
		}
	}
	n, bytes := srv.uploads.stats()
	if n != students*8 || bytes != int64(students*8*len(text)) || srv.Budget().Pinned != tui.CanvasKeep+bytes {
		t.Errorf("%d uploads of %d bytes held (%d in the budget), want %d of %d", n, bytes, srv.Budget().Pinned, students*8, students*8*len(text))
	}
	goroutinesBack(t, "the uploads", idle)
	heapBack(t, "the uploads", heap) // 2.45 MB an upload when kept parsed
	// Past the bound: refused, and everyone's stay.
	var refused bool
	for i := 0; i < 100 && !refused; i++ {
		_, errOut, code := command(t, addr, fmt.Sprintf("cycler%d", i), string(text), "upload x")
		refused = code == 1 && strings.Contains(errOut, "this room keeps no more uploads")
	}
	if !refused || func() bool { n2, _ := srv.uploads.stats(); return n2 < students*8 }() || srv.Budget().Pinned != tui.CanvasKeep+bytes+int64(len(text))*int64(func() int { n, _ := srv.uploads.stats(); return n - students*8 }()) {
		t.Errorf("past the bound: refused %v; uploads held %v", refused, func() int { n, _ := srv.uploads.stats(); return n }())
	}
	for _, e := range srv.catalog.Load().Entries() {
		if strings.Contains(e.Title, dir) {
			t.Errorf("the picker's title of an offered file holds the server's folder: %q", e.Title)
		}
	}

	pw := filepath.Join(t.TempDir(), "pw")
	os.WriteFile(pw, []byte("tulip\n"), 0o600)
	_, paddr, _ := startServing(t, Config{PasswordFile: pw, Exec: func(context.Context, ExecRequest) int { return 0 }})
	if _, errOut, code := command(t, paddr, "student", string(text), "upload mine", gossh.Password("tulip")); code != 1 || !strings.Contains(errOut, "an upload needs a key login") {
		t.Errorf("an upload in a password room without a key: exit %d, %q", code, errOut)
	}
}

func loadScenario(t testing.TB, name string, sets ...string) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Load(name, scenarios.Options{Set: sets})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
