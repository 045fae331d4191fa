package scenarios

// The rows a scenario's tables have: the algorithms (algorithms), the detectors among them
// (detectors.run), the fixed schedules (schedules), and the window the detectors' alarms are
// scored in (detectors.window).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cara-sim/cara/algos"
	"github.com/cara-sim/cara/scenarios/internal/format"
)

// rows reads detectors.run, detectors.window and schedules, once the algorithms, the batches and
// the offline block are known. detectors.run chooses the detector rows (all, none or a list),
// replacing the detectors of the algorithms (the list's, or the default ones); the schedules
// come after, each a row of its own.
func (l *loader) rows(s *Scenario, raw *format.File) error {
	if d := raw.Detectors; d != nil {
		if d.Run.Set {
			run, err := detectorsRun(d.Run)
			if err != nil {
				return err
			}
			s.Algorithms = slices.Concat(slices.DeleteFunc(slices.Clone(s.Algorithms), algos.Name.IsDetector), run)
		}
		if d.Window.Set {
			w, err := d.Window.Int("detectors.window", 0, s.Batches)
			if err != nil {
				return err
			}
			s.Evaluation.DriftWindow = w
			if w == 0 {
				s.Evaluation.DriftWindow = -1 // algos: none (0 is its default)
			}
		}
	}
	return l.schedules(s, raw)
}

// detectorsRun reads detectors.run: all, none, or a list of detectors' names.
func detectorsRun(v format.Scalars) ([]algos.Name, error) {
	if len(v.Items) == 1 && !v.Items[0].Quoted {
		switch v.Items[0].Text {
		case "all":
			return algos.Detectors, nil
		case "none":
			return nil, nil
		}
	}
	if len(v.Items) == 0 {
		return nil, v.Place().Errorf("detectors.run", "is empty; write none for no detector, all for every one")
	}
	valid := make([]string, len(algos.Detectors))
	for i, n := range algos.Detectors {
		valid[i] = string(n)
	}
	var out []algos.Name
	for _, it := range v.Items {
		n := algos.Name(it.Text)
		switch {
		case !n.IsDetector():
			return nil, it.Errorf("detectors.run", "%q is not a detector; give all, none or some of %s", shortText(it.Text, 40), strings.Join(valid, ", "))
		case slices.Contains(out, n):
			return nil, it.Errorf("detectors.run", "lists %s twice", it.Text)
		}
		out = append(out, n)
	}
	slices.SortFunc(out, func(a, b algos.Name) int { return a.Rank() - b.Rank() }) // display order
	return out, nil
}

// schedules reads the schedules section: each {every: K} with an optional offset, or {at: [...]}
// of online batches, a row named every-K, every-K+O or at.
func (l *loader) schedules(s *Scenario, raw *format.File) error {
	for i, rs := range raw.Schedules {
		path, field := fmt.Sprintf("$.schedules[%d]", i), fmt.Sprintf("schedules[%d]", i)
		place := l.doc.At(path)
		var sc algos.Schedule
		switch {
		case rs.Every.Set == rs.At.Set:
			return place.Errorf(field, "give exactly one of every (a period in batches, with an optional offset) or at (a list of online batches)")
		case rs.Offset.Set && !rs.Every.Set:
			return rs.Offset.Errorf(field+".offset", "goes with every; at lists its batches itself")
		case rs.Every.Set:
			var err error
			if sc.Every, err = rs.Every.Int(field+".every", 1, format.MaxInt); err != nil {
				return err
			}
			if rs.Offset.Set {
				if sc.Offset, err = rs.Offset.Int(field+".offset", 0, sc.Every-1); err != nil {
					return err
				}
			}
		default:
			place = rs.At.Place()
			sc.At = []int{}
			for _, it := range rs.At.Items {
				t, err := it.Int(field+".at", s.Offline, s.Batches-1)
				if err != nil {
					return it.Errorf(field+".at", "lists %s; give online batches, whole numbers in %d..%d (the first, %d, is T_start: the first model is trained there anyway)",
						shortText(it.Text, 20), s.Offline, s.Batches-1, s.Offline)
				}
				sc.At = append(sc.At, t)
			}
		}
		if err := sc.Validate(s.Offline, s.Batches); err != nil {
			return place.Errorf(field, "%v", err)
		}
		if slices.Contains(s.Algorithms, sc.Name()) {
			why := ""
			if sc.Every == 0 {
				why = "; put every batch in one at list"
			}
			return place.Errorf(field, "is %s a second time%s", sc.Name(), why)
		}
		s.Evaluation.Schedules = append(s.Evaluation.Schedules, sc)
		s.Algorithms = append(slices.Clip(s.Algorithms), sc.Name())
	}
	return nil
}
