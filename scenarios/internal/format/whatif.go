package format

import (
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// WhatifSection is the file's whatif section.
type WhatifSection struct {
	Queries []QueryAlternative `yaml:"queries"`
}

// QueryAlternative is one of whatif.queries: a name and a queries block.
type QueryAlternative struct {
	Name    Scalar  `yaml:"name"`
	Queries Queries `yaml:",inline"`
}

// WhatifPaths are the parts of a scenario a what-if may change: those the player can recompute
// without training a model again (issue 14's what-ifs: queries, gamma and R; and the kernel's
// view beyond the paper: class weights and standardised features, which A and B take from the
// run's error bits as they take the queries).
var WhatifPaths = []string{"queries", "kernel", "retrain_cost", "errors"}

// Replayable reports whether a --set of path (a dotted path) changes only what a finished run is
// recomputed for without training again (WhatifPaths).
func Replayable(path string) bool {
	root, _, _ := strings.Cut(strings.TrimSpace(path), ".")
	return slices.Contains(WhatifPaths, root)
}

// Flow writes the value at path (as Walk names it) on one line in flow style (the value of a
// --set PATH=VALUE), leaving out its top-level key skip, and returns where it starts: its first
// key.
func (d *Doc) Flow(path, skip string) (string, Scalar) {
	var node ast.Node
	d.Walk(func(p string, _, value ast.Node) bool {
		if p == path {
			node = value
			return true
		}
		return false
	})
	place := d.At("$." + path)
	first := node
	if m, ok := node.(*ast.MappingNode); ok && len(m.Values) > 0 {
		first = m.Values[0]
	}
	if mv, ok := first.(*ast.MappingValueNode); ok {
		tk := mv.Key.GetToken()
		place = Scalar{Line: tk.Position.Line, Col: tk.Position.Column}
	}
	return flowText(node, skip), place
}

// flowText writes a YAML node on one line in flow style, leaving out the top-level key skip.
func flowText(n ast.Node, skip string) string {
	pairs := func(values []*ast.MappingValueNode) string {
		var parts []string
		for _, mv := range values {
			k := mv.Key.GetToken().Value
			if k == skip {
				continue
			}
			parts = append(parts, k+": "+flowText(mv.Value, ""))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	switch n := n.(type) {
	case *ast.MappingNode:
		return pairs(n.Values)
	case *ast.MappingValueNode:
		return pairs([]*ast.MappingValueNode{n})
	case *ast.SequenceNode:
		parts := make([]string, len(n.Values))
		for i, v := range n.Values {
			parts[i] = flowText(v, "")
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *ast.AnchorNode: // &base {...}: the anchor means nothing on its own line
		return flowText(n.Value, skip)
	case *ast.LiteralNode:
		return strconv.Quote(n.Value.Value)
	case *ast.NullNode:
		return "null"
	case nil:
		return "null"
	}
	tk := n.GetToken()
	if tk.Type == token.DoubleQuoteType || tk.Type == token.SingleQuoteType {
		return strconv.Quote(tk.Value)
	}
	return tk.Value
}
