package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// profiles are the root's --cpuprofile and --memprofile: started before any command runs and
// written when execute returns, whatever the command's outcome (a failed or interrupted run is
// often the one worth profiling). Read them with `go tool pprof cara FILE`.
type profiles struct {
	cpu     *os.File
	memPath string
}

type profilesKey struct{}

// withProfiles gives the commands under ctx a place to start their profiles in.
func withProfiles(ctx context.Context) (context.Context, *profiles) {
	p := &profiles{}
	return context.WithValue(ctx, profilesKey{}, p), p
}

func registerProfileFlags(root *cobra.Command) {
	root.PersistentFlags().String("cpuprofile", "", "write a CPU profile (pprof) to `FILE`")
	root.PersistentFlags().String("memprofile", "", "write a heap profile (pprof, allocations since start) to `FILE` when the command ends")
}

// startProfiles reads the profile flags and starts the CPU profile. Both files are checked (and
// created) before the command runs, so a bad path fails at once, not after an hour's sweep.
func startProfiles(cmd *cobra.Command) error {
	p, _ := cmd.Context().Value(profilesKey{}).(*profiles)
	cpu, _ := cmd.Flags().GetString("cpuprofile")
	mem, _ := cmd.Flags().GetString("memprofile")
	if cpu == "" && mem == "" {
		return nil
	}
	if p == nil {
		return errors.New("--cpuprofile and --memprofile are written by execute, which this command was not run under")
	}
	for _, f := range []struct{ flag, path string }{{"--cpuprofile", cpu}, {"--memprofile", mem}} {
		if f.path == "" {
			continue
		}
		if err := checkOutputFile(f.path); err != nil {
			return usagef("%s: %v", f.flag, err)
		}
	}
	if mem != "" {
		f, err := os.Create(mem)
		if err != nil {
			return err
		}
		f.Close()
		p.memPath = mem
		runtime.MemProfileRate = 64 << 10 // finer than the default 512 KiB: a run's cells are small
	}
	if cpu != "" {
		f, err := os.Create(cpu)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return err
		}
		p.cpu = f
	}
	return nil
}

// stop writes what was started, saying on stderr what could not be written.
func (p *profiles) stop(stderr io.Writer) {
	if p.cpu != nil {
		pprof.StopCPUProfile()
		if err := p.cpu.Close(); err != nil {
			fmt.Fprintln(stderr, "cara: --cpuprofile:", err)
		}
		p.cpu = nil
	}
	if p.memPath != "" {
		if err := writeHeapProfile(p.memPath); err != nil {
			fmt.Fprintln(stderr, "cara: --memprofile:", err)
		}
		p.memPath = ""
	}
}

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC() // inuse_space as of now, not of the last collection
	// allocs: every allocation since the start (alloc_space) and what is still live (inuse_space).
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
