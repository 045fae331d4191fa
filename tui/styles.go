package tui

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/cara-sim/cara/tui/internal/draw"
)

// Styles are every style of the screen, built from one renderer: a served player's are its SSH
// session's, so that each draws in the colours its terminal supports.
type Styles = draw.Styles

// NewStyles builds the styles for a renderer (lipgloss.DefaultRenderer() for a local terminal).
func NewStyles(r *lipgloss.Renderer) *Styles { return draw.NewStyles(r) }
