// Package draw is how the player draws: its styles, built from one lipgloss renderer per session
// so that a served player has its own terminal's colours (Styles); the one grid type every pane
// draws on (Canvas: an ntcharts canvas with an ink per cell, rendered with one escape sequence per
// change of ink); braille lines merged on it (Braille); the heat map's colour scale (Scale); boxes
// and overlays of styled text; and the way every number on the screen is written.
package draw
