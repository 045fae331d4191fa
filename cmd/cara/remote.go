package main

// `ssh -p PORT HOST run covcon-d -R 30 --format json`: the headless commands a workshop server
// runs for a client. They are this binary's own commands, run in process with the client's
// channel as standard input, output and error, so a client reads exactly what the local command
// prints and gets its exit status. What a client sends is untrusted: only the commands and flags
// below pass, a scenario is a name the server offers or `-` (its text on standard input), and no
// flag that names a file on the server's disk is taken.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/server"
)

// oneLine keeps a title on its line of a listing.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// remoteFlags are the flags each remote command takes (every one of them takes a value). A flag
// that names a file (-o, --figures, --data, --queries, ...) or tunes the server (--workers,
// --max-work) is not among them.
var remoteFlags = map[string][]string{
	"run":      {"format", "seeds", "set", "retrain-cost", "R", "seed", "trees", "detector-reset"},
	"matrix":   {"format", "set", "retrain-cost", "R", "seed", "trees"},
	"sweep":    {"costs", "seeds", "set", "seed", "trees", "detector-reset"},
	"validate": {"set"},
	"list":     nil,
}

// remoteCommandNames lists remoteFlags' keys in the order the help gives them.
var remoteCommandNames = []string{"run", "matrix", "sweep", "validate", "list"}

// errRemote is a request the server refuses before running anything.
type errRemote struct{ msg string }

func (e errRemote) Error() string { return e.msg }

// remoteArgs checks a client's command line and returns the scenario it names ("" for list, "-"
// for standard input) and the arguments with that name replaced by where the server keeps it.
// offered maps a name the server offers to its path (or the embedded name).
func remoteArgs(args []string, offered func(name string) (string, bool)) (scenario string, out []string, err error) {
	if len(args) == 0 {
		return "", nil, errRemote{"give a command: " + strings.Join(remoteCommandNames, ", ") + " (e.g. ssh HOST run covcon-d -R 30), or no command for the player"}
	}
	allowed, ok := remoteFlags[args[0]]
	if !ok {
		return "", nil, errRemote{fmt.Sprintf("%q is not a command this server runs; it runs %s (and the player, with no command)", args[0], strings.Join(remoteCommandNames, ", "))}
	}
	out = []string{args[0]}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--help" || a == "-h" {
			out = append(out, a)
			continue
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			if args[0] == "list" {
				return "", nil, errRemote{"list takes no scenario"}
			}
			if scenario != "" {
				return "", nil, errRemote{fmt.Sprintf("give one scenario (got %q and %q)", scenario, a)}
			}
			scenario = a
			if a == "-" {
				out = append(out, a)
				continue
			}
			path, ok := offered(a)
			if !ok {
				return "", nil, errRemote{fmt.Sprintf("no scenario %q here: give one this server offers (ssh HOST list), or - to send your own file on standard input", a)}
			}
			out = append(out, path)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !slices.Contains(allowed, name) {
			return "", nil, errRemote{fmt.Sprintf("%s: not taken over SSH (nothing a client sends may name the server's files or tune it); %s takes %s", a, args[0], flagList(allowed))}
		}
		if !hasValue {
			if i+1 == len(args) {
				return "", nil, errRemote{fmt.Sprintf("%s needs a value", a)}
			}
			i++
			value = args[i]
		}
		out = append(out, "--"+longFlag(name)+"="+value)
	}
	if scenario == "" && args[0] != "list" && !slices.Contains(out, "--help") && !slices.Contains(out, "-h") {
		return "", nil, errRemote{fmt.Sprintf("%s needs a scenario: a name this server offers (ssh HOST list) or - for a file on standard input", args[0])}
	}
	return scenario, out, nil
}

func longFlag(name string) string {
	if name == "R" {
		return "retrain-cost"
	}
	return name
}

func flagList(names []string) string {
	if len(names) == 0 {
		return "no flags"
	}
	var parts []string
	for _, n := range names {
		if n == "R" {
			parts = append(parts, "-R")
			continue
		}
		parts = append(parts, "--"+n)
	}
	return strings.Join(parts, ", ")
}

// remoteLimits bound one client's headless command.
type remoteLimits struct {
	MaxWork   float64       // --max-work of serve
	Workers   int           // engine workers for one command
	Timeout   time.Duration // wall time of one command
	MaxOutput int64         // bytes written to the client, stdout and stderr together
	MaxInput  int64         // bytes of a scenario read from standard input (0: stdinLimit)
	FilesDir  string        // the folder whose CSV files a client's scenario may name ("": none)
	// Check refuses a scenario before anything is computed (nil: none), and Admit waits for the
	// room's memory and a compute slot for each matrix (nil: none to wait for): the server's.
	Check func(*scenarios.Scenario) error
	Admit func(ctx context.Context, s *scenarios.Scenario, seed uint64) (func(), error)
	// Yield, between a matrix's columns, gives the command's compute slot to a player waiting for
	// one and returns when it is back (nil: never).
	Yield func(ctx context.Context) error
}

