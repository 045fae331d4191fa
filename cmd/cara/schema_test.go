package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Issue 43: every JSON output matches its schema under docs/schemas/: each key it writes is one
// the schema names (additionalProperties false), each required key is there, each value of the
// schema's type. The check is the subset of JSON Schema the files use. The reproduction's runs with
// CARA_SLOW=1 (a reproduction on two seeds takes seconds).
func TestOutputsMatchTheirSchemas(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sweep := filepath.Join(dir, "s.jsonl")
	cases := []struct {
		schema string
		args   []string
		lines  bool
	}{
		{"matrix", []string{"matrix", small}, false},
		{"run", []string{"run", small, "--format", "json"}, false},
		{"run", []string{"run", small, "--format", "json", "--seeds", "2"}, false},
		{"sweep-row", []string{"sweep", small, "--seeds", "2", "--costs", "auto:2", "-o", sweep}, true},
	}
	if !testing.Short() && os.Getenv("CARA_SLOW") != "" { // a reproduction: CARA_SLOW=1, as CI runs it
		cases = append(cases, struct {
			schema string
			args   []string
			lines  bool
		}{"reproduction", []string{"reproduce", "--seeds", "2", "--trees", "2", "--format", "json"}, false})
	}
	for _, tc := range cases {
		b, err := os.ReadFile(filepath.Join("..", "..", "docs", "schemas", tc.schema+".schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		var schema map[string]any
		if err := json.Unmarshal(b, &schema); err != nil {
			t.Fatalf("%s: %v", tc.schema, err)
		}
		out, err := cara(t, tc.args...)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		docs := []string{out}
		if tc.lines {
			data, err := os.ReadFile(sweep)
			if err != nil {
				t.Fatal(err)
			}
			docs = strings.Split(strings.TrimSpace(string(data)), "\n")
		}
		for _, d := range docs {
			var v any
			if err := json.Unmarshal([]byte(d), &v); err != nil {
				t.Fatalf("%v: %v", tc.args, err)
			}
			if err := conform(schema, v, "$"); err != nil {
				t.Errorf("%v does not match docs/schemas/%s.schema.json: %v", tc.args, tc.schema, err)
			}
		}
	}
	// The checker itself refuses what the schemas forbid.
	s := map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "integer"}}, "required": []any{"a"}, "additionalProperties": false}
	for _, bad := range []string{`{}`, `{"a": 1.5}`, `{"a": 1, "b": 2}`, `[]`} {
		var v any
		json.Unmarshal([]byte(bad), &v)
		if conform(s, v, "$") == nil {
			t.Errorf("%s passes a schema it breaks", bad)
		}
	}
}

// conform checks v against schema: type, properties, required, additionalProperties, items.
func conform(schema map[string]any, v any, at string) error {
	if ty, ok := schema["type"]; ok {
		var types []string
		switch x := ty.(type) {
		case string:
			types = []string{x}
		case []any:
			for _, e := range x {
				types = append(types, e.(string))
			}
		}
		if !slices.Contains(types, jsonType(v)) && !(jsonType(v) == "integer" && slices.Contains(types, "number")) {
			return fmt.Errorf("%s: %s, want %v", at, jsonType(v), types)
		}
	}
	switch x := v.(type) {
	case map[string]any:
		props, _ := schema["properties"].(map[string]any)
		for _, r := range asList(schema["required"]) {
			if _, ok := x[r.(string)]; !ok {
				return fmt.Errorf("%s: lacks %q", at, r)
			}
		}
		for k, e := range x {
			sub, ok := props[k].(map[string]any)
			if !ok {
				switch extra := schema["additionalProperties"].(type) {
				case bool:
					if !extra {
						return fmt.Errorf("%s: key %q is not in the schema", at, k)
					}
					continue
				case map[string]any:
					sub = extra
				default:
					continue
				}
			}
			if err := conform(sub, e, at+"."+k); err != nil {
				return err
			}
		}
	case []any:
		if items, ok := schema["items"].(map[string]any); ok {
			for i, e := range x {
				if err := conform(items, e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	}
	return "object"
}
