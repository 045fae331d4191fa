package whatif

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/cara-sim/cara/scenarios/cmdline"
	"github.com/cara-sim/cara/tui/internal/draw"
)

// The command line (:) takes what --set takes, one line at a time: `set PATH=VALUE`, `unset PATH`,
// `reset`. Tab completes paths and enumerated values from the scenario format, up and down walk
// the lines entered before, enter hands the command to Commands, esc closes the line. A line the
// format cannot take stays on screen with the error under it.

// cmdHistory is how many entered lines the command line remembers.
const cmdHistory = 50

// cmdMaxLen bounds a line: a what-if is one line, and a paste that never ends must not grow one.
const cmdMaxLen = 2000

// cmdKeys are the command line's own keys, for the help.
var cmdKeys = struct {
	Run, Complete, Prev, Next, Close key.Binding
}{
	Run:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply")),
	Complete: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
	Prev:     key.NewBinding(key.WithKeys("up"), key.WithHelp("↑↓", "history")),
	Next:     key.NewBinding(key.WithKeys("down")),
	Close:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
}

// commandLine is the command line's state.
type commandLine struct {
	open    bool
	input   textinput.Model
	err     string   // why the last line was not taken
	choices []string // the completions of the last tab, when there was more than one
	history []string
	back    int // how far up the history the line is (0: the line being typed)
	typed   string
}

func newCommandLine() commandLine {
	in := textinput.New()
	in.Prompt = ":"
	in.Placeholder = "set retrain_cost=40   (tab completes, ↑ history)"
	in.CharLimit = cmdMaxLen
	// A steady cursor: a blinking one redraws the screen twice a second, for every SSH session.
	in.Cursor.SetMode(cursor.CursorStatic)
	return commandLine{input: in}
}

// Open shows the line, empty, with the cursor in it.
func (c *commandLine) Open() tea.Cmd {
	c.open, c.err, c.choices, c.back = true, "", nil, 0
	c.input.SetValue("")
	return c.input.Focus()
}

// Close hides the line.
func (c *commandLine) Close() {
	c.open = false
	c.input.Blur()
}

// SetWidth fits the line to the terminal's width.
func (c *commandLine) SetWidth(w int) { c.input.Width = max(w-2, 10) }

// Update takes a message while the line is open (a key, the input's own messages) and returns the
// command entered, when enter entered one, and the input's command.
func (c *commandLine) Update(msg tea.Msg) (*cmdline.Command, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		var cmd tea.Cmd
		c.input, cmd = c.input.Update(msg)
		return nil, cmd
	}
	switch {
	case key.Matches(k, cmdKeys.Close):
		c.Close()
		return nil, nil
	case key.Matches(k, cmdKeys.Complete):
		c.complete()
		return nil, nil
	case key.Matches(k, cmdKeys.Prev):
		c.walk(+1)
		return nil, nil
	case key.Matches(k, cmdKeys.Next):
		c.walk(-1)
		return nil, nil
	case key.Matches(k, cmdKeys.Run):
		line := strings.TrimSpace(c.input.Value())
		cmd, err := cmdline.Parse(line)
		if err != nil {
			c.err = err.Error()
			return nil, nil
		}
		c.remember(line)
		c.Close()
		return &cmd, nil
	}
	c.err, c.choices = "", nil
	var cmd tea.Cmd
	c.input, cmd = c.input.Update(msg)
	return nil, cmd
}

// complete replaces the line by its one completion, or by the completions' common start and
// shows them all.
func (c *commandLine) complete() {
	got := cmdline.Complete(c.input.Value())
	c.choices = nil
	switch len(got) {
	case 0:
		c.err = "nothing completes " + c.input.Value()
		return
	case 1:
		c.input.SetValue(got[0])
	default:
		c.input.SetValue(commonPrefix(got))
		c.choices = got
	}
	c.err = ""
	c.input.CursorEnd()
}

func commonPrefix(ss []string) string {
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// walk moves the line up (+1) or down (-1) the history; the line being typed is kept at the
// bottom.
func (c *commandLine) walk(d int) {
	n := c.back + d
	if n < 0 || n > len(c.history) {
		return
	}
	if c.back == 0 {
		c.typed = c.input.Value()
	}
	c.back = n
	if n == 0 {
		c.input.SetValue(c.typed)
	} else {
		c.input.SetValue(c.history[len(c.history)-n])
	}
	c.input.CursorEnd()
}

func (c *commandLine) remember(line string) {
	if n := len(c.history); n > 0 && c.history[n-1] == line {
		return
	}
	c.history = append(c.history, line)
	if len(c.history) > cmdHistory {
		c.history = c.history[len(c.history)-cmdHistory:]
	}
}

// View is the line, and under it the error or the completions, each cut to width.
func (c *commandLine) View(st *draw.Styles, width int) string {
	lines := []string{c.input.View()}
	switch {
	case c.err != "":
		lines = append(lines, st.Error.Render(draw.Truncate(c.err, width)))
	case len(c.choices) > 0:
		lines = append(lines, st.Dim.Render(draw.Truncate(strings.Join(c.choices, "  "), width)))
	default:
		lines = append(lines, st.Help.Render(draw.Truncate("enter apply · tab complete · ↑↓ history · esc close · set PATH=VALUE, unset PATH, reset", width)))
	}
	return strings.Join(lines, "\n")
}
