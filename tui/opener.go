package tui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/live"
	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/tui/internal/draw"
)

// Opener opens the players of one terminal (a local picker, or one SSH session): a catalog entry
// the picker chose, or, for a follower, the presenter's stage. Its two methods are what NewPicker
// and Picker.Join take.
type Opener struct {
	Catalog *scenarios.Catalog
	Styles  *Styles
	Runs    *live.Runs      // the registry every player of the terminal goes through
	Context context.Context // the terminal's lifetime
	Member  *room.Member    // the terminal's place in a workshop room; nil for none
	// Check, when set, refuses a scenario before it opens (a server's work budget), and Reparse
	// checks the editors' text (Options.Reparse).
	Check   func(*scenarios.Scenario) error
	Reparse func(from *scenarios.Scenario, text []byte) (*scenarios.Scenario, error)
	// Untrusted and FilesDir confine what the players' command lines and editors may read (a
	// server's clients): see Options.
	Untrusted bool
	FilesDir  string
	// Seed, when set, chooses the seed of a scenario opened from the catalog (a load test gives each
	// session its own); by default the scenario's.
	Seed func(*scenarios.Scenario) uint64
}

// Entry opens the player of a catalog entry, w x h, with back as where q returns to.
func (o *Opener) Entry(e scenarios.Entry, w, h int, back func() (tea.Model, tea.Cmd)) (*Player, error) {
	s, err := o.Catalog.Load(e.Ref)
	if err != nil {
		return nil, err
	}
	if o.Check != nil {
		if err := o.Check(s); err != nil {
			return nil, err
		}
	}
	seed := s.Seed
	if o.Seed != nil {
		seed = o.Seed(s)
	}
	return o.open(s, seed, w, h, back)
}

// Stage opens the player of the presenter's stage: the presenter's own loaded scenario and seed,
// so the follower watches the presenter's run.
func (o *Opener) Stage(st room.Stage, w, h int, back func() (tea.Model, tea.Cmd)) (*Player, error) {
	return o.open(st.Scenario, st.Seed, w, h, back)
}

func (o *Opener) open(s *scenarios.Scenario, seed uint64, w, h int, back func() (tea.Model, tea.Cmd)) (*Player, error) {
	return NewPlayer(Options{Scenario: s, Seed: seed, Styles: o.Styles, Back: back, Width: w, Height: h,
		Runs: o.Runs, Context: o.Context, Member: o.Member, Check: o.Check, Reparse: o.Reparse, Untrusted: o.Untrusted, FilesDir: o.FilesDir})
}

// CanvasKeep is what the players' canvases kept between drawings hold at most, every session's
// together: a server counts it once in its memory.
const CanvasKeep = draw.CanvasKeep

// CanvasesKept is what those canvases hold now.
func CanvasesKept() int { return draw.CanvasesKept() }
