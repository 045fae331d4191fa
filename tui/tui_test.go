package tui

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/cara-sim/cara/scenarios"
)

func asciiStyles() *Styles {
	return NewStyles(profileRenderer(termenv.Ascii))
}

func loadSmall(t testing.TB) *scenarios.Scenario { return loadTestdata(t, "small.yaml") }

func loadTestdata(t testing.TB, file string) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Load(filepath.Join("testdata", file), scenarios.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// pumped returns a player whose engine has finished, driven through Update on this goroutine.
func pumped(t testing.TB, st *Styles, w, h int) *Player {
	t.Helper()
	return pumpedScenario(t, loadSmall(t), st, w, h)
}

func pumpedScenario(t testing.TB, s *scenarios.Scenario, st *Styles, w, h int) *Player {
	t.Helper()
	p, err := NewPlayer(Options{Scenario: s, Seed: s.Seed, Workers: 2, Styles: st, Width: w, Height: h})
	if err != nil {
		t.Fatal(err)
	}
	pump(t, p)
	return p
}

// pump runs a player's engine to the end through Update, on this goroutine.
func pump(t testing.TB, p *Player) {
	t.Helper()
	cmd := p.Init()
	for cmd != nil {
		msg := cmd()
		_, cmd = p.Update(msg)
		if _, done := msg.(engineDoneMsg); done {
			break
		}
	}
	if !p.s.Done || p.s.Err != nil || p.s.Computed != p.opt.Scenario.Batches {
		t.Fatalf("engine: done %v err %v computed %d", p.s.Done, p.s.Err, p.s.Computed)
	}
}

func press(p *Player, keys ...string) {
	for _, k := range keys {
		var msg tea.KeyMsg
		switch k {
		case "right", "left", "home", "end", "up", "down", "tab":
			msg = tea.KeyMsg{Type: map[string]tea.KeyType{"right": tea.KeyRight, "left": tea.KeyLeft, "home": tea.KeyHome,
				"end": tea.KeyEnd, "up": tea.KeyUp, "down": tea.KeyDown, "tab": tea.KeyTab}[k]}
		case " ":
			msg = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune(" ")}
		default:
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		}
		p.Update(msg)
	}
}

func TestStepBackAndR(t *testing.T) {
	p := pumped(t, asciiStyles(), 100, 32)
	if p.pos != 0 {
		t.Fatalf("first column shows batch %d, want 0", p.pos)
	}
	press(p, "right", "right", "l")
	if p.pos != 3 || p.phase() != "tuning" {
		t.Errorf("after 3 steps: batch %d phase %s, want 3 tuning (the offline block is 0..3)", p.pos, p.phase())
	}
	press(p, "end")
	if p.pos != 11 || p.phase() != "online" {
		t.Fatalf("end: batch %d phase %s", p.pos, p.phase())
	}
	press(p, "home")
	// Keys typed faster than the terminal is read arrive as one message; each still counts.
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("lll")})
	if p.pos != 3 {
		t.Errorf(`"lll" in one message: batch %d, want 3`, p.pos)
	}
	press(p, "end", "left", "h")
	if p.pos != 9 {
		t.Errorf("two steps back from 11: batch %d", p.pos)
	}
	press(p, "end")
	before := p.rp.results
	cell := *p.s.Matrix.Cell(2, 9)
	r0 := p.R()
	press(p, "]", "]", "]", "]", "]", "]", "]", "]")
	if p.R() <= r0 {
		t.Fatalf("] did not raise R: %v -> %v", r0, p.R())
	}
	after := p.rp.results
	changed := false
	for i := range before {
		if before[i].Strategy.Cost() != after[i].Strategy.Cost() {
			changed = true
		}
	}
	if !changed {
		t.Error("raising R changed no strategy cost")
	}
	if got := *p.s.Matrix.Cell(2, 9); got.A != cell.A || got.B != cell.B {
		t.Error("raising R changed the matrix; it must only replay")
	}
	// The Oracle's cost never exceeds any other algorithm's.
	for _, r := range after[1:] {
		if r.Strategy.Cost() < after[0].Strategy.Cost()-1e-9 {
			t.Errorf("%s below the Oracle", r.Algorithm)
		}
	}
	press(p, "[", "[", "[", "[", "[", "[", "[", "[")
	if d := p.R() - r0; d > 1e-12 || d < -1e-12 {
		t.Errorf("[ eight times after ] eight times: R %v, want %v", p.R(), r0)
	}
}

