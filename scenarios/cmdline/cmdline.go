// Package cmdline is the grammar of the player's command line (`:`), which speaks the language
// of --set: `set PATH=VALUE`, `unset PATH`, `reset`. A command edits a list of overrides, and the
// list is what a what-if is: the scenario file with those overrides applied (scenarios.Scenario's
// WhatIf, or With for a change that needs a new run), checked exactly as --set is. Completion reads
// the paths from the file format's own types, so a field added to the format completes without a
// word here.
package cmdline

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/cara-sim/cara/scenarios/internal/format"
)

// Verbs of the command line.
const (
	VerbSet   = "set"
	VerbUnset = "unset"
	VerbReset = "reset"
)

// Command is one line of the command line.
type Command struct {
	Verb  string // VerbSet, VerbUnset or VerbReset
	Path  string // set, unset: a dotted path of the scenario file
	Value string // set: YAML in flow style
}

// String is the command as it is typed.
func (c Command) String() string {
	switch c.Verb {
	case VerbSet:
		return c.Path + "=" + c.Value
	case VerbUnset:
		return "unset " + c.Path
	}
	return c.Verb
}

// Parse reads one command line. `set` may be left out: `retrain_cost=40` is a set.
func Parse(line string) (Command, error) {
	line = strings.TrimSpace(line)
	verb, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch {
	case line == "":
		return Command{}, fmt.Errorf("type set PATH=VALUE, unset PATH or reset (tab completes)")
	case verb == VerbReset:
		if rest != "" {
			return Command{}, fmt.Errorf("reset takes nothing after it (it drops every what-if), got %q", rest)
		}
		return Command{Verb: VerbReset}, nil
	case verb == VerbUnset:
		if rest == "" || strings.ContainsAny(rest, " =") {
			return Command{}, fmt.Errorf("unset takes one PATH, e.g. unset retrain_cost")
		}
		if err := checkPath(rest); err != nil {
			return Command{}, err
		}
		return Command{Verb: VerbUnset, Path: rest}, nil
	case verb == VerbSet:
		line = rest
	case !strings.Contains(verb, "="):
		return Command{}, fmt.Errorf("unknown command %q: type set PATH=VALUE, unset PATH or reset", verb)
	}
	o, err := format.ParseOverride(line)
	if err != nil {
		return Command{}, err
	}
	if err := checkPath(o.Path); err != nil {
		return Command{}, err
	}
	return Command{Verb: VerbSet, Path: o.Path, Value: strings.TrimSpace(o.Value)}, nil
}

// checkPath refuses a path the file format does not have: a key no section has in the words --set
// and the loader use for it (format.UnknownField), an index of a section, a key of a value.
func checkPath(path string) error {
	segs := strings.Split(path, ".")
	t := formatType
	yamlPath := "" // where the key is, as the loader names it: tour[0].say
	for _, seg := range segs {
		if seg == "" {
			return fmt.Errorf("%s: PATH is keys joined by dots (e.g. model.random_forest.trees), got an empty key", path)
		}
		next, ok := child(t, seg)
		switch {
		case !ok && len(fieldNames(t)) > 0:
			return fmt.Errorf("%s: %s", path, format.UnknownField(yamlPath, seg))
		case !ok && t.Kind() == reflect.Slice:
			return fmt.Errorf("%s: %s is a list: give an index (0, 1, ...), got %q", path, yamlPath, seg)
		case !ok:
			return fmt.Errorf("%s: %s is a value, not a section", path, yamlPath)
		}
		if _, err := strconv.Atoi(seg); err == nil {
			yamlPath += "[" + seg + "]"
		} else if yamlPath == "" {
			yamlPath = seg
		} else {
			yamlPath += "." + seg
		}
		t = next
	}
	return nil
}

