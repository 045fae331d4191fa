package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// exitOfArgs runs cara with args as main does and returns the exit status and stderr.
func exitOfArgs(args ...string) (int, string) {
	root := newRootCmd()
	var stdout, stderr bytes.Buffer
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	root.SetArgs(args)
	code := execute(context.Background(), root, &stderr)
	return code, stderr.String()
}

// Every command that takes arguments, given the wrong number of them, says what it wants (the
// arguments its use line names) and what it got, as a usage mistake (exit 2): never cobra's bare
// "accepts 1 arg(s), received 0".
func TestArgumentCounts(t *testing.T) {
	t.Parallel()
	var checked []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if c.Args == nil || c.HasSubCommands() || !c.HasParent() || c.Name() == "help" {
			return
		}
		want := argsWanted(c)
		args := []string{"x", "y"} // too many for every command that takes at most one
		if len(want) > 0 && strings.HasSuffix(want[len(want)-1], "...") {
			args = nil // too few for a command that takes one or more
		}
		if len(want) == 0 {
			args = []string{"x"}
		}
		path := strings.Fields(c.CommandPath())[1:]
		code, stderr := exitOfArgs(append(path, args...)...)
		name := strings.Join(path, " ")
		switch {
		case code != 2:
			t.Errorf("%s %q: exit %d, want 2 (%s)", name, args, code, stderr)
		case strings.Contains(stderr, "arg(s)"):
			t.Errorf("%s %q: cobra's words: %s", name, args, stderr)
		case len(want) == 0 && !strings.Contains(stderr, "cara: "+name+" takes no arguments, got 1 (\"x\")"):
			t.Errorf("%s %q: %s", name, args, stderr)
		case len(want) > 0 && !strings.Contains(stderr, "cara: "+name+" wants "):
			t.Errorf("%s %q: %s", name, args, stderr)
		}
		for _, w := range want {
			if !strings.Contains(stderr, strings.TrimSuffix(w, "...")) {
				t.Errorf("%s %q: %q does not name %s", name, args, stderr, w)
			}
		}
		checked = append(checked, name)
	}
	walk(newRootCmd())
	if len(checked) < 12 {
		t.Errorf("checked only %v", checked)
	}
	if code, stderr := exitOfArgs("matrix"); code != 2 || stderr != "cara: matrix wants one SCENARIO|FILE, got none (cara list names the scenarios; see cara matrix --help)\n" {
		t.Errorf("cara matrix: exit %d, %q", code, stderr)
	}
}

// A word that is neither a command nor a file is an unknown command (exit 2), named as one with
// the commands it is near, before cara looks for a terminal: `cara plays covcon-d` off a
// terminal is a typo, not a missing terminal. A file, off a terminal, needs the terminal.
func TestUnknownCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"plays", "covcon-d"}, 2, `cara: unknown command "plays": not a command of cara, nor a scenario file; did you mean play? (see cara --help)`},
		{[]string{"sweeep"}, 2, "did you mean sweep?"},
		{[]string{"frobnicate"}, 2, `cara: unknown command "frobnicate": not a command of cara, nor a scenario file (see cara --help)`},
		{[]string{"covcon-d"}, 2, `cara: unknown command "covcon-d": not a command of cara, nor a scenario file; to play the scenario: cara play covcon-d (see cara --help)`},
		{[]string{small}, 1, "the terminal UI needs a terminal"},
	} {
		if code, stderr := exitOfArgs(tc.args...); code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, %q; want %d, %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
}

// The exit status is said once in every help: in full in cara's own description, in a line at the
// end of each command's.
func TestExitStatusSaidOnce(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--help"}, {"run", "--help"}, {"serve", "--help"}, {"completion", "bash", "--help"}} {
		out, _, err := caraIO(t, args...)
		if err != nil || strings.Count(out, "Exit status") != 1 {
			t.Errorf("%q: %d exit-status paragraphs (%v):\n%s", args, strings.Count(out, "Exit status"), err, out)
		}
	}
	if out, _, _ := caraIO(t, "--help"); !strings.Contains(out, "130 interrupted (Ctrl-C or SIGTERM") {
		t.Errorf("cara --help lacks the full exit status:\n%s", out)
	}
}
