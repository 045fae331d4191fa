package algos

import "slices"

// UpTo is the strategy over Start..t only: what it had decided and paid by batch t. Every policy
// but the Oracle decides from the past alone, so this is also its replay up to t; the Oracle's,
// replayed over a longer block, keeps the retrains that only pay after t. Its slices are s's,
// clipped so that nothing appends into them.
func (s Strategy) UpTo(t int) Strategy {
	n := min(max(t-s.Start+1, 0), len(s.Model))
	k, _ := slices.BinarySearch(s.Retrains, t+1)
	s.End = s.Start + n - 1
	s.Model, s.Cumulative, s.Reasons = s.Model[:n:n], s.Cumulative[:n:n], s.Reasons[:n:n]
	s.Retrains = s.Retrains[:k:k]
	if s.Alarms != nil {
		k, _ = slices.BinarySearch(s.Alarms, t+1)
		s.Alarms, s.AlarmPoints = s.Alarms[:k:k], s.AlarmPoints[:k:k]
	}
	return s
}
