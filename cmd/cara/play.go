package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/spf13/cobra"

	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/tui"
)

var errNoTerminal = errors.New("the terminal UI needs a terminal; for a headless run use `cara run SCENARIO` (e.g. cara run covcon-d)")

// newPlayCmd is `cara play SCENARIO|FILE`.
func newPlayCmd() *cobra.Command {
	var f scenarioFlags
	var tour bool
	cmd := &cobra.Command{
		Use:   "play SCENARIO|FILE",
		Short: "Step through a scenario batch by batch in the terminal UI",
		Long: `play opens a scenario in the terminal UI: the cost matrix fills batch by batch while you step
through it, raise and lower R, and compare the algorithms.

With --tour (or t in the player) it plays the scenario's tour: it runs to each stop, pauses, and
shows the stop's few sentences over the player, pointing at a pane or a cell; space goes on, t
leaves. g starts the guess round: before each online batch, RETRAIN or KEEP?`,
		Example: `  cara play covcon-d
  cara play covcon-d --tour
  cara play my-scenario.yaml --trees 30 -R 40`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			// The arguments first: a mistake in them is named even without a terminal.
			s, err := f.load(args[0])
			if err != nil {
				return err
			}
			if tour && len(s.Tour) == 0 {
				return usagef("%s has no tour; these have one: %s", s.Name, strings.Join(withTours(), ", "))
			}
			if !tui.IsTerminal(os.Stdin) || !tui.IsTerminal(os.Stdout) {
				return errNoTerminal
			}
			// The player's runs end with the program, however it ends (the same lifetime as a served
			// session's, through the same registry).
			ctx, cancel := context.WithCancel(cmd.Context())
			defer cancel()
			p, err := tui.NewPlayer(tui.Options{Scenario: s, Seed: s.Seed, Workers: workers(cmd), Context: ctx, Tour: tour})
			if err != nil {
				return err
			}
			_, err = tea.NewProgram(p, tea.WithAltScreen(), tea.WithContext(ctx)).Run()
			return teaErr(err)
		},
	}
	f.register(cmd, true)
	f.registerDetectorReset(cmd) // --detectors and --detector-reset: the rows the player shows, as cara run's
	cmd.Flags().BoolVar(&tour, "tour", false, "play the scenario's tour: stops with a few sentences each (space goes on, t leaves)")
	return cmd
}

// withTours names the embedded scenarios that have a tour.
func withTours() []string {
	var out []string
	for _, i := range scenarios.Embedded() {
		if i.Stops > 0 {
			out = append(out, i.Name)
		}
	}
	return out
}

// openDefault is `cara` with no command: the scenario picker (embedded scenarios, ./scenarios/*.yaml
// and any paths given) in a terminal. The words first: a mistyped command is named as one even
// without a terminal.
func openDefault(cmd *cobra.Command, paths []string) error {
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return unknownCommand(cmd.Root(), p)
		}
	}
	if !tui.IsTerminal(os.Stdin) || !tui.IsTerminal(os.Stdout) {
		return errNoTerminal
	}
	st := tui.NewStyles(lipgloss.DefaultRenderer())
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	// One registry for every scenario opened from this picker: one run computes at a time, and a
	// scenario opened again replays its kept run.
	runs := live.NewRuns(live.RunsConfig{MaxComputing: 1, Cache: 2, Workers: workers(cmd)})
	defer runs.Close()
	cat := scenarios.NewCatalog("scenarios", paths)
	open := &tui.Opener{Catalog: cat, Styles: st, Runs: runs, Context: ctx}
	picker := tui.NewPicker(cat.Entries(), st, open.Entry)
	_, err := tea.NewProgram(picker, tea.WithAltScreen(), tea.WithContext(ctx)).Run()
	return teaErr(err)
}

// errPlayerPanic is a panic bubbletea caught in the player: its trace is on the screen already
// (bubbletea prints it as it restores the terminal), so main says only what it is.
var errPlayerPanic = errors.New("internal error in the player (a bug in cara, not in your input; please report it with the command line and the trace above)")

// teaErr is what ends a player, as the command's error: a panic is a bug (exit 1, never 0), an
// interruption an interruption (130), and bubbletea's "program was killed" after the UI already
// ended cleanly nothing.
func teaErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, tea.ErrProgramPanic):
		return errPlayerPanic
	case errors.Is(err, context.Canceled):
		return context.Canceled
	case errors.Is(err, tea.ErrProgramKilled):
		return nil
	}
	return fmt.Errorf("terminal UI: %w", err)
}
