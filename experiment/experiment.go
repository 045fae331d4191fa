// Package experiment owns what is run over computed matrices and written down: a run of every
// algorithm over one or several seeds (means and spreads over seeds), sweeps over the retraining
// cost (the cost grid, shards, resuming, merging), the reproduction of the paper's tables with a
// verdict per claim, and the output contracts (run, matrix and reproduction JSON, sweep lines, CSV
// and tables), each a type with one writer and one reader. It is headless: the live what-ifs a
// player asks of a finished run are package live's.
//
// It runs no engine itself: callers pass a MatrixFunc (the command line's shows progress, a
// test's is plain) or a finished run, and long work reports to a Progress.
package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/cara-sim/cara/scenarios"
	"github.com/cara-sim/cara/sim"
)

// MatrixFunc computes the matrix of a scenario for one seed.
type MatrixFunc func(ctx context.Context, s *scenarios.Scenario, seed uint64) (*sim.Matrix, error)

// Progress hears how far a long piece of work has got: Start with the number of units, Step as
// units complete (done so far, and what is under way), Finish when all are done. A nil Progress
// is silent.
type Progress interface {
	Start(total int)
	Step(done int, what string)
	Finish()
}

func start(p Progress, total int) {
	if p != nil {
		p.Start(total)
	}
}

func step(p Progress, done int, format string, args ...any) {
	if p != nil {
		p.Step(done, fmt.Sprintf(format, args...))
	}
}

func finish(p Progress) {
	if p != nil {
		p.Finish()
	}
}

// Num is a number that is null in JSON when it is NaN or infinite (JSON has no such numbers), and
// reads null back as NaN.
type Num float64

// MarshalJSON implements json.Marshaler.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

// UnmarshalJSON implements json.Unmarshaler.
func (n *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Num(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*n = Num(f)
	return nil
}

// Defined reports whether n is a finite number (not null in JSON).
func (n Num) Defined() bool { return !math.IsNaN(float64(n)) && !math.IsInf(float64(n), 0) }

// nums converts a parameter map; nil stays nil.
func nums(p map[string]float64) map[string]Num {
	if p == nil {
		return nil
	}
	out := make(map[string]Num, len(p))
	for k, v := range p {
		out[k] = Num(v)
	}
	return out
}

// FormatNum prints a number for a table: "-" for undefined, "inf" for +Inf, and in exponent
// form from 1e12 on (a cost of 1e308 in fixed point is 309 digits wide).
func FormatNum(f float64, prec int) string {
	switch {
	case math.IsNaN(f):
		return "-"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.Abs(f) >= 1e12:
		return strconv.FormatFloat(f, 'e', 3, 64)
	}
	return fmt.Sprintf("%.*f", prec, f)
}

// csvNum prints a number for CSV: the shortest decimal that reads back exactly, "" when undefined.
func csvNum(f float64) string {
	if math.IsNaN(f) {
		return ""
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// paramOrder is the order tuned parameters print in.
var paramOrder = []string{"theta", "theta_c", "period", "offset"}

// FormatParams prints tuned parameters for a table: "theta=1.234 period=5 offset=2".
func FormatParams(p map[string]Num) string {
	var parts []string
	for _, k := range paramOrder {
		if v, ok := p[k]; ok {
			prec := 3
			if k == "period" || k == "offset" {
				prec = 0
			}
			parts = append(parts, k+"="+FormatNum(float64(v), prec))
		}
	}
	return strings.Join(parts, " ")
}

// nonNil makes an empty list encode as [] rather than null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// WriteWarnings prints warnings under a table, one a line, after a blank line; nothing when there
// are none.
func WriteWarnings(w io.Writer, warnings []string) {
	if len(warnings) > 0 {
		fmt.Fprintln(w)
	}
	for _, x := range warnings {
		fmt.Fprintln(w, "warning:", x)
	}
}
