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
	"github.com/cara-sim/cara/tui/internal/effect"
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
	n := len(p.warnings(f, w-4)) + max(tuned, 1) + len(f.Visible) + 2 + 2 + len(p.queryNote(f, w-4))
	if f.You != nil {
		n += 2 // the player's own answers: the row "You" and its line
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

// driftCells are the drifts column's cells, a row's per shown algorithm: for a detector scored
// against the known drifts "3/7 ×2" (3 of the 7 drifts so far detected, 2 false alarms), "" for
// the others; ok is false when no row is scored (no detector shown, or real data), and the table
// has no such column.
func driftCells(f *pane.Frame) (cells []string, ok bool) {
	for _, r := range f.Shown() {
		d := r.Detection
		if d == nil {
			cells = append(cells, "")
			continue
		}
		ok = true
		cells = append(cells, fmt.Sprintf("%d/%d ×%d", d.Detected(), len(d.Drifts), len(d.FalseAlarms)))
	}
	return cells, ok
}

// queryNote says, when no row has a query accuracy, that it is not available and why, wrapped at w:
// the engine's warning says so for a model from outside without answers at the queries (it is
// among the warnings above once the run is in, so the note only points at it); otherwise the
// queries have no labels, or the model from outside has answered none of them so far. Nil when
// some row has one, and before the online block.
func (p *Pane) queryNote(f *pane.Frame, w int) []string {
	if len(f.RP.Results) == 0 {
		return nil
	}
	for _, r := range f.RP.Results {
		if !math.IsNaN(r.QueryAccuracy) {
			return nil
		}
	}
	why := "the queries have no labels"
	switch {
	case slices.ContainsFunc(f.M.Warnings(), func(w string) bool { return strings.HasPrefix(w, "query accuracy is not available") }):
		why = "see the warning above"
	case f.Scen.Outside != nil:
		why = "the model from outside has no answers at the queries"
	}
	var out []string
	for _, l := range draw.WrapWords(f.St, "query accuracy not available: "+why, w) {
		out = append(out, f.St.Dim.Render(l))
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

func (p *Pane) Enable(keys.Mode)                                         {}
func (p *Pane) Keys(*pane.Frame, bool) []key.Binding                     { return nil }
func (p *Pane) Key(tea.KeyMsg, *pane.Frame, bool) (effect.Effects, bool) { return nil, false }
func (p *Pane) Click(f *pane.Frame, x, y, w, h int) effect.Effects       { return nil }

func (p *Pane) View(f *pane.Frame, w, h int) string {
	tuned := 0
	if f.RP.Tuned != nil {
		tuned = 1
	}
	if f.You != nil {
		// The row "You" changes with the answers, which the frame's key does not know.
		h := fnv.New64a()
		fmt.Fprint(h, *f.You)
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
	note := p.queryNote(f, w)
	var rows [][]string
	var names []algos.Name
	kw := pane.KeyWidth(f.Visible, f.RP.Provisional)
	for _, r := range f.Shown() {
		// The key first: the chart's lines and legend write it at 16 colours and without colours.
		name := pane.KeyedLabel(r.Algorithm, f.RP.Provisional, kw)
		if r.Algorithm == f.Selected {
			name = "▶" + name
		} else {
			name = " " + name
		}
		rows = append(rows, []string{name, DecisionWord(r.Strategy, f.Pos), draw.Itoa(len(r.Strategy.Retrains)), draw.Cost(r.Strategy.Cost()),
			SCPE(r.SCPE, r.Gap), draw.Frac(r.QueryAccuracy)})
		names = append(names, r.Algorithm)
	}
	if y := f.You; y != nil {
		you := YouRow(y)
		you[0] = " " + strings.Repeat(" ", kw+1) + y.Label() // no key: the chart draws no line of it
		rows = append(rows, you)
		names = append(names, pane.YouName)
	}
	if note != nil {
		// No row has a query accuracy: a column of dashes would say nothing, the note says why.
		headers = headers[:5]
		for i := range rows {
			rows[i] = rows[i][:5]
		}
	}
	short := []string{"algorithm", "now", "retr.", "cost", "SCPE%", "q.acc"}[:len(headers)]
	// Narrow panes shorten the headers, then drop the columns a student needs least: the drifts
	// (About has them in full), the decision now, the query accuracy.
	drop := []int{1, 5}[:len(headers)-4]
	if cells, ok := driftCells(f); ok {
		for i := range rows {
			rows[i] = append(rows[i], "")
			if i < len(cells) {
				rows[i][len(rows[i])-1] = cells[i]
			}
		}
		headers, short = append(headers, "drifts"), append(short, "drifts")
		drop = append([]int{len(headers) - 1}, drop...)
	}
	all := make([]int, len(headers))
	for i := range all {
		all[i] = i
	}
	if pane.TableWidth(headers, rows, all) > w {
		headers = short
	}
	lines = append(lines, pane.AlgoTable(st, headers, rows, names, f.Selected, f.RP.Provisional, 2, drop, w))
	lines = append(lines, note...)
	if y := f.You; y != nil {
		lines = append(lines, " "+YouLine(y, w-1))
	}
	return strings.Join(lines, "\n")
}

// StripRows is the height of the strip the layout gives the results when the table does not fit:
// a line each for the Oracle, the selected algorithm (when it is another) and the player's
// answers (when there are any); 1 (a title bar) before the online block.
func (p *Pane) StripRows(f *pane.Frame) int {
	if len(f.RP.Results) == 0 {
		return 1
	}
	n := 1
	if f.Selected != algos.NameOracle {
		n++
	}
	if f.You != nil {
		n++
	}
	return n
}

// Strip draws the results in h lines w wide, without a box: the Oracle, the selected algorithm
// and You, each its decision now, retrains, cost and SCPE, in its colour; the first line says the
// table is pane 5. It is what a laptop's screen keeps of the table beside the other panes.
func (p *Pane) Strip(f *pane.Frame, w, h int) string {
	st := f.St
	if len(f.RP.Results) == 0 {
		return st.Collapsed.Render(draw.PadRight(draw.Truncate("▸ 5 "+p.Title(f), w), w))
	}
	rows := stripRows(f)
	lines := stripLines(rows, w)
	for i, l := range lines {
		s := st.AlgoStyle(rows[i].name)
		if rows[i].name == f.Selected {
			s = s.Bold(true)
		}
		if f.RP.Provisional && rows[i].name == algos.NameOracle {
			s = s.Faint(true).Italic(true)
		}
		l = draw.PadRight(draw.Truncate(l, w), w)
		if lead, rest, ok := strings.Cut(l, " "); ok && i == 0 && lead == "5" {
			lines[i] = st.Dim.Render(lead+" ") + s.Render(rest)
			continue
		}
		lines[i] = s.Render(l)
	}
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return strings.Join(lines[:h], "\n")
}

// stripRow is a row of the strip: whose, and its cells (name, decision, retrains, cost, SCPE).
type stripRow struct {
	name  algos.Name
	cells []string
}

// stripRows are the strip's rows: the Oracle, the selected algorithm (once, when it is the
// Oracle) and You when the player has answered.
func stripRows(f *pane.Frame) []stripRow {
	var rows []stripRow
	kw := pane.KeyWidth([]algos.Name{algos.NameOracle, f.Selected}, f.RP.Provisional)
	for _, a := range []algos.Name{algos.NameOracle, f.Selected} {
		r, ok := f.Result(a)
		if !ok || len(rows) > 0 && a == algos.NameOracle {
			continue
		}
		mark := " "
		if a == f.Selected {
			mark = "▶"
		}
		rows = append(rows, stripRow{a, []string{mark + pane.KeyedLabel(a, f.RP.Provisional, kw), DecisionWord(r.Strategy, f.Pos), draw.Itoa(len(r.Strategy.Retrains)), draw.Cost(r.Strategy.Cost()), SCPE(r.SCPE, r.Gap)}})
	}
	if y := f.You; y != nil {
		you := YouRow(y)[:5]
		you[0] = " " + strings.Repeat(" ", kw+1) + y.Label() // no key: the chart draws no line of it
		rows = append(rows, stripRow{pane.YouName, you})
	}
	return rows
}

// stripLines lays the rows out in columns, in the widest form that fits w: the table's pane number
// and the numbers' words, then without the number, then without the words (the last may not fit:
// the caller cuts it).
func stripLines(rows []stripRow, w int) []string {
	widths := make([]int, 5)
	for _, r := range rows {
		for k, v := range r.cells {
			widths[k] = max(widths[k], draw.Width(v))
		}
	}
	pad := func(v string, k int) string {
		if k >= 2 { // numbers: to the right
			return strings.Repeat(" ", widths[k]-draw.Width(v)) + v
		}
		return draw.PadRight(v, widths[k])
	}
	var lines []string
	for _, form := range []struct{ lead, words bool }{{true, true}, {false, true}, {false, false}} {
		lines = lines[:0]
		fits := true
		for i, r := range rows {
			c := make([]string, len(r.cells))
			for k, v := range r.cells {
				c[k] = pad(v, k)
			}
			if form.words {
				c[2] += " retr."
				c[4] = "SCPE " + c[4]
			}
			l := strings.Join(c, " ")
			if form.lead {
				l = map[bool]string{true: "5 ", false: "  "}[i == 0] + l
			}
			fits = fits && draw.Width(l) <= w
			lines = append(lines, l)
		}
		if fits {
			break
		}
	}
	return lines
}

// SCPE writes an SCPE for the table: signed, as the gap is, since part-way through the run a
// strategy can stand below the Oracle, whose cost so far includes retrains that pay only later
// ("-14.6": 14.6 % under it); the plain gap a - b when SCPE is undefined (the Oracle's cost <= 0).
func SCPE(scpe, gap float64) string {
	switch {
	case math.IsNaN(scpe):
		return "gap " + draw.Signed(gap)
	case gap < 0 && scpe > 0:
		return fmt.Sprintf("-%.1f", scpe)
	}
	return fmt.Sprintf("%.1f", scpe)
}

// YouRow is the row of the player's own answers: over the batches answered only, its SCPE against
// the Oracle at those batches.
func YouRow(y *pane.You) []string {
	now := y.Now
	if now == "" {
		now = "-"
	}
	return []string{" " + y.Label(), now, draw.Itoa(y.Retrains), draw.Cost(y.Cost), SCPE(y.SCPE, y.Gap), draw.Frac(y.QueryAccuracy)}
}

// YouLine says what the You row is over, in w columns at most: "You (2 answers): 2 of 2 as the
// Oracle, which paid 40.00 at those batches", shorter when that does not fit.
func YouLine(y *pane.You, w int) string {
	who := "the Oracle"
	if y.Provisional {
		who = "the best so far"
	}
	for _, l := range []string{
		fmt.Sprintf("%s, which paid %s at those batches", y.Line(), draw.Cost(y.Oracle)),
		fmt.Sprintf("%s (%s: %s there)", y.Line(), who, draw.Cost(y.Oracle)),
		fmt.Sprintf("%s (%s there)", y.Line(), draw.Cost(y.Oracle)),
	} {
		if draw.Width(l) <= w {
			return l
		}
	}
	return draw.Truncate(y.Line(), w)
}

// offlineNote says when the table comes, wrapped at w (never cut inside a word).
func (p *Pane) offlineNote(f *pane.Frame, w int) []string {
	out := draw.WrapWords(f.St, fmt.Sprintf("offline: the algorithms are tuned on batches 0..%d once they are in", f.Scen.Offline-1), w)
	for i, l := range out {
		out[i] = f.St.Dim.Render(l)
	}
	return out
}

// DecisionWord is a strategy's decision at batch t as the panes write it: "train" for the first
// model (at the first online batch every strategy trains, and none of them has decided anything),
// "RETRAIN" or "keep".
func DecisionWord(s algos.Strategy, t int) string {
	switch {
	case t == s.Start:
		return "train"
	case slices.Contains(s.Retrains, t):
		return "RETRAIN"
	}
	return "keep"
}
