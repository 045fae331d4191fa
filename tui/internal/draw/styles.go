package draw

import (
	"io"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/internal/palette"
)

// Styles are every style of the UI, built from one renderer.
type Styles struct {
	r       *lipgloss.Renderer
	profile termenv.Profile
	// Mono is true without colours (NO_COLOR, or a terminal that has none): panes tell things
	// apart by glyphs alone.
	Mono bool
	// Glyphs is true when the heat map draws shade glyphs rather than coloured half blocks: without
	// colours, and at 16 colours, where no ramp of colours is free of the algorithms' colours.
	Glyphs bool

	Title, TitleFocus lipgloss.Style
	Pane, PaneFocus   lipgloss.Style
	Status, StatusKey lipgloss.Style
	Dim, Bold, Error  lipgloss.Style
	Help, HelpKey     lipgloss.Style
	Collapsed         lipgloss.Style
	Overlay           lipgloss.Style
	Chosen            lipgloss.Style // the what-if bar's current choice
	Algo              map[algos.Name]lipgloss.Style

	sgr map[Ink]string // SGR parameters of each ink drawn so far
}

// NewStyles builds the styles for a renderer (lipgloss.DefaultRenderer() for a local terminal).
func NewStyles(r *lipgloss.Renderer) *Styles {
	p := r.ColorProfile()
	s := &Styles{r: r, profile: p, Mono: p == termenv.Ascii, Glyphs: p == termenv.Ascii || p == termenv.ANSI,
		Algo: map[algos.Name]lipgloss.Style{}, sgr: map[Ink]string{}}
	s.Title = r.NewStyle().Bold(true)
	s.TitleFocus = r.NewStyle().Bold(true).Reverse(true)
	border := lipgloss.RoundedBorder()
	s.Pane = r.NewStyle().Border(border).BorderForeground(s.Color(palette.Edge)).Padding(0, 1)
	s.PaneFocus = r.NewStyle().Border(lipgloss.ThickBorder()).BorderForeground(s.Color(palette.FocusEdge)).Padding(0, 1)
	s.Status = r.NewStyle().Foreground(lipgloss.Color("252")).Background(lipgloss.Color("236"))
	s.StatusKey = r.NewStyle().Bold(true).Reverse(true)
	s.Dim = r.NewStyle().Foreground(s.Color(palette.Axis))
	s.Bold = r.NewStyle().Bold(true)
	s.Error = r.NewStyle().Foreground(lipgloss.Color("#D55E00")).Bold(true)
	s.Help = r.NewStyle().Foreground(s.Color(palette.Axis))
	s.HelpKey = r.NewStyle().Bold(true)
	s.Collapsed = r.NewStyle().Foreground(lipgloss.Color("250"))
	s.Overlay = r.NewStyle().Border(lipgloss.ThickBorder()).BorderForeground(s.Color(palette.FocusEdge)).Padding(0, 1)
	// Black on white where a 256-colour background is sure to draw; at 16 colours and without
	// colours, bold and underlined (16-colour backgrounds are drawn differently by every terminal
	// theme), besides the brackets the bar puts around it.
	s.Chosen = r.NewStyle().Bold(true).Underline(true)
	if p == termenv.ANSI256 || p == termenv.TrueColor {
		s.Chosen = r.NewStyle().Bold(true).Foreground(lipgloss.Color("16")).Background(s.Color(palette.FocusEdge))
	}
	for _, a := range algos.Known {
		s.Algo[a] = r.NewStyle().Foreground(s.Color(palette.Screen(a)))
	}
	return s
}

// ForProfile builds the styles of a renderer that writes nowhere at the colour profile p: a
// screen drawn for tests and benchmarks at a given depth (a renderer on no terminal detects no
// colours at all).
func ForProfile(p termenv.Profile) *Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(p)
	return NewStyles(r)
}

// Color is a palette colour for lipgloss, exact at every depth.
func (s *Styles) Color(c palette.Colour) lipgloss.TerminalColor {
	return lipgloss.CompleteColor{TrueColor: c.Hex, ANSI256: strconv.Itoa(int(c.X256)), ANSI: strconv.Itoa(int(c.X16))}
}

// NewStyle is a style of the session's renderer.
func (s *Styles) NewStyle() lipgloss.Style { return s.r.NewStyle() }

// Renderer is the session's renderer, which the styles of a component of another package (a
// bubbles list's) are rebound to.
func (s *Styles) Renderer() *lipgloss.Renderer { return s.r }

// AlgoStyle is an algorithm's colour (palette.Screen): a fixed schedule's by its kind.
func (s *Styles) AlgoStyle(name algos.Name) lipgloss.Style {
	if st, ok := s.Algo[name]; ok {
		return st
	}
	if name.IsSchedule() {
		return s.r.NewStyle().Foreground(s.Color(palette.Screen(name)))
	}
	return s.NewStyle()
}

// Ink is how a canvas cell is drawn: colours (the zero Colour is the terminal's default) and
// attributes.
type Ink struct {
	FG, BG palette.Colour
	Bold   bool
	Faint  bool // what is provisional: the best so far, while the matrix computes
}

// InkOf is the foreground ink of a colour.
func InkOf(c palette.Colour) Ink { return Ink{FG: c} }

// AlgoInk is an algorithm's foreground ink.
func AlgoInk(name algos.Name) Ink { return Ink{FG: palette.Screen(name)} }

// seq returns the SGR parameters of an ink at the renderer's depth ("" for none).
func (s *Styles) seq(k Ink) string {
	if v, ok := s.sgr[k]; ok {
		return v
	}
	var parts []string
	// A cell with a background is also bold: tmux, which the screenshots go through, then ends the
	// background with a full reset rather than "default background", which freeze does not honour
	// (the background would run on as a bar). Bold changes nothing in a block or a space.
	if (k.Bold || k.BG.Hex != "") && s.profile != termenv.Ascii {
		parts = append(parts, "1")
	}
	if k.Faint && s.profile != termenv.Ascii {
		parts = append(parts, "2")
	}
	if c := s.termColor(k.FG); c != nil {
		parts = append(parts, c.Sequence(false))
	}
	if c := s.termColor(k.BG); c != nil {
		parts = append(parts, c.Sequence(true))
	}
	v := strings.Join(parts, ";")
	s.sgr[k] = v
	return v
}

func (s *Styles) termColor(c palette.Colour) termenv.Color {
	if c.Hex == "" {
		return nil
	}
	switch s.profile {
	case termenv.TrueColor:
		return termenv.RGBColor(c.Hex)
	case termenv.ANSI256:
		return termenv.ANSI256Color(c.X256)
	case termenv.ANSI:
		return termenv.ANSIColor(c.X16)
	}
	return nil
}