// Apply returns sets after c: a set replaces the earlier sets of its path and of every path under
// it, an unset drops them, a reset drops all. sets is not changed.
func (c Command) Apply(sets []string) []string {
	if c.Verb == VerbReset {
		return nil
	}
	out := make([]string, 0, len(sets)+1)
	for _, s := range sets {
		p, _, _ := strings.Cut(s, "=")
		p = strings.TrimSpace(p)
		if p == c.Path || strings.HasPrefix(p, c.Path+".") {
			continue
		}
		out = append(out, s)
	}
	if c.Verb == VerbSet {
		out = append(out, c.Path+"="+c.Value)
	}
	return out
}

// OnModel returns sets after c for a scenario whose file's model is of kind fileKind
// (random_forest, knn, ...; FileModelKind): as Apply, but a set into the section of another kind
// than the one in force (model.knn.k=1 on a forest) changes the model's kind, as the file format
// takes exactly one: the sets of the kind before go, the file's own kind is set to null, and the
// new kind's defaults fill what the set does not give. Switching back to the file's kind brings
// back its section as the file writes it. sets is not changed.
func (c Command) OnModel(sets []string, fileKind string) []string {
	k := modelKind(c.Path)
	if c.Verb != VerbSet || k == "" || k == kindAfter(sets, fileKind) {
		return c.Apply(sets)
	}
	out := make([]string, 0, len(sets)+2)
	for _, s := range sets {
		p, _, _ := strings.Cut(s, "=")
		if p = strings.TrimSpace(p); p == "model" || modelKind(p) != "" {
			continue
		}
		out = append(out, s)
	}
	if fileKind != "" && k != fileKind {
		out = append(out, "model."+fileKind+"=null")
	}
	return append(out, c.Path+"="+c.Value)
}

// modelKinds are the model section's kinds: its fields that are sections of their own (the
// format's Model has one per kind of model, and takes exactly one).
func modelKinds() []string {
	t, _ := child(formatType, "model")
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if ft := f.Type; ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct && ft.Elem() != scalarType {
			out = append(out, name)
		}
	}
	return out
}

// modelKind is the model kind a path is in (model.knn.k: knn), "" for a path outside one.
func modelKind(path string) string {
	segs := strings.SplitN(path, ".", 3)
	if len(segs) < 2 || segs[0] != "model" || !slices.Contains(modelKinds(), segs[1]) {
		return ""
	}
	return segs[1]
}

// kindAfter is the model kind in force after sets on a file whose model is of kind fileKind; ""
// when the sets leave none, or more than one.
func kindAfter(sets []string, fileKind string) string {
	in := map[string]bool{}
	if fileKind != "" {
		in[fileKind] = true
	}
	for _, s := range sets {
		p, v, _ := strings.Cut(s, "=")
		p, v = strings.TrimSpace(p), strings.TrimSpace(v)
		switch k := modelKind(p); {
		case p == "model":
			clear(in)
			if m := flowKey.FindStringSubmatch(v); m != nil {
				in[m[1]] = true
			}
		case k != "" && p == "model."+k && (v == "null" || v == "~"):
			delete(in, k)
		case k != "":
			in[k] = true
		}
	}
	if len(in) != 1 {
		return ""
	}
	for k := range in {
		return k
	}
	return ""
}

// flowKey is the first key of a mapping written in flow style: {knn: {k: 3}} is knn.
var flowKey = regexp.MustCompile(`^\{\s*([A-Za-z_]+)\s*:`)

// FileModelKind is the kind of model a scenario file's text gives (random_forest, logistic, knn,
// nearest_centroid); "" when the text does not say one.
func FileModelKind(text []byte) string {
	f, err := format.NewDoc("scenario", nil).Decode(text)
	if err != nil || f.Model == nil {
		return ""
	}
	v := reflect.ValueOf(*f.Model)
	var kinds []string
	for i := 0; i < v.NumField(); i++ {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("yaml"), ",")
		if fv := v.Field(i); fv.Kind() == reflect.Pointer && !fv.IsNil() && slices.Contains(modelKinds(), name) {
			kinds = append(kinds, name)
		}
	}
	if len(kinds) != 1 {
		return ""
	}
	return kinds[0]
}

