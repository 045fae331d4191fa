// Package results is pane 5: every visible algorithm's results so far (its decision now, retrains,
// strategy cost, SCPE, query accuracy) under the parameters tuned offline, and the player's own
// answers as the row You.
package results

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/tui/internal/draw"
	"github.com/cara-sim/cara/tui/internal/keys"
	"github.com/cara-sim/cara/tui/internal/pane"
)

// Pane is pane 5: every visible algorithm's online results so far (its decision now,
// retrains, strategy cost, SCPE against the Oracle or the plain gap when SCPE is undefined, query
// accuracy), under the parameters tuned offline. The layout always gives it a row per algorithm.
type Pane struct {
	key   pane.ViewKey
	cache string
}

// New returns the results table.
func New() *Pane { return &Pane{} }

func (p *Pane) Title(f *pane.Frame) string {
	return fmt.Sprintf("Results so far (online, R %s)", draw.Num(f.R(max(f.Pos, 0))))
}

// Size: the warnings, the tuned line, the header and its rule, one row per visible algorithm.
func (p *Pane) Size(f *pane.Frame, w int) (want, least int) {
	tuned := len(p.tuned(f, w-4))
	if len(f.RP.Results) == 0 {
		// Offline: the tuned lines or the note, no table.
		lines := tuned
		if f.Pos < f.Scen.Offline-1 {
			lines += len(p.offlineNote(f, w-4))
		}
		return len(p.warnings(f, w-4)) + max(lines, 1) + 2, 3
	}
	n := len(p.warnings(f, w-4)) + max(tuned, 1) + len(f.Visible) + 2 + 2
	if f.You != nil {
		n++ // the player's own guesses, "You"
	}
	return n, n
}

// warnings are the results' warnings (most of C negative, an Oracle cost <= 0), wrapped at w.
func (p *Pane) warnings(f *pane.Frame, w int) []string {
	if f.Pos < 0 || len(f.RP.Results) == 0 {
		return nil
	}
	var out []string
	for _, warn := range algos.Warnings(f.M, f.Pos, f.RP.Results) {
		for _, l := range draw.WrapWords(f.St, "! "+warn, w) {
			out = append(out, f.St.Error.Render(l))
		}
	}
	return out
}

// tuned are the parameters tuned offline on as few lines of width w as they take, each parameter
// whole with its value ("θc 29.11" is never split, nor a word cut); nil before they are tuned.
func (p *Pane) tuned(f *pane.Frame, w int) []string {
	t := f.RP.Tuned
	if t == nil {
		return nil
	}
	period := fmt.Sprintf("period %s offset %s", draw.Num(t["period"]), draw.Num(t["offset"]))
	if math.IsInf(t["period"], 1) {
		period = "period never"
	}
	var out []string
	for _, l := range draw.PackLine([]string{fmt.Sprintf("tuned on 0..%d: θ %s", f.Scen.Offline-1, draw.Num(t["theta"])),
		"θc " + draw.Num(t["theta_c"]), period}, w) {
		if draw.Width(l) > w {
			// A parameter wider than the pane: at its words.
			out = append(out, draw.WrapWords(f.St, l, w)...)
			continue
		}
		out = append(out, l)
	}
	return out
}

func (p *Pane) Enable(keys.Mode)                               {}
func (p *Pane) Keys(*pane.Frame, bool) []key.Binding           { return nil }
func (p *Pane) Key(tea.KeyMsg, *pane.Frame, bool) pane.Reply   { return pane.Reply{} }
func (p *Pane) Click(f *pane.Frame, x, y, w, h int) pane.Reply { return pane.Reply{} }

func (p *Pane) View(f *pane.Frame, w, h int) string {
	tuned := 0
	if f.RP.Tuned != nil {
		tuned = 1
	}
	if f.You != nil {
		// The row "You" changes with the answers, which the frame's key does not know.
		h := fnv.New64a()
		fmt.Fprint(h, f.You.Strategy.Retrains)
		tuned += 2 * int(h.Sum64()>>2)
	}
	k := f.Key(w, h, tuned)
	if k == p.key && p.cache != "" {
		return p.cache
	}
	p.cache, p.key = p.draw(f, w), k
	return p.cache
}

func (p *Pane) draw(f *pane.Frame, w int) string {
	st := f.St
	var lines []string
	// Warnings first: a small pane cuts its last lines, and these say when the numbers below stop
	// meaning what they seem to.
	lines = append(lines, p.warnings(f, w)...)
	lines = append(lines, p.tuned(f, w)...)
	if len(f.RP.Results) == 0 {
		if f.Pos < f.Scen.Offline-1 {
			lines = append(lines, p.offlineNote(f, w)...)
		}
		return strings.Join(lines, "\n")
	}
	headers := []string{"algorithm", "now", "retrains", "cost", "SCPE %", "query acc"}
	var rows [][]string
	var names []algos.Name
	shown := f.Shown()
	if f.You != nil {
		shown = append(shown[:len(shown):len(shown)], *f.You)
	}
	for _, r := range shown {
		now := decisionWord(r.Strategy, f.Pos)
		// SCPE is undefined when the Oracle's cost is <= 0: the plain gap a - b stands in for it.
		scpe := "gap " + draw.Signed(r.Gap)
		if !math.IsNaN(r.SCPE) {
			scpe = fmt.Sprintf("%.1f", r.SCPE)
		}
		name := f.Label(r.Algorithm)
		if r.Algorithm == pane.YouName {
			name = "You"
		}
		if r.Algorithm == f.Selected {
			name = "▶" + name
		} else {
			name = " " + name
		}
		rows = append(rows, []string{name, now, draw.Itoa(len(r.Strategy.Retrains)), draw.Cost(r.Strategy.Cost()), scpe, draw.Frac(r.QueryAccuracy)})
		names = append(names, r.Algorithm)
	}
	// Narrow panes shorten the headers, then drop the columns a student needs least.
	if pane.TableWidth(headers, rows, []int{0, 1, 2, 3, 4, 5}) > w {
		headers = []string{"algorithm", "now", "retr.", "cost", "SCPE%", "q.acc"}
	}
	lines = append(lines, pane.AlgoTable(st, headers, rows, names, f.Selected, f.RP.Provisional, 2, []int{1, 5}, w))
	return strings.Join(lines, "\n")
}

// offlineNote says when the table comes, wrapped at w (never cut inside a word).
func (p *Pane) offlineNote(f *pane.Frame, w int) []string {
	out := draw.WrapWords(f.St, fmt.Sprintf("offline: the algorithms are tuned on batches 0..%d once they are in", f.Scen.Offline-1), w)
	for i, l := range out {
		out[i] = f.St.Dim.Render(l)
	}
	return out
}

// decisionWord is a strategy's decision at batch t as the panes write it: "train" for the first
// model (at the first online batch every strategy trains, and none of them has decided anything),
// "RETRAIN" or "keep".
func decisionWord(s algos.Strategy, t int) string {
	switch {
	case t == s.Start:
		return "train"
	case slices.Contains(s.Retrains, t):
		return "RETRAIN"
	}
	return "keep"
}
