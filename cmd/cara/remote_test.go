package main

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cara-sim/cara/scenarios"
)

// offeredSmall is a server's catalog: the embedded scenarios and testdata/*.yaml (small among them).
var offeredSmall = scenarios.NewCatalog("testdata", nil)

// What a client may send: the commands and flags a server runs, each refusal naming why.
func TestRemoteArgs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args     []string
		scenario string
		out      []string
		err      string
	}{
		{args: []string{"run", "covcon-d", "-R", "30", "--format", "json"}, scenario: "covcon-d", out: []string{"run", "covcon-d", "--retrain-cost=30", "--format=json"}},
		{args: []string{"matrix", "small", "--format=csv"}, scenario: "small", out: []string{"matrix", small, "--format=csv"}},
		{args: []string{"run", "-", "--set", "retrain_cost=3"}, scenario: "-", out: []string{"run", "-", "--set=retrain_cost=3"}},
		{args: []string{"list"}, out: []string{"list"}},
		{args: []string{"run", "--help"}, out: []string{"run", "--help"}},
		{args: nil, err: "give a command"},
		{args: []string{"bash"}, err: `"bash" is not a command this server runs`},
		{args: []string{"serve"}, err: "not a command this server runs"},
		{args: []string{"plot", "x.jsonl"}, err: "not a command this server runs"},
		{args: []string{"run", "/etc/passwd"}, err: `no scenario "/etc/passwd" here`},
		{args: []string{"run", "../covcon-d"}, err: "no scenario"},
		{args: []string{"run", "covcon-d", "--figures", "/tmp/x"}, err: "--figures: not taken over SSH"},
		{args: []string{"matrix", "covcon-d", "-o", "/tmp/x"}, err: "-o: not taken over SSH"},
		{args: []string{"matrix", "covcon-d", "--output=/tmp/x"}, err: "--output=/tmp/x: not taken"},
		{args: []string{"run", "covcon-d", "--data", "/etc/passwd"}, err: "--data: not taken"},
		{args: []string{"run", "covcon-d", "--queries=/etc/passwd"}, err: "--queries=/etc/passwd: not taken"},
		{args: []string{"run", "covcon-d", "--workers", "64"}, err: "--workers: not taken"},
		{args: []string{"run", "covcon-d", "--max-work=1e12"}, err: "--max-work=1e12: not taken"},
		{args: []string{"run", "covcon-d", "-R"}, err: "-R needs a value"},
		{args: []string{"run", "covcon-d", "small"}, err: "give one scenario"},
		{args: []string{"run"}, err: "run needs a scenario"},
		{args: []string{"list", "covcon-d"}, err: "list takes no scenario"},
	} {
		scenario, out, err := remoteArgs(tc.args, offeredSmall.Lookup)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want one containing %q", tc.args, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.args, err)
		case tc.err == "" && (scenario != tc.scenario || !slices.Equal(out, tc.out)):
			t.Errorf("%q: scenario %q, args %q; want %q, %q", tc.args, scenario, out, tc.scenario, tc.out)
		}
	}
}

