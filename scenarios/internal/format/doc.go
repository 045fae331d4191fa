package format

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// Doc is one scenario text being read: where it came from and the overrides merged into it
// (Source), and, once decoded, its syntax tree, which places errors at the key or value they are
// about.
type Doc struct {
	Source
	tree *ast.File
}

// NewDoc is the text of file with sets merged in, not yet decoded.
func NewDoc(file string, sets []Override) *Doc { return &Doc{Source: Source{File: file, Sets: sets}} }

// Decode reads src (a byte order mark already dropped) strictly into a File, with the overrides
// merged in. Its errors are not yet placed: Wrap places them.
func (d *Doc) Decode(src []byte) (*File, error) {
	if err := checkUTF8(src); err != nil {
		return nil, err
	}
	tree, err := parser.ParseBytes(src, 0)
	if err != nil {
		return nil, err
	}
	for _, doc := range tree.Docs[min(1, len(tree.Docs)):] {
		// The decoder reads the first document only: the rest would be dropped without a word.
		if doc.Body != nil {
			tk := doc.Body.GetToken()
			if doc.Start != nil {
				tk = doc.Start
			}
			return nil, &Error{line: tk.Position.Line, col: tk.Position.Column, msg: "a second YAML document starts here; a scenario file holds one (remove the --- and what follows, or split the file)"}
		}
	}
	d.tree = tree
	merged := expandMerges(tree)
	var raw File
	if len(d.Sets) == 0 && !merged {
		dec := yaml.NewDecoder(bytes.NewReader(src), yaml.Strict(), yaml.DisallowUnknownField())
		err = dec.Decode(&raw)
	} else if err = applySets(tree, d.Sets); err == nil {
		err = yaml.NodeToValue(tree.Docs[0].Body, &raw, yaml.Strict(), yaml.DisallowUnknownField())
	}
	if errors.Is(err, io.EOF) { // nothing but blanks and comments
		return nil, &Error{line: 1, col: 1, msg: "the file is empty; a scenario needs at least name, batches, offline, data, queries, model and retrain_cost (see cara list and docs/scenarios.md)"}
	}
	if err != nil {
		return nil, err
	}
	return &raw, nil
}

// Value is the decoded file as plain YAML values (the overrides merged in); false when there is
// none.
func (d *Doc) Value() (any, bool) {
	var v any
	if d.tree == nil || len(d.tree.Docs) == 0 || d.tree.Docs[0].Body == nil || yaml.NodeToValue(d.tree.Docs[0].Body, &v) != nil {
		return nil, false
	}
	return v, true
}

// checkUTF8 refuses a file that is not UTF-8 text, at the first byte that is not: its text would
// otherwise show as it came (invalid in a title, a callout).
func checkUTF8(src []byte) error {
	if utf8.Valid(src) {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size == 1 {
			return &Error{line: line, col: col, msg: fmt.Sprintf("the file is not UTF-8 text (byte 0x%02x); save it as UTF-8", src[i])}
		}
		if r == '\n' {
			line, col = line+1, 0
		}
		col++
		i += size
	}
	return nil
}
