// Package memo owns the one cache cara keeps of computed things: a bounded map from typed keys to
// values computed once, shared by everyone who asks for the same key at the same time, and holding
// the most recently used few. It has no package-level state: each cache belongs to what it caches
// for (a run, a what-if base, a pane), and goes with it.
package memo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// Memo maps keys to values computed once. Concurrent askers of one key share one computation; a
// computation that fails is not kept, so the next asker tries again. At most Max values are held,
// the least recently used dropped first. Safe for concurrent use.
type Memo[K comparable, V any] struct {
	max     int
	mu      sync.Mutex
	entries map[K]*entry[V]
	order   []K // least recently used first
}

type entry[V any] struct {
	done chan struct{} // closed once v and err are set
	v    V
	err  error
}

// New returns an empty memo holding at most n values (at least one).
func New[K comparable, V any](n int) *Memo[K, V] {
	return &Memo[K, V]{max: max(n, 1), entries: map[K]*entry[V]{}}
}

// Get returns the value of k, computing it with compute, on this goroutine and under ctx, unless
// it is held or under way for another asker (then it waits for that one, or until ctx ends). A
// computation cancelled with its asker's context is done again for an asker who still wants it.
func (m *Memo[K, V]) Get(ctx context.Context, k K, compute func(context.Context) (V, error)) (V, error) {
	for {
		e, mine := m.entry(k)
		if mine {
			m.run(k, e, func() (V, error) { return compute(ctx) })
		}
		select {
		case <-e.done:
		case <-ctx.Done():
			var zero V
			return zero, ctx.Err()
		}
		if mine || !cancelled(e.err) || ctx.Err() != nil {
			return e.v, e.err
		}
	}
}

// Shared is Get for a computation worth finishing whoever stops waiting for it (another asker may
// want it next): it runs on a goroutine of its own, under ctx's values but not its cancellation,
// and the asker stops waiting when ctx ends.
func (m *Memo[K, V]) Shared(ctx context.Context, k K, compute func(context.Context) (V, error)) (V, error) {
	e, mine := m.entry(k)
	if mine {
		go m.run(k, e, func() (V, error) { return compute(context.WithoutCancel(ctx)) })
	}
	select {
	case <-e.done:
		return e.v, e.err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}

// Clear forgets every value; computations under way finish for those who wait for them.
func (m *Memo[K, V]) Clear() {
	m.mu.Lock()
	defer m.mu.Unlock()
	clear(m.entries)
	m.order = m.order[:0]
}

// Len is the number of values held or under way.
func (m *Memo[K, V]) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.entries)
}

// entry returns k's entry, most recently used now, and whether the caller made it (and so must
// compute it).
func (m *Memo[K, V]) entry(k K) (*entry[V], bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if i := slices.Index(m.order, k); i >= 0 {
		m.order = append(slices.Delete(m.order, i, i+1), k)
	}
	if e, ok := m.entries[k]; ok {
		return e, false
	}
	e := &entry[V]{done: make(chan struct{})}
	m.entries[k] = e
	m.order = append(m.order, k)
	for len(m.order) > m.max {
		delete(m.entries, m.order[0])
		m.order = m.order[1:]
	}
	return e, true
}

// run computes e and lets its waiters go; a failure (a panic too, passed on) is forgotten.
func (m *Memo[K, V]) run(k K, e *entry[V], compute func() (V, error)) {
	defer func() {
		if r := recover(); r != nil {
			e.err = fmt.Errorf("memo: the computation panicked: %v", r)
			m.settle(k, e)
			panic(r)
		}
	}()
	e.v, e.err = compute()
	m.settle(k, e)
}

func (m *Memo[K, V]) settle(k K, e *entry[V]) {
	if e.err != nil {
		m.mu.Lock()
		if m.entries[k] == e {
			delete(m.entries, k)
			m.order = slices.DeleteFunc(m.order, func(o K) bool { return o == k })
		}
		m.mu.Unlock()
	}
	close(e.done)
}

func cancelled(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