func TestKeysChangeSelectionAndCursor(t *testing.T) {
	p := pumped(t, asciiStyles(), 100, 32)
	press(p, "end")
	sel := p.selected()
	press(p, "tab")
	if p.selected() == sel {
		t.Error("tab did not change the selected algorithm")
	}
	n := len(p.visible())
	press(p, "v")
	if len(p.visible()) == n {
		t.Error("v did not change the visible algorithms")
	}
	press(p, "m")
	if !p.focus || p.cursor != [2]int{10, 11} {
		t.Fatalf("m: focus %v cursor %v", p.focus, p.cursor)
	}
	press(p, "up", "up", "left")
	if p.cursor != [2]int{8, 10} || p.pos != 11 {
		t.Errorf("cursor %v pos %d after up, up, left in matrix focus", p.cursor, p.pos)
	}
	if v := p.View(); !strings.Contains(v, "(t'=8, t=10)  A ") {
		t.Errorf("cursor cell details missing from the view:\n%s", v)
	}
	// h and l still step while the arrows move the cursor.
	press(p, "h")
	if p.pos != 10 || p.cursor != [2]int{8, 10} {
		t.Errorf("h in matrix focus: pos %d cursor %v, want 10 and the cursor unmoved", p.pos, p.cursor)
	}
}

func TestTooSmallAndResize(t *testing.T) {
	p := pumped(t, asciiStyles(), 100, 32)
	for _, size := range [][2]int{{59, 30}, {100, 17}} {
		p.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		if v := p.View(); !strings.Contains(v, "Enlarge the terminal") {
			t.Errorf("%dx%d: no enlarge message:\n%s", size[0], size[1], v)
		}
	}
	for _, size := range [][2]int{{60, 20}, {80, 24}, {100, 32}, {200, 60}} {
		p.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		press(p, "end")
		v := p.View()
		lines := strings.Split(v, "\n")
		if len(lines) > size[1] {
			t.Errorf("%dx%d: view has %d lines", size[0], size[1], len(lines))
		}
		for i, l := range lines {
			if w := lipgloss.Width(l); w > size[0] {
				t.Errorf("%dx%d: line %d is %d wide", size[0], size[1], i, w)
				break
			}
		}
		if !strings.Contains(v, "batch 11/11") {
			t.Errorf("%dx%d: status line missing", size[0], size[1])
		}
	}
}

// The whole program, through bubbletea: step, play, step back, raise R, resize, quit.
func TestProgram(t *testing.T) {
	s := loadSmall(t)
	p, err := NewPlayer(Options{Scenario: s, Seed: s.Seed, Styles: asciiStyles()})
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(100, 32))
	wait := func(text string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(text)) },
			teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	}
	wait("computed all")
	for range 5 {
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("l")})
	}
	wait("batch 5/11")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("h")})
	wait("batch 4/11")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("]")})
	wait("R 0.625")
	tm.Send(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune(" ")})
	wait("playing")
	wait("batch 11/11")
	tm.Send(tea.WindowSizeMsg{Width: 50, Height: 15})
	wait("Enlarge the terminal")
	tm.Send(tea.WindowSizeMsg{Width: 60, Height: 20})
	wait("1 Cost 2 Cumulative")
	tm.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	wait("Cumulative strategy cost")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	tm.WaitFinished(t, teatest.WithFinalTimeout(3*time.Second))
}

// Golden views of each pane in the ASCII profile at batch 9, R as the scenario says
// (go test ./tui -update rewrites testdata/TestGoldenPanes/*.golden).
func TestGoldenPanes(t *testing.T) {
	p := pumped(t, asciiStyles(), 120, 40)
	press(p, "end", "left", "left")
	f := p.frame()
	for i, pn := range p.panes {
		t.Run(fmt.Sprintf("%d-%s", i+1, strings.Fields(pn.Title())[0]), func(t *testing.T) {
			pn.SetSize(60, 16)
			pn.SetFrame(f)
			golden.RequireEqual(t, []byte(pn.Title()+"\n"+pn.View()+"\n"))
		})
	}
}

