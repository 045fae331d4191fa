package streams

import (
	"math"
	"testing"
)

func TestConceptTransitions(t *testing.T) {
	// At the midpoint of a transition, at + width/2, both shapes give 1/2: the sigmoid
	// 1/(1+exp(-4*0/width)) and the line (width/2)/width.
	c := concept{at: 10, width: 4, sigmoid: true}
	if p := c.probability(12); math.Abs(p-0.5) > 1e-12 {
		t.Errorf("sigmoid at its midpoint: %v, want 0.5", p)
	}
	// At its start the sigmoid is 1/(1+e^2) = 0.1192, at its end 1/(1+e^-2) = 0.8808.
	if p := c.probability(10); math.Abs(p-1/(1+math.Exp(2))) > 1e-12 {
		t.Errorf("sigmoid at its start: %v", p)
	}
	l := concept{at: 10, width: 4}
	for tau, want := range map[float64]float64{9: 0, 10: 0, 11: 0.25, 12: 0.5, 14: 1, 20: 1} {
		if p := l.probability(tau); p != want {
			t.Errorf("linear at %v: %v, want %v", tau, p, want)
		}
	}
	if a := (concept{at: 3}); a.probability(2.99) != 0 || a.probability(3) != 1 {
		t.Error("abrupt concept")
	}
}
