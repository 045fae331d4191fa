package whatif

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/scenarios/cmdline"
	"github.com/cara-sim/cara/tui/internal/draw"
)

// typeLine sends each rune of s, then the named keys, to the command line; it returns the command
// entered, if one was.
func typeLine(c *commandLine, s string, keys ...tea.KeyType) *cmdline.Command {
	var got *cmdline.Command
	send := func(m tea.KeyMsg) {
		if entered, _ := c.Update(m); entered != nil {
			got = entered
		}
	}
	for _, r := range s {
		send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	for _, k := range keys {
		send(tea.KeyMsg{Type: k})
	}
	return got
}

func TestCommandLine(t *testing.T) {
	st := draw.ForProfile(termenv.Ascii)
	c := newCommandLine()
	c.Open()
	// Tab completes one level at a time, then the value; enter hands the command over and closes.
	typeLine(&c, "set model.random_forest.t", tea.KeyTab)
	if v := c.input.Value(); v != "set model.random_forest.trees=" {
		t.Fatalf("after tab: %q", v)
	}
	got := typeLine(&c, "30", tea.KeyEnter)
	if got == nil || *got != (cmdline.Command{Verb: cmdline.VerbSet, Path: "model.random_forest.trees", Value: "30"}) || c.open {
		t.Fatalf("enter gave %+v, open %v", got, c.open)
	}
	// Several completions: the common start, and the choices under the line.
	c.Open()
	typeLine(&c, "set kernel.gamma=", tea.KeyTab)
	if v := c.input.Value(); v != "set kernel.gamma=" || !strings.Contains(c.View(st, 80), "set kernel.gamma=auto  set kernel.gamma=scale") {
		t.Errorf("two completions: line %q, view\n%s", v, c.View(st, 80))
	}
	// A line the format cannot take stays, with the loader's words under it.
	c.Open()
	if got := typeLine(&c, "set data.nois=0.2", tea.KeyEnter); got != nil || !c.open {
		t.Fatalf("a bad path was taken: %+v", got)
	}
	if v := c.View(st, 200); !strings.Contains(v, `data.nois: unknown field "nois" (known: size,`) {
		t.Errorf("bad path, view:\n%s", v)
	}
	typeLine(&c, "", tea.KeyEsc)
	if c.open {
		t.Error("esc left the line open")
	}
	// History: up walks back through entered lines, down returns to what was being typed.
	c.Open()
	typeLine(&c, "retrain_cost=40", tea.KeyEnter)
	c.Open()
	typeLine(&c, "res", tea.KeyUp)
	if v := c.input.Value(); v != "retrain_cost=40" {
		t.Errorf("up: %q", v)
	}
	typeLine(&c, "", tea.KeyUp)
	if v := c.input.Value(); v != "set model.random_forest.trees=30" {
		t.Errorf("up twice: %q", v)
	}
	typeLine(&c, "", tea.KeyDown, tea.KeyDown)
	if v := c.input.Value(); v != "res" {
		t.Errorf("down to the typed line: %q", v)
	}
	// A paste that never ends stops growing the line.
	c.Open()
	typeLine(&c, strings.Repeat("x", 3*cmdMaxLen))
	if n := len(c.input.Value()); n > cmdMaxLen {
		t.Errorf("line grew to %d bytes", n)
	}
}
