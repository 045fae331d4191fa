package scenarios

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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
// edited and read again (Reload) is a new scenario, one unchanged the same. Safe for concurrent use.
type Catalog struct {
	entries []Entry
	dir     string
	paths   []string
	served  bool                 // a served room's: a scenario whose model is a command is refused
	prior   map[string]*Scenario // by Ref: the scenarios catalogs before this one loaded (Reload)
	mu      sync.Mutex
	loaded  map[string]*catalogLoad
	// A catalog Plus made: what loads the scenarios it adds (a user's uploads, parsed on use), and
	// the catalog it adds them to, which loads the rest (so their runs stay shared).
	extra map[string]func() (*Scenario, error)
	base  *Catalog
}

type catalogLoad struct {
	once sync.Once
	s    *Scenario
	err  error
	done atomic.Bool // s and err are set
}

// NewCatalog lists the embedded scenarios, then *.yaml in dir (none when dir is ""), then paths,
// loading each file once.
func NewCatalog(dir string, paths []string) *Catalog { return readCatalog(dir, paths, false, nil) }

// NewServedCatalog is the catalog of a served room: the embedded scenarios and *.yaml in dir, a
// scenario whose model is a command refused (Options.NoCommands) with the reason in its entry.
func NewServedCatalog(dir string) *Catalog { return readCatalog(dir, nil, true, nil) }

// Reload reads the catalog again (a server's SIGHUP): the entries as they are now, and each
// scenario loaded anew, except that one whose Identity is unchanged is the scenario loaded before,
// the same value, so that whatever is keyed by it (a registry's runs) carries over.
func (c *Catalog) Reload() *Catalog { return readCatalog(c.dir, c.paths, c.served, c) }

func readCatalog(dir string, paths []string, served bool, prev *Catalog) *Catalog {
	c := &Catalog{dir: dir, paths: paths, served: served, prior: map[string]*Scenario{}, loaded: map[string]*catalogLoad{}}
	if prev != nil {
		prev.mu.Lock()
		maps.Copy(c.prior, prev.prior)
		for ref, l := range prev.loaded {
			if l.done.Load() && l.s != nil {
				c.prior[ref] = l.s
			}
		}
		prev.mu.Unlock()
	}
	for _, i := range Embedded() {
		c.entries = append(c.entries, Entry{Ref: i.Name, Title: i.Title, About: i.About})
	}
	var files []string
	if dir != "" {
		files, _ = filepath.Glob(filepath.Join(dir, "*.yaml"))
	}
	for i, f := range append(files, paths...) {
		e := Entry{Ref: f, Title: f}
		var s *Scenario
		err := notRegular(f, i < len(files))
		if err == nil {
			s, err = c.load(f)
		}
		if err == nil {
			e.Title, e.About = s.Title+"  ("+filepath.Base(f)+")", s.About // the file's name, not where it is
		} else {
			e.About = err.Error()
		}
		l := &catalogLoad{}
		l.once.Do(func() { l.s, l.err = s, err })
		l.done.Store(true)
		c.loaded[f] = l
		c.entries = append(c.entries, e)
	}
	return c
}

// notRegular refuses a file of the folder that is not a regular file (a FIFO named x.yaml would
// block the catalog, and with it a picker or a server's reload, on its open). A path named on the
// command line is read whatever it is: it may be a pipe on purpose.
func notRegular(path string, inDir bool) error {
	if !inDir {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file (%s), not read", path, fi.Mode().Type())
	}
	return nil
}

// Entries lists the embedded scenarios, then *.yaml in dir, then paths: a catalog's entries.
func Entries(dir string, paths []string) []Entry { return NewCatalog(dir, paths).Entries() }

// Entries are the catalog's entries, in the picker's order. The slice is shared: do not modify it.
func (c *Catalog) Entries() []Entry { return c.entries }

// Load returns the scenario of an entry, loading it on first use (an error is kept too: a broken
// file is reported the same way until the catalog is read again).
func (c *Catalog) Load(ref string) (*Scenario, error) {
	if load, ok := c.extra[ref]; ok {
		return load()
	}
	if c.base != nil {
		return c.base.Load(ref)
	}
	c.mu.Lock()
	l, ok := c.loaded[ref]
	if !ok {
		l = &catalogLoad{}
		c.loaded[ref] = l
	}
	c.mu.Unlock()
	l.once.Do(func() {
		l.s, l.err = c.load(ref)
		l.done.Store(true)
	})
	return l.s, l.err
}

// load loads ref, or gives the scenario a catalog before had for it if it is the same.
func (c *Catalog) load(ref string) (*Scenario, error) {
	s, err := Load(ref, Options{NoCommands: c.served})
	if err != nil {
		return s, err
	}
	if old := c.prior[ref]; old != nil && old.identity == s.identity {
		return old, nil
	}
	return s, nil
}

// Offers reports whether s is a scenario this catalog has loaded (or, embedded, would load the
// same): a scenario it does not offer can no longer be opened from it.
func (c *Catalog) Offers(s *Scenario) bool {
	if s.Path == "" && s.origin != nil && s.origin.dir == "" {
		return true // embedded: the same in every catalog of this program
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, l := range c.loaded {
		if l.s == s {
			return true
		}
	}
	return false
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

// Plus returns the catalog with more entries (a user's uploads), each loaded by its load function
// whenever it is opened: the catalog's own entries are still loaded by it, so their runs stay
// shared.
func (c *Catalog) Plus(extra []Entry, load []func() (*Scenario, error)) *Catalog {
	base := c
	if c.base != nil {
		base = c.base
	}
	out := &Catalog{entries: append(slices.Clip(c.entries), extra...), base: base, extra: maps.Clone(c.extra)}
	if out.extra == nil {
		out.extra = map[string]func() (*Scenario, error){}
	}
	for i, e := range extra {
		out.extra[e.Ref] = load[i]
	}
	return out
}