// Complete returns the completions of a partial command line, each a whole line, sorted: verbs,
// then paths (one level at a time), then the values a path's field takes where they are a few
// words (shuffle, gamma, booleans).
func Complete(line string) []string {
	verb, rest, spaced := strings.Cut(line, " ")
	if !spaced {
		if strings.Contains(verb, "=") || strings.Contains(verb, ".") {
			return completePath("", verb)
		}
		var out []string
		for _, v := range []string{VerbSet + " ", VerbUnset + " ", VerbReset} {
			if strings.HasPrefix(v, verb) {
				out = append(out, v)
			}
		}
		return append(out, completePath("", verb)...)
	}
	switch verb {
	case VerbSet, VerbUnset:
		return completePath(verb+" ", strings.TrimLeft(rest, " "))
	}
	return nil
}

// completePath completes a path (and, after `=`, an enumerated value) behind lead.
func completePath(lead, text string) []string {
	path, value, hasValue := strings.Cut(text, "=")
	if hasValue {
		var out []string
		for _, v := range enumValues(path) {
			if strings.HasPrefix(v, value) {
				out = append(out, lead+path+"="+v)
			}
		}
		return out
	}
	segs := strings.Split(path, ".")
	t := formatType
	for _, seg := range segs[:len(segs)-1] {
		next, ok := child(t, seg)
		if !ok {
			return nil
		}
		t = next
	}
	done := strings.Join(segs[:len(segs)-1], ".")
	if done != "" {
		done += "."
	}
	last := segs[len(segs)-1]
	var out []string
	if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct {
		if last == "" {
			out = append(out, lead+done+"0.")
		}
		return out
	}
	for _, name := range fieldNames(t) {
		if !strings.HasPrefix(name, last) {
			continue
		}
		ft, _ := child(t, name)
		switch {
		case len(fieldNames(ft)) > 0 || (ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct):
			out = append(out, lead+done+name+".")
		default:
			out = append(out, lead+done+name+"=")
		}
	}
	return out
}

// formatType is the file format's root.
var formatType = reflect.TypeFor[format.File]()

var scalarType = reflect.TypeFor[format.Scalar]()

// child is the type under key seg of t: a field by its YAML name (inline fields looked through),
// or an item of a list by its index.
func child(t reflect.Type, seg string) (reflect.Type, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
		if _, err := strconv.Atoi(seg); err != nil {
			return nil, false
		}
		return t.Elem(), true
	case t.Kind() != reflect.Struct || t == scalarType:
		return nil, false
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if opts == "inline" {
			if ct, ok := child(f.Type, seg); ok {
				return ct, true
			}
			continue
		}
		if name == seg {
			return f.Type, true
		}
	}
	return nil, false
}

// fieldNames are the YAML keys of a section type, sorted; none for a value.
func fieldNames(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t == scalarType {
		return nil
	}
	var names []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if opts == "inline" {
			names = append(names, fieldNames(f.Type)...)
			continue
		}
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// enumValues are the words a field takes, where it takes a few: what the loader accepts (a test
// loads each one, so this list cannot drift from the loader unseen).
func enumValues(path string) []string {
	segs := strings.Split(path, ".")
	for i, s := range segs {
		if _, err := strconv.Atoi(s); err == nil {
			segs[i] = "N"
		}
	}
	switch strings.Join(segs, ".") {
	case "data.shuffle":
		return []string{"none", "within_batch"}
	case "kernel.gamma":
		return []string{"auto", "scale"}
	case "queries.from":
		return []string{"data"}
	case "data.concepts.N.transition.shape":
		return []string{"linear", "sigmoid"}
	case "detectors.reset":
		return []string{"never", "on_retrain"}
	case "data.resample", "model.logistic.standardize":
		return []string{"false", "true"}
	}
	return nil
}
