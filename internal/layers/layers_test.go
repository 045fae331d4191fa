package layers

import (
	"go/build"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/cara-sim/cara/"

// Every package in Order imports (tests included) only packages before it (an external test its
// own too), and Charm's only when it
// is one of Charm.
func TestLayers(t *testing.T) {
	for i, pkg := range Order {
		p, err := build.ImportDir(filepath.Join("..", "..", filepath.FromSlash(pkg)), 0)
		if err != nil {
			t.Fatalf("%s: %v", pkg, err)
		}
		imports := append(append(slices.Clone(p.Imports), p.TestImports...), p.XTestImports...)
		for _, imp := range imports {
			if isCharm(imp) && !slices.Contains(Charm, pkg) {
				t.Errorf("%s imports %s: only %v may import Charm's packages", pkg, imp, Charm)
			}
			own, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			j := slices.Index(Order, own)
			switch {
			case j < 0:
				t.Errorf("%s imports %s, which is not in layers.Order", pkg, own)
			case j > i || j == i && !slices.Contains(p.XTestImports, imp): // an external test imports its own package
				t.Errorf("%s imports %s, which is not below it", pkg, own)
			}
		}
	}
}

// isCharm reports whether an import is Charm's or a terminal UI package built on it (ntcharts).
func isCharm(imp string) bool {
	return strings.HasPrefix(imp, "github.com/charmbracelet/") || strings.HasPrefix(imp, "github.com/NimbleMarkets/ntcharts")
}
