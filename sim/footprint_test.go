package sim

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"
)

func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// ModelBytes counts what a forest holds, its trees and its compiled vote, within a tenth of
// what the heap says it took (the allocator rounds, and a GC leaves some behind).
func TestModelBytesMatchHeap(t *testing.T) {
	x, y := circleData(rand.New(rand.NewPCG(2, 2)), 1000)
	h0 := liveHeap()
	m, err := RandomForest{Trees: 100, Workers: 1}.Fit(x, y, 1)
	if err != nil {
		t.Fatal(err)
	}
	h1 := liveHeap()
	m.Predict(x, make([]uint8, x.Len()))
	h2 := liveHeap()
	kept, compiled := ModelBytes(m)
	near := func(what string, counted, heap int64) {
		t.Logf("%s: counted %d bytes, heap %d", what, counted, heap)
		if d := float64(counted-heap) / float64(heap); d < -0.1 || d > 0.1 {
			t.Errorf("%s: counted %d bytes, the heap took %d (%.0f%% off)", what, counted, heap, 100*d)
		}
	}
	near("trees", kept, h1-h0)
	near("compiled vote", compiled, h2-h1)
	runtime.KeepAlive(m)
}

// The estimate bounds the live heap of a run from above, within a small factor, and says how
// many trees fit a budget.
func TestEstimate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		trees int
		order Order
	}{{"10 trees", 10, ColumnOrder}, {"60 trees", 60, ColumnOrder}, {"row order", 60, RowOrder}} {
		cfg := config(testStream{T: 30, n: 400, nq: 40, drift: 15}, 2, tc.order)
		cfg.Trainer = RandomForest{Trees: tc.trees}
		f, err := Estimate(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		base := liveHeap()
		var peak int64
		if _, err := Run(context.Background(), cfg, func(ev Event) error {
			if ev.Index%5 == 4 || ev.Index == 29 {
				peak = max(peak, liveHeap()-base)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: estimated peak %d, held %d; measured peak %d", tc.name, f.Peak, f.Held, peak)
		if f.Peak < peak || f.Peak > 3*peak {
			t.Errorf("%s: estimated %d bytes, measured %d: want the estimate above it and within 3 times", tc.name, f.Peak, peak)
		}
		if cells := int64(30 * 31 / 2); f.Held < cells*(int64(8*7)) || f.Held > f.Peak {
			t.Errorf("%s: held %d", tc.name, f.Held)
		}
		if f.Trees != tc.trees {
			t.Errorf("%s: %d trees", tc.name, f.Trees)
		}
		// TreesWithin inverts the estimate: n trees fit within the peak of n trees, n+1 do not.
		n := f.TreesWithin(f.Peak)
		if n != tc.trees || f.TreesWithin(f.Peak-1) >= tc.trees || f.TreesWithin(f.fixed) != 0 {
			t.Errorf("%s: TreesWithin(peak) %d, TreesWithin(peak-1) %d, want %d and fewer", tc.name, n, f.TreesWithin(f.Peak-1), tc.trees)
		}
	}
	cfg := config(testStream{T: 30, n: 400, nq: 40, drift: 15}, 2, ColumnOrder)
	cfg.Trainer = Logistic{}
	f, err := Estimate(context.Background(), cfg)
	if err != nil || f.Trees != 0 || f.TreesWithin(1<<40) != 0 || f.Peak <= f.Held {
		t.Errorf("a logistic model: %+v, %v", f, err)
	}
}
