package format

// Errors on a scenario file name file:line:column and the field. YAML errors (syntax, unknown
// keys, wrong shapes) come from goccy/go-yaml with the token they are about; Wrap finds the
// field at that token in the syntax tree. Semantic errors found after decoding carry the place of
// the scalar they are about (every leaf of the file format remembers it), or of the nearest node
// of a YAML path when the field is missing.

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
)

// Wrap places an error: it prefixes it with the file and, for YAML errors, their line, column and
// field (an Error at a value of a --set names the --set instead).
func (d *Doc) Wrap(err error) error {
	var pe *Error
	if errors.As(err, &pe) {
		if pe.field == "" && d.tree != nil {
			pe.field = d.valuePath(pe.line, pe.col)
		}
		return d.Locate(pe)
	}
	var unknown *yaml.UnknownFieldError
	if errors.As(err, &unknown) && unknown.Token != nil && d.tree != nil {
		tk := unknown.Token
		parent := d.keyParent(tk.Position.Line, tk.Position.Column)
		return d.Locate(&Error{line: tk.Position.Line, col: tk.Position.Column, field: parent, msg: UnknownField(parent, tk.Value)})
	}
	var shape *yaml.UnexpectedNodeTypeError
	if errors.As(err, &shape) && shape.Token != nil && d.tree != nil {
		tk := shape.Token
		msg := fmt.Sprintf("expected %s, got %s", yamlKind(shape.Expected), yamlKind(shape.Actual))
		return d.Locate(&Error{line: tk.Position.Line, col: tk.Position.Column, field: d.valuePath(tk.Position.Line, tk.Position.Column), msg: msg})
	}
	var ye yaml.Error
	if errors.As(err, &ye) {
		if tk := ye.GetToken(); tk != nil {
			return d.Locate(&Error{line: tk.Position.Line, col: tk.Position.Column, msg: ye.GetMessage()})
		}
		return fmt.Errorf("%s: %s", d.File, ye.GetMessage())
	}
	return fmt.Errorf("%s: %w", d.File, err)
}

// yamlKind names a YAML node type for a reader.
func yamlKind(t ast.NodeType) string {
	switch t {
	case ast.MappingType, ast.MappingValueType:
		return "a mapping"
	case ast.SequenceType:
		return "a list"
	case ast.IntegerType, ast.FloatType, ast.InfinityType, ast.NanType:
		return "a number"
	case ast.StringType, ast.LiteralType:
		return "a string"
	case ast.BoolType:
		return "true or false"
	case ast.NullType:
		return "nothing"
	}
	return t.YAMLName()
}

// At returns a scalar standing at the node of a YAML path (or its nearest parent that exists), so
// an error about a missing or inconsistent field can still name a place.
func (d *Doc) At(path string) Scalar {
	for p := path; p != "$"; p = p[:strings.LastIndexAny(p, ".[")] {
		yp, err := yaml.PathString(p)
		if err != nil {
			continue
		}
		if n, err := yp.FilterFile(d.tree); err == nil && n != nil {
			tk := n.GetToken()
			return Scalar{Line: tk.Position.Line, Col: tk.Position.Column}
		}
	}
	return Scalar{Line: 1, Col: 1}
}

// Required is the error of a field that must be there, at the nearest place to where it belongs.
func (d *Doc) Required(path, field string) error {
	return d.At(path).Errorf(field, "is required")
}

// valuePath is the field (data.gaussian.mean, algorithms[1]) whose value starts at line:col: the
// outermost, since a block mapping starts where its first key does.
func (d *Doc) valuePath(line, col int) string {
	path := ""
	d.Walk(func(p string, key, value ast.Node) bool {
		if value != nil && at(value, line, col) {
			path = p
			return true
		}
		return false
	})
	return path
}

// keyParent is the field that holds the key written at line:col ("" for the top level).
func (d *Doc) keyParent(line, col int) string {
	path := ""
	d.Walk(func(p string, key, _ ast.Node) bool {
		if key != nil && at(key, line, col) {
			if i := strings.LastIndexByte(p, '.'); i >= 0 {
				path = p[:i]
			}
			return true
		}
		return false
	})
	return path
}

func at(n ast.Node, line, col int) bool {
	tk := n.GetToken()
	return tk != nil && tk.Position.Line == line && tk.Position.Column == col
}

// Walk visits every key and value of the file in order, with its path (top-level paths start
// with a dot, trimmed on output), until visit returns true.
func (d *Doc) Walk(visit func(path string, key, value ast.Node) bool) {
	var rec func(path string, n ast.Node) bool
	rec = func(path string, n ast.Node) bool {
		switch n := n.(type) {
		case *ast.MappingNode:
			for _, mv := range n.Values {
				if rec(path, mv) {
					return true
				}
			}
		case *ast.MappingValueNode:
			p := path + "." + n.Key.GetToken().Value
			if visit(strings.TrimPrefix(p, "."), n.Key, n.Value) {
				return true
			}
			return rec(p, n.Value)
		case *ast.SequenceNode:
			for i, v := range n.Values {
				p := path + "[" + strconv.Itoa(i) + "]"
				if visit(strings.TrimPrefix(p, "."), nil, v) || rec(p, v) {
					return true
				}
			}
		case *ast.AnchorNode:
			return rec(path, n.Value)
		case *ast.TagNode:
			return rec(path, n.Value)
		}
		return false
	}
	for _, doc := range d.tree.Docs {
		if doc.Body != nil && rec("", doc.Body) {
			return
		}
	}
}

// knownFields lists the keys the file format accepts under path (a field path as valuePath gives).
// UnknownField is the one wording of a key the file format does not have in the section at path
// (a YAML path, "" for the file's top): in a file, in a --set and on the player's command line.
func UnknownField(path, key string) string {
	msg := fmt.Sprintf("unknown field %q", key)
	if known := knownFields(path); len(known) > 0 {
		msg += " (known: " + strings.Join(known, ", ") + ")"
	}
	return msg
}

func knownFields(path string) []string {
	t := reflect.TypeFor[File]()
	if path != "" {
		for _, name := range strings.Split(path, ".") {
			if i := strings.IndexByte(name, '['); i >= 0 {
				name = name[:i]
			}
			t = elem(t)
			f, ok := fieldByTag(t, name)
			if !ok {
				return nil
			}
			t = f.Type
		}
	}
	t = elem(t)
	if t.Kind() != reflect.Struct {
		return nil
	}
	var out []string
	for _, f := range yamlFields(t) {
		out = append(out, f.Tag.Get("yaml"))
	}
	return out
}

// yamlFields are a struct's fields as YAML keys, those of inline (embedded) structs in their place.
func yamlFields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for f := range t.Fields() {
		switch tag := f.Tag.Get("yaml"); {
		case tag == ",inline":
			out = append(out, yamlFields(f.Type)...)
		case tag != "":
			out = append(out, f)
		}
	}
	return out
}

// elem strips pointers and slices of structs (a list of concepts takes a concept's keys).
func elem(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	return t
}

func fieldByTag(t reflect.Type, tag string) (reflect.StructField, bool) {
	if t.Kind() != reflect.Struct {
		return reflect.StructField{}, false
	}
	for _, f := range yamlFields(t) {
		if f.Tag.Get("yaml") == tag {
			return f, true
		}
	}
	return reflect.StructField{}, false
}
