package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/effect"
)

// overlay is drawn over the panes: the full key help now, and whatever comes next (a tour's
// callouts, a guess round's question). It takes the keys while it shows.
type overlay interface {
	// View returns the overlay's box for a body of w x h and where its top-left corner goes.
	View(st *draw.Styles, w, h int) (box string, x, y int)
	// Key handles a key and returns the effects it makes; close says the overlay is done.
	Key(msg tea.KeyMsg) (close bool, e effect.Effects)
}

// helpOverlay is the full key help, grouped: the player's keys and each pane's. It scrolls when
// the screen is too short for it.
type helpOverlay struct {
	keys   contextKeys
	offset int
}

func (o *helpOverlay) View(st *draw.Styles, w, h int) (string, int, int) {
	iw := max(min(w-4, 88), 20)
	mouse := st.Dim.Render("mouse: click a pane to focus it, a cell to inspect it, the decisions to jump; the wheel steps")
	lines := strings.Split(fullHelp(st, o.keys, iw)+"\n\n"+glossary(st, iw)+"\n\n"+st.NewStyle().Width(iw).Render(mouse), "\n")
	room := max(h-3, 1) // the border and the closing line
	o.offset = min(max(o.offset, 0), max(len(lines)-room, 0))
	foot := "any key closes this"
	if len(lines) > room {
		foot = fmt.Sprintf("↑/↓ scroll (%d-%d of %d) · any other key closes this", o.offset+1, min(o.offset+room, len(lines)), len(lines))
		lines = lines[o.offset : o.offset+room]
	}
	body := draw.Clip(strings.Join(lines, "\n"), iw, room) + "\n" + st.Dim.Render(draw.Truncate(foot, iw))
	box := st.Overlay.Render(body)
	bw := ansi.StringWidth(strings.SplitN(box, "\n", 2)[0])
	bh := strings.Count(box, "\n") + 1
	return box, max((w-bw)/2, 0), max((h-bh)/2, 0)
}

// Key scrolls with the arrows; any other key closes the help.
func (o *helpOverlay) Key(msg tea.KeyMsg) (bool, effect.Effects) {
	switch {
	case key.Matches(msg, o.keys.k.HelpUp):
		o.offset--
	case key.Matches(msg, o.keys.k.HelpDown):
		o.offset++
	default:
		return true, nil
	}
	return false, nil
}

// glossaryTerms are the words the panes use, as the paper defines them.
var glossaryTerms = [][2]string{
	{"C[t', t]", "the staleness cost of keeping M_t' (the model of batch t') at batch t: A − B. On the diagonal, C[t, t] = R"},
	{"A[t', t]", "QDM(Q_t, D_t, M_t'): M_t''s errors on batch t, each weighted by how near it lies to the queries"},
	{"B[t', t]", "QDM(Q_t, D_t', M_t'): the same over the model's own training batch"},
	{"R", "the cost of retraining, paid on the diagonal; [ and ] change it"},
	{"θ (theta)", "CARA-T keeps its model while C[t', t] < θ, tuned on the offline block"},
	{"θc (theta_c)", "CARA-CT keeps while the sum of C since its last retrain stays < θc"},
	{"Oracle", "the cheapest strategy in hindsight over the whole online block (the paper's DP); \"best so far\", while the matrix computes, is the cheapest over the batches seen"},
	{"SCPE", "100 × |cost − the Oracle's| / the Oracle's: how far above the Oracle, in percent; part-way through a run a strategy can stand under the Oracle's cost so far (which holds retrains that pay later): then it is negative"},
	{"query acc.", "the share of batch t's queries the model in use answers right, before the decision at t"},
	{"O T CT P N M A D PH", "the algorithms' keys, on the chart's lines and in its legend, and first in each row of the decisions and the results: Oracle, CARA-T, CARA-CT, CARA-P, Never-retrain, Markov, ADWIN, DDM, Page-Hinkley; ↑ marks a line off the top"},
	{"ED HA HW KS e7 e5+2 at", "the more detectors' keys (EDDM, HDDM-A, HDDM-W, KSWIN: detectors.run) and the fixed schedules' (every-7, every-5+2, at: schedules)"},
	{"drifts", "in the results, a detector's score so far: 1/3 ×2 is 1 of the 3 known drifts detected, 2 false alarms (About, 6, has the delays)"},
	{"≋ ● ×", "in the decisions: a known drift of a generated scenario; a detector's first alarm within detectors.window batches of a drift (detected); an alarm with no drift that close before it (false)"},
}

// glossary is the help's list of the words the panes use, wrapped at w.
func glossary(st *draw.Styles, w int) string {
	lines := []string{st.Bold.Render("Words")}
	for _, g := range glossaryTerms {
		text := st.NewStyle().Width(max(w-2, 10)).Render(st.HelpKey.Render(g[0]) + " " + g[1])
		for _, l := range strings.Split(text, "\n") {
			lines = append(lines, "  "+l)
		}
	}
	return strings.Join(lines, "\n")
}
