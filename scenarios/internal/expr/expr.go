// Package expr is the small language of a scenario file's values: an expression may use t (the
// batch index, a whole number), x1..xd (the point's features, where the expression labels points),
// pi, e, sin, cos, exp, log, sqrt, abs, floor, min, max, arithmetic (+ - * / % and ^ for powers),
// comparisons, and, or, not and a ? b : c. Nothing else: expr-lang's strings, lists, maps, let,
// pipes and other builtins are refused at load, so a scenario file stays a small language a reader
// can check by eye. Each expression is compiled once, at load (Compile), against a typed
// environment, and evaluated by an Evaluator; errors name the expression's place in the file.
package expr

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	exprlang "github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"

	"github.com/cara-sim/cara/scenarios/internal/format"
)

// exprFuncs are the functions an expression may call: sin..sqrt from the environment, abs..max
// as expr-lang's builtins (which take ints and floats alike).
var (
	envFuncs     = []string{"sin", "cos", "exp", "log", "sqrt"}
	builtinFuncs = []string{"abs", "floor", "min", "max"}
	allowedOps   = []string{"+", "-", "*", "/", "%", "^", "<", ">", "<=", ">=", "==", "!=", "and", "or", "&&", "||"}
)

// exprEnv returns the environment an expression is compiled against: the names it may use with a
// value of their type; withX adds x1..xd.
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

// Program is a compiled expression with its source and place, for run-time errors.
type Program struct {
	Src   string
	At    format.Scalar
	UsesT bool // the expression reads t: its value may change from batch to batch
	prog  *vm.Program
}

// Compile compiles s as a number (asBool false) or a condition (asBool true). withX allows
// x1..xd. Errors name the place of s, the field and what expressions may use.
func Compile(s format.Scalar, field string, d int, withX, asBool bool) (*Program, error) {
	allowed := "t, pi, e, sin, cos, exp, log, sqrt, abs, floor, min, max, + - * / % ^, comparisons, and, or, not, a ? b : c"
	if withX {
		allowed = fmt.Sprintf("t, x1..x%d, pi, e, sin, cos, exp, log, sqrt, abs, floor, min, max, + - * / %% ^, comparisons, and, or, not, a ? b : c", d)
	}
	if !withX {
		allowed += " (no x: this value is the same for every point)"
	}
	fail := func(msg string, col int) error {
		// A value of 100 kB (a paste gone wrong) is shown by its start, once: expr-lang's message
		// quotes the token it stopped at, and the column is shown in the expression.
		msg = cut(msg, maxShown)
		if col > 0 {
			msg = fmt.Sprintf("%s (at column %d of %s)", msg, col, quoteCut(s.Text, maxShown))
		}
		return s.Errorf(field, "bad expression: %s; expressions may use %s", msg, allowed)
	}
	tree, err := parser.Parse(s.Text)
	if err != nil {
		var fe *file.Error
		if errors.As(err, &fe) {
			return nil, fail(fe.Message, fe.Column+1)
		}
		return nil, fail(err.Error(), 0)
	}
	check := &grammar{}
	ast.Walk(&tree.Node, check)
	if check.bad != "" {
		return nil, fail(check.bad, check.col)
	}
	kind := exprlang.AsFloat64()
	if asBool {
		kind = exprlang.AsBool()
	}
	p, err := exprlang.Compile(s.Text, exprlang.Env(exprEnv(d, withX)), kind, exprlang.DisableAllBuiltins(),
		exprlang.EnableBuiltin("abs"), exprlang.EnableBuiltin("floor"), exprlang.EnableBuiltin("min"), exprlang.EnableBuiltin("max"),
		// % on numbers that are not both whole (floor(t/10) % 2, x1 % 0.5) is the remainder of
		// math.Mod, with the sign of the dividend as Go's % on whole numbers has.
		exprlang.Function("fmod", fmod, new(func(float64, float64) float64), new(func(float64, int) float64), new(func(int, float64) float64)),
		exprlang.Operator("%", "fmod"))
	if err != nil {
		var fe *file.Error
		if errors.As(err, &fe) {
			return nil, fail(fe.Message, fe.Column+1)
		}
		return nil, fail(err.Error(), 0)
	}
	return &Program{Src: s.Text, prog: p, At: s, UsesT: check.usesT}, nil
}

// maxShown bounds what a message shows of an expression, or of expr-lang's words about it.
const maxShown = 120

// cut shortens text to about n bytes, saying how long it was.
func cut(text string, n int) string {
	if len(text) <= n {
		return text
	}
	return fmt.Sprintf("%s... (%d bytes)", strings.ToValidUTF8(text[:n], ""), len(text))
}

