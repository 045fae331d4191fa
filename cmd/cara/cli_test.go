package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/creack/pty"
)

func TestBuildVersion(t *testing.T) {
	t.Parallel()
	platform := " " + runtime.GOOS + "/" + runtime.GOARCH
	settings := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	for _, c := range []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"no build info", nil, false, "cara devel " + runtime.Version() + platform},
		{"work tree, clean", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", "5a960eaca12b62b92e00a43f6cfa510b8b57b346", "vcs.time", "2026-11-23T15:15:31Z", "vcs.modified", "false")},
			true, "cara devel (revision 5a960eaca12b, 2026-11-23T15:15:31Z) go1.26.8" + platform},
		{"work tree, modified", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", "5a960eaca12b62b9", "vcs.modified", "true")},
			true, "cara devel (revision 5a960eaca12b+modified) go1.26.8" + platform},
		{"go install of a release", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.0"}},
			true, "cara v0.3.0 go1.26.8" + platform},
	} {
		if got := buildVersion(c.info, c.ok); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
	flag, _, err := caraIO(t, "--version")
	if err != nil {
		t.Fatal(err)
	}
	cmd, _, err := caraIO(t, "version")
	if err != nil {
		t.Fatal(err)
	}
	if flag != cmd || flag != versionString()+"\n" || !strings.HasPrefix(flag, "cara ") {
		t.Fatalf("--version %q and version %q should both print %q", flag, cmd, versionString())
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	src := strings.Replace(string(mustRead(t, small)), "batches: 12", "batches: 12\nbatchez: 3", 1)
	if err := os.WriteFile(bad, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// An expression undefined at t = 9 only: loading succeeds, generating batch 9 fails.
	late := filepath.Join(dir, "late.yaml")
	src = strings.Replace(string(mustRead(t, small)), `"0.4 + 0.02*t"`, `"0.4 + 1/(t-9)"`, 1)
	if err := os.WriteFile(late, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}

	out, errOut, err := caraIO(t, "validate", small, "covcon-d")
	if err != nil {
		t.Fatalf("good files: %v\n%s", err, errOut)
	}
	want := small + ": ok (12 batches, 2 features, 100 points/batch, nearest centroid, R 0.5)\n" +
		"covcon-d: ok (100 batches, 2 features, 1000 points/batch, random forest (100 trees), R 20, a tour of 8 stops, 1 what-if query stream)\n"
	if out != want || errOut != "" {
		t.Fatalf("got stdout %q stderr %q, want %q", out, errOut, want)
	}

	out, errOut, err = caraIO(t, "validate", small, bad, late)
	if !errors.Is(err, errFailed) {
		t.Fatalf("a bad file must fail the command (exit 1), got %v", err)
	}
	if out != small+": ok (12 batches, 2 features, 100 points/batch, nearest centroid, R 0.5)\n" {
		t.Errorf("stdout: %q", out)
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], bad+":8:1: ") || !strings.Contains(lines[0], "batchez") ||
		!strings.HasPrefix(lines[1], late+":") || !strings.Contains(lines[1], "t=9") || strings.Count(lines[1], late) != 1 ||
		lines[2] != "2 of 3 scenarios failed" {
		t.Fatalf("stderr:\n%s", errOut)
	}

	// A folder stands for its *.yaml files.
	out, _, err = caraIO(t, "validate", dir)
	if !errors.Is(err, errFailed) || out != "" {
		t.Fatalf("folder: %q %v", out, err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestNew: the template and a copy both round-trip through validate and run, and new refuses to
// overwrite.
func TestNew(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tmpl := filepath.Join(dir, "lesson")
	if _, _, err := caraIO(t, "new", tmpl); err != nil {
		t.Fatal(err)
	}
	out, _, err := caraIO(t, "validate", tmpl+".yaml")
	if err != nil || !strings.Contains(out, "ok (60 batches, 2 features, 500 points/batch, random forest (100 trees), R 20, a tour of 3 stops, 1 what-if query stream)") {
		t.Fatalf("validate the template: %q %v", out, err)
	}
	out, _, err = caraIO(t, "run", tmpl+".yaml", "--trees", "3", "--format", "csv")
	if err != nil || !strings.Contains(out, "cara-t") {
		t.Fatalf("run the template: %v\n%s", err, out)
	}
	if _, _, err := caraIO(t, "new", tmpl); err == nil || !strings.Contains(err.Error(), "does not overwrite") {
		t.Fatalf("a second new must refuse: %v", err)
	}
	if b := mustRead(t, tmpl+".yaml"); !bytes.Contains(b, []byte("name: lesson\n")) {
		t.Fatalf("the file names the scenario after the file:\n%s", b[:200])
	}

	cp := filepath.Join(dir, "flip.yaml")
	if _, _, err := caraIO(t, "new", cp, "--from", "scenario2"); err != nil {
		t.Fatal(err)
	}
	out, _, err = caraIO(t, "validate", cp)
	if err != nil || !strings.HasPrefix(out, cp+": ok (") {
		t.Fatalf("validate the copy: %q %v", out, err)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"new", filepath.Join(dir, "x"), "--from", "nope"}, "no embedded scenario"},
		{[]string{"new", filepath.Join(dir, "a b")}, "not a usable scenario name"},
	} {
		_, _, err := caraIO(t, c.args...)
		var ue usageError
		if err == nil || !strings.Contains(err.Error(), c.msg) || !errors.As(err, &ue) {
			t.Errorf("%s: got %v, want a usage error with %q", c.args, err, c.msg)
		}
	}
}

// complete asks cobra's hidden __complete command for the candidates of a command line.
func complete(t *testing.T, args ...string) []string {
	t.Helper()
	out, _, err := caraIO(t, append([]string{"__complete"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(l, ":") { // the last line is the directive
			name, _, _ := strings.Cut(l, "\t")
			got = append(got, name)
		}
	}
	return got
}

func TestCompletion(t *testing.T) {
	t.Parallel()
	if got := complete(t, "play", "co"); !slices.Equal(got, []string{"covcon-d", "covcon-s"}) {
		t.Errorf("cara play co<TAB>: %v", got)
	}
	if got := complete(t, "run", "testdata/sm"); !slices.Equal(got, []string{"testdata/small.yaml"}) {
		t.Errorf("cara run testdata/sm<TAB>: %v", got)
	}
	if got := complete(t, "run", "testdata/small.yaml", ""); len(got) != 0 {
		t.Errorf("run takes one scenario; second argument offered %v", got)
	}
	if got := complete(t, "run", "covcon-d", "--format", ""); !slices.Equal(got, []string{"table", "csv", "json"}) {
		t.Errorf("run --format: %v", got)
	}
	if got := complete(t, "sweep", "covcon-d", "--costs", ""); !slices.Contains(got, "auto") {
		t.Errorf("sweep --costs: %v", got)
	}
	if got := complete(t, "new", "x", "--from", "scen"); !slices.Contains(got, "scenario2") {
		t.Errorf("new --from: %v", got)
	}
	// Every enumerated flag named in the completion table exists, and its help lists its values,
	// so the table cannot drift from the flags silently.
	root := newRootCmd()
	for _, e := range enumFlags {
		found := false
		for _, c := range append(root.Commands(), root) {
			if e.command != "" && c.Name() != e.command {
				continue
			}
			f := c.Flags().Lookup(e.flag)
			if f == nil {
				continue
			}
			found = true
			for _, v := range e.values {
				v, _, _ = strings.Cut(v, "\t")
				if !strings.Contains(f.Usage, v) && !strings.Contains(v, ":") {
					t.Errorf("%s --%s: the help %q does not list %q", c.Name(), e.flag, f.Usage, v)
				}
			}
		}
		if !found && e.command != "" {
			t.Errorf("the completion table names %s --%s, which does not exist", e.command, e.flag)
		}
	}
}

// TestProgressOnlyOnATerminal runs the real binary with stderr to a pipe (a CI log) and to a
// terminal: a pipe gets at most one line per stage, a terminal the redrawn counter.
func TestProgressOnlyOnATerminal(t *testing.T) {
	t.Parallel()
	bin := buildCara(t)
	out := filepath.Join(t.TempDir(), "m.json")
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "matrix", small, "-o", out)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err, stderr.String())
	}
	if n := strings.Count(stderr.String(), "\n"); n > 1 || strings.Contains(stderr.String(), "\r") {
		t.Fatalf("a pipe got %d lines of progress (at most one per stage):\n%q", n, stderr.String())
	}
	stderr.Reset()
	cmd = exec.Command(bin, "run", small, "--seeds", "3", "--format", "csv")
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err, stderr.String())
	}
	if n := strings.Count(stderr.String(), "\n"); n > 3 || strings.Contains(stderr.String(), "\r") {
		t.Fatalf("three seeds gave %d lines (at most one each):\n%q", n, stderr.String())
	}

	// On a terminal the counter is redrawn in place (\r, erase line) and cleared at the end.
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	cmd = exec.Command(bin, "matrix", "covcon-d", "--trees", "5", "-o", out)
	cmd.Stderr = tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(ptmx); got <- b }()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	var b []byte
	select {
	case b = <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("the terminal's output did not end")
	}
	if !bytes.Contains(b, []byte("\r\x1b[K")) || !bytes.Contains(b, []byte("cells")) {
		t.Fatalf("a terminal should get a redrawn counter, got %q", b)
	}
}

