package scenarios

import (
	"testing"
	"strings"
)

func TestZZProbe(t *testing.T) {
	for _, src := range []string{"floor(t/10) % 2 == 0", "2 ** 3 > 1", "\"a\" == \"a\"", "[1,2][0] > 0", "1 in [1]", "let y = 1; y > 0", "x1 > 0 ? true : false", "t % 2 == 1", "x1 % 2 > 0", "2^3^2 > 0", "-x1^2 < 0", "x1.y > 0", "sin > 0", "abs(-1) > 0", "len([1]) > 0", "max(x1, 2) > 1", "min(1,2,3) > 0", "now() > 0", "1..3 == 1..3", "x1 ?? 1 > 0", "nil == nil", "true", "t"} {
		_, err := compileExpr(scalar{set: true, text: src, line: 1, col: 1}, "f", 2, true, true)
		t.Logf("%-25s -> %v", src, err)
	}
	for _, src := range []string{
		"model: 5", "data: [1]", "seed: -1", "batches: 1.5", "data: {concepts: 5}", "data: {concepts: [5]}", "model: {knn: 5}", "model: {knn: {k: [1]}}", "queries: {gaussian: 3}", "name: {a: 1}", "kernel: [1]", "algorithms: {a: 1}", "algorithms: [[1]]", "data: {gaussian: {mean: {a: 1}}}",
	} {
		in := base
		key := strings.SplitN(src, ":", 2)[0]
		var lines []string
		for _, l := range strings.Split(in, "\n") {
			if strings.HasPrefix(l, key+":") { continue }
			lines = append(lines, l)
		}
		in = strings.Join(lines, "\n") + src + "\n"
		_, err := Parse("p.yaml", []byte(in), "", Options{})
		t.Logf("%-30s -> %v", src, err)
	}
}