func TestPicker(t *testing.T) {
	st := asciiStyles()
	entries := Entries("testdata", nil)
	opened := ""
	pk := NewPicker(entries, st, func(e Entry, w, h int, back func() (tea.Model, tea.Cmd)) (*Player, error) {
		opened = e.Ref
		s, err := scenarios.Load(e.Ref, scenarios.Options{})
		if err != nil {
			return nil, err
		}
		return NewPlayer(Options{Scenario: s, Seed: s.Seed, Styles: st, Back: back, Width: w, Height: h})
	})
	pk.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	if v := pk.View(); !strings.Contains(v, "covcon-d") || !strings.Contains(v, "CovCon-D") {
		t.Fatalf("picker does not show covcon-d first:\n%s", v)
	}
	// The file in testdata is listed after the embedded scenarios.
	for pk.entries[pk.i].Ref != filepath.Join("testdata", "small.yaml") {
		pk.Update(tea.KeyMsg{Type: tea.KeyDown})
		if pk.i == len(pk.entries)-1 && pk.entries[pk.i].Ref != filepath.Join("testdata", "small.yaml") {
			t.Fatal("testdata/small.yaml is not offered")
		}
	}
	m, cmd := pk.Update(tea.KeyMsg{Type: tea.KeyEnter})
	pl, ok := m.(*Player)
	if !ok || cmd == nil || opened != filepath.Join("testdata", "small.yaml") {
		t.Fatalf("enter opened %q as %T", opened, m)
	}
	back, _ := pl.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	if back != pk {
		t.Errorf("q in the player returned %T, want the picker", back)
	}
}

// New builds its styles from the renderer it is given (the SSH server passes each session's), so an
// ASCII renderer gives the monochrome player.
func TestNewUsesRenderer(t *testing.T) {
	s := loadSmall(t)
	for _, tc := range []struct {
		profile termenv.Profile
		mono    bool
	}{{termenv.Ascii, true}, {termenv.ANSI256, false}} {
		m := New(Options{Scenario: s, Seed: s.Seed, Renderer: profileRenderer(tc.profile)})
		p, ok := m.(*Player)
		if !ok {
			t.Fatalf("New returned %T", m)
		}
		if p.st.Mono != tc.mono {
			t.Errorf("profile %v: mono %v, want %v", tc.profile, p.st.Mono, tc.mono)
		}
	}
}

// The picker's view in the ASCII profile at 100x24, on the second entry
// (go test ./tui -run TestGoldenPicker -update rewrites testdata/TestGoldenPicker.golden).
func TestGoldenPicker(t *testing.T) {
	entries := []Entry{
		{Ref: "covcon-d", Title: "CovCon-D: covariate and concept drift", About: "Points drift in space."},
		{Ref: "testdata/small.yaml", Title: "Small: a test scenario  (testdata/small.yaml)", About: "Twelve batches of a hundred points."},
	}
	pk := NewPicker(entries, asciiStyles(), nil)
	pk.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	pk.Update(tea.KeyMsg{Type: tea.KeyDown})
	golden.RequireEqual(t, []byte(pk.View()+"\n"))
	pk.Update(tea.WindowSizeMsg{Width: 40, Height: 10})
	if v := pk.View(); !strings.Contains(v, "cara needs at least 60x18") {
		t.Errorf("too small picker:\n%s", v)
	}
}

// A step pressed before its batch is computed waits for the engine instead of vanishing.
func TestStepWaitsForTheEngine(t *testing.T) {
	fits := make(chan struct{}) // one model fitted per value sent: the columns come one at a time
	defer close(fits)
	p, err := NewPlayer(Options{Scenario: gated(t, fits), Seed: 3, Styles: asciiStyles()})
	if err != nil {
		t.Fatal(err)
	}
	cmd := p.Init()
	fits <- struct{}{}
	msg := cmd() // the first column
	_, cmd = p.Update(msg)
	if p.pos != 0 || p.s.Computed != 1 {
		t.Fatalf("after the first column: pos %d computed %d", p.pos, p.s.Computed)
	}
	press(p, "l", "l")
	if p.pos != 0 {
		t.Fatalf("stepped to %d before batch 1 was computed", p.pos)
	}
	fits <- struct{}{}
	fits <- struct{}{}
	for p.s.Computed < 3 {
		_, cmd = p.Update(cmd())
	}
	if p.pos != 2 {
		t.Errorf("after columns 1 and 2 arrived, batch %d, want the 2 steps asked for", p.pos)
	}
	p.s.Stop()
}