// quoteCut quotes text, or its start and how long it is.
func quoteCut(text string, n int) string {
	if len(text) <= n {
		return strconv.Quote(text)
	}
	return fmt.Sprintf("%q... (%d bytes)", strings.ToValidUTF8(text[:n], ""), len(text))
}

func fmod(args ...any) (any, error) {
	f := func(v any) float64 {
		if i, ok := v.(int); ok {
			return float64(i)
		}
		return v.(float64)
	}
	return math.Mod(f(args[0]), f(args[1])), nil
}

// grammar walks a parsed expression and records the first construct outside the language above.
// Names are checked by the compiler against the environment, so an unknown variable is reported
// there; here only the shapes of the syntax tree are.
type grammar struct {
	bad   string
	col   int
	usesT bool
}

func (g *grammar) Visit(node *ast.Node) {
	// ast.Walk visits children first: keep the leftmost refusal, which a reader meets first.
	col := (*node).Location().From + 1
	if g.bad != "" && g.col <= col {
		if id, ok := (*node).(*ast.IdentifierNode); ok && id.Value == "t" {
			g.usesT = true
		}
		return
	}
	refuse := func(what string) {
		g.bad, g.col = what+" is not part of scenario expressions", col
	}
	switch n := (*node).(type) {
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.ConditionalNode:
	case *ast.IdentifierNode:
		g.usesT = g.usesT || n.Value == "t"
	case *ast.UnaryNode:
		if !slices.Contains([]string{"-", "+", "!", "not"}, n.Operator) {
			refuse("operator " + n.Operator)
		}
	case *ast.BinaryNode:
		if n.Operator == "**" {
			g.bad, g.col = "** is written ^ here", col
			return
		}
		if !slices.Contains(allowedOps, n.Operator) {
			refuse("operator " + n.Operator)
		}
	case *ast.CallNode:
		if id, ok := n.Callee.(*ast.IdentifierNode); !ok || !slices.Contains(envFuncs, id.Value) {
			refuse("this call")
		}
	case *ast.BuiltinNode:
		if !slices.Contains(builtinFuncs, n.Name) {
			g.bad, g.col = "unknown name "+n.Name, col
		}
	case *ast.StringNode, *ast.BytesNode:
		refuse("a string")
	case *ast.NilNode:
		refuse("nil")
	case *ast.ArrayNode, *ast.SliceNode, *ast.MemberNode, *ast.ChainNode:
		refuse("a list or member access")
	case *ast.MapNode, *ast.PairNode:
		refuse("a map")
	case *ast.VariableDeclaratorNode, *ast.SequenceNode:
		refuse("let or ;")
	default:
		refuse(fmt.Sprintf("%T", n))
	}
}

// Evaluator runs programs with one reusable environment (not safe for concurrent use: sources
// keep a pool of them).
type Evaluator struct {
	env map[string]any
	vm  vm.VM
	x   []string
}

// NewEvaluator is an evaluator of programs over d features.
func NewEvaluator(d int) *Evaluator {
	ev := &Evaluator{env: exprEnv(d, true), x: make([]string, d)}
	for k := range d {
		ev.x[k] = "x" + strconv.Itoa(k+1)
	}
	return ev
}

func (ev *Evaluator) bind(t int, x []float64) {
	ev.env["t"] = t
	for k, v := range x {
		ev.env[ev.x[k]] = v
	}
}

// Num evaluates a numeric program at batch t (and point x); NaN or Inf is an error naming the
// expression and t.
func (ev *Evaluator) Num(p *Program, field string, t int, x []float64) (float64, error) {
	ev.bind(t, x)
	out, err := ev.vm.Run(p.prog, ev.env)
	if err != nil {
		return 0, p.At.Errorf(field, "expression %q fails at t=%d: %v", p.Src, t, err)
	}
	v := out.(float64)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		if x != nil {
			return 0, p.At.Errorf(field, "expression %q is %v at t=%d, x=%v", p.Src, v, t, x)
		}
		return 0, p.At.Errorf(field, "expression %q is %v at t=%d", p.Src, v, t)
	}
	return v, nil
}

// Cond evaluates a condition program. (A comparison with NaN is false, as in Go: a condition
// cannot be undefined.)
func (ev *Evaluator) Cond(p *Program, field string, t int, x []float64) (bool, error) {
	ev.bind(t, x)
	out, err := ev.vm.Run(p.prog, ev.env)
	if err != nil {
		return false, p.At.Errorf(field, "expression %q fails at t=%d: %v", p.Src, t, err)
	}
	return out.(bool), nil
}
