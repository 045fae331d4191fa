// Package about is pane 6: the scenario's description and facts, and the run as it stands (the
// tie interval of CARA-T's and CARA-CT's thresholds, the detectors' scores against the known
// drifts), scrolling in a viewport.
package about

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// Pane is pane 6: the scenario's description and facts, scrolling in a viewport. The wide
// layout shows only its title until it has the focus.
type Pane struct {
	keys KeyMap
	vp   viewport.Model
	text string // the content the viewport holds, wrapped at w
	raw  string // ... before wrapping
	w    int
}

// New returns the scenario's description.
func New() *Pane { return &Pane{keys: NewKeyMap()} }

// Help is the full help's group of the pane's keys.
func (p *Pane) Help() keys.Group { return p.keys.Group() }

func (p *Pane) Title(f *pane.Frame) string { return "About: " + f.Scen.Title }

func (p *Pane) Size(f *pane.Frame, w int) (want, least int) { return 0, 6 }

// KeyMap are the About pane's keys: scrolling, when it has the focus.
type KeyMap struct{ ScrollUp, ScrollDown, PageUp, PageDown key.Binding }

func NewKeyMap() KeyMap {
	return KeyMap{
		ScrollUp:   keys.Bind([]string{"up", "k"}, "↑↓", "scroll"),
		ScrollDown: keys.Bind([]string{"down", "j"}, "↓", "scroll down"),
		PageUp:     keys.Bind([]string{"pgup"}, "pgup/pgdn", "scroll a page"),
		PageDown:   keys.Bind([]string{"pgdown"}, "pgdn", "page down"),
	}
}

func (p *Pane) Enable(m keys.Mode) { p.keys.Enable(m) }

// Enable turns the pane's keys on where the panes' keys work (keys.Mode.Panes).
func (k *KeyMap) Enable(m keys.Mode) {
	keys.Enable(m.Panes(), &k.ScrollUp, &k.ScrollDown, &k.PageUp, &k.PageDown)
}

// Group is the full help's group of the pane's keys.
func (k *KeyMap) Group() keys.Group {
	return keys.Group{Title: "6 About (when it has the focus)", Keys: []key.Binding{k.ScrollUp, k.PageUp}}
}

func (p *Pane) Keys(f *pane.Frame, focused bool) []key.Binding {
	if focused {
		return []key.Binding{p.keys.ScrollUp, p.keys.PageUp}
	}
	return nil
}

func (p *Pane) Key(msg tea.KeyMsg, f *pane.Frame, focused bool) (effect.Effects, bool) {
	if !focused {
		return nil, false
	}
	switch {
	case key.Matches(msg, p.keys.ScrollUp):
		p.vp.ScrollUp(1)
	case key.Matches(msg, p.keys.ScrollDown):
		p.vp.ScrollDown(1)
	case key.Matches(msg, p.keys.PageUp):
		p.vp.HalfPageUp()
	case key.Matches(msg, p.keys.PageDown):
		p.vp.HalfPageDown()
	default:
		return nil, false
	}
	return nil, true
}

func (p *Pane) Click(f *pane.Frame, x, y, w, h int) effect.Effects { return nil }

// Offset is how many lines the text is scrolled.
func (p *Pane) Offset() int { return p.vp.YOffset }

// Wheel scrolls the text.
func (p *Pane) Wheel(delta int) bool {
	if delta < 0 {
		p.vp.ScrollUp(-delta)
	} else {
		p.vp.ScrollDown(delta)
	}
	return true
}

func (p *Pane) View(f *pane.Frame, w, h int) string {
	p.vp.Width, p.vp.Height = w, h
	s := f.Scen
	facts := fmt.Sprintf("%d batches, the first %d offline; R = %s; %d features; seed %d.",
		s.Batches, s.Offline, s.RetrainCostText, s.Features, s.Seed)
	if len(f.Drifts) > 0 {
		var ds []string
		for _, d := range f.Drifts {
			if d.From == d.To {
				ds = append(ds, fmt.Sprintf("%d (%s)", d.From, d.Kind))
			} else {
				ds = append(ds, fmt.Sprintf("%d-%d (%s)", d.From, d.To, d.Kind))
			}
		}
		facts += " Known drifts at " + strings.Join(ds, ", ") + "."
	}
	if ext := s.Extensions(); len(ext) > 0 {
		facts += "\n\nBeyond the paper: " + strings.Join(ext, "; ") + "."
	}
	text := s.About + "\n\n" + facts
	// The run as it stands at the batch shown: where the thresholds come from, and the detectors'
	// scores, which change as the batches go by.
	if ties := Ties(f); len(ties) > 0 {
		text += "\n\n" + strings.Join(ties, "\n")
	}
	if det := Detections(f); len(det) > 0 {
		text += "\n\n" + strings.Join(det, "\n")
	}
	if p.w != w || text != p.raw {
		p.text = f.St.NewStyle().Width(max(w, 10)).Render(text)
		p.w, p.raw = w, text
		off := p.vp.YOffset
		p.vp.SetContent(p.text)
		p.vp.SetYOffset(off) // a new batch keeps the place the reader scrolled to
	}
	return p.vp.View()
}
