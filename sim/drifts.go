package sim

// What a matrix tells the algorithms of its run beyond the cells (algos reads both through
// interfaces of its own, as it reads Warnings).

// DriftBatches are the matrix's known drifts, each as its first and last batch, and whether its
// stream knows them: a stream's Drifts are nil when it does not (real data), and a list, empty
// when there are none, when it does (a generated stream).
func (m *Matrix) DriftBatches() (drifts [][2]int, known bool) {
	if m.Drifts == nil {
		return nil, false
	}
	drifts = make([][2]int, len(m.Drifts))
	for i, d := range m.Drifts {
		drifts[i] = [2]int{d.From, d.To}
	}
	return drifts, true
}

// RunSeed is the seed the run was computed with: a detector that samples (KSWIN) draws from it.
func (m *Matrix) RunSeed() uint64 { return m.Seed }
