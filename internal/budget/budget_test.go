package budget

import (
	"context"
	"errors"
	"runtime/debug"
	"testing"
	"time"
)

func granted(t *Ticket) bool {
	select {
	case <-t.Ready():
		return true
	default:
		return false
	}
}

func queue(t *testing.T, b *Budget, r Request) *Ticket {
	t.Helper()
	k, err := b.Queue(r)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Work is granted while it fits, first come first served: a big request first in line holds back
// a small one behind it (no overtaking, so big work is never starved), quick work goes ahead of
// queued long work, and what is released goes to the next in line.
func TestQueueOrder(t *testing.T) {
	b := New(Config{Bytes: 100, Slots: 2})
	a := queue(t, b, Request{Bytes: 60, Slot: true})
	big := queue(t, b, Request{Bytes: 50, Slot: true})
	small := queue(t, b, Request{Bytes: 10, Slot: true})
	if !granted(a) || granted(big) || granted(small) {
		t.Fatalf("granted %v %v %v, want only the first", granted(a), granted(big), granted(small))
	}
	if p := big.Place(); p.Pos != 1 || !p.Memory {
		t.Errorf("big's place %+v, want 1st, waiting for memory", p)
	}
	if p := small.Place(); p.Pos != 2 {
		t.Errorf("small's place %+v, want 2nd (behind big, though it would fit)", p)
	}
	behind := queue(t, b, Request{Bytes: 1, Slot: true, Background: true})
	soon := queue(t, b, Request{Bytes: 1, Slot: true})
	if p, q := behind.Place(), soon.Place(); p.Pos != 4 || q.Pos != 3 {
		t.Errorf("background work at %d, later long work at %d: want 4th, behind it at 3rd", p.Pos, q.Pos)
	}
	behind.Release()
	soon.Release()
	quick := queue(t, b, Request{Bytes: 30, Quick: true})
	if !granted(quick) {
		// 60 + 30 fit in 100: quick work goes ahead of the queued long work.
		t.Errorf("quick work that fits waits behind long work")
	}
	quick.Release()
	a.Release()
	if !granted(big) || !granted(small) {
		t.Fatalf("after the first left: big %v, small %v; want both (60 of 100, two slots)", granted(big), granted(small))
	}
	third := queue(t, b, Request{Bytes: 1, Slot: true})
	if p := third.Place(); granted(third) || p.Pos != 1 || p.Memory {
		t.Errorf("two slots busy: granted %v, place %+v; want queued for a slot", granted(third), p)
	}
	big.Resize(5, false) // finished: holds its matrix, frees its slot
	if !granted(third) {
		t.Error("a slot freed by Resize did not go to the next in line")
	}
	if st := b.Stats(); st.Held != 5+10+1 || st.Busy != 2 || st.Queued != 0 || st.Peak != 60+30 {
		t.Errorf("stats %+v", st)
	}
	for _, k := range []*Ticket{big, small, third, third} { // a second release counts once
		k.Release()
	}
	if st := b.Stats(); st.Held != 0 || st.Busy != 0 {
		t.Errorf("all released: %+v", st)
	}
}

// Work that could never fit is refused with what it needs and what is allowed; what sessions are
// charged counts against it, since waiting would not free it.
func TestTooBig(t *testing.T) {
	b := New(Config{Bytes: 100, Slots: 1})
	s := b.Charge(30)
	_, err := b.Queue(Request{Bytes: 80})
	var tb *TooBig
	if !errors.As(err, &tb) || tb.Need != 80 || tb.Allowed != 70 {
		t.Fatalf("80 of 100 with 30 charged: %v, want TooBig 80 > 70", err)
	}
	s.Release()
	if k, err := b.Queue(Request{Bytes: 80}); err != nil || !granted(k) {
		t.Errorf("after the charge was released: %v", err)
	}
	if got := (&TooBig{Need: 3 << 30, Allowed: 800 << 20}).Error(); got != "needs about 3 GiB; the room's memory allows 800 MiB" {
		t.Errorf("message %q", got)
	}
}

// Acquire waits its turn, reporting its place as it changes, and leaves the queue when its context
// ends; the reclaim hook is asked to free memory when the first in line does not fit.
func TestAcquire(t *testing.T) {
	b := New(Config{Bytes: 100, Slots: 4})
	asked := make(chan int64, 4)
	hold := queue(t, b, Request{Bytes: 90})
	b.OnReclaim(func(need int64) { asked <- need })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var places []Place
	_, err := b.Acquire(ctx, Request{Bytes: 20}, func(p Place) { places = append(places, p) })
	if !errors.Is(err, context.DeadlineExceeded) || len(places) != 1 || places[0] != (Place{Pos: 1, Memory: true}) {
		t.Fatalf("Acquire: %v, places %v", err, places)
	}
	if st := b.Stats(); st.Queued != 0 {
		t.Errorf("a waiter whose context ended stays queued: %+v", st)
	}
	select {
	case need := <-asked:
		if need != 10 {
			t.Errorf("reclaim asked for %d, want 10", need)
		}
	case <-time.After(time.Second):
		t.Error("reclaim not asked")
	}
	done := make(chan error)
	go func() {
		k, err := b.Acquire(context.Background(), Request{Bytes: 20}, nil)
		if err == nil {
			k.Release()
		}
		done <- err
	}()
	for b.Stats().Queued == 0 {
		time.Sleep(time.Millisecond)
	}
	hold.Resize(50, false)
	if err := <-done; err != nil {
		t.Errorf("granted after the holder shrank: %v", err)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"800MiB": 800 << 20, "1.5GiB": 3 << 29, "2G": 2 << 30, "512M": 512 << 20, "1000": 1000, "1GB": 1e9, " 64 kib ": 64 << 10} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MiB", "-1G", "0", "12 parsecs", "1e30T", "NaNG"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q): no error", in)
		}
	}
	for b, want := range map[Bytes]string{512: "512 B", 800 << 20: "800 MiB", 3 << 29: "1.5 GiB", 2600 << 20: "2.54 GiB"} {
		if got := b.String(); got != want {
			t.Errorf("%d: %q, want %q", int64(b), got, want)
		}
	}
}

