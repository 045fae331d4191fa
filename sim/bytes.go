package sim

import "unsafe"

// What models hold on the heap, for a registry's accounting and a run's estimate (footprint.go):
// counted from their arrays, so exact up to slice headers and the allocator's rounding, which the
// tests measure against the heap (TestModelBytesMatchHeap).

const (
	nodeBytes  = int64(unsafe.Sizeof(node{}))
	sliceBytes = int64(unsafe.Sizeof([]byte(nil)))
)

// ModelBytes is what m holds: kept is its trees or vectors, compiled what a forest's compiled vote
// adds once it was asked (0 before, and for other models).
func ModelBytes(m Model) (kept, compiled int64) {
	kept = keptBytes(m)
	if f, ok := m.(*forestModel); ok && f.plan != nil {
		compiled = f.plan.bytes()
	}
	return kept, compiled
}

// treeBytes is a forest's trees: its nodes and where each tree starts.
func (f *forestModel) treeBytes() int64 {
	return int64(cap(f.nodes))*nodeBytes + int64(cap(f.start))*4 + int64(unsafe.Sizeof(*f))
}

// bytes is what a compiled vote holds.
func (p *votePlan) bytes() int64 {
	n := int64(unsafe.Sizeof(*p)) + int64(cap(p.features))*4
	for k := range p.cuts {
		n += sliceBytes + int64(cap(p.cuts[k]))*8
	}
	for k := range p.index {
		n += int64(unsafe.Sizeof(p.index[k])) + int64(cap(p.index[k].start))*2
		// index[k].cuts is cuts[k] with +Inf after it: counted above, unless appending reallocated it
		if &p.index[k].cuts[0] != unsafe.SliceData(p.cuts[k]) {
			n += int64(cap(p.index[k].cuts)) * 8
		}
	}
	n += int64(p.mapCells) * 2 // every tree's maps, one array
	for i := range p.trees {
		t := &p.trees[i]
		n += int64(unsafe.Sizeof(*t)) + int64(cap(t.use))*4 + int64(cap(t.stride))*4 + int64(cap(t.table))*8 + int64(cap(t.maps))*sliceBytes
	}
	if r := p.regions; r != nil {
		n += int64(unsafe.Sizeof(*r)) + int64(len(r.trees))*int64(unsafe.Sizeof(regionTree{}))
		for k := range r.fine {
			n += int64(cap(r.fine[k])) + int64(r.n[k])*2 // the box map, and the map of zeros for trees without k
		}
		for l := range r.state {
			n += int64(cap(r.state[l])) * 4
		}
	}
	return n
}
