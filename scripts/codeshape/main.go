// Command codeshape measures how a tree of Go packages hangs together: lines per package, how many
// pairs of its files reference each other, and the types with the most methods. It is the
// measurement behind issue 34's before and after figures, with the standard library only (go list
// for the packages and their dependencies' export data, go/types for the references).
//
//	go run ./scripts/codeshape ./tui/...
//	go run ./scripts/codeshape -C /tmp/before ./tui/...   # another checkout of the module
//	go run ./scripts/codeshape -v ./tui/...               # and the pairs linked both ways
//
// A pair of non-test files is linked when either file uses an identifier (a type, function,
// variable, constant, method or field) declared in the other. A linked pair "runs back up" when
// the uses go both ways: each file needs the other, so neither can be read, moved or changed
// alone. Files of different packages can only be linked one way (Go has no import cycles).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// listed is what go list says of a package.
type listed struct {
	ImportPath  string
	Dir         string
	GoFiles     []string
	TestGoFiles []string
	Export      string
	DepOnly     bool
}

func main() {
	dir := flag.String("C", ".", "the module's directory")
	top := flag.Int("top", 8, "how many types to list by their method sets")
	verbose := flag.Bool("v", false, "list the pairs linked both ways")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: codeshape [-C dir] [-top n] packages")
		os.Exit(2)
	}
	if err := run(*dir, flag.Args(), *top, *verbose, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "codeshape:", err)
		os.Exit(1)
	}
}

func run(dir string, patterns []string, top int, verbose bool, out io.Writer) error {
	pkgs, err := list(dir, patterns)
	if err != nil {
		return err
	}
	byPath := map[string]*listed{}
	var targets []*listed
	for _, p := range pkgs {
		byPath[p.ImportPath] = p
		if !p.DepOnly {
			targets = append(targets, p)
		}
	}
	sort.Slice(targets, func(i, j int) bool { return targets[i].ImportPath < targets[j].ImportPath })
	c := &checker{fset: token.NewFileSet(), byPath: byPath, done: map[string]*types.Package{}, info: &types.Info{
		Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}, isTarget: map[string]bool{}}
	for _, p := range targets {
		c.isTarget[p.ImportPath] = true
	}
	c.gc = importer.ForCompiler(c.fset, "gc", func(path string) (io.ReadCloser, error) {
		p, ok := byPath[path]
		if !ok || p.Export == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(p.Export)
	})
	for _, p := range targets {
		if _, err := c.Import(p.ImportPath); err != nil {
			return err
		}
	}
	lines(targets, out)
	c.links(out, verbose)
	c.methods(targets, top, out)
	return nil
}

// list runs go list on the patterns, with their dependencies and export data.
func list(dir string, patterns []string) ([]*listed, error) {
	cmd := exec.Command("go", append([]string{"list", "-deps", "-export", "-json=ImportPath,Dir,GoFiles,TestGoFiles,Export,DepOnly"}, patterns...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, stderr.String())
	}
	var out []*listed
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		p := new(listed)
		if err := dec.Decode(p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// checker type-checks the target packages from source (so that their objects' positions name their
// files) and imports everything else from export data.
type checker struct {
	fset     *token.FileSet
	byPath   map[string]*listed
	isTarget map[string]bool
	done     map[string]*types.Package
	gc       types.Importer
	info     *types.Info
	files    []*ast.File
}

func (c *checker) Import(path string) (*types.Package, error) {
	if !c.isTarget[path] {
		return c.gc.Import(path)
	}
	if p, ok := c.done[path]; ok {
		return p, nil
	}
	l := c.byPath[path]
	var files []*ast.File
	for _, name := range l.GoFiles {
		f, err := parser.ParseFile(c.fset, filepath.Join(l.Dir, name), nil, 0)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: c}
	p, err := conf.Check(path, c.fset, files, c.info)
	if err != nil {
		return nil, err
	}
	c.done[path] = p
	c.files = append(c.files, files...)
	return p, nil
}

// lines prints each package's lines of Go, non-test and test files apart.
func lines(pkgs []*listed, out io.Writer) {
	fmt.Fprintln(out, "lines per package (non-test files, test files):")
	var sum, sumTest, files int
	for _, p := range pkgs {
		n, t := count(p.Dir, p.GoFiles), count(p.Dir, p.TestGoFiles)
		sum, sumTest, files = sum+n, sumTest+t, files+len(p.GoFiles)
		fmt.Fprintf(out, "  %-50s %6d in %2d files, tests %6d\n", p.ImportPath, n, len(p.GoFiles), t)
	}
	fmt.Fprintf(out, "  %-50s %6d in %2d files, tests %6d\n", "total", sum, files, sumTest)
}

func count(dir string, names []string) int {
	n := 0
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err == nil {
			n += bytes.Count(b, []byte("\n"))
		}
	}
	return n
}

// links prints how many pairs of files are linked, and how many of those both ways.
func (c *checker) links(out io.Writer, verbose bool) {
	uses := map[[2]string]bool{} // [user, declarer]
	var names []string
	for _, f := range c.files {
		names = append(names, c.fset.File(f.Pos()).Name())
	}
	own := map[string]bool{}
	for _, n := range names {
		own[n] = true
	}
	for id, obj := range c.info.Uses {
		if obj == nil || !obj.Pos().IsValid() {
			continue
		}
		from, to := c.fset.File(id.Pos()).Name(), c.fset.File(obj.Pos()).Name()
		if from != to && own[to] {
			uses[[2]string{from, to}] = true
		}
	}
	linked, both := 0, 0
	var pairs []string
	for i, a := range names {
		for _, b := range names[i+1:] {
			ab, ba := uses[[2]string{a, b}], uses[[2]string{b, a}]
			if ab || ba {
				linked++
			}
			if ab && ba {
				both++
				pairs = append(pairs, "  "+rel(a)+" <-> "+rel(b))
			}
		}
	}
	defer func() {
		if verbose {
			sort.Strings(pairs)
			fmt.Fprintln(out, strings.Join(pairs, "\n"))
		}
	}()
	n := len(names)
	fmt.Fprintf(out, "file pairs: %d files, %d possible pairs, %d linked, %d of them both ways (back up)\n", n, n*(n-1)/2, linked, both)
}

// rel is a file's path from its module's tui/ folder (or its base name).
func rel(path string) string {
	if i := strings.LastIndex(path, "/tui/"); i >= 0 {
		return path[i+1:]
	}
	return filepath.Base(path)
}

// methods prints the named types with the largest method sets (of *T), with the methods they
// declare themselves.
func (c *checker) methods(pkgs []*listed, top int, out io.Writer) {
	type row struct {
		name          string
		set, declared int
	}
	var rows []row
	for _, l := range pkgs {
		p := c.done[l.ImportPath]
		for _, name := range p.Scope().Names() {
			tn, ok := p.Scope().Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok {
				continue
			}
			set := types.NewMethodSet(types.NewPointer(named)).Len()
			if _, isIface := named.Underlying().(*types.Interface); isIface {
				set = types.NewMethodSet(named).Len()
			}
			short := strings.TrimPrefix(l.ImportPath, "github.com/cara-sim/cara/")
			rows = append(rows, row{short + "." + name, set, named.NumMethods()})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].set != rows[j].set {
			return rows[i].set > rows[j].set
		}
		return rows[i].name < rows[j].name
	})
	fmt.Fprintf(out, "types with the most methods (method set of *T; declared on T or *T):\n")
	for _, r := range rows[:min(top, len(rows))] {
		fmt.Fprintf(out, "  %-40s %3d (%d declared)\n", r.name, r.set, r.declared)
	}
}
