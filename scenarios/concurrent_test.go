package scenarios

import (
	"slices"
	"sync"
	"testing"
)

// One loaded scenario makes streams for many seeds at once (a server's sessions share it): each
// stream is the one its seed makes alone.
func TestStreamsConcurrently(t *testing.T) {
	for _, name := range []string{"covcon-d", "scenario2"} {
		s, err := Load(name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := make([][]float64, 8)
		for seed := range want {
			st, err := s.Stream(uint64(seed))
			if err != nil {
				t.Fatal(err)
			}
			b, err := st.Batch(1)
			if err != nil {
				t.Fatal(err)
			}
			want[seed] = b.Q.V
		}
		var wg sync.WaitGroup
		for seed := range want {
			wg.Add(1)
			go func() {
				defer wg.Done()
				st, err := s.Stream(uint64(seed))
				if err != nil {
					t.Error(err)
					return
				}
				if b, err := st.Batch(1); err != nil || !slices.Equal(b.Q.V, want[seed]) {
					t.Errorf("%s seed %d: concurrent streams give other queries (%v)", name, seed, err)
				}
			}()
		}
		wg.Wait()
	}
}
