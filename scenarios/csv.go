package scenarios

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/cara-sim/cara/sim"
)

// TableOptions say how to read a CSV file.
type TableOptions struct {
	Label       string // the label column; "" for none (queries may have no labels)
	BatchColumn string // the batch column; "" to split rows in order
	Like        *Table // encode this file's features as this (data) table did, so queries line up
}

// Table is a CSV file read into numbers: numeric columns as they are, other feature columns one-hot
// encoded ("col=value", categories in order of first appearance), the label mapped to 0/1.
type Table struct {
	Path     string
	Features []string
	X        sim.Points
	Y        []uint8   // nil without a label column
	Classes  [2]string // Classes[0] is read as 0, Classes[1] as 1
	Batch    []int     // the batch column in row order; nil without one

	columns []tableColumn // how each feature source column was encoded
}

type tableColumn struct {
	name       string
	categories []string // nil for a numeric column
}

// ReadTable reads a CSV file with a header row. Errors name file:line (and the column).
// The file is read twice, streaming: once to find each column's type and categories, once to
// fill the numbers, so memory holds only the numeric result.
func ReadTable(path string, opt TableOptions) (*Table, error) {
	header, kinds, err := scanTable(path, opt)
	if err != nil {
		return nil, err
	}
	tab := &Table{Path: path}
	labelAt, batchAt := slices.Index(header, opt.Label), slices.Index(header, opt.BatchColumn)
	if opt.Label != "" && labelAt < 0 {
		if opt.Like != nil {
			labelAt = -1 // queries without labels
		} else {
			return nil, fmt.Errorf("%s: no label column %q (columns: %s)", path, opt.Label, strings.Join(header, ", "))
		}
	}
	if opt.BatchColumn != "" && batchAt < 0 {
		return nil, fmt.Errorf("%s: no batch column %q (columns: %s)", path, opt.BatchColumn, strings.Join(header, ", "))
	}
	var srcIdx []int // source column of each table column
	if opt.Like != nil {
		for _, c := range opt.Like.columns {
			i := slices.Index(header, c.name)
			if i < 0 {
				return nil, fmt.Errorf("%s: no column %q, which the data has (columns: %s)", path, c.name, strings.Join(header, ", "))
			}
			srcIdx = append(srcIdx, i)
			tab.columns = append(tab.columns, c)
		}
	} else {
		for i, name := range header {
			if i == labelAt || i == batchAt {
				continue
			}
			srcIdx = append(srcIdx, i)
			tab.columns = append(tab.columns, tableColumn{name: name, categories: kinds.categories[i]})
		}
	}
	if len(tab.columns) == 0 {
		return nil, fmt.Errorf("%s: no feature columns besides the label and batch columns", path)
	}
	for _, c := range tab.columns {
		if c.categories == nil {
			tab.Features = append(tab.Features, c.name)
		}
		for _, v := range c.categories {
			tab.Features = append(tab.Features, c.name+"="+v)
		}
	}
	d := len(tab.Features)
	tab.X = sim.Points{D: d, V: make([]float64, 0, kinds.rows*d)}
	if labelAt >= 0 {
		classes := kinds.labels
		if len(classes) != 2 {
			switch {
			case len(classes) < 2:
				return nil, fmt.Errorf("%s: label column %q has one class only (%s); two are needed", path, opt.Label, strings.Join(classes, ", "))
			default:
				return nil, fmt.Errorf("%s: label column %q has %d classes (%s); exactly two are needed", path, opt.Label, len(classes), strings.Join(classes, ", "))
			}
		}
		a, b := classes[0], classes[1]
		fa, ea := strconv.ParseFloat(a, 64)
		fb, eb := strconv.ParseFloat(b, 64)
		if ea == nil && eb == nil && fa > fb || (ea != nil || eb != nil) && a > b {
			a, b = b, a
		}
		tab.Classes = [2]string{a, b}
		if opt.Like != nil && opt.Like.Y != nil {
			tab.Classes = opt.Like.Classes
		}
		tab.Y = make([]uint8, 0, kinds.rows)
	}
	if batchAt >= 0 {
		tab.Batch = make([]int, 0, kinds.rows)
	}
	err = eachRow(path, func(line int, rec []string) error {
		for ci, c := range tab.columns {
			v := rec[srcIdx[ci]]
			if c.categories == nil {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
					return fmt.Errorf("%s:%d:%d: column %q: %q is not a finite number", path, line, srcIdx[ci]+1, c.name, v)
				}
				tab.X.V = append(tab.X.V, f)
				continue
			}
			k := slices.Index(c.categories, v)
			if k < 0 {
				return fmt.Errorf("%s:%d:%d: column %q: category %q is not among the data's (%s)", path, line, srcIdx[ci]+1, c.name, v, strings.Join(c.categories, ", "))
			}
			for j := range c.categories {
				tab.X.V = append(tab.X.V, b2f(j == k))
			}
		}
		if tab.Y != nil {
			switch v := rec[labelAt]; v {
			case tab.Classes[0]:
				tab.Y = append(tab.Y, 0)
			case tab.Classes[1]:
				tab.Y = append(tab.Y, 1)
			default:
				return fmt.Errorf("%s:%d:%d: label %q is neither class %q nor %q", path, line, labelAt+1, v, tab.Classes[0], tab.Classes[1])
			}
		}
		if tab.Batch != nil {
			v := strings.TrimSpace(rec[batchAt])
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("%s:%d:%d: batch column %q: %q is not a whole number", path, line, batchAt+1, opt.BatchColumn, v)
			}
			if k := len(tab.Batch); k > 0 && n < tab.Batch[k-1] {
				return fmt.Errorf("%s:%d:%d: batch column %q is not sorted: %d after %d", path, line, batchAt+1, opt.BatchColumn, n, tab.Batch[k-1])
			}
			tab.Batch = append(tab.Batch, n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return tab, nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// tableKinds is what the first pass learns: rows, categories of non-numeric columns, label values.
type tableKinds struct {
	rows       int
	categories [][]string // nil for a numeric column
	labels     []string   // distinct label values in order of appearance (at most 3 kept)
}

func scanTable(path string, opt TableOptions) ([]string, tableKinds, error) {
	var header []string
	var k tableKinds
	numeric := []bool{}
	labelAt := -1
	err := eachRecord(path, func(line int, rec []string) error {
		if header == nil {
			header = slices.Clone(rec)
			for i := range header {
				header[i] = strings.TrimSpace(header[i])
			}
			numeric = make([]bool, len(header))
			for i := range numeric {
				numeric[i] = true
			}
			k.categories = make([][]string, len(header))
			labelAt = slices.Index(header, opt.Label)
			return nil
		}
		k.rows++
		for i, v := range rec {
			if i == labelAt {
				if !slices.Contains(k.labels, v) && len(k.labels) < 3 {
					k.labels = append(k.labels, v)
				}
				continue
			}
			if numeric[i] {
				if _, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil || isNaNText(v) {
					continue
				}
				numeric[i] = false
			}
			if !slices.Contains(k.categories[i], v) {
				k.categories[i] = append(k.categories[i], v)
			}
		}
		return nil
	})
	if err != nil {
		return nil, k, err
	}
	if header == nil {
		return nil, k, fmt.Errorf("%s: the file is empty; a header row and data rows are needed", path)
	}
	if k.rows == 0 {
		return nil, k, fmt.Errorf("%s: only a header row; no data rows", path)
	}
	for i := range header {
		if numeric[i] {
			k.categories[i] = nil
		}
	}
	return header, k, nil
}

// isNaNText reports text that parses as a number but not a finite one; it stays a numeric column so
// the second pass can reject it with its place.
func isNaNText(v string) bool {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	return err == nil && (math.IsNaN(f) || math.IsInf(f, 0))
}

// eachRecord calls f with every record (header included) and its line number; ragged rows are an
// error naming the line.
func eachRecord(path string, f func(line int, rec []string) error) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	r := csv.NewReader(file)
	r.ReuseRecord = true
	r.FieldsPerRecord = -1
	width := -1
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return fmt.Errorf("%s:%d:%d: %v", path, pe.Line, pe.Column, pe.Err)
			}
			return fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		if width < 0 {
			width = len(rec)
		} else if len(rec) != width {
			return fmt.Errorf("%s:%d: row has %d fields, header has %d", path, line, len(rec), width)
		}
		if err := f(line, rec); err != nil {
			return err
		}
	}
}

