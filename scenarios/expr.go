package scenarios

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"
)

// An expression in a scenario file may use t (the batch index, a whole number), x1..xd (the
// point's features), pi, e, sin, cos, exp, log, sqrt, abs, floor, min, max, % (on whole numbers)
// and ^ (power). Each is compiled once, at load, against exactly that environment.

// exprEnv returns the names an expression may use; withX adds x1..xd.
func exprEnv(d int, withX bool) map[string]any {
	env := map[string]any{
		"t": 0, "pi": math.Pi, "e": math.E,
		"sin": math.Sin, "cos": math.Cos, "exp": math.Exp, "log": math.Log, "sqrt": math.Sqrt,
	}
	if withX {
		for k := 1; k <= d; k++ {
			env["x"+strconv.Itoa(k)] = 0.0
		}
	}
	return env
}

// program is a compiled expression with its source and place, for run-time errors.
type program struct {
	src  string
	prog *vm.Program
	at   scalar
}

// compileExpr compiles s as a number (asBool false) or a condition (asBool true).
func compileExpr(s scalar, field string, d int, withX, asBool bool) (*program, error) {
	kind := expr.AsFloat64()
	if asBool {
		kind = expr.AsBool()
	}
	p, err := expr.Compile(s.text, expr.Env(exprEnv(d, withX)), kind, expr.DisableAllBuiltins(),
		expr.EnableBuiltin("abs"), expr.EnableBuiltin("floor"), expr.EnableBuiltin("min"), expr.EnableBuiltin("max"))
	if err != nil {
		var fe *file.Error
		msg := err.Error()
		if errors.As(err, &fe) {
			msg = fmt.Sprintf("%s (at column %d of %q)", fe.Message, fe.Column+1, s.text)
		}
		allowed := "t, pi, e, sin, cos, exp, log, sqrt, abs, floor, min, max, % and ^"
		if withX {
			allowed = fmt.Sprintf("t, x1..x%d, pi, e, sin, cos, exp, log, sqrt, abs, floor, min, max, %% and ^", d)
		}
		return nil, s.errorf(field, "bad expression: %s; expressions may use %s", msg, allowed)
	}
	return &program{src: s.text, prog: p, at: s}, nil
}

// evaluator runs programs with one reusable environment (not safe for concurrent use).
type evaluator struct {
	env map[string]any
	vm  vm.VM
	x   []string
}

func newEvaluator(d int) *evaluator {
	ev := &evaluator{env: exprEnv(d, true), x: make([]string, d)}
	for k := range d {
		ev.x[k] = "x" + strconv.Itoa(k+1)
	}
	return ev
}

func (ev *evaluator) bind(t int, x []float64) {
	ev.env["t"] = t
	for k, v := range x {
		ev.env[ev.x[k]] = v
	}
}

// num evaluates a numeric program at batch t (and point x); NaN or Inf is an error naming the
// expression and t.
func (ev *evaluator) num(p *program, field string, t int, x []float64) (float64, error) {
	ev.bind(t, x)
	out, err := ev.vm.Run(p.prog, ev.env)
	if err != nil {
		return 0, p.at.errorf(field, "expression %q fails at t=%d: %v", p.src, t, err)
	}
	v := out.(float64)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, p.at.errorf(field, "expression %q is %v at t=%d", p.src, v, t)
	}
	return v, nil
}

// cond evaluates a condition program.
func (ev *evaluator) cond(p *program, field string, t int, x []float64) (bool, error) {
	ev.bind(t, x)
	out, err := ev.vm.Run(p.prog, ev.env)
	if err != nil {
		return false, p.at.errorf(field, "expression %q fails at t=%d: %v", p.src, t, err)
	}
	return out.(bool), nil
}
