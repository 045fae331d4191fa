package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/scenarios"
)

// usageArgs makes every command's argument check a usage mistake (exit 2) that says what the
// command wants: cobra's own errors (a missing or extra argument) say only how many it takes.
func usageArgs(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				if cmd.HasSubCommands() {
					return usageError{err} // cobra's "unknown command" names the word it did not know
				}
				return argsError(cmd, args)
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		usageArgs(sub)
	}
}

// argsWanted are the arguments a command's use line names ("SCENARIO|FILE", "FILE..."), its flags
// ("-o OUT") left out.
func argsWanted(c *cobra.Command) []string {
	var out []string
	words := strings.Fields(c.Use)[1:]
	for i := 0; i < len(words); i++ {
		if strings.HasPrefix(words[i], "-") {
			i++ // the flag's value
			continue
		}
		out = append(out, words[i])
	}
	return out
}

// argsError says what command c wants where it got args, the wrong number of them: "matrix wants
// one SCENARIO|FILE, got none".
func argsError(c *cobra.Command, args []string) error {
	want, name := argsWanted(c), strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
	got := "none"
	if len(args) > 0 {
		q := make([]string, len(args))
		for i, a := range args {
			q[i] = fmt.Sprintf("%q", a)
		}
		got = fmt.Sprintf("%d (%s)", len(args), strings.Join(q, ", "))
	}
	see := "see " + c.CommandPath() + " --help"
	if strings.Contains(strings.Join(want, " "), "SCENARIO") {
		see = "cara list names the scenarios; " + see
	}
	switch {
	case len(want) == 0:
		return usagef("%s takes no arguments, got %s (%s)", name, got, see)
	case strings.HasSuffix(want[len(want)-1], "..."):
		return usagef("%s wants %s, one or more, got %s (%s)", name, strings.TrimSuffix(strings.Join(want, " "), "..."), got, see)
	case len(want) == 1:
		return usagef("%s wants one %s, got %s (%s)", name, want[0], got, see)
	}
	return usagef("%s wants %s, got %s (%s)", name, strings.Join(want, " "), got, see)
}

// unknownCommand is cara given a word that is neither one of its commands nor a file: a usage
// mistake, named with the commands it is near (cobra's suggestions), or, for an embedded
// scenario's name, the command that plays it.
func unknownCommand(root *cobra.Command, word string) error {
	msg := fmt.Sprintf("unknown command %q: not a command of cara, nor a scenario file", word)
	if root.SuggestionsMinimumDistance <= 0 {
		root.SuggestionsMinimumDistance = 2 // cobra's own default for its unknown commands
	}
	if near := root.SuggestionsFor(word); len(near) > 0 {
		msg += "; did you mean " + strings.Join(near, " or ") + "?"
	}
	for _, e := range scenarios.Embedded() {
		if e.Name == word {
			msg += fmt.Sprintf("; to play the scenario: cara play %s", word)
		}
	}
	return usagef("%s (see cara --help)", msg)
}
