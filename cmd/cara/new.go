package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/scenarios"
)

func newNewCmd() *cobra.Command {
	var from string
	cmd := &cobra.Command{
		Use:   "new NAME",
		Short: "Write NAME.yaml: a commented template of every scenario field, or a copy to start from",
		Long: `new writes NAME.yaml: a scenario with every field of the format, each with a working value
or a commented alternative and a word on what it means; or, with --from, a copy of an embedded
scenario renamed NAME. The file is valid as written (cara validate NAME.yaml). new never
overwrites a file.`,
		Example: `  cara new my-drift
  cara new scenarios/flip --from covcon-d`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			if !strings.HasSuffix(path, ".yaml") {
				path += ".yaml"
			}
			name := strings.TrimSuffix(filepath.Base(path), ".yaml")
			if why := scenarios.NameProblem(name); why != "" { // the rule every scenario's name follows at load
				return usagef("%q is not a usable scenario name: %s", name, why)
			}
			src := scenarios.Template(name)
			if from != "" {
				var err error
				if src, err = scenarios.Source(from, name); err != nil {
					return usagef("--from: %v", err)
				}
			}
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("%s exists; new does not overwrite (choose another name or remove it)", path)
			}
			if err != nil {
				return err
			}
			if _, err := f.Write(src); err != nil {
				f.Close()
				os.Remove(path)
				return err
			}
			if err := f.Close(); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s; check it with `cara validate %s`, watch it with `cara play %s`\n", path, path, path)
			return nil
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "start from a copy of this embedded scenario (see cara list)")
	_ = cmd.RegisterFlagCompletionFunc("from", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var out []cobra.Completion
		for _, i := range scenarios.Embedded() {
			out = append(out, cobra.CompletionWithDesc(i.Name, i.Title))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}
