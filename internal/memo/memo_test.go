package memo

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Askers of one key at once share one computation; the values held are the Max most recently used.
func TestShareAndBound(t *testing.T) {
	m := New[int, int](2)
	var calls atomic.Int32
	release := make(chan struct{})
	square := func(k int) func(context.Context) (int, error) {
		return func(context.Context) (int, error) {
			calls.Add(1)
			<-release
			return k * k, nil
		}
	}
	var wg sync.WaitGroup
	got := make([]int, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = m.Get(context.Background(), 3, square(3))
		}()
	}
	time.Sleep(20 * time.Millisecond) // let them all ask
	close(release)
	wg.Wait()
	for i, v := range got {
		if v != 9 {
			t.Errorf("asker %d got %d, want 9", i, v)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d computations for 8 askers of one key, want 1", n)
	}
	m.Get(context.Background(), 4, square(4))
	m.Get(context.Background(), 3, square(3)) // 3 is now the most recent: 4 goes next
	m.Get(context.Background(), 5, square(5))
	calls.Store(0)
	m.Get(context.Background(), 3, square(3))
	m.Get(context.Background(), 5, square(5))
	if calls.Load() != 0 || m.Len() != 2 {
		t.Errorf("3 and 5 recomputed (%d) or %d held, want neither and 2", calls.Load(), m.Len())
	}
	m.Get(context.Background(), 4, square(4))
	if calls.Load() != 1 {
		t.Error("4, the least recently used, was still held")
	}
	m.Clear()
	if m.Len() != 0 {
		t.Error("Clear kept values")
	}
}

// A failure is not kept; a computation cancelled with its asker is done again for one still
// waiting; Shared goes on when its asker leaves.
func TestFailureAndCancel(t *testing.T) {
	m := New[string, int](4)
	bad := errors.New("bad")
	if _, err := m.Get(context.Background(), "a", func(context.Context) (int, error) { return 0, bad }); err != bad {
		t.Fatalf("error %v", err)
	}
	if v, err := m.Get(context.Background(), "a", func(context.Context) (int, error) { return 1, nil }); v != 1 || err != nil {
		t.Errorf("after a failure: %v %v, want a new computation", v, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	var waiter int
	done := make(chan struct{})
	go func() {
		m.Get(ctx, "b", func(ctx context.Context) (int, error) {
			close(started)
			<-ctx.Done()
			return 0, ctx.Err()
		})
	}()
	<-started
	go func() {
		waiter, _ = m.Get(context.Background(), "b", func(context.Context) (int, error) { return 7, nil })
		close(done)
	}()
	time.Sleep(10 * time.Millisecond)
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the waiter never got its value")
	}
	if waiter != 7 {
		t.Errorf("waiter got %d after the first asker was cancelled, want its own 7", waiter)
	}

	ctx2, cancel2 := context.WithCancel(context.Background())
	finish := make(chan struct{})
	go func() { time.Sleep(10 * time.Millisecond); cancel2() }()
	if _, err := m.Shared(ctx2, "c", func(context.Context) (int, error) { <-finish; return 5, nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("Shared after its asker left: %v", err)
	}
	close(finish)
	if v, _ := m.Shared(context.Background(), "c", func(context.Context) (int, error) { return -1, nil }); v != 5 {
		t.Errorf("the shared computation was not finished for the next asker: %d", v)
	}
}
