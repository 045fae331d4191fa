package main

//go:generate go run . gen-man ../../docs/man

import (
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// manDate is the date the man pages carry. It is fixed, not today's, so regenerating unchanged
// pages changes no byte; bump it when the CLI changes.
var manDate = time.Date(2026, time.November, 23, 0, 0, 0, 0, time.UTC)

// newGenManCmd is a hidden command that writes a man page per command into DIR (go generate runs
// it into docs/man).
func newGenManCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "gen-man DIR",
		Short:  "Write the man pages of every command into DIR",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := os.MkdirAll(args[0], 0o755); err != nil {
				return err
			}
			return genMan(cmd.Root(), args[0])
		},
	}
}

func genMan(root *cobra.Command, dir string) error {
	root.DisableAutoGenTag = true
	root.InitDefaultCompletionCmd() // cobra adds it at Execute; a tree built in a test lacks it
	return doc.GenManTree(root, &doc.GenManHeader{Title: "CARA", Section: "1", Date: &manDate, Source: "cara", Manual: "cara manual"}, dir)
}
