package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/scenarios"
)

// The shell completions of the CLI, in one place: which commands take a scenario as their first
// argument, and the values of every enumerated flag. cobra's own `completion` command turns them
// into bash, zsh, fish and PowerShell scripts.

// scenarioCommands take a scenario (an embedded name or a file) as their first argument.
var scenarioCommands = []string{"play", "run", "matrix", "sweep"}

// enumFlags lists the values of enumerated flags, by command name ("" for any command that has
// the flag), each with a short description for shells that show one.
var enumFlags = []struct {
	command, flag string
	values        []string
}{
	{"run", "format", []string{"table\tan aligned table", "csv\tone row per algorithm", "json\tthe run contract"}},
	{"run", "figure-format", []string{"png", "svg"}},
	{"matrix", "format", []string{"json\tA, B, C and more per cell", "csv\tone row per cell"}},
	{"reproduce", "format", []string{"table\tthe paper's tables beside ours", "json\tthe reproduction contract"}},
	{"plot", "format", []string{"png", "svg"}},
	{"sweep", "costs", []string{"auto\t25 costs over (0, R_max]", "0.5:50:25\tFROM:TO:N, evenly spaced"}},
	{"bench", "size", []string{"paper\tthe paper's size, 100 trees", "small\ta quick check", "scale\tnearest centroid, many batches"}},
	{"", "detector-reset", []string{"never\tas scikit-multiflow's documented usage", "on_retrain\treset when the model is retrained"}},
}

// registerCompletions attaches the completions above to the command tree, and makes
// `completion SHELL` for a shell cobra does not know a usage mistake rather than help and 0.
func registerCompletions(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	if comp, _, err := root.Find([]string{"completion"}); err == nil && comp.Name() == "completion" {
		// Runnable, so cobra checks its arguments ("unknown command" for tcsh, exit 2) instead of
		// printing the help and exiting 0; with no argument it still shows the help.
		comp.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if slices.Contains(scenarioCommands, c.Name()) && c.ValidArgsFunction == nil {
			c.ValidArgsFunction = completeFirstScenario
		}
		for _, e := range enumFlags {
			if (e.command == "" || e.command == c.Name()) && c.Flags().Lookup(e.flag) != nil {
				_ = c.RegisterFlagCompletionFunc(e.flag, cobra.FixedCompletions(e.values, cobra.ShellCompDirectiveNoFileComp))
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// completeFirstScenario completes a command's single scenario argument.
func completeFirstScenario(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return completeScenarios(cmd, args, toComplete)
}

// completeScenarios offers the embedded scenarios (with their titles) and the *.yaml files and
// folders that start with what was typed.
func completeScenarios(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	for _, i := range scenarios.Embedded() {
		if strings.HasPrefix(i.Name, toComplete) {
			out = append(out, cobra.CompletionWithDesc(i.Name, i.Title))
		}
	}
	dir := false
	matches, _ := filepath.Glob(globEscape(toComplete) + "*")
	for _, m := range matches {
		st, err := os.Stat(m)
		switch {
		case err != nil:
		case st.IsDir():
			out = append(out, m+string(filepath.Separator))
			dir = true
		case strings.HasSuffix(m, ".yaml") || strings.HasSuffix(m, ".yml"):
			out = append(out, m)
		}
	}
	d := cobra.ShellCompDirectiveNoFileComp
	if dir {
		d |= cobra.ShellCompDirectiveNoSpace // a folder is completed further, not ended with a space
	}
	return out, d
}

// globEscape quotes the glob metacharacters of a typed prefix.
func globEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(s)
}
