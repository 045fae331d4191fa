// Package workshop is the teaching side of a player: a tour's stops, the guess round and its
// question, the player's place in a workshop room (presenting, following, free) and the callouts
// they put over the panes. It reads the player through a Frame, a value, and changes it only by
// the effects it returns (package effect), applied by the player in order; what it owns (where
// the tour is, the answers, the question up, the callout) it changes itself.
package workshop
