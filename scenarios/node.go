package scenarios

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// scalar is a YAML scalar that remembers where it was written, so a semantic error found after
// decoding can still name file:line:column.
type scalar struct {
	set    bool
	text   string // the value as written (quotes removed)
	quoted bool
	line   int
	col    int
}

// UnmarshalYAML implements yaml.NodeUnmarshaler.
func (s *scalar) UnmarshalYAML(n ast.Node) error {
	tk := n.GetToken()
	if lit, ok := n.(*ast.LiteralNode); ok { // a block scalar (| or >): its text is its value node's
		*s = scalar{set: true, text: lit.Value.Value, quoted: true, line: tk.Position.Line, col: tk.Position.Column}
		return nil
	}
	switch n.Type() {
	case ast.IntegerType, ast.FloatType, ast.StringType, ast.BoolType, ast.InfinityType, ast.NanType:
	case ast.NullType:
		return nil
	default:
		return &posError{line: tk.Position.Line, col: tk.Position.Column, msg: fmt.Sprintf("expected a single value, got %s", nodeKind(n))}
	}
	*s = scalar{set: true, text: tk.Value, quoted: tk.Type == token.DoubleQuoteType || tk.Type == token.SingleQuoteType,
		line: tk.Position.Line, col: tk.Position.Column}
	return nil
}

func nodeKind(n ast.Node) string {
	switch n.Type() {
	case ast.MappingType, ast.MappingValueType:
		return "a mapping"
	case ast.SequenceType:
		return "a list"
	}
	return strings.ToLower(n.Type().String())
}

// scalars is a single scalar or a list of them (a per-feature parameter).
type scalars struct {
	set   bool
	items []scalar
	line  int
	col   int
}

// UnmarshalYAML implements yaml.NodeUnmarshaler.
func (v *scalars) UnmarshalYAML(n ast.Node) error {
	tk := n.GetToken()
	v.set, v.line, v.col = true, tk.Position.Line, tk.Position.Column
	if seq, ok := n.(*ast.SequenceNode); ok {
		for _, item := range seq.Values {
			var s scalar
			if err := s.UnmarshalYAML(item); err != nil {
				return err
			}
			v.items = append(v.items, s)
		}
		return nil
	}
	var s scalar
	if err := s.UnmarshalYAML(n); err != nil {
		return err
	}
	v.items = []scalar{s}
	return nil
}

// posError is an error at a place in the scenario file.
type posError struct {
	line, col int
	field     string
	msg       string
}

func (e *posError) Error() string {
	if e.field != "" {
		return fmt.Sprintf("%d:%d: %s: %s", e.line, e.col, e.field, e.msg)
	}
	return fmt.Sprintf("%d:%d: %s", e.line, e.col, e.msg)
}

func (s scalar) errorf(field, format string, args ...any) error {
	return &posError{line: s.line, col: s.col, field: field, msg: fmt.Sprintf(format, args...)}
}

// int reads a whole number within [lo, hi].
func (s scalar) int(field string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(s.text)
	if err != nil || s.quoted {
		return 0, s.errorf(field, "must be a whole number, got %q", s.text)
	}
	if n < lo || n > hi {
		if hi == maxInt {
			return 0, s.errorf(field, "must be >= %d, got %d", lo, n)
		}
		return 0, s.errorf(field, "must be in %d..%d, got %d", lo, hi, n)
	}
	return n, nil
}

const maxInt = int(^uint(0) >> 1)

// float reads a number within [lo, hi].
func (s scalar) float(field string, lo, hi float64) (float64, error) {
	f, err := strconv.ParseFloat(s.text, 64)
	if err != nil || s.quoted {
		return 0, s.errorf(field, "must be a number, got %q", s.text)
	}
	if !(f >= lo && f <= hi) {
		return 0, s.errorf(field, "must be in [%g, %g], got %g", lo, hi, f)
	}
	return f, nil
}
