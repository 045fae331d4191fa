// Package keys is what the player's key maps share. Every component (the player, each pane, the
// what-if bar, the workshop) has a key map of its own and enables its bindings for the Mode the
// player is in (key.Binding.SetEnabled), so that the dispatch (key.Matches) and the help, which
// skips a disabled binding, follow the mode with no rule of their own. The same key in two modes
// is two bindings, only one enabled at a time.
package keys
