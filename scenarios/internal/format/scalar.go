package format

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// Scalar is a YAML scalar that remembers where it was written, so a semantic error found after
// decoding can still name file:line:column.
type Scalar struct {
	Set    bool   // written in the file (or by a --set)
	Text   string // the value as written (quotes removed)
	Quoted bool
	Line   int
	Col    int
}

// UnmarshalYAML implements yaml.NodeUnmarshaler.
func (s *Scalar) UnmarshalYAML(n ast.Node) error {
	tk := n.GetToken()
	if lit, ok := n.(*ast.LiteralNode); ok { // a block scalar (| or >): its text is its value node's
		*s = Scalar{Set: true, Text: lit.Value.Value, Quoted: true, Line: tk.Position.Line, Col: tk.Position.Column}
		return nil
	}
	switch n.Type() {
	case ast.IntegerType, ast.FloatType, ast.StringType, ast.BoolType, ast.InfinityType, ast.NanType:
	case ast.NullType:
		return nil
	default:
		return &Error{line: tk.Position.Line, col: tk.Position.Column, msg: fmt.Sprintf("expected a single value, got %s", nodeKind(n))}
	}
	*s = Scalar{Set: true, Text: tk.Value, Quoted: tk.Type == token.DoubleQuoteType || tk.Type == token.SingleQuoteType,
		Line: tk.Position.Line, Col: tk.Position.Column}
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

// Scalars is a single scalar or a list of them (a per-feature parameter).
type Scalars struct {
	Set   bool
	Items []Scalar
	Line  int
	Col   int
}

// UnmarshalYAML implements yaml.NodeUnmarshaler.
func (v *Scalars) UnmarshalYAML(n ast.Node) error {
	tk := n.GetToken()
	v.Set, v.Line, v.Col = true, tk.Position.Line, tk.Position.Column
	if seq, ok := n.(*ast.SequenceNode); ok {
		for _, item := range seq.Values {
			var s Scalar
			if err := s.UnmarshalYAML(item); err != nil {
				return err
			}
			v.Items = append(v.Items, s)
		}
		return nil
	}
	if n.Type() == ast.MappingType || n.Type() == ast.MappingValueType {
		return &Error{line: tk.Position.Line, col: tk.Position.Column, msg: "expected a value or a list of values, got a mapping"}
	}
	var s Scalar
	if err := s.UnmarshalYAML(n); err != nil {
		return err
	}
	v.Items = []Scalar{s}
	return nil
}

// Place is where the list is written, for an error about it as a whole.
func (v Scalars) Place() Scalar { return Scalar{Line: v.Line, Col: v.Col} }

// Texts are the values as written (a list of column names).
func (v Scalars) Texts() []string {
	var out []string
	for _, s := range v.Items {
		out = append(out, s.Text)
	}
	return out
}

// Int reads a whole number within [lo, hi]. A number too large for an int, or written with an
// exponent or a fraction, gets a message that says so rather than "not a whole number".
func (s Scalar) Int(field string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(s.Text)
	if s.Quoted {
		return 0, s.Errorf(field, "must be a whole number, got %q", s.Text)
	}
	if err != nil {
		f, ferr := strconv.ParseFloat(s.Text, 64)
		whole := ferr == nil && f == math.Trunc(f)
		switch {
		case errors.Is(err, strconv.ErrRange) && strings.HasPrefix(s.Text, "-"), whole && f < float64(lo):
			return 0, s.Errorf(field, "must be %s, got %s: too small", rangeText(lo, hi), s.Text)
		case errors.Is(err, strconv.ErrRange), whole && f > float64(hi):
			return 0, s.Errorf(field, "must be in %d..%d, got %s: too large", lo, hi, s.Text)
		case whole:
			return 0, s.Errorf(field, "must be a whole number written in digits, got %s (write %.0f)", s.Text, f)
		}
		return 0, s.Errorf(field, "must be a whole number, got %q", s.Text)
	}
	if n < lo || n > hi {
		return 0, s.Errorf(field, "must be %s, got %d", rangeText(lo, hi), n)
	}
	return n, nil
}

// rangeText says the whole numbers lo..hi in words: ">= lo" when hi is MaxInt.
func rangeText(lo, hi int) string {
	if hi == MaxInt {
		return fmt.Sprintf(">= %d", lo)
	}
	return fmt.Sprintf("in %d..%d", lo, hi)
}

// MaxInt is the largest int: Int's hi for "no upper bound".
const MaxInt = int(^uint(0) >> 1)

// OptInt reads a whole number >= lo, 0 when it is not set (the model's default then applies).
func (s Scalar) OptInt(field string, lo int) (int, error) {
	if !s.Set {
		return 0, nil
	}
	return s.Int(field, lo, MaxInt)
}

// OptBool reads true or false, false when it is not set.
func (s Scalar) OptBool(field string) (bool, error) {
	if !s.Set {
		return false, nil
	}
	b, err := strconv.ParseBool(s.Text)
	if err != nil || s.Quoted {
		return false, s.Errorf(field, "must be true or false, got %q", s.Text)
	}
	return b, nil
}

// Float reads a number within [lo, hi].
func (s Scalar) Float(field string, lo, hi float64) (float64, error) {
	f, err := strconv.ParseFloat(s.Text, 64)
	if err != nil || s.Quoted {
		return 0, s.Errorf(field, "must be a number, got %q", s.Text)
	}
	if !(f >= lo && f <= hi) {
		return 0, s.Errorf(field, "must be in [%g, %g], got %g", lo, hi, f)
	}
	return f, nil
}

// Errorf is an error about field, at the scalar's place.
func (s Scalar) Errorf(field, format string, args ...any) error {
	return &Error{line: s.Line, col: s.Col, field: field, msg: fmt.Sprintf(format, args...)}
}

// Error is an error at a place in the scenario file: Doc.Wrap and Source.Locate prefix it with the
// file's name, or name the --set it came from.
type Error struct {
	line, col int
	field     string
	msg       string
}

func (e *Error) Error() string {
	if e.field != "" {
		return fmt.Sprintf("%d:%d: %s: %s", e.line, e.col, e.field, e.msg)
	}
	return fmt.Sprintf("%d:%d: %s", e.line, e.col, e.msg)
}
