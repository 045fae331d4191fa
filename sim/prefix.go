package sim

// FirstBatches is st cut to its first n batches (n <= st.Len()): the offline block of a stream
// and batch T_off, from which a sweep's R_max comes, computed without the online block. A batch
// is the same batch whatever the stream's length, so the cells are the full run's, bit for bit.
func FirstBatches(st Stream, n int) Stream {
	return prefix{st, min(n, st.Len())}
}

type prefix struct {
	Stream
	n int
}

func (p prefix) Len() int { return p.n }

func (p prefix) Drifts() []Drift {
	var out []Drift
	for _, d := range p.Stream.Drifts() {
		if d.From < p.n {
			out = append(out, d)
		}
	}
	return out
}
