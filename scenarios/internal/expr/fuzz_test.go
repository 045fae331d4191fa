package expr

import (
	"strings"
	"testing"

	"github.com/cara-sim/cara/scenarios/internal/format"
)

// Expressions come from users' files: whatever the text, Compile returns a program or an error
// that names its place, and a program's run-time errors name the expression.
func FuzzExpression(f *testing.F) {
	for _, s := range []string{"x2 > x1", "(t+1) % 7 / 10", "sin(pi*x1)^2 + cos(t)", "1/(t-4)", "log(-1) > 0", "max(1, min(2, floor(t/3)))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		at := format.Scalar{Set: true, Text: src, Line: 1, Col: 1}
		for _, asBool := range []bool{false, true} {
			p, err := Compile(at, "f", 2, true, asBool)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "1:1: f: bad expression") {
					t.Errorf("compile error does not name its place: %v", err)
				}
				continue
			}
			ev := NewEvaluator(2)
			for tt := range 3 {
				if asBool {
					ev.Cond(p, "f", tt, []float64{0.5, -1})
				} else if _, err := ev.Num(p, "f", tt, []float64{0.5, -1}); err != nil && !strings.Contains(err.Error(), "f: expression") {
					t.Errorf("run-time error does not name the expression: %v", err)
				}
			}
		}
	})
}
