package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/scenarios"
)

func newListCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the embedded scenarios",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			for _, i := range scenarios.Embedded() {
				fmt.Fprintf(tw, "%s\t%s\n", i.Name, i.Title)
			}
			return tw.Flush()
		},
	}
}
