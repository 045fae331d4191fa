// Package tui owns the live terminal UI: a scenario picker and a player that steps through a
// scenario batch by batch while the engine computes ahead in the background, with the cost matrix
// as a heat map, cumulative costs, decision timelines, the batch's data, a results table and a
// retraining-cost knob. Every style is built here from one lipgloss renderer, so the SSH server can
// give each session the colours its terminal supports.
package tui

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/palette"
)

// Styles are every style of the UI, built from one renderer.
type Styles struct {
	r         *lipgloss.Renderer
	Mono      bool // no colours: panes use glyphs instead
	Title     lipgloss.Style
	Pane      lipgloss.Style
	PaneFocus lipgloss.Style
	Status    lipgloss.Style
	StatusKey lipgloss.Style
	Dim       lipgloss.Style
	Bold      lipgloss.Style
	Error     lipgloss.Style
	Retrain   lipgloss.Style
	Help      lipgloss.Style
	Algo      map[algos.Name]lipgloss.Style
	// heat holds the diverging scale, from most negative to most positive (index len/2 is zero).
	heat  []lipgloss.Color
	extra map[int]lipgloss.Color
}

// Heat-map colour indices beyond the diverging scale.
const (
	colNone   = -1
	colDiag   = 100
	colOracle = 101
	colCursor = 102
	colHidden = 103
	colNow    = 104 // the current batch's diagonal cell
	colAlgo   = 200 // + index in algos.Names
)

// NewStyles builds the styles for a renderer (lipgloss.DefaultRenderer() for a local terminal).
func NewStyles(r *lipgloss.Renderer) *Styles {
	s := &Styles{r: r, Mono: r.ColorProfile() == termenv.Ascii, Algo: map[algos.Name]lipgloss.Style{}, extra: map[int]lipgloss.Color{}}
	s.Title = r.NewStyle().Bold(true)
	border := lipgloss.RoundedBorder()
	s.Pane = r.NewStyle().Border(border).BorderForeground(lipgloss.Color("240")).Padding(0, 1)
	s.PaneFocus = s.Pane.BorderForeground(lipgloss.Color("#E69F00"))
	s.Status = r.NewStyle().Foreground(lipgloss.Color("252")).Background(lipgloss.Color("236"))
	s.StatusKey = r.NewStyle().Foreground(lipgloss.Color("16")).Background(lipgloss.Color("#56B4E9")).Bold(true)
	s.Dim = r.NewStyle().Foreground(lipgloss.Color("244"))
	s.Bold = r.NewStyle().Bold(true)
	s.Error = r.NewStyle().Foreground(lipgloss.Color("#D55E00")).Bold(true)
	s.Retrain = r.NewStyle().Foreground(lipgloss.Color("#D55E00")).Bold(true)
	s.Help = r.NewStyle().Foreground(lipgloss.Color("244"))
	for _, a := range algos.Names {
		s.Algo[a] = r.NewStyle().Foreground(lipgloss.Color(palette.Hex(a)))
	}
	// A blue-white-orange diverging scale (colour-blind safe; blue for cheaper than at training
	// time, orange for dearer), 11 steps, in 24-bit colour that degrades to 256 colours.
	s.heat = []lipgloss.Color{"#08306B", "#2171B5", "#4292C6", "#6BAED6", "#C6DBEF", "#F0F0F0",
		"#FDD0A2", "#FDAE6B", "#F16913", "#D94801", "#7F2704"}
	s.extra[colDiag] = "#4D4D4D"
	s.extra[colOracle] = "#CC79A7"
	s.extra[colCursor] = "#F0E442"
	s.extra[colHidden] = "#262626"
	s.extra[colNow] = "#FFFFFF"
	for i, a := range algos.Names {
		s.extra[colAlgo+i] = lipgloss.Color(palette.Hex(a))
	}
	return s
}

func (s *Styles) color(i int) (lipgloss.Color, bool) {
	if i >= 0 && i < len(s.heat) {
		return s.heat[i], true
	}
	c, ok := s.extra[i]
	return c, ok
}

// AlgoStyle is an algorithm's colour.
func (s *Styles) AlgoStyle(name algos.Name) lipgloss.Style {
	if st, ok := s.Algo[name]; ok {
		return st
	}
	return s.r.NewStyle()
}
