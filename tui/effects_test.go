package tui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cara-sim/cara/room"
	"github.com/cara-sim/cara/tui/internal/effect"
	"github.com/cara-sim/cara/tui/internal/workshop"
)

// The player makes every effect package effect declares: each one applied to a player changes it
// without the error line saying it cannot (the list below is checked against the package's
// declarations, so an effect added there fails here until the player makes it).
func TestApplyMakesEveryEffect(t *testing.T) {
	s := syntheticScenario(t)
	every := []effect.Effect{
		effect.Play(false), effect.GoTo(3), effect.Step{}, effect.End{}, effect.Ahead(0), effect.Focus(1),
		effect.Cursor(room.Cursor{On: true, At: [2]int{1, 2}}), effect.Zoom(false), effect.Speed(9), effect.Visible(4),
		effect.Select("oracle"), effect.Scale(2), effect.Tick{}, effect.Notice("hello"), effect.Fail{}, effect.Quit{}, effect.Cmd(nil),
		effect.Refresh{}, effect.WhatIf{}, effect.StopWhatIf{"retrain_cost=8"}, effect.UndoStopWhatIf{},
		effect.FollowWhatIf{}, effect.WhatIfBar{}, effect.Reopen(1), effect.Rerun{Scenario: s}, effect.Edited{Scenario: s},
		effect.RoomView{}, effect.TakeKeys{}, effect.Confirm{Question: "?"},
		workshop.Then(func(workshop.Frame) effect.Effects { return effect.Effects{effect.Notice("then")} }),
	}
	named := map[string]bool{}
	for _, e := range every {
		named[strings.TrimSuffix(reflect.TypeOf(e).Name(), "[github.com/cara-sim/cara/tui/internal/workshop.Frame]")] = true
	}
	for _, name := range declaredEffects(t) {
		if !named[name] {
			t.Errorf("effect.%s is not in the list this test applies", name)
		}
	}
	for _, e := range every {
		p := syntheticPlayer(t, asciiStyles(), 120, 36)
		p.apply(effect.Effects{e})
		if p.err != nil && strings.Contains(p.err.Error(), "cannot make") {
			t.Errorf("%T: %v", e, p.err)
		}
	}
	p := syntheticPlayer(t, asciiStyles(), 120, 36)
	p.apply(effect.Effects{effect.Speed(9), effect.Visible(4), effect.GoTo(10)})
	if p.Speed != len(speeds)-1 || p.Visible != 4%len(visibleSets) || p.Pos != 10 {
		t.Errorf("speed %d, visible %d, batch %d: want the top speed, the sets round their end, batch 10", p.Speed, p.Visible, p.Pos)
	}
}

// declaredEffects are the types package effect marks as effects (func (T) effect()).
func declaredEffects(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join("internal", "effect", "effect.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || fd.Name.Name != "effect" {
			continue
		}
		switch r := fd.Recv.List[0].Type.(type) {
		case *ast.Ident:
			out = append(out, r.Name)
		case *ast.IndexExpr:
			out = append(out, r.X.(*ast.Ident).Name)
		}
	}
	if len(out) < 20 {
		t.Fatalf("found %d effects in effect.go: %v", len(out), out)
	}
	return out
}
