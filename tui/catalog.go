package tui

import (
	"sync"

	"github.com/cara-sim/cara/scenarios"
)

// Catalog is what a picker offers, read once (a server reads a new one on SIGHUP, not one per
// connection): the entries, and each scenario loaded the first time anyone opens it, then shared by
// everyone who opens it. Sharing the loaded scenario is also what lets their runs be shared: the
// Runs registry knows a scenario by its loaded value, so a file edited and reloaded is a new one.
// Safe for concurrent use.
type Catalog struct {
	entries []Entry

	mu     sync.Mutex
	loaded map[string]*catalogLoad
}

type catalogLoad struct {
	once sync.Once
	s    *scenarios.Scenario
	err  error
}

// NewCatalog lists the embedded scenarios, the *.yaml files of dir and paths (see Entries).
func NewCatalog(dir string, paths []string) *Catalog {
	return &Catalog{entries: Entries(dir, paths), loaded: map[string]*catalogLoad{}}
}

// Entries are the catalog's entries, in the picker's order. The slice is shared: do not modify it.
func (c *Catalog) Entries() []Entry { return c.entries }

// Load returns the scenario of an entry, loading it on first use (an error is kept too: a broken
// file is reported the same way until the catalog is read again).
func (c *Catalog) Load(ref string) (*scenarios.Scenario, error) {
	c.mu.Lock()
	l, ok := c.loaded[ref]
	if !ok {
		l = &catalogLoad{}
		c.loaded[ref] = l
	}
	c.mu.Unlock()
	l.once.Do(func() { l.s, l.err = scenarios.Load(ref, scenarios.Options{}) })
	return l.s, l.err
}
