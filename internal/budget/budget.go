// Package budget owns admission against one memory budget: a piece of work says what it will hold
// (bytes) and whether it computes (a compute slot), and is granted at once, queued first come first
// served with a place it can show, or refused when it could never fit. A grant is held until the
// work lets it go, and may shrink or grow meanwhile (a finished run keeps only its matrix). It knows
// nothing of what the work is: a served room's runs, commands, uploads and checks all go through
// one Budget, so no kind of work can take memory another kind counted on.
package budget

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// Budget is one pool of memory and compute slots. Safe for concurrent use; it holds no goroutine.
type Budget struct {
	capacity int64 // bytes the work it admits may hold in all
	slots    int   // work that computes, at once

	mu      sync.Mutex
	held    int64 // bytes of the tickets granted
	pinned  int64 // of held, what Charge took (sessions): not freed by waiting for work to end
	busy    int   // slots of the tickets granted
	behind  int   // of busy, background work's (at most backgroundSlots)
	queue   []*Ticket
	changed chan struct{} // closed and replaced at every change of the queue or what is held
	// reclaim, when set, is asked (on a goroutine of its own, one at a time) to let go of memory held
	// only to go faster (a finished run nobody watches) when the first in line does not fit.
	reclaim    func(need int64)
	reclaiming bool
	granted    int64 // tickets granted, ever
	yielded    int64 // slots background work gave up to other work, ever
	peak       int64 // the most held at once
}

// Config sets a budget's size.
type Config struct {
	Bytes int64 // what the work it admits may hold in all (> 0)
	Slots int   // work computing at once (> 0)
}

// New returns a budget of cfg's bytes and slots (at least one of each).
func New(cfg Config) *Budget {
	return &Budget{capacity: max(cfg.Bytes, 1), slots: max(cfg.Slots, 1), changed: make(chan struct{})}
}

// Unlimited is a budget that counts but never waits for memory: a local player's, with slots only.
func Unlimited(slots int) *Budget { return New(Config{Bytes: 1 << 62, Slots: slots}) }

// OnReclaim sets what the budget asks to free memory held only for speed, when the first in line
// does not fit; f is called on a goroutine of its own, never twice at once.
func (b *Budget) OnReclaim(f func(need int64)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reclaim = f
}

// Request is what a piece of work asks for.
type Request struct {
	Bytes int64 // what it will hold at its most
	Slot  bool  // it computes: one of the budget's slots too
	// Quick work (a check, an upload, a what-if: short, and someone waits at the keyboard) goes ahead
	// of queued long work; background work (a client's headless command) goes behind the rest, so a
	// room's players are not kept waiting by a queue of commands. Within a kind, first come first
	// served. Background work that computes takes at most BackgroundSlots of the slots, never the
	// last of several, and gives its slot up between steps to other work waiting for one (Yield).
	Quick, Background bool
	resume            bool // background work taking back the slot it yielded: ahead of other background work
}

// rank orders the kinds of work in the queue.
func (r Request) rank() int {
	switch {
	case r.Quick:
		return 0
	case r.resume:
		return 2
	case r.Background:
		return 3
	}
	return 1
}

// BackgroundSlots is the most of a budget's slots that background work computes in at once: all
// but one, and the one of a budget that has only one (it yields that between steps instead).
func (b *Budget) BackgroundSlots() int { return max(1, b.slots-1) }

// Ticket is one piece of work's place in the budget: queued, then granted, until released.
type Ticket struct {
	b        *Budget
	req      Request
	granted  bool
	done     bool
	isCharge bool          // made by Charge: counted in pinned
	ready    chan struct{} // closed when granted
}

// TooBig refuses work that could never fit: it needs more than the budget admits in all (less
// what the room's sessions hold, which waiting does not free).
type TooBig struct {
	Need, Allowed int64
}

func (e *TooBig) Error() string {
	return fmt.Sprintf("needs about %s; the room's memory allows %s", Bytes(e.Need), Bytes(e.Allowed))
}

// ErrReleased is what Acquire returns for a ticket released while it waited.
var ErrReleased = errors.New("budget: released while queued")

// Queue puts req in line and grants it at once when it fits and nobody is ahead; it fails with a
// *TooBig when req could never fit. The caller waits on Ready and must Release the ticket.
func (b *Budget) Queue(req Request) (*Ticket, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if allowed := b.capacity - b.pinned; req.Bytes > allowed {
		return nil, &TooBig{Need: req.Bytes, Allowed: allowed}
	}
	t := &Ticket{b: b, req: req, ready: make(chan struct{})}
	at := slices.IndexFunc(b.queue, func(o *Ticket) bool { return o.req.rank() > req.rank() })
	if at < 0 {
		at = len(b.queue)
	}
	b.queue = slices.Insert(b.queue, at, t)
	b.grantLocked()
	b.changedLocked()
	return t, nil
}

