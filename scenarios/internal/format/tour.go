package format

import (
	"fmt"

	"github.com/goccy/go-yaml/ast"
)

// Stop is a stop of the tour as written (package tour reads it).
type Stop struct {
	At     Scalar  `yaml:"at"`
	Say    Scalar  `yaml:"say"`
	Focus  Scalars `yaml:"focus"`
	Whatif Whatif  `yaml:"whatif"`
	Pause  Scalar  `yaml:"pause"`
	Quiz   Scalar  `yaml:"quiz"`
}

// Whatif is a stop's what-if as written: a mapping of --set paths to values, in file order.
type Whatif struct {
	Set   bool
	Line  int
	Col   int
	Items []WhatifItem
}

// WhatifItem is one PATH: VALUE of a stop's what-if.
type WhatifItem struct {
	Path, Value string
	Place       Scalar // where the value is written (the key's place when the value is missing)
	Err         string // what is wrong with how the value is written, reported with the stop's field
}

// UnmarshalYAML implements yaml.NodeUnmarshaler: a mapping whose keys are paths and whose values
// are what --set would take: a single value, or a list or mapping written in flow style.
func (w *Whatif) UnmarshalYAML(n ast.Node) error {
	tk := n.GetToken()
	*w = Whatif{Set: true, Line: tk.Position.Line, Col: tk.Position.Column}
	var pairs []*ast.MappingValueNode
	switch n := n.(type) {
	case *ast.MappingNode:
		pairs = n.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{n}
	case *ast.NullNode:
		return nil
	default:
		return &Error{line: w.Line, col: w.Col, msg: fmt.Sprintf("expected a mapping of paths to values (e.g. {retrain_cost: 40} or {kernel.gamma: 2}), got %s", nodeKind(n))}
	}
	for _, p := range pairs {
		ktk := p.Key.GetToken()
		o := WhatifItem{Path: ktk.Value, Place: Scalar{Line: ktk.Position.Line, Col: ktk.Position.Column}}
		switch v := p.Value; {
		case v == nil || v.Type() == ast.NullType:
			o.Err = "has no value; give the value --set would take"
		case v.Type() == ast.MappingType || v.Type() == ast.SequenceType:
			o.Place.Line, o.Place.Col = v.GetToken().Position.Line, v.GetToken().Position.Column
			if !flow(v) {
				o.Err = "write the value on one line, in flow style ({a: 1, b: [2, 3]}), as --set takes it"
			}
			o.Value = v.String()
		default:
			var s Scalar
			if err := s.UnmarshalYAML(v); err != nil {
				return err
			}
			o.Value, o.Place = s.Text, s
		}
		w.Items = append(w.Items, o)
	}
	return nil
}

// flow reports whether a mapping or list is written in flow style ({...} or [...]).
func flow(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.MappingNode:
		return n.IsFlowStyle
	case *ast.SequenceNode:
		return n.IsFlowStyle
	}
	return false
}