// The default is the smallest limit the process runs under.
func TestDefault(t *testing.T) {
	d := Default()
	for _, l := range Limits() {
		if l.Bytes < d.Bytes {
			t.Errorf("default %v (%s) above %v (%s)", Bytes(d.Bytes), d.From, Bytes(l.Bytes), l.From)
		}
	}
	if d.Bytes <= 0 || d.From == "" {
		t.Errorf("default %+v", d)
	}
	t.Logf("default %v from %s; limits %+v", Bytes(d.Bytes), d.From, Limits())
	old := debug.SetMemoryLimit(300 << 20)
	defer debug.SetMemoryLimit(old)
	if d := Default(); d.Bytes != 300<<20 || d.From != "GOMEMLIMIT" {
		t.Errorf("under GOMEMLIMIT=300MiB the default is %v from %s", Bytes(d.Bytes), d.From)
	}
}

// Background work (a client's command) takes at most all slots but one, and the one slot of a
// budget that has only one; it gives its slot up to a player's run waiting for one (Yield), keeps
// its memory meanwhile, and gets the slot back, ahead of other background work, once the run's
// slot frees up.
func TestBackgroundSlots(t *testing.T) {
	for _, c := range []struct{ slots, behind int }{{1, 1}, {2, 1}, {3, 2}, {8, 7}} {
		b := New(Config{Bytes: 100, Slots: c.slots})
		var ts []*Ticket
		for range c.slots + 1 {
			ts = append(ts, queue(t, b, Request{Bytes: 1, Slot: true, Background: true}))
		}
		if st := b.Stats(); st.Busy != c.behind || st.Behind != c.behind || st.Queued != c.slots+1-c.behind {
			t.Errorf("%d slots: %+v, want %d background computing", c.slots, st, c.behind)
		}
		run := queue(t, b, Request{Bytes: 1, Slot: true})
		if granted(run) != (c.slots > 1) {
			t.Errorf("%d slots: a player's run granted %v beside full background work", c.slots, granted(run))
		}
		for _, k := range ts {
			k.Release()
		}
		run.Release()
		if st := b.Stats(); st.Busy != 0 || st.Behind != 0 || st.Held != 0 {
			t.Errorf("%d slots, all released: %+v", c.slots, st)
		}
	}

	b := New(Config{Bytes: 100, Slots: 1})
	cmd := queue(t, b, Request{Bytes: 40, Slot: true, Background: true})
	other := queue(t, b, Request{Bytes: 10, Slot: true, Background: true})
	if err := cmd.Yield(context.Background()); err != nil || b.Stats().Yielded != 0 {
		t.Fatalf("yield with only background work waiting: %v, %+v (want no yield)", err, b.Stats())
	}
	run := queue(t, b, Request{Bytes: 50, Slot: true})
	if granted(run) {
		t.Fatal("a player's run granted beside the command's one slot")
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Yield(context.Background()) }()
	waitFor(t, func() bool { return granted(run) })
	if st := b.Stats(); st.Held != 90 || st.Busy != 1 || st.Behind != 0 || st.Yielded != 1 {
		t.Errorf("yielded: %+v, want the run computing and the command's 40 still held", st)
	}
	select {
	case err := <-done:
		t.Fatalf("Yield returned (%v) while the run holds the slot", err)
	case <-time.After(50 * time.Millisecond):
	}
	run.Release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if granted(other) {
		t.Error("other background work took the slot the command yielded")
	}
	if st := b.Stats(); st.Busy != 1 || st.Behind != 1 || st.Held != 40 {
		t.Errorf("slot back: %+v", st)
	}
	cmd.Release()
	if !granted(other) {
		t.Error("the next background work not granted once the command ended")
	}
	other.Release()

	// A yield whose wait is cancelled gives back nothing twice.
	cmd = queue(t, b, Request{Bytes: 10, Slot: true, Background: true})
	run = queue(t, b, Request{Bytes: 10, Slot: true})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	if err := cmd.Yield(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled yield: %v", err)
	}
	cmd.Release()
	run.Release()
	if st := b.Stats(); st.Busy != 0 || st.Behind != 0 || st.Held != 0 || st.Queued != 0 {
		t.Errorf("after a cancelled yield: %+v", st)
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); !ok(); {
		if time.Now().After(end) {
			t.Fatal("timed out")
		}
		time.Sleep(time.Millisecond)
	}
}

// A default budget stays below a cgroup's limit by an eighth, at least 64 MiB, at most half.
func TestCgroupMargin(t *testing.T) {
	for _, c := range []struct{ limit, want int64 }{
		{1 << 30, 128 << 20}, // a 1 GiB VM: 896 MiB
		{256 << 20, 64 << 20},
		{100 << 20, 50 << 20},
		{16 << 30, 2 << 30},
	} {
		if got := CgroupMargin(c.limit); got != c.want {
			t.Errorf("margin of %v: %v, want %v", Bytes(c.limit), Bytes(got), Bytes(c.want))
		}
	}
}
