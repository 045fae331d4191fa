package expr

import (
	"math"
	"strings"
	"testing"

	"github.com/cara-sim/cara/scenarios/internal/format"
)

// Every name and operator of the expression language, evaluated at t = 3 and x = (0.25, 4).
// Each want is the arithmetic done by hand.
func TestExpressionValues(t *testing.T) {
	tests := []struct {
		src  string
		want float64
	}{
		{"t", 3},
		{"t / 2", 1.5},                         // / divides as reals, even between whole numbers
		{"t % 2", 1},                           // 3 = 1*2 + 1
		{"-7 % 3", -1},                         // the sign of the dividend, as Go's %
		{"floor(t/2) % 2", 1},                  // floor(1.5) = 1; % on a float is math.Mod
		{"x2 % 1.5", 1},                        // 4 = 2*1.5 + 1
		{"2^3^2", 512},                         // ^ is right-associative: 2^(3^2)
		{"-2^2", -4},                           // and binds tighter than unary minus
		{"x1^0.5", 0.5},                        // sqrt(0.25)
		{"sqrt(x2) + abs(-1) + floor(2.7)", 5}, // 2 + 1 + 2
		{"min(1, 2) + max(t, 3.5)", 4.5},
		{"min(x1, x2, -1)", -1},
		{"sin(pi/2) + cos(0)", 2},
		{"exp(0) + log(e)", 2},
		{"x1 < 1 ? 10 : 20", 10},
		{"(t + 1) % 7 / 10", 0.4},
	}
	ev := NewEvaluator(2)
	for _, tc := range tests {
		p, err := Compile(format.Scalar{Set: true, Text: tc.src, Line: 1, Col: 1}, "f", 2, true, false)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		got, err := ev.Num(p, "f", 3, []float64{0.25, 4})
		if err != nil || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s = %v (%v), want %v", tc.src, got, err, tc.want)
		}
	}
}

func TestConditionsAndRuntimeErrors(t *testing.T) {
	ev := NewEvaluator(2)
	compile := func(src string, asBool bool) *Program {
		p, err := Compile(format.Scalar{Set: true, Text: src, Line: 4, Col: 9}, "f", 2, true, asBool)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for src, want := range map[string]bool{
		"x2 > 4*(x1 - 0.5)^2":                true, // 4 > 0.25
		"not (x1 > 0) or t == 3":             true,
		"0.8*sin(pi*x1) > x2 && !(t < 0)":    false, // 0.566 < 4
		"(floor(t/10) % 2 == 0) == (x1 > 0)": true,
	} {
		if got, err := ev.Cond(compile(src, true), "f", 3, []float64{0.25, 4}); err != nil || got != want {
			t.Errorf("%s = %v (%v), want %v", src, got, err, want)
		}
	}
	// Undefined values are errors naming the place, the expression and t (and x for a point).
	for _, tc := range []struct {
		src, want string
		x         []float64
	}{
		{"1/(t-3)", `4:9: f: expression "1/(t-3)" is +Inf at t=3`, nil},
		{"log(x1 - 1)", `4:9: f: expression "log(x1 - 1)" is NaN at t=3, x=[0.25 4]`, []float64{0.25, 4}},
		{"t % (t - 3)", `4:9: f: expression "t % (t - 3)" fails at t=3: runtime error: integer divide by zero`, nil},
	} {
		_, err := ev.Num(compile(tc.src, false), "f", 3, tc.x)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %s", tc.src, err, tc.want)
		}
	}
}

func TestUsesT(t *testing.T) {
	for src, want := range map[string]bool{"x1 > t/10": true, "x1 > 0.5": false, "sin(t) > x2 or x1 > 1": true, "t": true, "pi": false} {
		p, err := Compile(format.Scalar{Set: true, Text: src}, "f", 2, true, src != "t" && src != "pi")
		if err != nil {
			t.Fatal(err)
		}
		if p.UsesT != want {
			t.Errorf("%s: usesT %v, want %v", src, p.UsesT, want)
		}
	}
}
