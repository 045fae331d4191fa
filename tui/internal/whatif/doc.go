// Package whatif is the player's what-if tools: the what-if bar (w: the queries elsewhere, gamma
// halved or doubled, each choice a list of --set overrides computed off the UI goroutine from the
// finished run's errors and models), the command line (:), the scenario editor (e) and the split
// view of the scenario and the what-if, or of the run before and the run now (W). Each keeps its
// own state, reads the player through a Host and asks for every other change by the effects it
// returns (package effect): a new run, a what-if handed to the bar, a notice, an error.
package whatif
