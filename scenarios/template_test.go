package scenarios

import (
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cara-sim/cara/scenarios/internal/format"
)

// TestTemplateLoads: the file `cara new` writes is a valid scenario, and its stream generates.
func TestTemplateLoads(t *testing.T) {
	s, err := Parse("my-drift.yaml", Template("my-drift"), t.TempDir(), Options{})
	if err != nil {
		t.Fatalf("the template does not load: %v", err)
	}
	if s.Name != "my-drift" || s.Batches != 60 || s.Offline != 15 || s.Features != 2 {
		t.Fatalf("got %s, %d batches, %d offline, %d features", s.Name, s.Batches, s.Offline, s.Features)
	}
	st, err := s.Stream(s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	for b := range s.Batches {
		if _, err := st.Batch(b); err != nil {
			t.Fatalf("batch %d: %v", b, err)
		}
	}
}

// TestTemplateDocumentsEveryField walks the file format's types and checks that every key a
// scenario file may hold appears in the template (set or in a comment), so a field added to the
// format without a word in the template fails here.
func TestTemplateDocumentsEveryField(t *testing.T) {
	var keys []string
	var walk func(reflect.Type)
	walk = func(tp reflect.Type) {
		for tp.Kind() == reflect.Pointer || tp.Kind() == reflect.Slice {
			tp = tp.Elem()
		}
		if tp.Kind() != reflect.Struct || tp == reflect.TypeOf(format.Scalar{}) || tp == reflect.TypeOf(format.Scalars{}) {
			return
		}
		for f := range tp.Fields() {
			if k, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); k != "" && k != "-" {
				if !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(format.File{}))
	if len(keys) < 20 {
		t.Fatalf("found only %d keys in the format (%v): the walk is broken", len(keys), keys)
	}
	for _, k := range keys {
		if !regexp.MustCompile(`(^|[\s{,#])` + regexp.QuoteMeta(k) + `:`).MatchString(template) {
			t.Errorf("the template (scenarios/template.yaml.tmpl) does not mention %q", k)
		}
	}
}

func TestSource(t *testing.T) {
	src, err := Source("covcon-d", "my-covcon")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse("my-covcon.yaml", src, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	orig, _ := Load("covcon-d", Options{})
	if s.Name != "my-covcon" || s.Batches != orig.Batches || s.RetrainCostText != orig.RetrainCostText {
		t.Fatalf("copy: %s %d %s", s.Name, s.Batches, s.RetrainCostText)
	}
	if _, err := Source("nope", "x"); err == nil || !strings.Contains(err.Error(), "covcon-d") {
		t.Fatalf("an unknown scenario: %v", err)
	}
}

// Issue 26: a copy (cara new --from) says it is one in its title and leaves the source's tour
// out, with a comment; everything else loads as the source does.
func TestSourceIsACopy(t *testing.T) {
	for _, info := range Embedded() {
		src, err := Source(info.Name, "mine")
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse("mine.yaml", src, "", Options{})
		if err != nil {
			t.Fatalf("%s: %v", info.Name, err)
		}
		orig, _ := Load(info.Name, Options{})
		if s.Name != "mine" || s.Title != "mine (a copy of "+info.Name+")" || s.Tour != nil || s.Batches != orig.Batches || len(s.WhatIfQueries) != len(orig.WhatIfQueries) {
			t.Errorf("%s: name %q title %q, %d tour stops, %d batches (source %d)", info.Name, s.Name, s.Title, len(s.Tour), s.Batches, orig.Batches)
		}
		if note := "# The tour of " + info.Name + " is left out"; (info.Stops > 0) != strings.Contains(string(src), note) {
			t.Errorf("%s (%d stops): the note on the tour is wrong", info.Name, info.Stops)
		}
	}
}
