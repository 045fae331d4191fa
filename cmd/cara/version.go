package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// buildVersion describes the binary from what the Go toolchain recorded in it: the module version
// ("devel" when built from a work tree), the VCS revision and whether the tree was modified, and the
// Go version and platform. It reads only debug.ReadBuildInfo, so it needs no -ldflags.
func buildVersion(info *debug.BuildInfo, ok bool) string {
	version, rev, modified, when := "devel", "", false, ""
	goVersion := runtime.Version()
	if ok {
		if v := info.Main.Version; v != "" && v != "(devel)" {
			version = v
		}
		if info.GoVersion != "" {
			goVersion = info.GoVersion
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			case "vcs.time":
				when = s.Value
			}
		}
	}
	var vcs []string
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if modified {
			rev += "+modified"
		}
		vcs = append(vcs, "revision "+rev)
	}
	if when != "" {
		vcs = append(vcs, when)
	}
	s := "cara " + version
	if len(vcs) > 0 {
		s += " (" + strings.Join(vcs, ", ") + ")"
	}
	return fmt.Sprintf("%s %s %s/%s", s, goVersion, runtime.GOOS, runtime.GOARCH)
}

func versionString() string { return buildVersion(debug.ReadBuildInfo()) }

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, VCS revision and Go version cara was built with",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), versionString())
			return err
		},
	}
}
