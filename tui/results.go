package tui

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/algos"
)

// resultsPane is pane 5: every visible algorithm's online results so far (its decision now,
// retrains, strategy cost, SCPE against the Oracle or the plain gap when SCPE is undefined, query
// accuracy), under the parameters tuned offline. The layout always gives it a row per algorithm.
type resultsPane struct {
	key   viewKey
	cache string
}

// newResultsPane returns the results table.
func newResultsPane() *resultsPane { return &resultsPane{} }

func (p *resultsPane) Title(f *frame) string {
	return fmt.Sprintf("Results so far (online, R %s)", num(f.r(max(f.pos, 0))))
}

// Size: the warnings, the tuned line, the header and its rule, one row per visible algorithm.
func (p *resultsPane) Size(f *frame, w int) (want, least int) {
	tuned := len(p.tuned(f, w-4))
	if len(f.rp.results) == 0 {
		// Offline: the tuned lines or the note, no table.
		lines := tuned
		if f.pos < f.scen.Offline-1 {
			lines += len(p.offlineNote(f, w-4))
		}
		return len(p.warnings(f, w-4)) + max(lines, 1) + 2, 3
	}
	n := len(p.warnings(f, w-4)) + max(tuned, 1) + len(f.visible) + 2 + 2
	if f.you != nil {
		n++ // the player's own guesses, "You"
	}
	return n, n
}

// warnings are the results' warnings (most of C negative, an Oracle cost <= 0), wrapped at w.
func (p *resultsPane) warnings(f *frame, w int) []string {
	if f.pos < 0 || len(f.rp.results) == 0 {
		return nil
	}
	var out []string
	for _, warn := range algos.Warnings(f.m, f.pos, f.rp.results) {
		for _, l := range wrapWords(f.st, "! "+warn, w) {
			out = append(out, f.st.Error.Render(l))
		}
	}
	return out
}

// tuned are the parameters tuned offline on as few lines of width w as they take, each parameter
// whole with its value ("θc 29.11" is never split, nor a word cut); nil before they are tuned.
func (p *resultsPane) tuned(f *frame, w int) []string {
	t := f.rp.tuned
	if t == nil {
		return nil
	}
	period := fmt.Sprintf("period %s offset %s", num(t["period"]), num(t["offset"]))
	if math.IsInf(t["period"], 1) {
		period = "period never"
	}
	var out []string
	for _, l := range packLine([]string{fmt.Sprintf("tuned on 0..%d: θ %s", f.scen.Offline-1, num(t["theta"])),
		"θc " + num(t["theta_c"]), period}, w) {
		if width(l) > w {
			// A parameter wider than the pane: at its words.
			out = append(out, wrapWords(f.st, l, w)...)
			continue
		}
		out = append(out, l)
	}
	return out
}

func (p *resultsPane) Enable(mode)                          {}
func (p *resultsPane) Keys(*frame, bool) []key.Binding      { return nil }
func (p *resultsPane) Key(tea.KeyMsg, *frame, bool) reply   { return reply{} }
func (p *resultsPane) Click(f *frame, x, y, w, h int) reply { return reply{} }

func (p *resultsPane) View(f *frame, w, h int) string {
	tuned := 0
	if f.rp.tuned != nil {
		tuned = 1
	}
	if f.you != nil {
		// The row "You" changes with the answers, which the frame's key does not know.
		h := fnv.New64a()
		fmt.Fprint(h, f.you.Strategy.Retrains)
		tuned += 2 * int(h.Sum64()>>2)
	}
	k := f.key(w, h, tuned)
	if k == p.key && p.cache != "" {
		return p.cache
	}
	p.cache, p.key = p.draw(f, w), k
	return p.cache
}

func (p *resultsPane) draw(f *frame, w int) string {
	st := f.st
	var lines []string
	// Warnings first: a small pane cuts its last lines, and these say when the numbers below stop
	// meaning what they seem to.
	lines = append(lines, p.warnings(f, w)...)
	lines = append(lines, p.tuned(f, w)...)
	if len(f.rp.results) == 0 {
		if f.pos < f.scen.Offline-1 {
			lines = append(lines, p.offlineNote(f, w)...)
		}
		return strings.Join(lines, "\n")
	}
	headers := []string{"algorithm", "now", "retrains", "cost", "SCPE %", "query acc"}
	var rows [][]string
	var names []algos.Name
	shown := f.shown()
	if f.you != nil {
		shown = append(shown[:len(shown):len(shown)], *f.you)
	}
	for _, r := range shown {
		now := decisionWord(r.Strategy, f.pos)
		// SCPE is undefined when the Oracle's cost is <= 0: the plain gap a - b stands in for it.
		scpe := "gap " + signed(r.Gap)
		if !math.IsNaN(r.SCPE) {
			scpe = fmt.Sprintf("%.1f", r.SCPE)
		}
		name := f.label(r.Algorithm)
		if r.Algorithm == youName {
			name = "You"
		}
		if r.Algorithm == f.selected {
			name = "▶" + name
		} else {
			name = " " + name
		}
		rows = append(rows, []string{name, now, itoa(len(r.Strategy.Retrains)), cost(r.Strategy.Cost()), scpe, frac(r.QueryAccuracy)})
		names = append(names, r.Algorithm)
	}
	// Narrow panes shorten the headers, then drop the columns a student needs least.
	if tableWidth(headers, rows, []int{0, 1, 2, 3, 4, 5}) > w {
		headers = []string{"algorithm", "now", "retr.", "cost", "SCPE%", "q.acc"}
	}
	lines = append(lines, algoTable(st, headers, rows, names, f.selected, f.rp.provisional, 2, []int{1, 5}, w))
	return strings.Join(lines, "\n")
}

// offlineNote says when the table comes, wrapped at w (never cut inside a word).
func (p *resultsPane) offlineNote(f *frame, w int) []string {
	out := wrapWords(f.st, fmt.Sprintf("offline: the algorithms are tuned on batches 0..%d once they are in", f.scen.Offline-1), w)
	for i, l := range out {
		out[i] = f.st.Dim.Render(l)
	}
	return out
}

// tableWidth is the width of the table of the given columns: each column's widest cell and a space.
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
