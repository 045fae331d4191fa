package live

// A queued run's place and its estimated wait, as its watchers are told them.

import (
	"fmt"
	"slices"
	"time"
)

// Queue is a queued run's place, as its watchers see it.
type Queue struct {
	Pos int           // 1 for the first in line (a server's commands count too); 0 when not queued
	ETA time.Duration // estimated wait until it starts; 0 when there is no measure yet
	// Memory says the first in line waits for the room's memory rather than for a compute slot:
	// then there is no estimate, as the wait is for others to finish or leave.
	Memory bool
}

func (q Queue) String() string {
	if q.Pos == 0 {
		return ""
	}
	s := "queued: " + ordinal(q.Pos)
	switch {
	case q.Memory:
		s += "; the room's memory is in use"
	case q.ETA > 0:
		s += ", about " + roughly(q.ETA)
	}
	return s
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// roughly says a wait as precisely as an estimate deserves: to the second below 10 s, to 5 s below
// a minute, to 10 s below 90 s, then in minutes. A coarse estimate also changes less often, and
// each change redraws a waiting player.
func roughly(d time.Duration) string {
	s := int((d + time.Second/2) / time.Second)
	switch {
	case s < 10:
		return fmt.Sprintf("%d s", max(s, 1))
	case s < 60:
		return fmt.Sprintf("%d s", (s+2)/5*5)
	case s < 90:
		return fmt.Sprintf("%d s", (s+5)/10*10)
	}
	return fmt.Sprintf("%d min", (s+30)/60)
}

// queueLocked estimates a queued run's wait from measured run times: each computing run ends after
// its elapsed time scaled by the share of its cells still to do, each queued run ahead takes the
// mean measured time of its scenario (of any scenario when its own has none yet), and a run starts
// in the first slot to free up. ETA is 0 when nothing has been measured yet.
//
// Its place is the budget's, where other work (a server's commands) may be ahead of it: each of
// those is taken to last the mean of any run.
func (r *Runs) queueLocked(run *sharedRun) Queue {
	pos := slices.Index(r.queue, run)
	if pos < 0 {
		return Queue{}
	}
	q := Queue{Pos: pos + 1}
	if run.ticket != nil {
		p := run.ticket.Place()
		if p.Pos == 0 {
			return Queue{} // granted: about to start
		}
		q.Pos, q.Memory = p.Pos, p.Memory
		if q.Memory {
			return q
		}
	}
	now := time.Now()
	var slots []time.Duration // when each slot frees up, from now
	for _, c := range r.runs {
		if c.state != runComputing {
			continue
		}
		if len(c.events) == 0 {
			m, ok := r.took[c.cfg.Scenario]
			if !ok {
				return q
			}
			slots = append(slots, max(m.mean()-now.Sub(c.started), 0))
			continue
		}
		last := c.events[len(c.events)-1]
		frac := float64(last.CellsDone) / float64(max(last.CellsAll, 1))
		elapsed := now.Sub(c.started)
		slots = append(slots, time.Duration(float64(elapsed)*(1-frac)/max(frac, 1e-3)))
	}
	for len(slots) < r.cfg.MaxComputing {
		slots = append(slots, 0)
	}
	others := max(q.Pos-1-pos, 0) // work ahead that is not this registry's runs
	for k := range pos + others {
		name := ""
		if k < pos {
			name = r.queue[k].cfg.Scenario
		}
		d, ok := r.meanLocked(name)
		if !ok {
			return q
		}
		i := slices.Index(slots, slices.Min(slots))
		slots[i] += d
	}
	q.ETA = slices.Min(slots)
	if q.ETA == 0 {
		q.ETA = time.Millisecond // about to start: shown as "about 1 s"
	}
	return q
}

// meanLocked is the mean measured time of a scenario's runs, or of all runs when it has none.
func (r *Runs) meanLocked(scenario string) (time.Duration, bool) {
	if m, ok := r.took[scenario]; ok {
		return m.mean(), true
	}
	var all meanDuration
	for _, m := range r.took {
		all.sum += m.sum
		all.n += m.n
	}
	return all.mean(), all.n > 0
}