// TestLineStages: off a terminal, a stage prints its last text once, however often it is set.
func TestLineStages(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	l := newLine(&buf)
	for i := range 1000 {
		l.printf("cell %d", i)
	}
	l.done()
	l.done() // a second end prints nothing more
	p := newProgress(&buf, 10)
	for i := range 11 {
		p.set(i, "unit %d", i)
	}
	p.finish()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 2 || lines[0] != "cell 999" || !strings.Contains(lines[1], "100% 10/10") {
		t.Fatalf("got %q", buf.String())
	}
}

// TestManPagesUpToDate: docs/man is what `go generate ./cmd/cara` writes from the command tree.
func TestManPagesUpToDate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := genMan(newRootCmd(), dir); err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.Glob(filepath.Join(dir, "*.1"))
	have, _ := filepath.Glob(filepath.Join("..", "..", "docs", "man", "*.1"))
	if len(want) < 10 || len(have) != len(want) {
		t.Fatalf("docs/man has %d pages, the command tree %d: run go generate ./cmd/cara", len(have), len(want))
	}
	for _, w := range want {
		h := filepath.Join("..", "..", "docs", "man", filepath.Base(w))
		if !bytes.Equal(mustRead(t, w), mustRead(t, h)) {
			t.Errorf("%s is stale: run go generate ./cmd/cara", h)
		}
	}
}

