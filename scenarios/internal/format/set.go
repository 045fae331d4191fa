package format

// Overrides from the command line: `--set PATH=VALUE` replaces (or adds) the node at a dotted path
// of the scenario file by VALUE, read as YAML, before the file is decoded. The value is merged into
// the file's syntax tree and checked exactly as the file is; its tokens are given lines of their
// own (setLine apart, one block per --set), so an error found anywhere in the loader, or later
// when a batch is generated, names `--set PATH` instead of a line of the file.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// setLine is the line offset between --set blocks: far beyond any scenario file's length.
const setLine = 1 << 24

// Override is one --set PATH=VALUE, or a flag standing for one (Flag names it in errors).
type Override struct {
	Path, Value string
	Flag, Under string // a flag standing for it (for errors), and the path it needs (scenarios.Flag.Under)
}

// ParseOverride reads a --set argument, PATH=VALUE.
func ParseOverride(s string) (Override, error) {
	path, value, ok := strings.Cut(s, "=")
	path = strings.TrimSpace(path)
	if !ok || path == "" {
		return Override{}, fmt.Errorf("--set %s: give PATH=VALUE, e.g. --set kernel.gamma=2 or --set 'queries={size: 100, gaussian: {mean: 0.5, std: 0.015}}'", s)
	}
	for _, seg := range strings.Split(path, ".") {
		if seg == "" {
			return Override{}, fmt.Errorf("--set %s: PATH is keys joined by dots (e.g. model.random_forest.trees), got an empty key", path)
		}
	}
	return Override{Path: path, Value: value}, nil
}

// Source names the places of one scenario's text: its file, and the overrides merged into it.
type Source struct {
	File string
	Sets []Override
}

// Locate prefixes err with its place: file:line:col for the file's own text, `--set PATH` for a
// value that came from the command line. Errors without a place get the file's name.
func (s *Source) Locate(err error) error {
	var pe *Error
	if !errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", s.File, err)
	}
	if pe.line < setLine {
		return fmt.Errorf("%s:%w", s.File, err)
	}
	k := pe.line/setLine - 1
	if k < 0 || k >= len(s.Sets) {
		return fmt.Errorf("%s:%w", s.File, err)
	}
	o := s.Sets[k]
	rest := strings.TrimPrefix(err.Error(), fmt.Sprintf("%d:%d: ", pe.line, pe.col))
	// The path already says where: drop a field that is the path or above it.
	if f := pe.field; f != "" {
		dotted := strings.NewReplacer("[", ".", "]", "").Replace(f) // tour[0].at is --set tour.0.at
		if dotted == o.Path || strings.HasPrefix(o.Path, dotted+".") {
			rest = strings.TrimPrefix(rest, f+": ")
		}
	}
	if o.Flag != "" {
		return fmt.Errorf("%s: %s", o.Flag, rest)
	}
	return fmt.Errorf("--set %s: %s%s", o.Path, rest, quoteHint(o, rest))
}

// quoteHint suggests quoting a value that YAML read as a mapping where a single value belongs: an
// expression a ? b : c, whose ": " (and "? ") YAML takes for a key and its value.
func quoteHint(o Override, msg string) string {
	v := strings.TrimSpace(o.Value)
	if !strings.Contains(msg, "expected a single value, got a mapping") || v == "" || strings.ContainsAny(v[:1], `'"{`) ||
		!strings.Contains(v, "?") && !strings.Contains(v, ": ") {
		return ""
	}
	return fmt.Sprintf("; YAML reads the \": \" of %s as a key and its value: quote the expression, --set '%s=\"%s\"'",
		shorten(v, 60), o.Path, shorten(v, 60))
}

// shorten cuts text for a message to about n bytes.
func shorten(text string, n int) string {
	if len(text) <= n {
		return text
	}
	return fmt.Sprintf("%s... (%d bytes)", strings.ToValidUTF8(text[:n], ""), len(text))
}

