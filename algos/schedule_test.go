package algos

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSchedulePathAlongC prices schedules on random matrices and checks each against its path
// along C summed here by hand: the batches it retrains at listed from the rule, the model in use
// followed from them, and C[s_t, t] added up (C[T_start, T_start] first, as every strategy pays).
func TestSchedulePathAlongC(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for trial := range 20 {
		T, off := 30+rng.IntN(30), 5+rng.IntN(10)
		m := randomMatrix(rng, T, off)
		k := 1 + rng.IntN(9)
		o := rng.IntN(k)
		at := []int{off, off + 3, off + 4, T - 1}
		schedules := []Schedule{{Every: k}, {Every: k, Offset: o}, {At: at}}
		if o == 0 {
			schedules = []Schedule{{Every: k}, {At: at}} // every-k once
		}
		opt := Options{Schedules: schedules}
		var names []Name
		for _, s := range schedules {
			names = append(names, s.Name())
		}
		r := 0.5 + rng.Float64()*3
		res, err := opt.Evaluate(m, Constant(r), append([]Name{NameOracle}, names...), T-1)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range schedules {
			var want []int
			for tt := off + 1; tt < T; tt++ {
				if s.Every > 0 && (tt-s.Offset)%s.Every == 0 || s.Every == 0 && slices.Contains(at, tt) {
					want = append(want, tt)
				}
			}
			cost, model := r, off // C[off, off]
			for tt := off + 1; tt < T; tt++ {
				if slices.Contains(want, tt) {
					model = tt
					cost += r
				} else {
					cost += m.s[model][tt]
				}
			}
			got := res[i+1]
			if got.Algorithm != s.Name() || !slices.Equal(got.Strategy.Retrains, want) {
				t.Fatalf("trial %d, %s: retrains %v, by hand %v", trial, got.Algorithm, got.Strategy.Retrains, want)
			}
			if math.Abs(got.Strategy.Cost()-cost) > 1e-9 {
				t.Errorf("trial %d, %s: cost %v, by hand %v", trial, got.Algorithm, got.Strategy.Cost(), cost)
			}
			if oracle := res[0].Strategy.Cost(); got.Strategy.Cost() < oracle-1e-9 || math.Abs(got.Gap-(cost-oracle)) > 1e-9 {
				t.Errorf("trial %d, %s: cost %v, gap %v against the Oracle's %v", trial, got.Algorithm, cost, got.Gap, oracle)
			}
			if got.Params != nil || got.Detection != nil || got.Strategy.Alarms != nil {
				t.Errorf("%s: params %v, detection %v, alarms %v; a schedule has none", got.Algorithm, got.Params, got.Detection, got.Strategy.Alarms)
			}
		}
	}
}

func TestScheduleNames(t *testing.T) {
	for _, tc := range []struct {
		s    Schedule
		want Name
	}{{Schedule{Every: 7}, "every-7"}, {Schedule{Every: 7, Offset: 3}, "every-7+3"}, {Schedule{At: []int{30}}, "at"}} {
		if got := tc.s.Name(); got != tc.want || !got.IsSchedule() {
			t.Errorf("%+v: %s (a schedule's name: %v), want %s", tc.s, got, got.IsSchedule(), tc.want)
		}
	}
	for _, n := range []Name{"every-", "every-x", "every--1", "every-3+", "every-3+-1", "at2", "oracle", "adwin"} {
		if n.IsSchedule() {
			t.Errorf("%s is taken for a schedule's name", n)
		}
	}
}

func TestScheduleValidate(t *testing.T) {
	for _, tc := range []struct {
		s    Schedule
		want string // "" for valid
	}{
		{Schedule{Every: 1}, ""},
		{Schedule{Every: 7, Offset: 6}, ""},
		{Schedule{At: []int{25, 30, 99}}, ""},
		{Schedule{}, "every must be a whole number of batches >= 1"},
		{Schedule{Every: -2}, "every must be"},
		{Schedule{Every: 7, Offset: 7}, "offset must be in 0..6"},
		{Schedule{Every: 7, Offset: -1}, "offset must be in 0..6"},
		{Schedule{At: []int{}}, "at lists no batch"},
		{Schedule{At: []int{24}}, "outside the online block 25..99"},
		{Schedule{At: []int{100}}, "outside the online block 25..99"},
		{Schedule{At: []int{30, 30}}, "at lists batch 30 twice"},
		{Schedule{At: []int{40, 30}}, "increasing order"},
	} {
		err := tc.s.Validate(25, 100)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: %v, want %q", tc.s, err, tc.want)
		}
	}
}

// TestScheduleOnlyWithItsOptions: a schedule's name is an algorithm only where the options hold it.
func TestScheduleOnlyWithItsOptions(t *testing.T) {
	m := constMatrix(10, 1)
	if _, err := Evaluate(m, Constant(1), []Name{"every-3"}, 9); err == nil || !strings.Contains(err.Error(), `unknown algorithm "every-3"`) {
		t.Errorf("every-3 without schedules: %v", err)
	}
	res, err := Options{Schedules: []Schedule{{Every: 3}}}.Evaluate(m, Constant(1), []Name{"every-3"}, 9)
	if err != nil || len(res) != 1 || !slices.Equal(res[0].Strategy.Retrains, []int{3, 6, 9}) {
		t.Errorf("every-3 over the online block of constMatrix(10): %+v, %v", res, err)
	}
}
