package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
)

// aboutPane is pane 6: the scenario's description and facts, scrolling in a viewport. The wide
// layout shows only its title until it has the focus.
type aboutPane struct {
	keys aboutKeys
	vp   viewport.Model
	text string // the content the viewport holds, wrapped at w
	w    int
}

// newAboutPane returns the scenario's description.
func newAboutPane() *aboutPane { return &aboutPane{keys: newAboutKeys()} }

// Help is the full help's group of the pane's keys.
func (p *aboutPane) Help() keyGroup { return p.keys.group() }

func (p *aboutPane) Title(f *frame) string { return "About: " + f.scen.Title }

func (p *aboutPane) Size(f *frame, w int) (want, least int) { return 0, 6 }

// aboutKeys are the About pane's keys: scrolling, when it has the focus.
type aboutKeys struct{ ScrollUp, ScrollDown, PageUp, PageDown key.Binding }

func newAboutKeys() aboutKeys {
	return aboutKeys{
		ScrollUp:   binding([]string{"up", "k"}, "↑↓", "scroll"),
		ScrollDown: binding([]string{"down", "j"}, "↓", "scroll down"),
		PageUp:     binding([]string{"pgup"}, "pgup/pgdn", "scroll a page"),
		PageDown:   binding([]string{"pgdown"}, "pgdn", "page down"),
	}
}

func (p *aboutPane) Enable(m mode) {
	k := &p.keys
	enable(m.panes(), &k.ScrollUp, &k.ScrollDown, &k.PageUp, &k.PageDown)
}

// group is the full help's group of the pane's keys.
func (k *aboutKeys) group() keyGroup {
	return keyGroup{"6 About (when it has the focus)", []key.Binding{k.ScrollUp, k.PageUp}}
}

func (p *aboutPane) Keys(f *frame, focused bool) []key.Binding {
	if focused {
		return []key.Binding{p.keys.ScrollUp, p.keys.PageUp}
	}
	return nil
}

func (p *aboutPane) Key(msg tea.KeyMsg, f *frame, focused bool) reply {
	if !focused {
		return reply{}
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
		return reply{}
	}
	return reply{handled: true}
}

func (p *aboutPane) Click(f *frame, x, y, w, h int) reply { return reply{} }

// Wheel scrolls the text.
func (p *aboutPane) Wheel(delta int) bool {
	if delta < 0 {
		p.vp.ScrollUp(-delta)
	} else {
		p.vp.ScrollDown(delta)
	}
	return true
}

func (p *aboutPane) View(f *frame, w, h int) string {
	p.vp.Width, p.vp.Height = w, h
	if p.w != w || p.text == "" {
		s := f.scen
		facts := fmt.Sprintf("%d batches, the first %d offline; R = %s; %d features; seed %d.",
			s.Batches, s.Offline, s.RetrainCostText, s.Features, s.Seed)
		if len(f.drifts) > 0 {
			var ds []string
			for _, d := range f.drifts {
				if d.From == d.To {
					ds = append(ds, fmt.Sprintf("%d (%s)", d.From, d.Kind))
				} else {
					ds = append(ds, fmt.Sprintf("%d-%d (%s)", d.From, d.To, d.Kind))
				}
			}
			facts += " Known drifts at " + strings.Join(ds, ", ") + "."
		}
		p.text = f.st.NewStyle().Width(max(w, 10)).Render(s.About + "\n\n" + facts)
		p.w = w
		p.vp.SetContent(p.text)
	}
	return p.vp.View()
}
