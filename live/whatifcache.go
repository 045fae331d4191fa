package live

import (
	"context"
	"strings"
	"sync"
)

// whatIfCache shares a run's what-ifs between its watchers, as replayCache shares replays: a room
// following a presenter, or a class at one tour stop, asks for the same what-if, and it is
// computed once. A computation outlives a watcher that stops waiting for it (it is another's too,
// and takes tens of milliseconds); the last few are kept while the run keeps its Base.
type whatIfCache struct {
	mu      sync.Mutex
	entries map[string]*whatIfEntry
	order   []string // oldest first
}

type whatIfEntry struct {
	done chan struct{}
	w    *WhatIf
	err  error
}

// whatIfsKept bounds a run's cache: a what-if of covcon-d holds about a megabyte.
const whatIfsKept = 4

// get returns the what-if of sets, computing it with compute unless it is computed or computing;
// it stops waiting when ctx ends. A what-if that failed is not kept.
func (c *whatIfCache) get(ctx context.Context, sets []string, compute func(context.Context) (*WhatIf, error)) (*WhatIf, error) {
	k := strings.Join(sets, "\n")
	c.mu.Lock()
	e, ok := c.entries[k]
	if !ok {
		if c.entries == nil {
			c.entries = map[string]*whatIfEntry{}
		}
		e = &whatIfEntry{done: make(chan struct{})}
		c.entries[k] = e
		c.order = append(c.order, k)
		if len(c.order) > whatIfsKept {
			delete(c.entries, c.order[0])
			c.order = c.order[1:]
		}
		go func() {
			e.w, e.err = compute(context.WithoutCancel(ctx))
			if e.err != nil {
				c.drop(k, e)
			}
			close(e.done)
		}()
	}
	c.mu.Unlock()
	select {
	case <-e.done:
		return e.w, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// drop forgets entry e of key k (if it is still the one held).
func (c *whatIfCache) drop(k string, e *whatIfEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries[k] == e {
		delete(c.entries, k)
		for i, o := range c.order {
			if o == k {
				c.order = append(c.order[:i], c.order[i+1:]...)
				break
			}
		}
	}
}

// clear forgets every what-if (the run let go of its Base).
func (c *whatIfCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries, c.order = nil, nil
}
