// Package layers states the order of cara's packages, lowest first, and its test holds the module
// to it: a package imports only packages below it, and only the terminal (tui and its parts under
// tui/internal), the server and the command line import Charm's packages. It has no code of its
// own.
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
	"sim/modelcmd",
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
	// The screen: tui's parts, each a package of its own under tui/internal, then the player.
	"tui/internal/draw",
	"tui/internal/keys",
	"tui/internal/effect",
	"tui/internal/run",
	"tui/internal/pane",
	"tui/internal/synth",
	"tui/internal/pane/matrix",
	"tui/internal/pane/chart",
	"tui/internal/pane/decisions",
	"tui/internal/pane/batch",
	"tui/internal/pane/results",
	"tui/internal/pane/about",
	"tui/internal/screen",
	"tui/internal/workshop",
	"tui/internal/whatif",
	"tui",
	"server",
	"cmd/cara",
}

// Charm is the packages that may import Charm's (github.com/charmbracelet/...) and ntcharts, which
// is built on them: the screen (tui and its parts), the server, the command line. The made-up runs
// of the screen's tests (tui/internal/synth) are not among them.
var Charm = []string{"tui/internal/draw", "tui/internal/keys", "tui/internal/effect", "tui/internal/run", "tui/internal/pane",
	"tui/internal/pane/matrix", "tui/internal/pane/chart", "tui/internal/pane/decisions", "tui/internal/pane/batch",
	"tui/internal/pane/results", "tui/internal/pane/about", "tui/internal/screen", "tui/internal/workshop",
	"tui/internal/whatif", "tui", "server", "cmd/cara"}
