package sim

import (
	"math"

	"github.com/cara-sim/cara/internal/bitset"
)

// Cell holds everything computed for the model of batch t' used at batch t (t' <= t).
type Cell struct {
	A             float64     // QDM(Q_t, D_t, M_t')
	B             float64     // QDM(Q_t, D_t', M_t')
	ErrorRate     float64     // error rate of M_t' on D_t
	QueryAccuracy float64     // accuracy of M_t' on Q_t; NaN when the queries have no labels
	Errors        bitset.Bits // per-point 0-1 errors of M_t' on D_t
	Done          bool
}

// C is QDMdiff = A - B.
func (c Cell) C() float64 { return c.A - c.B }

// Matrix is the upper triangle of cells, stored column by column (column t holds t+1 cells), so a
// live run can fill it as batches arrive. It implements algos.Matrix.
type Matrix struct {
	Scenario string
	Seed     uint64 // the run's (Config.Seed): RunSeed
	t, off   int    // batches, and of them the offline block: Batches() and Offline()
	Gamma    float64
	Drifts   []Drift
	Stats    Stats // stage timings of a staged run
	cells    []Cell
	notes    []string // Warnings: what the engine found that makes the numbers mean less
}

// Warnings are what the engine found, before any cell, that makes the numbers mean less (a kernel
// that cannot tell the queries apart). algos.MatrixWarnings reports them with its own.
func (m *Matrix) Warnings() []string { return m.notes }

// CarryWarnings sets m's warnings to from's: a registry that records a run's columns into a
// matrix of its own (live.Runs) carries the engine's warnings over when the run ends, so its
// watchers show them as cara run does.
func (m *Matrix) CarryWarnings(from *Matrix) { m.notes = append([]string(nil), from.notes...) }

// NewMatrix returns an empty T x T matrix whose first offline batches are the offline block.
func NewMatrix(T, offline int) *Matrix {
	return &Matrix{t: T, off: offline, cells: make([]Cell, T*(T+1)/2)}
}

func index(tp, t int) int { return t*(t+1)/2 + tp }

// Cell returns cell (tp, t), tp <= t.
func (m *Matrix) Cell(tp, t int) *Cell { return &m.cells[index(tp, t)] }

// Column returns the cells of column t, in order of t': the matrix's own, not a copy (a live run's
// registry hands them to its watchers; a column complete is never written again).
func (m *Matrix) Column(t int) []Cell {
	i := index(0, t)
	return m.cells[i : i+t+1 : i+t+1]
}

// Set stores cell (tp, t) and marks it done.
func (m *Matrix) Set(tp, t int, c Cell) {
	c.Done = true
	m.cells[index(tp, t)] = c
}

// Batches implements algos.Matrix.
func (m *Matrix) Batches() int { return m.t }

// Offline implements algos.Matrix.
func (m *Matrix) Offline() int { return m.off }

// Staleness implements algos.Matrix: QDMdiff of cell (tp, t); NaN when not computed.
func (m *Matrix) Staleness(tp, t int) float64 {
	c := m.Cell(tp, t)
	if !c.Done {
		return math.NaN()
	}
	return c.C()
}

// Errors implements algos.Matrix.
func (m *Matrix) Errors(tp, t int) bitset.Bits { return m.Cell(tp, t).Errors }

// QueryAccuracy implements algos.Matrix.
func (m *Matrix) QueryAccuracy(tp, t int) float64 {
	c := m.Cell(tp, t)
	if !c.Done {
		return math.NaN()
	}
	return c.QueryAccuracy
}
