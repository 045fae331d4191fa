package sim

import (
	"context"
	"errors"
	"time"
)

// GammaMode says how the RBF kernel's gamma is chosen.
type GammaMode int

const (
	GammaScale GammaMode = iota // 1 / (d * variance of the offline data, all features pooled)
	GammaAuto                   // 1 / d (scikit-learn's "auto")
	GammaValue                  // a given number
)

// GammaSpec is a scenario's kernel setting: a mode, and the value for GammaValue.
type GammaSpec struct {
	Mode  GammaMode
	Value float64
}

// Order is the order in which the engine computes cells.
type Order int

const (
	// ColumnOrder computes batch t's column as soon as D_t and M_t exist (live runs).
	ColumnOrder Order = iota
	// RowOrder computes row t' with only M_t' in memory (big headless runs).
	RowOrder
)

// Config is everything the engine needs to compute a matrix.
type Config struct {
	Scenario  string
	Stream    Stream
	Trainer   Trainer
	Seed      uint64 // models draw from NewRand(Seed, model index ...)
	Offline   int
	Gamma     GammaSpec
	Order     Order
	Workers   int  // 0 means GOMAXPROCS
	SkipCross bool // skip cells (t', t) with t' < Offline <= t, except (Offline-1, Offline)
}

// EventKind tells what an Event reports.
type EventKind int

const (
	ColumnDone EventKind = iota // column Index (batch t) is complete
	RowDone                     // row Index (model t') is complete
)

// Event reports progress: one per column (ColumnOrder) or per row (RowOrder). Cells is a copy of
// the finished column or row, in order of t' (column) or t (row), so a consumer can build its own
// Matrix without sharing memory with the engine.
type Event struct {
	Kind      EventKind
	Index     int
	Cells     []Cell
	CellsDone int // cells computed so far
	CellsAll  int // cells the run will compute
	Elapsed   time.Duration
}

// ErrNotImplemented is TEMPORARY while the engine is being written.
var ErrNotImplemented = errors.New("engine: not implemented yet")

// Run computes the matrix described by cfg. When events is not nil it receives one Event per
// finished column or row (Run does not close it). Run stops early with ctx.Err() when ctx is done.
func Run(ctx context.Context, cfg Config, events chan<- Event) (*Matrix, error) {
	return nil, ErrNotImplemented
}
