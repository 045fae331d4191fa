// Package tui owns the live terminal UI: a scenario picker and a player that steps through a
// scenario batch by batch while the engine computes ahead in the background. The player is a
// bubbletea model made of parts, each its own package under tui/internal: the panes
// (internal/pane/...), laid out by internal/screen, drawn with internal/draw; the what-if bar, the
// command line, the editor and the split view (internal/whatif); the tour, the guess round and the
// room (internal/workshop). The player alone writes its view state (room.Shown, the overlay, the
// batch asked for ahead): the parts read it from frames and reply with the changes they want. It
// is the screen only: the runs it shows are package live's (internal/run turns a run subscription
// into messages), the workshop room package room's, the catalog package scenarios', and the server
// package server's.
package tui
