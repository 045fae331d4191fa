package algos

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Schedule is a fixed retraining schedule, the policy a practitioner already runs ("retrain every
// week"): every Every batches, at the online batches t with (t - Offset) mod Every = 0 (the
// absolute batch index, as CARA-P counts), or, when Every is 0, at exactly the batches At. It is
// priced as every other algorithm is: Algorithm 1 over the online block, the model of T_start
// trained at T_start whatever the schedule says (every strategy pays C[T_start, T_start]; a
// schedule that falls on T_start adds nothing there), a retrain at a later t costing C[t, t] and a
// keep C[t', t].
type Schedule struct {
	Every, Offset int   // Every >= 1 and 0 <= Offset < Every; Every 0 for an At schedule
	At            []int // ascending, without repeats
}

// Name is the schedule's row name: every-K, every-K+O when the offset is not 0, or at.
func (s Schedule) Name() Name {
	switch {
	case s.Every == 0:
		return "at"
	case s.Offset == 0:
		return Name("every-" + strconv.Itoa(s.Every))
	}
	return Name(fmt.Sprintf("every-%d+%d", s.Every, s.Offset))
}

// Validate checks the schedule against a stream of batches batches whose online block starts at
// start: a period of at least 1 with an offset in 0..period-1, or a list of batches in
// start..batches-1, ascending, none twice. Batches before start are refused: the schedule is priced
// over the online block, and a retrain there would never be paid.
func (s Schedule) Validate(start, batches int) error {
	if s.Every != 0 || s.At == nil {
		if s.Every < 1 {
			return fmt.Errorf("every must be a whole number of batches >= 1, got %d", s.Every)
		}
		if s.Offset < 0 || s.Offset >= s.Every {
			return fmt.Errorf("offset must be in 0..%d (every %d batches), got %d", s.Every-1, s.Every, s.Offset)
		}
		return nil
	}
	if len(s.At) == 0 {
		return fmt.Errorf("at lists no batch; give at least one online batch (%d..%d)", start, batches-1)
	}
	for i, t := range s.At {
		switch {
		case t < start || t >= batches:
			return fmt.Errorf("at lists batch %d, outside the online block %d..%d", t, start, batches-1)
		case i > 0 && t == s.At[i-1]:
			return fmt.Errorf("at lists batch %d twice", t)
		case i > 0 && t < s.At[i-1]:
			return fmt.Errorf("at lists batch %d after %d; give the batches in increasing order", t, s.At[i-1])
		}
	}
	return nil
}

// Decide implements Policy.
func (s Schedule) Decide(c Costs, t, tp int) bool {
	if s.Every == 0 {
		_, ok := slices.BinarySearch(s.At, t)
		return ok
	}
	return ((t-s.Offset)%s.Every+s.Every)%s.Every == 0
}

// Explain implements Policy.
func (s Schedule) Explain(c Costs, t, tp int, retrain bool) string {
	switch {
	case s.Every == 0 && retrain:
		return fmt.Sprintf("retrain: %d is on the schedule", t)
	case s.Every == 0:
		return fmt.Sprintf("keep: %d is not on the schedule", t)
	case retrain:
		return fmt.Sprintf("retrain: (%d - %d) mod %d = 0", t, s.Offset, s.Every)
	}
	return fmt.Sprintf("keep: (%d - %d) mod %d = %d", t, s.Offset, s.Every, ((t-s.Offset)%s.Every+s.Every)%s.Every)
}

// schedule is the schedule named n among o's.
func (o Options) schedule(n Name) (Schedule, bool) {
	for _, s := range o.Schedules {
		if s.Name() == n {
			return s, true
		}
	}
	return Schedule{}, false
}

// IsSchedule reports whether n is a fixed schedule's name (every-K, every-K+O or at).
func (n Name) IsSchedule() bool {
	if n == "at" {
		return true
	}
	k, o, ok := strings.Cut(strings.TrimPrefix(string(n), "every-"), "+")
	if !strings.HasPrefix(string(n), "every-") || !wholeNumber(k) || ok && !wholeNumber(o) {
		return false
	}
	return true
}

func wholeNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil && s != "" && s[0] != '-' && s[0] != '+'
}