// eachRow is eachRecord without the header.
func eachRow(path string, f func(line int, rec []string) error) error {
	first := true
	return eachRecord(path, func(line int, rec []string) error {
		if first {
			first = false
			return nil
		}
		return f(line, rec)
	})
}

// Split returns the row range [from, to) of each batch: one batch per distinct value of the batch
// column, in order, when there is one; otherwise batches nearly equal parts in row order.
func (t *Table) Split(batches int) ([][2]int, error) {
	n := t.X.Len()
	if t.Batch != nil {
		var out [][2]int
		for i := 0; i < n; {
			j := i
			for j < n && t.Batch[j] == t.Batch[i] {
				j++
			}
			out = append(out, [2]int{i, j})
			i = j
		}
		return out, nil
	}
	if batches < 1 {
		return nil, fmt.Errorf("%s: batches must be >= 1", t.Path)
	}
	if n < batches {
		return nil, fmt.Errorf("%s: %d rows cannot make %d batches", t.Path, n, batches)
	}
	out := make([][2]int, batches)
	for b := range batches {
		out[b] = [2]int{b * n / batches, (b + 1) * n / batches}
	}
	return out, nil
}

// rows returns the points and labels of rows [from, to).
func (t *Table) rows(r [2]int) (sim.Points, []uint8) {
	d := t.X.D
	x := sim.Points{D: d, V: t.X.V[r[0]*d : r[1]*d : r[1]*d]}
	if t.Y == nil {
		return x, nil
	}
	return x, t.Y[r[0]:r[1]:r[1]]
}

