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
		Short: "List the embedded scenarios (and which carry a tour: cara play NAME --tour)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			for _, i := range scenarios.Embedded() {
				tour := ""
				if i.Stops > 0 {
					tour = fmt.Sprintf("tour of %d stops", i.Stops)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\n", i.Name, i.Title, tour)
			}
			return tw.Flush()
		},
	}
}
