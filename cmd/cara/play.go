package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/tui"
)

var errNoTerminal = errors.New("the terminal UI needs a terminal; for a headless run use `cara run SCENARIO` (e.g. cara run covcon-d)")

// newPlayCmd is `cara play SCENARIO|FILE`.
func newPlayCmd() *cobra.Command {
	var f scenarioFlags
	cmd := &cobra.Command{
		Use:   "play SCENARIO|FILE",
		Short: "Step through a scenario batch by batch in the terminal UI",
		Example: `  cara play covcon-d
  cara play my-scenario.yaml --trees 30 -R 40`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !tui.IsTerminal(os.Stdin) || !tui.IsTerminal(os.Stdout) {
				return errNoTerminal
			}
			s, err := f.load(args[0])
			if err != nil {
				return err
			}
			// The player's runs end with the program, however it ends (the same lifetime as a served
			// session's, through the same registry).
			ctx, cancel := context.WithCancel(cmd.Context())
			defer cancel()
			p, err := tui.NewPlayer(tui.Options{Scenario: s, Seed: s.Seed, Workers: workers(cmd), Context: ctx})
			if err != nil {
				return err
			}
			_, err = tea.NewProgram(p, tea.WithAltScreen(), tea.WithContext(ctx)).Run()
			return teaErr(err)
		},
	}
	f.register(cmd, true)
	return cmd
}

// openDefault is `cara` with no command: the scenario picker (embedded scenarios, ./scenarios/*.yaml
// and any paths given) in a terminal.
func openDefault(cmd *cobra.Command, paths []string) error {
	if !tui.IsTerminal(os.Stdin) || !tui.IsTerminal(os.Stdout) {
		return errNoTerminal
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return usagef("%s is not a command or a scenario file (see cara --help)", p)
		}
	}
	st := tui.NewStyles(lipgloss.DefaultRenderer())
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	// One registry for every scenario opened from this picker: one run computes at a time, and a
	// scenario opened again replays its kept run.
	runs := tui.NewRuns(tui.RunsConfig{MaxComputing: 1, Cache: 2, Workers: workers(cmd)})
	defer runs.Close()
	cat := tui.NewCatalog("scenarios", paths)
	picker := tui.NewPicker(cat.Entries(), st, func(e tui.Entry, width, height int, back func() (tea.Model, tea.Cmd)) (*tui.Player, error) {
		s, err := cat.Load(e.Ref)
		if err != nil {
			return nil, err
		}
		return tui.NewPlayer(tui.Options{Scenario: s, Seed: s.Seed, Styles: st, Back: back, Width: width, Height: height,
			Runs: runs, Context: ctx})
	})
	_, err := tea.NewProgram(picker, tea.WithAltScreen(), tea.WithContext(ctx)).Run()
	return teaErr(err)
}

// teaErr hides bubbletea's "program was killed" on a Ctrl-C that already ended the UI cleanly.
func teaErr(err error) error {
	if err == nil || errors.Is(err, tea.ErrProgramKilled) {
		return nil
	}
	return fmt.Errorf("terminal UI: %w", err)
}
