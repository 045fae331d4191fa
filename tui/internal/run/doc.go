// Package run is a player's view of a live run. A Session watches a run of package live's registry
// (shared with every session on the same scenario and seed), turns what it hears into bubbletea
// messages, builds its own matrix from the run's columns as they come, replays the algorithms at a
// batch and a scale of R (Replay), asks for what-ifs off the UI goroutine and scans the features'
// ranges (Bounds). Only the UI goroutine touches a session.
package run
