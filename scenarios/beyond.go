package scenarios

// The settings beyond the paper (issue 33), each off by default so the paper's numbers stay bit
// for bit: errors.weights, kernel.standardize, data.missing, model.window, and data.positive
// and a model from outside beside them. Extensions says which a scenario uses, for validate and the player's About pane.

import (
	"fmt"
)

// Extensions says, one phrase each, the settings beyond the paper that the scenario uses; nil
// when it has none (its numbers are then the paper's method's).
func (s *Scenario) Extensions() []string {
	var out []string
	if s.Weights != nil {
		out = append(out, fmt.Sprintf("an error on class %s counts %g, on class %s %g (errors.weights)",
			s.Classes[1], s.Weights[1], s.Classes[0], s.Weights[0]))
	}
	if s.Standardize {
		out = append(out, "the kernel and gamma see the features standardised by the offline block (kernel.standardize)")
	}
	switch s.Missing {
	case "mean", "median":
		out = append(out, fmt.Sprintf("empty numeric cells take their column's %s over the offline block (data.missing)", s.Missing))
	case "drop":
		out = append(out, "rows with an empty cell are dropped (data.missing)")
	}
	if s.Window > 1 {
		out = append(out, fmt.Sprintf("each model trains on its batch and the %d before it (model.window: %d)", s.Window-1, s.Window))
	}
	if s.Positive != "" {
		out = append(out, fmt.Sprintf("class 1 is %s (data.positive)", s.Positive))
	}
	if s.outsideText != "" {
		out = append(out, s.outsideText)
	}
	return out
}