// Acquire queues req and waits for its grant: place, when not nil, is told the ticket's place
// each time it changes while it waits. It fails with a *TooBig at once, or with ctx's error
// (the ticket released) when ctx ends first.
func (b *Budget) Acquire(ctx context.Context, req Request, place func(Place)) (*Ticket, error) {
	t, err := b.Queue(req)
	if err != nil {
		return nil, err
	}
	var shown Place
	for {
		b.mu.Lock()
		ch := b.changed
		p := b.placeLocked(t)
		b.mu.Unlock()
		if p.Pos == 0 {
			if t.done {
				return nil, ErrReleased
			}
			return t, nil
		}
		if place != nil && p != shown {
			place(p)
			shown = p
		}
		select {
		case <-ch:
		case <-ctx.Done():
			t.Release()
			return nil, ctx.Err()
		}
	}
}

// Charge holds bytes at once, whatever else is held or queued: what a session costs by being
// open, which waiting could not free. It counts against later work until released.
func (b *Budget) Charge(bytes int64) *Ticket {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := &Ticket{b: b, req: Request{Bytes: bytes}, granted: true, isCharge: true, ready: make(chan struct{})}
	close(t.ready)
	b.held += bytes
	b.pinned += bytes
	b.peak = max(b.peak, b.held)
	b.changedLocked()
	return t
}

// Ready is closed once the ticket is granted.
func (t *Ticket) Ready() <-chan struct{} { return t.ready }

// Release gives back what the ticket holds, or takes it out of the queue; only the first call
// counts.
func (t *Ticket) Release() {
	b := t.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if t.done {
		return
	}
	t.done = true
	if !t.granted {
		b.queue = slices.DeleteFunc(b.queue, func(o *Ticket) bool { return o == t })
		close(t.ready) // a waiter wakes, and finds it released
	} else {
		b.held -= t.req.Bytes
		if t.req.Slot {
			b.freeSlotLocked(t.req)
		}
		if t.isCharge {
			b.pinned -= t.req.Bytes
		}
	}
	b.grantLocked()
	b.changedLocked()
}

// Resize sets what a granted ticket holds now: less once work ends holding only part of what it
// needed (a finished run keeps its matrix), more when it turns out to need more (then it may go
// over the budget: the work is under way, and the next in line waits longer). It frees its slot
// when computing is false.
func (t *Ticket) Resize(bytes int64, computing bool) {
	b := t.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if !t.granted || t.done {
		return
	}
	b.held += bytes - t.req.Bytes
	if t.isCharge {
		b.pinned += bytes - t.req.Bytes
	}
	t.req.Bytes = bytes
	if t.req.Slot && !computing {
		b.freeSlotLocked(t.req)
		t.req.Slot = false
	}
	b.peak = max(b.peak, b.held)
	b.grantLocked()
	b.changedLocked()
}

// Bytes is what the ticket holds, or asks for while queued.
func (t *Ticket) Bytes() int64 {
	t.b.mu.Lock()
	defer t.b.mu.Unlock()
	return t.req.Bytes
}

// Place is a queued ticket's place in line.
type Place struct {
	Pos    int  // 1 for the first in line; 0 once granted (or released)
	Memory bool // the first in line waits for memory (else for a compute slot)
}

// Place returns the ticket's place now.
func (t *Ticket) Place() Place {
	t.b.mu.Lock()
	defer t.b.mu.Unlock()
	return t.b.placeLocked(t)
}

func (b *Budget) placeLocked(t *Ticket) Place {
	if t.granted || t.done {
		return Place{}
	}
	i := slices.Index(b.queue, t)
	if i < 0 {
		return Place{}
	}
	return Place{Pos: i + 1, Memory: !b.fitsLocked(b.queue[0].req, true)}
}

// fitsLocked reports whether req fits now (ignoring slots unless slot is true).
func (b *Budget) fitsLocked(req Request, memoryOnly bool) bool {
	if b.held+req.Bytes > b.capacity {
		return false
	}
	if memoryOnly || !req.Slot {
		return true
	}
	return b.busy < b.slots && (!req.Background || b.behind < b.BackgroundSlots())
}