// --set computes another scenario's matrix: covcon-d with covcon-s's queries is covcon-s, cell for
// cell (the data and model streams do not depend on the queries).
func TestSetMatrix(t *testing.T) {
	t.Parallel()
	type matrix struct {
		Scenario string       `json:"scenario"`
		C        [][]*float64 `json:"C"`
		Accuracy [][]*float64 `json:"query_accuracy"`
	}
	get := func(args ...string) matrix {
		out, _, err := caraIO(t, append([]string{"matrix", "--trees", "2", "--set", "batches=30", "--set", "offline=8",
			"--set", "data.concepts=[{at: 0, label: \"0.8*sin(pi*x1) > x2\"}, {at: 10, label: \"0.8*sin(pi*x1) <= x2\"}]"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var m matrix
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	d := get("covcon-d", "--set", "queries={size: 100, gaussian: {mean: 0.5, std: 0.015}}")
	s := get("covcon-s")
	if d.Scenario != "covcon-d" || len(d.C) != 30 || !reflect.DeepEqual(d.C, s.C) || !reflect.DeepEqual(d.Accuracy, s.Accuracy) {
		t.Fatalf("covcon-d with covcon-s's queries differs from covcon-s")
	}
	if reflect.DeepEqual(get("covcon-d").C, s.C) {
		t.Fatal("without the --set the matrices should differ")
	}
	_, _, err := caraIO(t, "run", "covcon-d", "--set", "kernel.gamma=-2")
	if err == nil || err.Error() != `--set kernel.gamma: must be scale, auto or a number > 0, got "-2"` {
		t.Fatalf("a bad --set value: %v", err)
	}
}

// -o naming a pipe or a device writes into it and leaves it one: the atomic rename used for files
// once replaced /dev/null with a regular file.
func TestOutputToAPipe(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	if _, _, err := caraIO(t, "matrix", small, "--format", "csv", "-o", fifo); err != nil {
		t.Fatal(err)
	}
	select {
	case b := <-got:
		if !bytes.Contains(b, []byte("\n")) {
			t.Fatalf("the pipe's reader got %q", b)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nothing was written into the pipe")
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced: %v %v", st.Mode(), err)
	}
}

// reproduce's protocol flags refuse unknown values as usage mistakes, before any work.
func TestReproduceProtocolFlags(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"reproduce", "--r-range", "whole"}, "--r-range must be paper or round-two"},
		{[]string{"reproduce", "--detector-feed", "all"}, "--detector-feed must be batch or first-drift"},
		{[]string{"reproduce", "--electricity-shuffle", "sorted"}, "--electricity-shuffle must be within_batch or none"},
		{[]string{"reproduce", "--model", "svm"}, "--model must be random_forest or logistic"},
	} {
		_, _, err := caraIO(t, c.args...)
		var ue usageError
		if err == nil || !strings.Contains(err.Error(), c.msg) || !errors.As(err, &ue) {
			t.Errorf("%s: got %v, want a usage error with %q", c.args, err, c.msg)
		}
	}
}

// -R's default is the scenario's, said in words: no command's help says "(default NaN)".
func TestRetrainCostHelp(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"play", "run", "sweep"} {
		out, errOut, _ := caraIO(t, cmd, "--help")
		if help := out + errOut; strings.Contains(help, "NaN") || !strings.Contains(help, "--retrain-cost") && cmd != "sweep" {
			t.Errorf("cara %s --help:\n%s", cmd, help)
		}
	}
}

// An -o file is readable by others (CreateTemp's 0600 would hide a merged sweep on a shared
// volume), and one that is replaced keeps its mode.
func TestWriteOutMode(t *testing.T) {
	dir := t.TempDir()
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	write := func(w io.Writer) error { _, err := io.WriteString(w, "x\n"); return err }
	fresh := filepath.Join(dir, "fresh.json")
	if err := writeOut(cmd, fresh, write); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(dir, "kept.json")
	if err := os.WriteFile(kept, nil, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(kept, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := writeOut(cmd, kept, write); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{fresh: 0o644, kept: 0o640} {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", filepath.Base(path), got, want)
		}
	}
}
