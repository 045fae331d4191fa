package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// whatifUndo is what applying a what-if changed, to put back when a tour moves on.
type whatifUndo struct {
	scale float64
	sets  []string
}

// applyWhatif applies a what-if given as --set overrides (a tour stop's, a presenter's): the one
// place the workshop's what-ifs go through. It returns how to undo it and a line for the callout.
//
// Until the engine's what-if path (new queries or gamma over a finished run) is in, only a
// constant retraining cost is applied, by scaling R as ] and [ do; other overrides are named as
// not available yet.
func (p *Player) applyWhatif(sets []string) (*whatifUndo, string) {
	undo := &whatifUndo{scale: p.scale, sets: p.whatif}
	var done, missing []string
	for _, set := range sets {
		path, value, _ := strings.Cut(set, "=")
		if path == "retrain_cost" {
			if scale, ok := p.rScaleFor(value); ok {
				p.scale = scale
				done = append(done, fmt.Sprintf("retrain cost R = %s", value))
				continue
			}
		}
		missing = append(missing, set)
	}
	p.whatif = slices.Clone(sets)
	p.refresh()
	var note []string
	if len(done) > 0 {
		note = append(note, "What-if: "+strings.Join(done, ", ")+" (the status line shows it).")
	}
	if len(missing) > 0 {
		note = append(note, "What-if not available yet: "+strings.Join(missing, ", ")+".")
	}
	return undo, strings.Join(note, " ")
}

// undoWhatif puts back what applyWhatif changed.
func (p *Player) undoWhatif(u *whatifUndo) {
	p.scale, p.whatif = u.scale, u.sets
	p.refresh()
}

// rScaleFor is the scale of R that gives a constant retraining cost v, when the scenario's own is
// a constant too.
func (p *Player) rScaleFor(v string) (float64, bool) {
	want, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || want <= 0 {
		return 0, false
	}
	base, err := strconv.ParseFloat(strings.TrimSpace(p.opt.Scenario.RetrainCostText), 64)
	if err != nil || base <= 0 {
		return 0, false
	}
	return want / base, true
}
