package main

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestRunSchedulePathAlongC: a schedule set on the command line is a row of its own, retraining at
// the online batches the rule names, and its cost is the path along C that `cara matrix` prints,
// summed here: C[T_start, T_start], then C[t, t] at each retrain and C[s, t] at each keep.
func TestRunSchedulePathAlongC(t *testing.T) {
	t.Parallel()
	out, err := cara(t, "matrix", small, "--format", "json", "-R", "0.8")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Offline int          `json:"offline"`
		C       [][]*float64 `json:"C"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	out, err = cara(t, "run", small, "--format", "json", "-R", "0.8", "--set", "schedules=[{every: 3}, {every: 3, offset: 1}, {at: [5, 9]}]")
	if err != nil {
		t.Fatal(err)
	}
	var r runContract
	decodeStrict(t, out, &r)
	rows := map[string]resultContract{}
	for _, x := range r.Results {
		rows[x.Algorithm] = x
	}
	for name, rule := range map[string]func(t int) bool{
		"every-3":   func(t int) bool { return t%3 == 0 },
		"every-3+1": func(t int) bool { return t%3 == 1 },
		"at":        func(t int) bool { return t == 5 || t == 9 },
	} {
		x, ok := rows[name]
		if !ok {
			t.Fatalf("no %s row in %v", name, r.Results)
		}
		var want []int
		s := m.Offline
		cost := *m.C[s][s]
		for tt := m.Offline + 1; tt < len(m.C); tt++ {
			if rule(tt) {
				want, s = append(want, tt), tt
			}
			cost += *m.C[s][tt]
		}
		if !slices.Equal(x.Retrains, want) || math.Abs(*x.StrategyCost-cost) > 1e-9 {
			t.Errorf("%s: retrains %v cost %v; by the rule %v, along C %v", name, x.Retrains, *x.StrategyCost, want, cost)
		}
	}
	// The table names the rows as the JSON does.
	table, err := cara(t, "run", small, "-R", "0.8", "--set", "schedules=[{every: 3}, {at: [5, 9]}]")
	if err != nil || !strings.Contains(table, "every-3") || !strings.Contains(table, "\n             at ") {
		t.Errorf("table: %v\n%s", err, table)
	}
}

// TestRunScoresDetectors: small's concept flips at batch 6; every detector's row carries its
// alarms and their score against that drift, and the table has the scores under it.
func TestRunScoresDetectors(t *testing.T) {
	t.Parallel()
	out, err := cara(t, "run", small, "--format", "json", "--detectors", "all")
	if err != nil {
		t.Fatal(err)
	}
	var r runContract
	decodeStrict(t, out, &r)
	if len(r.Drifts) != 1 || r.Drifts[0].From != 6 {
		t.Fatalf("drifts %+v, want the one at 6", r.Drifts)
	}
	n := 0
	for _, x := range r.Results {
		isDetector := slices.Contains([]string{"adwin", "ddm", "page-hinkley", "eddm", "hddm-a", "hddm-w", "kswin"}, x.Algorithm)
		if !isDetector {
			if x.Alarms != nil || x.Detection != nil {
				t.Errorf("%s: alarms %v, detection %+v", x.Algorithm, x.Alarms, x.Detection)
			}
			continue
		}
		n++
		d := x.Detection
		if x.Alarms == nil || d == nil || d.Window != 2 || len(d.Drifts) != 1 || d.Drifts[0].From != 6 {
			t.Fatalf("%s: alarms %v, detection %+v", x.Algorithm, x.Alarms, d)
		}
		// Each alarm is the detection, a repeat within 6..8, or false.
		detected := d.Drifts[0].Alarm != nil
		if float64(len(d.FalseAlarms)) != d.FalseCount || d.Detected+d.Missed != 1 || detected != (d.Detected == 1) {
			t.Errorf("%s: counts %+v", x.Algorithm, d)
		}
		for _, a := range x.Alarms {
			if inWindow := a >= 6 && a <= 8; inWindow == slices.Contains(d.FalseAlarms, a) {
				t.Errorf("%s: alarm at %d, false alarms %v", x.Algorithm, a, d.FalseAlarms)
			}
		}
	}
	if n != 7 {
		t.Errorf("%d detector rows, want 7", n)
	}
	table, err := cara(t, "run", small)
	if err != nil || !strings.Contains(table, "Detectors against the known drifts of the online block, at batches 6") {
		t.Errorf("table: %v\n%s", err, table)
	}
}
