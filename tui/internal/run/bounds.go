package run

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/sim"
)

// Bounds are the scatter's axes: each feature's range over every batch of the scenario, data and
// queries, so the axes stay put while you step and drift shows as movement.
type Bounds struct {
	Lo, Hi []float64
	// n, sum and sq give each feature's spread (its variance), which picks the pair of features
	// the scatter opens on.
	n       float64
	sum, sq []float64
}

func (b *Bounds) Add(p sim.Points) {
	for i := range p.Len() {
		b.n++
		for j, v := range p.Row(i) {
			if j < len(b.Lo) && !math.IsNaN(v) {
				b.Lo[j], b.Hi[j] = min(b.Lo[j], v), max(b.Hi[j], v)
				b.sum[j] += v
				b.sq[j] += v * v
			}
		}
	}
}

// Pair is the pair of features the scatter opens on: the first two, unless there are more and
// others spread more over their range (a feature that is a flat band most of the time, or a
// cycle such as the time of day, shows little): then the two whose standard deviation is the
// largest share of their range, in feature order.
func (b *Bounds) Pair() [2]int {
	d := len(b.Lo)
	if d <= 2 || b.n == 0 {
		return [2]int{0, 1}
	}
	spread := make([]float64, d)
	for j := range d {
		mean := b.sum[j] / b.n
		if r := b.Hi[j] - b.Lo[j]; r > 0 {
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

func NewBounds(d int) *Bounds {
	b := &Bounds{Lo: make([]float64, d), Hi: make([]float64, d), sum: make([]float64, d), sq: make([]float64, d)}
	for j := range d {
		b.Lo[j], b.Hi[j] = math.Inf(1), math.Inf(-1)
	}
	return b
}

// BoundsMsg brings a session's bounds, scanned in the background.
type BoundsMsg struct {
	Session *Session
	Bounds  *Bounds
}

// ScanBounds asks the session's run for the features' ranges (computed once per run, for all its
// watchers). It stops, with no message, when the session does (a restart, a player closed).
func ScanBounds(s *Session) tea.Cmd {
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
		return BoundsMsg{s, &Bounds{Lo: r.Lo, Hi: r.Hi}}
	}
}

// FeatureNames are the stream's feature names (a CSV's header), or x1, x2, ...
func FeatureNames(s sim.Stream) []string {
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