// A client's command prints what the local one prints, with the local exit status; a refusal is
// one line on stderr and exit status 2; output past the cap stops the command with a word.
func TestRunRemote(t *testing.T) {
	t.Parallel()
	lim := remoteLimits{MaxWork: 2e7, Workers: 2, Timeout: time.Minute, MaxOutput: 1 << 20, MaxInput: 1 << 16}
	remote := func(lim remoteLimits, stdin string, args ...string) (string, string, int) {
		var out, errOut bytes.Buffer
		code := runRemote(context.Background(), args, strings.NewReader(stdin), &out, &errOut, lim, offeredSmall)
		return out.String(), errOut.String(), code
	}
	local, _, err := caraIO(t, "run", small, "-R", "0.4", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := remote(lim, "", "run", "small", "-R", "0.4", "--format", "json")
	if code != 0 || out != local {
		t.Errorf("remote run: exit %d, stderr %q; output equal to the local one: %v", code, errOut, out == local)
	}
	out, errOut, code = remote(lim, "", "run", "covcon-d", "--figures", "/tmp")
	if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "--figures: not taken over SSH") {
		t.Errorf("refused flag: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// A bad value of an allowed flag is the local command's usage error.
	if _, errOut, code = remote(lim, "", "run", "small", "--format", "yaml"); code != 2 || !strings.Contains(errOut, "yaml") {
		t.Errorf("bad --format: exit %d, stderr %q", code, errOut)
	}
	// Over the server's work budget: refused before computing, exit 1.
	tight := lim
	tight.MaxWork = 10
	if _, errOut, code = remote(tight, "", "run", "small"); code != 1 || !strings.Contains(errOut, "--max-work") {
		t.Errorf("over --max-work: exit %d, stderr %q", code, errOut)
	}
	capped := lim
	capped.MaxOutput = 100
	out, errOut, code = remote(capped, "", "matrix", "small", "--format", "csv")
	if code != 1 || len(out)+len(errOut) > 100+200 || !strings.Contains(errOut, "output stopped at 100 bytes") {
		t.Errorf("capped output: exit %d, %d bytes out, stderr %q", code, len(out), errOut)
	}
	short := lim
	short.Timeout = time.Millisecond
	if _, errOut, code = remote(short, "", "run", "covcon-d"); code != 1 || !strings.Contains(errOut, "stopped after 1ms, this server's time limit") {
		t.Errorf("over the time limit: exit %d, stderr %q", code, errOut)
	}
	// A command's scenario is checked by the server once it is loaded, and each of its matrices
	// admitted (a sweep's R_max, from the offline block alone, is not); a refused command asks for
	// nothing, and the server's refusal is the command's error.
	checked, admitted, released := 0, 0, 0
	served := lim
	served.Check = func(*scenarios.Scenario) error { checked++; return nil }
	served.Admit = func(context.Context, *scenarios.Scenario, uint64) (func(), error) {
		admitted++
		return func() { released++ }, nil
	}
	remote(served, "", "run", "covcon-d", "--data", "x")
	remote(served, "", "run", "small", "--seeds", "3")
	if checked != 1 || admitted != 3 || released != 3 {
		t.Errorf("checked %d, admitted %d, released %d for one refused and one good command of 3 seeds, want 1, 3, 3", checked, admitted, released)
	}
	served.Check = func(*scenarios.Scenario) error {
		return errors.New("100 trees need about 80 MiB; this room allows 1 MiB a run: try trees <= 1")
	}
	if _, errOut, code := remote(served, "", "run", "small"); code != 1 || !strings.Contains(errOut, "try trees <= 1") || admitted != 3 {
		t.Errorf("a scenario the room cannot fit: exit %d, stderr %q, %d admitted", code, errOut, admitted)
	}
	// A sweep prints its rows to the client, as `cara sweep -o -` does.
	rows, _, err := caraIO(t, "sweep", small, "--costs", "0.1:1:2", "-o", "-")
	if err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := remote(lim, "", "sweep", "small", "--costs", "0.1:1:2"); code != 0 || out != rows {
		t.Errorf("remote sweep: exit %d, %q; equal to sweep -o -: %v", code, errOut, out == rows)
	}
	out, _, code = remote(lim, "", "list")
	if code != 0 || !strings.Contains(out, "covcon-d ") || !strings.Contains(out, "\nsmall ") {
		t.Errorf("list: exit %d, %q", code, out)
	}
}

// `-` reads the scenario from standard input, locally and over SSH; a client's scenario reads no
// file of the server's, whether it names one or a --set adds one.
func TestScenarioOnStdin(t *testing.T) {
	t.Parallel()
	text := string(mustRead(t, small))
	runWith := func(stdin string, args ...string) (string, string, error) {
		root := newRootCmd()
		var out, errOut bytes.Buffer
		root.SetIn(strings.NewReader(stdin))
		root.SetOut(&out)
		root.SetErr(&errOut)
		root.SetArgs(args)
		err := root.ExecuteContext(context.Background())
		return out.String(), errOut.String(), err
	}
	file, _, err := caraIO(t, "run", small, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	piped, _, err := runWith(text, "run", "-", "--format", "json")
	if err != nil || piped != file {
		t.Errorf("run - < small.yaml: %v; equal to run small.yaml: %v", err, piped == file)
	}
	out, errOut, err := runWith(strings.Replace(text, "batches: 12", "batches: twelve", 1), "validate", "-")
	if err == nil || out != "" || !strings.HasPrefix(errOut, "stdin:") {
		t.Errorf("validate - with a typo: %v, out %q, stderr %q", err, out, errOut)
	}
	if _, _, err := runWith("", "run", "-"); err == nil || !strings.Contains(err.Error(), "stdin: empty") {
		t.Errorf("run - with nothing on stdin: %v", err)
	}

	lim := remoteLimits{MaxWork: 2e7, Workers: 2, Timeout: time.Minute, MaxOutput: 1 << 20, MaxInput: 1 << 16}
	remote := func(stdin string, args ...string) (string, string, int) {
		var out, errOut bytes.Buffer
		code := runRemote(context.Background(), args, strings.NewReader(stdin), &out, &errOut, lim, offeredSmall)
		return out.String(), errOut.String(), code
	}
	if out, errOut, code := remote(text, "run", "-", "--format", "json"); code != 0 || out != file {
		t.Errorf("ssh HOST run - < small.yaml: exit %d, %s; equal to the local output: %v", code, errOut, out == file)
	}
	csv := "name: sent\nseed: 0\nbatches: 3\noffline: 1\ndata: {csv: /etc/passwd, label: y}\n" +
		"queries: {from: data, fraction: 0.5}\nmodel: {nearest_centroid: {}}\nretrain_cost: 1\n"
	if _, errOut, code := remote(csv, "validate", "-"); code != 1 || !strings.Contains(errOut, "may read only the embedded streams") {
		t.Errorf("a client's scenario naming /etc/passwd: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := remote("", "run", "small", "--set", "data={csv: /etc/passwd, label: y}"); code != 1 || !strings.Contains(errOut, "may read only") {
		t.Errorf("--set adding a file: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := remote(strings.Repeat("#", 1<<17), "run", "-"); code != 1 || !strings.Contains(errOut, "at most 65536 bytes") {
		t.Errorf("a scenario over the input limit: exit %d, stderr %q", code, errOut)
	}
}
