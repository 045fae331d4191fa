// Package layers states the order of cara's packages, lowest first, and its test holds the module
// to it: a package imports only packages below it, and only the terminal and the server (tui,
// server, cmd/cara) import Charm's packages. It has no code of its own.
package layers

// Order is cara's packages, lowest first; each may import only those before it.
var Order = []string{
	"internal/bitset",
	"internal/memo",
	"internal/ctxio",
	"internal/budget",
	"algos",
	"internal/palette",
	"sim",
	"scenarios/internal/format",
	"scenarios/internal/expr",
	"scenarios/internal/streams",
	"scenarios/tour",
	"scenarios",
	"scenarios/cmdline",
	"scenarios/tour/claims",
	"internal/simtest",
	"experiment",
	"figures",
	"live",
	"room",
	"tui",
	"server",
	"cmd/cara",
}

// Charm is the packages that may import Charm's (github.com/charmbracelet/...) and ntcharts, which
// is built on them: the screen, the server, the command line.
var Charm = []string{"tui", "server", "cmd/cara"}
