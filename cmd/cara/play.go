package main

// TEMPORARY: the TUI is being written; until then play and the bare command run headless.

import (
	"fmt"

	"github.com/spf13/cobra"
)

// newPlayCmd is `cara play SCENARIO|FILE`.
func newPlayCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "play SCENARIO|FILE",
		Short: "Step through a scenario batch by batch in the terminal UI",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return fmt.Errorf("play: the terminal UI is not built yet; use `cara run %s`", args[0])
		},
	}
}

// openDefault is what `cara` with no arguments does.
func openDefault(cmd *cobra.Command, paths []string) error {
	return fmt.Errorf("the terminal UI is not built yet; use `cara run covcon-d`")
}
