package tui

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/sim"
)

// bounds are the scatter's axes: each feature's range over every batch of the scenario, data and
// queries, so the axes stay put while you step and drift shows as movement.
type bounds struct {
	lo, hi []float64
	// n, sum and sq give each feature's spread (its variance), which picks the pair of features
	// the scatter opens on.
	n       float64
	sum, sq []float64
}

func (b *bounds) add(p sim.Points) {
	for i := range p.Len() {
		b.n++
		for j, v := range p.Row(i) {
			if j < len(b.lo) && !math.IsNaN(v) {
				b.lo[j], b.hi[j] = min(b.lo[j], v), max(b.hi[j], v)
				b.sum[j] += v
				b.sq[j] += v * v
			}
		}
	}
}

// pair is the pair of features the scatter opens on: the first two, unless there are more and
// others spread more over their range (a feature that is a flat band most of the time, or a
// cycle such as the time of day, shows little): then the two whose standard deviation is the
// largest share of their range, in feature order.
func (b *bounds) pair() [2]int {
	d := len(b.lo)
	if d <= 2 || b.n == 0 {
		return [2]int{0, 1}
	}
	spread := make([]float64, d)
	for j := range d {
		mean := b.sum[j] / b.n
		if r := b.hi[j] - b.lo[j]; r > 0 {
			spread[j] = math.Sqrt(max(b.sq[j]/b.n-mean*mean, 0)) / r
		}
	}
	order := make([]int, d)
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, c int) int { return cmp.Compare(spread[c], spread[a]) })
	return [2]int{min(order[0], order[1]), max(order[0], order[1])}
}

func newBounds(d int) *bounds {
	b := &bounds{lo: make([]float64, d), hi: make([]float64, d), sum: make([]float64, d), sq: make([]float64, d)}
	for j := range d {
		b.lo[j], b.hi[j] = math.Inf(1), math.Inf(-1)
	}
	return b
}

// boundsMsg brings a session's bounds, scanned in the background.
type boundsMsg struct {
	s *Session
	b *bounds
}

// scanBounds asks the session's run for the features' ranges (computed once per run, for all its
// watchers). It stops, with no message, when the session does (a restart, a player closed).
func scanBounds(s *Session) tea.Cmd {
	stream, w := s.Stream, s.w
	ctx := s.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return func() tea.Msg {
		if w == nil {
			return nil
		}
		r, err := w.Ranges(ctx, stream)
		if err != nil {
			return nil
		}
		return boundsMsg{s, &bounds{lo: r.Lo, hi: r.Hi}}
	}
}

// featureNames are the stream's feature names (a CSV's header), or x1, x2, ...
func featureNames(s sim.Stream) []string {
	if n, ok := s.(interface{ FeatureNames() []string }); ok {
		if names := n.FeatureNames(); len(names) == s.Features() {
			return names
		}
	}
	out := make([]string, s.Features())
	for i := range out {
		out[i] = fmt.Sprintf("x%d", i+1)
	}
	return out
}
