package scenarios

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Entry is a scenario a catalog offers: embedded (by name) or a file.
type Entry struct {
	Ref   string // what Load takes
	Title string
	About string
}

// Catalog is what a picker offers, read once (a server reads a new one on SIGHUP, not one per
// connection): the entries, and each scenario loaded once, then shared by everyone who opens it. A
// file is loaded when the catalog is read (its title is an entry's), an embedded scenario the
// first time anyone opens it. Sharing the loaded scenario is also what lets runs be shared: a file
// edited and read again is a new scenario. Safe for concurrent use.
type Catalog struct {
	entries []Entry
	store   *catalogStore // shared by the catalogs Plus makes of this one
	extra   map[string]*Scenario
}

type catalogStore struct {
	mu     sync.Mutex
	loaded map[string]*catalogLoad
}

type catalogLoad struct {
	once sync.Once
	s    *Scenario
	err  error
}

// NewCatalog lists the embedded scenarios, then *.yaml in dir (none when dir is ""), then paths,
// loading each file once.
func NewCatalog(dir string, paths []string) *Catalog {
	c := &Catalog{store: &catalogStore{loaded: map[string]*catalogLoad{}}}
	for _, i := range Embedded() {
		c.entries = append(c.entries, Entry{Ref: i.Name, Title: i.Title, About: i.About})
	}
	var files []string
	if dir != "" {
		files, _ = filepath.Glob(filepath.Join(dir, "*.yaml"))
	}
	for _, f := range append(files, paths...) {
		e := Entry{Ref: f, Title: f}
		s, err := Load(f, Options{})
		if err == nil {
			e.Title, e.About = s.Title+"  ("+f+")", s.About
		} else {
			e.About = err.Error()
		}
		l := &catalogLoad{}
		l.once.Do(func() { l.s, l.err = s, err })
		c.store.loaded[f] = l
		c.entries = append(c.entries, e)
	}
	return c
}

// Entries lists the embedded scenarios, then *.yaml in dir, then paths: a catalog's entries.
func Entries(dir string, paths []string) []Entry { return NewCatalog(dir, paths).Entries() }

// Entries are the catalog's entries, in the picker's order. The slice is shared: do not modify it.
func (c *Catalog) Entries() []Entry { return c.entries }

// Load returns the scenario of an entry, loading it on first use (an error is kept too: a broken
// file is reported the same way until the catalog is read again).
func (c *Catalog) Load(ref string) (*Scenario, error) {
	if s, ok := c.extra[ref]; ok {
		return s, nil
	}
	c.store.mu.Lock()
	l, ok := c.store.loaded[ref]
	if !ok {
		l = &catalogLoad{}
		c.store.loaded[ref] = l
	}
	c.store.mu.Unlock()
	l.once.Do(func() { l.s, l.err = Load(ref, Options{}) })
	return l.s, l.err
}

// Name is what a user types for an entry: an embedded scenario's name, or a file's name without
// its folder and .yaml (lesson1 for scenarios/lesson1.yaml).
func (e Entry) Name() string {
	return strings.TrimSuffix(filepath.Base(e.Ref), ".yaml")
}

// Lookup finds the entry a user names (by Name, or by its Ref) and returns its Ref: nothing but
// what the catalog offers, so a name can never reach another file.
func (c *Catalog) Lookup(name string) (string, bool) {
	for _, e := range c.entries {
		if e.Name() == name || e.Ref == name {
			return e.Ref, true
		}
	}
	return "", false
}

// Plus returns the catalog with more entries, each already loaded (a user's uploads): the
// catalog's own entries stay shared with it, so their runs stay shared too.
func (c *Catalog) Plus(extra []Entry, loaded []*Scenario) *Catalog {
	out := &Catalog{entries: append(slices.Clip(c.entries), extra...), store: c.store, extra: map[string]*Scenario{}}
	for ref, s := range c.extra {
		out.extra[ref] = s
	}
	for i, e := range extra {
		out.extra[e.Ref] = loaded[i]
	}
	return out
}