// exec is a server's Exec: the request's limits (the server's) with the command's own.
func (lim remoteLimits) exec(ctx context.Context, req server.ExecRequest) int {
	lim.MaxWork, lim.Workers, lim.FilesDir, lim.Check, lim.Admit, lim.Yield = req.MaxWork, req.Workers, req.FilesDir, req.Check, req.Admit, req.Yield
	return runRemote(ctx, req.Args, req.Stdin, req.Stdout, req.Stderr, lim, req.Offered)
}

// capWriter passes at most n bytes on, then fails every write: a command that prints more stops
// with an error instead of filling the server's memory or the client's pipe for ever.
type capWriter struct {
	w    io.Writer
	left *int64 // shared by stdout and stderr
}

var errOutputCap = errors.New("output capped at the server's limit")

func (c capWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > *c.left {
		n, _ := c.w.Write(p[:*c.left])
		*c.left -= int64(n)
		return n, errOutputCap
	}
	n, err := c.w.Write(p)
	*c.left -= int64(n)
	return n, err
}

// runRemote runs a client's command and returns its exit status, having written every message to
// stderr. The command runs as the local one does, with the server's limits in place of the
// client's say over them.
func runRemote(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, lim remoteLimits, offered *scenarios.Catalog) int {
	_, argv, err := remoteArgs(args, offered.Lookup)
	if err != nil {
		fmt.Fprintf(stderr, "cara: %v\n", err)
		return 2
	}
	if i := slices.IndexFunc(argv, func(a string) bool { return strings.HasPrefix(a, "upload:") }); i > 0 {
		// An upload lives in the server's memory, not on its disk: its text goes in as standard input.
		up, _ := offered.Load(argv[i])
		text, err := up.Text()
		if err != nil {
			fmt.Fprintf(stderr, "cara: %v\n", err)
			return 1
		}
		argv[i] = "-"
		stdin = bytes.NewReader(text)
	}
	if argv[0] == "list" && !slices.Contains(argv, "--help") && !slices.Contains(argv, "-h") {
		// What this server offers, which is more than the embedded scenarios `cara list` shows: by
		// the names a client types, with their titles (a file's by its name, never its path).
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for _, e := range offered.Entries() {
			fmt.Fprintf(tw, "%s\t%s\n", e.Name(), oneLine(e.Title))
		}
		tw.Flush()
		return 0
	}
	if lim.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, lim.Timeout)
		defer cancel()
	}
	if lim.MaxInput <= 0 {
		lim.MaxInput = stdinLimit
	}
	if argv[0] == "sweep" {
		argv = append(argv, "--output=-") // a sweep's rows go to the client, never to a server file
	}
	left := lim.MaxOutput
	if left <= 0 {
		left = 1 << 62
	}
	out, errw := capWriter{stdout, &left}, capWriter{stderr, &left}
	root := newRootCmd()
	root.SetArgs(append(argv, "--max-work="+strconv.FormatFloat(lim.MaxWork, 'g', -1, 64), "--workers="+strconv.Itoa(lim.Workers)))
	root.SetIn(io.LimitReader(stdin, lim.MaxInput+1))
	root.SetOut(out)
	root.SetErr(errw)
	code := execute(withRemote(ctx, remoteScenario{maxInput: lim.MaxInput, filesDir: lim.FilesDir, check: lim.Check, admit: lim.Admit, yield: lim.Yield}), root, errw)
	switch {
	case left <= 0:
		fmt.Fprintf(stderr, "\ncara: output stopped at %d bytes, this server's limit for one command\n", lim.MaxOutput)
		return 1
	case ctx.Err() == context.DeadlineExceeded:
		fmt.Fprintf(stderr, "cara: stopped after %v, this server's time limit for one command\n", lim.Timeout)
		return 1
	}
	return code
}

// remoteScenario is what a command learns from its context when a client runs it: its scenario
// text is untrusted (it reads no file but the embedded streams and the offered folder), `-` reads
// at most maxInput bytes, the server may refuse the scenario (check) and admits each matrix
// against the room's memory and slots (admit), yielding its slot to players between columns (yield).
type remoteScenario struct {
	maxInput int64
	filesDir string
	check    func(*scenarios.Scenario) error
	admit    func(ctx context.Context, s *scenarios.Scenario, seed uint64) (func(), error)
	yield    func(ctx context.Context) error
}

type remoteKey struct{}

func withRemote(ctx context.Context, r remoteScenario) context.Context {
	return context.WithValue(ctx, remoteKey{}, r)
}

// remoteFrom says whether ctx is a client's command, and its limits.
func remoteFrom(ctx context.Context) (remoteScenario, bool) {
	if ctx == nil {
		return remoteScenario{}, false
	}
	r, ok := ctx.Value(remoteKey{}).(remoteScenario)
	return r, ok
}
