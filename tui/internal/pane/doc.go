// Package pane is the panes' common ground: the Frame every pane draws from (built for each view
// by the player, read and never written), the Pane interface (a title, a size, a view, keys and
// clicks, replying with any change of the player's view for the player to make), the panes'
// indices and rectangles, and how algorithms are named and tabled on the screen. The six panes
// are its subpackages; package screen lays them out.
package pane