// tableData is a dataSource over a table split into batches.
type tableData struct {
	tab    *Table
	ranges [][2]int
}

func newTableData(tab *Table, batches int) (*tableData, error) {
	r, err := tab.Split(batches)
	if err != nil {
		return nil, err
	}
	return &tableData{tab: tab, ranges: r}, nil
}

func (d *tableData) Len() int            { return len(d.ranges) }
func (d *tableData) Features() int       { return d.tab.X.D }
func (d *tableData) Drifts() []sim.Drift { return nil }
func (d *tableData) Data(t int) (sim.Points, []uint8, error) {
	x, y := d.tab.rows(d.ranges[t])
	return x, y, nil
}
func (d *tableData) Label(int, sim.Points) ([]uint8, bool, error) { return nil, false, nil }

// tableQueries are queries read from a table split into the same number of batches.
type tableQueries struct {
	tab    *Table
	ranges [][2]int
}

func (q *tableQueries) Queries(t int, b *sim.Batch) (sim.Points, []uint8, error) {
	x, y := q.tab.rows(q.ranges[t])
	return x, y, nil
}

// resolveDataPath finds a CSV named in a scenario: relative to the scenario file's folder, or for an
// embedded scenario (dir "") in $CARA_DATA, ./data and ../shared/data (the shared folder beside a
// checkout), then beside the executable.
func resolveDataPath(dir, path, hint string) (string, error) {
	if filepath.IsAbs(path) {
		return path, statData(path, nil, hint)
	}
	if dir != "" {
		p := filepath.Join(dir, path)
		return p, statData(p, nil, hint)
	}
	var tried []string
	var dirs []string
	if env := os.Getenv("CARA_DATA"); env != "" {
		dirs = append(dirs, env)
	}
	dirs = append(dirs, "data", filepath.Join("..", "shared", "data"), filepath.Join("..", "..", "shared", "data"))
	if exe, err := os.Executable(); err == nil {
		dirs = append(dirs, filepath.Dir(exe))
	}
	for _, d := range dirs {
		p := filepath.Join(d, filepath.Base(path))
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		tried = append(tried, p)
	}
	return "", statData(filepath.Base(path), tried, hint)
}

func statData(path string, tried []string, hint string) error {
	if tried == nil {
		if _, err := os.Stat(path); err == nil {
			return nil
		}
		tried = []string{path}
	}
	msg := fmt.Sprintf("data file %s not found (looked at %s); point at it with --data PATH or set CARA_DATA to its folder",
		filepath.Base(path), strings.Join(tried, ", "))
	if hint != "" {
		msg += "; " + hint
	}
	return errors.New(msg)
}