// takeSlotLocked and freeSlotLocked count a slot taken and given back by req.
func (b *Budget) takeSlotLocked(req Request) {
	b.busy++
	if req.Background {
		b.behind++
	}
}

func (b *Budget) freeSlotLocked(req Request) {
	b.busy--
	if req.Background {
		b.behind--
	}
}

// grantLocked grants the queue's first tickets while they fit; when the first does not fit for
// lack of memory it asks reclaim (once at a time) to free some.
func (b *Budget) grantLocked() {
	for len(b.queue) > 0 {
		t := b.queue[0]
		if !b.fitsLocked(t.req, false) {
			if !b.fitsLocked(t.req, true) && b.reclaim != nil && !b.reclaiming {
				b.reclaiming = true
				need, f := b.held+t.req.Bytes-b.capacity, b.reclaim
				go func() {
					f(need)
					b.mu.Lock()
					b.reclaiming = false
					b.mu.Unlock()
				}()
			}
			return
		}
		b.queue = b.queue[1:]
		t.granted = true
		b.held += t.req.Bytes
		if t.req.Slot {
			b.takeSlotLocked(t.req)
		}
		b.granted++
		b.peak = max(b.peak, b.held)
		close(t.ready)
	}
}

// Yield gives a granted background ticket's compute slot to the work first in line when that is
// not background work and waits only for a slot (a player's run behind a client's command), then
// waits for the slot back, ahead of other background work; the ticket keeps its memory meanwhile.
// It returns at once when nobody waits for the slot, so work that computes in steps calls it
// between them. It fails with ctx's error (the slot not taken back) when ctx ends first.
func (t *Ticket) Yield(ctx context.Context) error {
	b := t.b
	b.mu.Lock()
	if !t.wouldYieldLocked() {
		b.mu.Unlock()
		return nil
	}
	b.freeSlotLocked(t.req)
	t.req.Slot = false
	b.yielded++
	b.grantLocked()
	b.changedLocked()
	b.mu.Unlock()
	back, err := b.Acquire(ctx, Request{Slot: true, Background: true, resume: true}, nil)
	if err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	back.done = true // its slot is t's now, given back when t is
	if t.done {      // released meanwhile: the slot goes back too
		b.freeSlotLocked(back.req)
		b.grantLocked()
		b.changedLocked()
		return nil
	}
	t.req.Slot = true
	return nil
}

// WouldYield reports whether Yield would give the ticket's slot up now.
func (t *Ticket) WouldYield() bool {
	t.b.mu.Lock()
	defer t.b.mu.Unlock()
	return t.wouldYieldLocked()
}

func (t *Ticket) wouldYieldLocked() bool {
	b := t.b
	if !t.granted || t.done || !t.req.Slot || !t.req.Background || len(b.queue) == 0 {
		return false
	}
	// The first in line starts for the slot: it is not background work, needs a slot, and its
	// memory fits now (else it waits for memory, and the slot would go to nobody).
	first := b.queue[0].req
	return first.Slot && !first.Background && !first.resume && b.held+first.Bytes <= b.capacity && b.busy >= b.slots
}

// Changed is closed at the next change of the queue or of what is held.
func (b *Budget) Changed() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.changed
}

func (b *Budget) changedLocked() {
	close(b.changed)
	b.changed = make(chan struct{})
}

// Stats is a budget's state, for metrics and tests.
type Stats struct {
	Capacity int64 // bytes admitted work may hold in all
	Held     int64 // bytes held by granted work and charges
	Pinned   int64 // of Held, what charges hold (sessions)
	Peak     int64 // the most held at once
	Slots    int
	Busy     int   // slots in use
	Behind   int   // of Busy, background work's
	Yielded  int64 // slots background work gave up to other work, ever
	Queued   int   // tickets waiting
	Granted  int64 // tickets granted, ever
}

// Stats returns the budget's state now.
func (b *Budget) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return Stats{Capacity: b.capacity, Held: b.held, Pinned: b.pinned, Peak: b.peak, Slots: b.slots, Busy: b.busy, Behind: b.behind, Yielded: b.yielded,
		Queued: len(b.queue), Granted: b.granted}
}

// Capacity is what admitted work may hold in all.
func (b *Budget) Capacity() int64 { return b.capacity }

// Free is what more work could hold now.
func (b *Budget) Free() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return max(b.capacity-b.held, 0)
}

// Allowed is the most one piece of work may ask for now: the capacity less what charges hold.
func (b *Budget) Allowed() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.capacity - b.pinned
}
