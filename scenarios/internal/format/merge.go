package format

// YAML merge keys (<<: *base) expanded in the syntax tree before decoding: the decoder, strict
// about duplicate keys, refused a key written beside a merge that also came from it, which YAML
// allows (the key written beside it wins); and a what-if alternative written with a merge was
// read as text in which the alias had no anchor.

import (
	"github.com/goccy/go-yaml/ast"
)

// expandMerges replaces every merge key in the tree (<<: *a, or <<: [*a, *b]) by the pairs it
// brings, keys written in the mapping itself winning, then earlier sources over later ones, as
// YAML's merge key type says. It reports whether it found any.
func expandMerges(f *ast.File) bool {
	anchors := map[string]ast.Node{}
	var collect func(n ast.Node)
	collect = func(n ast.Node) {
		switch n := n.(type) {
		case *ast.AnchorNode:
			anchors[n.Name.GetToken().Value] = n.Value
			collect(n.Value)
		case *ast.MappingNode:
			for _, mv := range n.Values {
				collect(mv.Value)
			}
		case *ast.MappingValueNode:
			collect(n.Value)
		case *ast.SequenceNode:
			for _, v := range n.Values {
				collect(v)
			}
		case *ast.TagNode:
			collect(n.Value)
		}
	}
	for _, d := range f.Docs {
		collect(d.Body)
	}
	found := false
	expanding := map[*ast.MappingNode]bool{} // a merge of itself (through an alias) is left as it is
	var expand func(n ast.Node)
	mapping := func(n ast.Node) *ast.MappingNode {
		for {
			switch v := n.(type) {
			case *ast.AliasNode:
				n = anchors[v.Value.GetToken().Value]
			case *ast.AnchorNode:
				n = v.Value
			case *ast.MappingNode:
				return v
			case *ast.MappingValueNode:
				return &ast.MappingNode{BaseNode: &ast.BaseNode{}, Start: v.GetToken(), Values: []*ast.MappingValueNode{v}}
			default:
				return nil
			}
		}
	}
	expand = func(n ast.Node) {
		switch n := n.(type) {
		case *ast.AnchorNode:
			expand(n.Value)
		case *ast.TagNode:
			expand(n.Value)
		case *ast.SequenceNode:
			for _, v := range n.Values {
				expand(v)
			}
		case *ast.MappingValueNode:
			expand(n.Value)
		case *ast.MappingNode:
			if expanding[n] {
				return
			}
			expanding[n] = true
			defer delete(expanding, n)
			var own, merges []*ast.MappingValueNode
			for _, mv := range n.Values {
				expand(mv.Value)
				if mv.Key.IsMergeKey() {
					merges = append(merges, mv)
				} else {
					own = append(own, mv)
				}
			}
			if len(merges) == 0 {
				return
			}
			found = true
			have := map[string]bool{}
			for _, mv := range own {
				have[mv.Key.GetToken().Value] = true
			}
			for _, mv := range merges {
				sources := []ast.Node{mv.Value}
				if seq, ok := mv.Value.(*ast.SequenceNode); ok {
					sources = seq.Values
				}
				for _, src := range sources {
					m := mapping(src)
					if m == nil {
						continue // not a mapping: the decoder says so
					}
					expand(m)
					for _, p := range m.Values {
						if k := p.Key.GetToken().Value; !have[k] && !p.Key.IsMergeKey() {
							have[k] = true
							own = append(own, p)
						}
					}
				}
			}
			n.Values = own
		}
	}
	for _, d := range f.Docs {
		expand(d.Body)
	}
	return found
}
