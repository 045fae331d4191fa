package algos

import "math"

// ADWIN parameters as scikit-multiflow 0.5.3 fixes them.
const (
	adwinMaxBuckets   = 5  // buckets per row before the two oldest merge
	adwinClock        = 32 // a cut is looked for every clock updates
	adwinMinLongitude = 10 // ... and only once the window is wider than this
	adwinMinLength    = 5  // both sides of a cut hold at least this many elements
)

// adwinRow holds buckets of the same size, oldest first.
type adwinRow struct {
	total    [adwinMaxBuckets + 1]float64
	variance [adwinMaxBuckets + 1]float64
	size     int
}

func (r *adwinRow) insert(total, variance float64) {
	r.total[r.size], r.variance[r.size] = total, variance
	r.size++
}

// drop removes the n oldest buckets.
func (r *adwinRow) drop(n int) {
	copy(r.total[:], r.total[n:])
	copy(r.variance[:], r.variance[n:])
	for i := len(r.total) - n; i < len(r.total); i++ {
		r.total[i], r.variance[i] = 0, 0
	}
	r.size -= n
}

// ADWIN is the adaptive-windowing change detector of Bifet & Gavaldà (2007) as scikit-multiflow
// 0.5.3 implements it, which the paper used, quirks included: it looks for a cut only every 32
// updates and only once the window is wider than 10; the scan skips the newest bucket of each row;
// the bound uses the whole window's variance; after a cut it drops the oldest bucket and scans again.
//
// Feed it one value per update (here: 1 for a misclassified point, 0 for a correct one).
type ADWIN struct {
	delta    float64
	rows     []adwinRow // rows[i] holds buckets of 2^i elements; rows[0] is the newest
	total    float64    // sum of the window
	variance float64    // sum of squared deviations of the window
	width    int
	time     int
}

// NewADWIN returns an ADWIN detector with confidence delta (scikit-multiflow's default: 0.002).
func NewADWIN(delta float64) *ADWIN {
	a := &ADWIN{delta: delta}
	a.Reset()
	return a
}

// Reset forgets everything seen.
func (a *ADWIN) Reset() {
	a.rows = append(a.rows[:0], adwinRow{})
	a.total, a.variance, a.width, a.time = 0, 0, 0, 0
}

// Width is the current window length.
func (a *ADWIN) Width() int { return a.width }

// Estimation is the window's mean.
func (a *ADWIN) Estimation() float64 {
	if a.width == 0 {
		return 0
	}
	return a.total / float64(a.width)
}

// Update adds x and reports whether a drift is signalled at this update.
func (a *ADWIN) Update(x float64) bool {
	a.add(x)
	return a.detect()
}

func (a *ADWIN) add(x float64) {
	a.width++
	a.rows[0].insert(x, 0)
	if a.width > 1 {
		w := float64(a.width)
		d := x - a.total/(w-1)
		a.variance += (w - 1) * d * d / w
	}
	a.total += x
	a.compress()
}

// compress merges the two oldest buckets of every full row into one bucket of the next row.
func (a *ADWIN) compress() {
	for i := 0; i < len(a.rows) && a.rows[i].size == adwinMaxBuckets+1; i++ {
		if i+1 == len(a.rows) {
			a.rows = append(a.rows, adwinRow{})
		}
		row := &a.rows[i]
		n := float64(int(1) << i)
		u1, u2 := row.total[0]/n, row.total[1]/n
		inc := n * n * (u1 - u2) * (u1 - u2) / (n + n)
		a.rows[i+1].insert(row.total[0]+row.total[1], row.variance[1]+inc)
		row.drop(2)
	}
}

// deleteOldest drops the oldest bucket of the window.
func (a *ADWIN) deleteOldest() {
	last := len(a.rows) - 1
	row := &a.rows[last]
	n1 := float64(int(1) << last)
	a.width -= int(n1)
	a.total -= row.total[0]
	u1 := row.total[0] / n1
	w := float64(a.width)
	d := u1 - a.total/w
	a.variance -= row.variance[0] + n1*w*d*d/(n1+w)
	row.drop(1)
	if row.size == 0 {
		a.rows = a.rows[:last]
	}
}

func (a *ADWIN) detect() bool {
	changed := false
	a.time++
	if a.time%adwinClock != 0 || a.width <= adwinMinLongitude {
		return false
	}
	for reduce := true; reduce; {
		reduce = false
		n0, n1 := 0, a.width
		u0, u1 := 0.0, a.total
	scan:
		for i := len(a.rows) - 1; i >= 0; i-- {
			row := &a.rows[i]
			n2 := int(1) << i
			for k := 0; k < row.size-1; k++ { // the newest bucket of each row is skipped
				n0 += n2
				n1 -= n2
				u0 += row.total[k]
				u1 -= row.total[k]
				diff := u0/float64(n0) - u1/float64(n1)
				if n1 >= adwinMinLength && n0 >= adwinMinLength && a.cut(n0, n1, diff) {
					changed, reduce = true, true
					if a.width > 0 {
						a.deleteOldest()
						break scan
					}
				}
			}
		}
	}
	return changed
}

// cut is the bound eps = sqrt(2 m v dd) + (2/3) dd m with dd = ln(2 ln(n)/delta),
// m = 1/(n0-4) + 1/(n1-4) and v the whole window's variance.
func (a *ADWIN) cut(n0, n1 int, diff float64) bool {
	n := float64(a.width)
	dd := math.Log(2 * math.Log(n) / a.delta)
	v := a.variance / n
	m := 1/float64(n0-adwinMinLength+1) + 1/float64(n1-adwinMinLength+1)
	eps := math.Sqrt(2*m*v*dd) + 2*dd*m/3
	return math.Abs(diff) > eps
}