// Merged is src with sets merged in, comments kept: what a user edits to change the scenario
// further.
func Merged(src []byte, sets []Override) ([]byte, error) {
	if len(sets) == 0 {
		return slices.Clone(src), nil
	}
	tree, err := parser.ParseBytes(src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	if err := applySets(tree, sets); err != nil {
		return nil, err
	}
	return []byte(tree.String() + "\n"), nil
}

// applySets merges every override into tree, in order (a later one wins).
func applySets(tree *ast.File, sets []Override) error {
	if len(tree.Docs) == 0 || tree.Docs[0].Body == nil {
		return fmt.Errorf("--set needs a scenario to change: the file is empty")
	}
	for k, o := range sets {
		if o.Under != "" {
			segs := strings.Split(o.Under, ".")
			if ok, keys := find(tree.Docs[0].Body, segs); !ok {
				return fmt.Errorf("%s applies to a scenario with %s; this one's %s is %s", o.Flag, o.Under,
					strings.Join(segs[:len(segs)-1], "."), strings.Join(keys, ", "))
			}
		}
		body, err := setPath(tree.Docs[0].Body, strings.Split(o.Path, "."), o, (k+1)*setLine)
		if err != nil {
			return err
		}
		tree.Docs[0].Body = body
	}
	return nil
}

// find reports whether n has the mapping keys segs, one under the other; when it has not, keys are
// those of the deepest mapping it reached.
func find(n ast.Node, segs []string) (ok bool, keys []string) {
	if len(segs) == 0 {
		return true, nil
	}
	var values []*ast.MappingValueNode
	switch m := n.(type) {
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{m}
	case *ast.MappingNode:
		values = m.Values
	}
	for _, mv := range values {
		k := mv.Key.GetToken().Value
		if k == segs[0] {
			return find(mv.Value, segs[1:])
		}
		keys = append(keys, k)
	}
	return false, keys
}

// setPath returns n with the node at segs replaced by o's value.
func setPath(n ast.Node, segs []string, o Override, base int) (ast.Node, error) {
	if len(segs) == 0 {
		return parseValue(o, "", base)
	}
	switch n := n.(type) {
	case *ast.MappingValueNode: // a mapping of one key may come as its single pair
		return setPath(&ast.MappingNode{BaseNode: &ast.BaseNode{}, Start: n.GetToken(), Values: []*ast.MappingValueNode{n}}, segs, o, base)
	case *ast.MappingNode:
		for _, mv := range n.Values {
			if mv.Key.GetToken().Value == segs[0] {
				v, err := setPath(mv.Value, segs[1:], o, base)
				if err != nil {
					return nil, err
				}
				mv.Value = v
				return n, nil
			}
		}
		// A key the file does not have: add it (the decoder rejects a key the format does not know).
		mv, err := parseValue(o, strings.Join(segs, "."), base)
		if err != nil {
			return nil, err
		}
		n.Values = append(n.Values, mv.(*ast.MappingNode).Values...)
		return n, nil
	case *ast.SequenceNode:
		i, err := strconv.Atoi(segs[0])
		if err != nil || i < 0 || i >= len(n.Values) {
			return nil, fmt.Errorf("--set %s: %q: this is a list of %d items; give an index 0..%d", o.Path, segs[0], len(n.Values), len(n.Values)-1)
		}
		v, err := setPath(n.Values[i], segs[1:], o, base)
		if err != nil {
			return nil, err
		}
		n.Values[i] = v
		return n, nil
	}
	// A scalar or nothing where the path goes deeper: the value becomes the nested mapping.
	return parseValue(o, strings.Join(segs, "."), base)
}

// parseValue parses o's value as YAML, nested under the dotted keys of under (if any), with its
// token lines moved to base.
func parseValue(o Override, under string, base int) (ast.Node, error) {
	var text strings.Builder
	indent := ""
	if under != "" {
		// A key the file does not have is made a mapping: an index there (tour.0.at without a
		// tour) would make a mapping where a list belongs, and a message about types.
		keys := strings.Split(under, ".")
		for i, k := range keys {
			if _, err := strconv.Atoi(k); err == nil && i > 0 {
				list := strings.TrimSuffix(o.Path, "."+strings.Join(keys[i:], "."))
				return nil, fmt.Errorf("--set %s: the scenario has no %s, so no item %s of it to change; set the whole list, e.g. --set '%s=[...]'", o.Path, list, k, list)
			}
		}
	}
	if under != "" {
		for _, k := range strings.Split(under, ".") {
			fmt.Fprintf(&text, "%s%s:\n", indent, k)
			indent += "  "
		}
	}
	if strings.ContainsAny(o.Value, "\n\r") {
		return nil, fmt.Errorf("--set %s: give the value on one line (flow style: {a: 1, b: [2, 3]})", o.Path)
	}
	text.WriteString(indent + o.Value + "\n")
	tokens := lexer.Tokenize(text.String())
	for _, tk := range tokens {
		tk.Position.Line += base
	}
	f, err := parser.Parse(tokens, 0)
	if err != nil {
		msg := err.Error()
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return nil, fmt.Errorf("--set %s: %q is not a YAML value: %s", o.Path, shorten(o.Value, 120), shorten(stripPos(msg), 200))
	}
	if len(f.Docs) != 1 || f.Docs[0].Body == nil {
		if under == "" {
			// An empty value (--set name=) is null, as in YAML; it has no token of its own to
			// place an error at, so it gets one on its --set line.
			tk := token.New("null", "null", &token.Position{Line: base + 1, Column: 1})
			if len(tokens) > 0 {
				tk = tokens[len(tokens)-1]
			}
			return &ast.NullNode{BaseNode: &ast.BaseNode{}, Token: tk}, nil
		}
		return nil, fmt.Errorf("--set %s: %q is not a YAML value", o.Path, o.Value)
	}
	body := f.Docs[0].Body
	if under != "" {
		if mv, ok := body.(*ast.MappingValueNode); ok {
			body = &ast.MappingNode{BaseNode: &ast.BaseNode{}, Start: mv.GetToken(), Values: []*ast.MappingValueNode{mv}}
		}
	}
	return body, nil
}

// stripPos drops goccy's "[line:col] " prefix, whose line is the shifted one.
func stripPos(msg string) string {
	if strings.HasPrefix(msg, "[") {
		if i := strings.Index(msg, "] "); i > 0 {
			return msg[i+2:]
		}
	}
	return msg
}
