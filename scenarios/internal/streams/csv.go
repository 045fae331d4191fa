package streams

// CSV streams: a real data set (or logged queries) read from a CSV file into numbers, split into
// batches, and served as a dataSource or querySource. The file is streamed with encoding/csv: raw
// records are never held, only the numeric result (and the categories of non-numeric columns).

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cara-sim/cara/scenarios/internal/format"
	"github.com/cara-sim/cara/sim"
)

// maxCategories bounds the one-hot encoding of a non-numeric column: past it the column is almost
// surely an identifier or a numeric column with stray text, and encoding it would add that many
// features (and rows x that many numbers).
const maxCategories = 1000

// TableOptions say how to read a CSV file.
type TableOptions struct {
	Label       string   // the label column; "" for none (queries may come without labels)
	BatchColumn string   // the batch column; "" to split rows in order
	Like        *Table   // encode this file's features as this (data) table did, so queries line up
	Ignore      []string // columns that are not features (an ID)
	Categorical []string // columns to one-hot encode even where their values are numbers
	// Missing is what an empty feature cell is (data.missing): "" an error; MissingMean or
	// MissingMedian, NaN in a numeric column until Impute fills it (a category's empty cell stays
	// an error); MissingDrop, its row dropped.
	Missing  string
	Positive string // the label value that is class 1 (data.positive); "" sorts the two

	src []byte // the file's bytes, read already (a FIFO can be read once); nil: open path
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
	Notes    []string  // what the user should know about how it was read (unknown categories)

	label    string        // the label column's name, for ClassNote
	sorted   bool          // the classes were not 0/1 and were sorted to give 0 and 1
	positive bool          // class 1 is data.positive
	columns  []tableColumn // how each source column became features, in feature order
	like     *Table        // the data table a query table was encoded like
}

// tableColumn is one source column of the features: numeric (one feature) or one-hot encoded.
type tableColumn struct {
	name       string
	categories []string // nil for a numeric column
}

// ClassNote says which label value is class 0 and which is class 1, and why, for the user.
func (t *Table) ClassNote() string {
	if t.Y == nil {
		return ""
	}
	how := "as written"
	switch {
	case t.positive:
		how = "data.positive"
	case t.sorted:
		how = "the two values sorted; data.positive chooses class 1"
	}
	if t.like != nil && t.like.Y != nil {
		how = "as in " + t.like.Path
	}
	return fmt.Sprintf("label %q: %q is class 0, %q is class 1 (%s)", t.label, t.Classes[0], t.Classes[1], how)
}

// ReadTable reads a CSV file with a header row. Errors name file:line:column (the column is the
// byte position, as editors and encoding/csv count it) and the column's name.
//
// The file is streamed once when every feature column is numeric (or when Like fixes the
// encoding): each value is parsed as a number as it goes by. A column found to hold text is read
// again, once, to collect its categories in order of first appearance. Memory holds only the
// numbers (one per source column and row, widened to the one-hot features at the end).
func ReadTable(path string, opt TableOptions) (*Table, error) {
	rr, err := openRows(path, opt.src)
	if err != nil {
		return nil, err
	}
	defer rr.close()
	tr := &tableReader{rr: rr, opt: opt, tab: &Table{Path: path, label: opt.Label, like: opt.Like}}
	if err := tr.locate(); err != nil {
		return nil, err
	}
	tr.initColumns()
	if err := tr.readAll(); err != nil {
		return nil, err
	}
	if err := tr.finishLabels(); err != nil {
		return nil, err
	}
	if err := tr.finishColumns(); err != nil {
		return nil, err
	}
	tr.noteUnknown()
	if err := tr.dropMissing(); err != nil {
		return nil, err
	}
	tr.tab.encode(tr.vals, tr.rows)
	return tr.tab, nil
}

// tableReader is ReadTable's state: where the label, batch and feature columns are, and what has
// been read so far.
type tableReader struct {
	rr               *rowReader
	opt              TableOptions
	tab              *Table
	labelAt, batchAt int         // -1 when absent
	src              []int       // the source column of each of tab.columns
	cols             []readState // what is known of each feature column while reading
	// vals holds, row by row, one number per source column: the value of a numeric column, the
	// category index of a one-hot column (-1 for one the data never had).
	vals   []float64
	labels []string // distinct label values in order of appearance
	codes  []uint8  // each row's index into labels
	rows   int
}

// locate finds the label and batch columns and the feature columns (those of Like, by name, when
// the table is read like another).
func (tr *tableReader) locate() error {
	header, path, opt := tr.rr.header, tr.tab.Path, tr.opt
	column := func(name, what string) (int, error) {
		if name == "" {
			return -1, nil
		}
		if i := slices.Index(header, name); i >= 0 {
			return i, nil
		}
		return -1, fmt.Errorf("%s: no %s column %q (columns: %s)%s", path, what, name, strings.Join(header, ", "), separatorHint(header))
	}
	var err error
	if tr.labelAt, err = column(opt.Label, "label"); err != nil {
		return err
	}
	if tr.batchAt, err = column(opt.BatchColumn, "batch"); err != nil {
		return err
	}
	if tr.batchAt >= 0 && tr.batchAt == tr.labelAt {
		return fmt.Errorf("%s: column %q cannot be both the label and the batch column", path, opt.Label)
	}
	if opt.Like != nil {
		for _, c := range opt.Like.columns {
			i := slices.Index(header, c.name)
			if i < 0 {
				return fmt.Errorf("%s: no column %q, which the data (%s) has as a feature (columns here: %s)", path, c.name, opt.Like.Path, strings.Join(header, ", "))
			}
			tr.src = append(tr.src, i)
			tr.tab.columns = append(tr.tab.columns, c)
		}
		return nil
	}
	for _, lists := range []struct {
		field string
		names []string
	}{{"data.ignore", opt.Ignore}, {"data.categorical", opt.Categorical}} {
		for _, name := range lists.names {
			switch i := slices.Index(header, name); {
			case i < 0:
				return fmt.Errorf("%s: %s names %q, which is not a column (columns: %s)", path, lists.field, name, strings.Join(header, ", "))
			case i == tr.labelAt:
				return fmt.Errorf("%s: %s names %q: it is the label column (data.label), not a feature; leave it out of %s", path, lists.field, name, lists.field)
			case i == tr.batchAt:
				return fmt.Errorf("%s: %s names %q: it is the batch column (data.batch_column), not a feature; leave it out of %s", path, lists.field, name, lists.field)
			}
		}
	}
	for _, name := range opt.Categorical {
		if slices.Contains(opt.Ignore, name) { // one says drop it, the other encode it
			return fmt.Errorf("%s: column %q is in both data.ignore and data.categorical: ignore drops it, categorical one-hot encodes it; keep it in one of them", path, name)
		}
	}
	for i, name := range header {
		if i != tr.labelAt && i != tr.batchAt && !slices.Contains(opt.Ignore, name) {
			tr.src = append(tr.src, i)
			tr.tab.columns = append(tr.tab.columns, tableColumn{name: name})
		}
	}
	if len(tr.src) == 0 {
		return fmt.Errorf("%s: no feature columns besides the label and batch columns (columns: %s)", path, strings.Join(header, ", "))
	}
	return nil
}

// initColumns starts every feature column as numeric (one-hot when data.categorical lists it),
// or as Like's one-hot column.
func (tr *tableReader) initColumns() {
	tr.cols = make([]readState, len(tr.src))
	for ci, c := range tr.tab.columns {
		tr.cols[ci].numeric, tr.cols[ci].missing = true, tr.opt.Missing
		if tr.opt.Like == nil && slices.Contains(tr.opt.Categorical, c.name) {
			tr.cols[ci].numeric, tr.cols[ci].chosen = false, true
		}
		if c.categories != nil { // only with Like: a known one-hot column
			tr.cols[ci].numeric = false
			tr.cols[ci].index = make(map[string]int, len(c.categories))
			for k, v := range c.categories {
				tr.cols[ci].index[v] = k
			}
		}
	}
}

// readAll streams the rows.
func (tr *tableReader) readAll() error {
	for {
		rec, err := tr.rr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		tr.rows++
		if tr.rows == 1 {
			tr.vals, tr.codes = tr.rr.presize(len(tr.src), tr.vals, tr.codes)
		}
		if err := tr.readRow(rec); err != nil {
			return err
		}
	}
	if tr.rows == 0 {
		return fmt.Errorf("%s: only a header row (%s); no data rows", tr.tab.Path, strings.Join(tr.rr.header, ", "))
	}
	return nil
}

// readRow takes one row's features, label and batch.
func (tr *tableReader) readRow(rec []string) error {
	known := tr.opt.Like != nil
	for ci, i := range tr.src {
		tr.vals = append(tr.vals, tr.cols[ci].read(tr.rr, i, rec[i], known, tr.tab.columns[ci].name))
		if tr.cols[ci].err != nil && known {
			return tr.cols[ci].err // the type is known: the first bad value is the error
		}
	}
	if tr.labelAt >= 0 {
		if err := tr.readLabel(rec[tr.labelAt]); err != nil {
			return err
		}
	}
	if tr.batchAt >= 0 {
		return tr.readBatch(rec[tr.batchAt])
	}
	return nil
}

// readLabel codes a row's label by its order of first appearance.
func (tr *tableReader) readLabel(v string) error {
	v = strings.TrimSpace(v)
	if v == "" {
		return tr.rr.errorf(tr.labelAt, "label column %q is empty", tr.opt.Label)
	}
	k := slices.Index(tr.labels, v)
	if k < 0 {
		if len(tr.labels) > maxLabelValues {
			k = maxLabelValues // setClasses refuses this many classes; the rest cannot change that
		} else {
			k = len(tr.labels)
			tr.labels = append(tr.labels, v)
		}
	}
	tr.codes = append(tr.codes, uint8(k))
	return nil
}

// readBatch reads a row's batch number; batches come in order.
func (tr *tableReader) readBatch(v string) error {
	v = strings.TrimSpace(v)
	n, err := strconv.Atoi(v)
	if err != nil {
		return tr.rr.errorf(tr.batchAt, "batch column %q: %q is not a whole number", tr.opt.BatchColumn, v)
	}
	if k := len(tr.tab.Batch); k > 0 && n < tr.tab.Batch[k-1] {
		return tr.rr.errorf(tr.batchAt, "batch column %q is not sorted: %d after %d (rows must come in batch order)", tr.opt.BatchColumn, n, tr.tab.Batch[k-1])
	}
	tr.tab.Batch = append(tr.tab.Batch, n)
	return nil
}

// finishLabels maps the label values to classes 0 and 1.
func (tr *tableReader) finishLabels() error {
	if tr.labelAt < 0 {
		return nil
	}
	tab := tr.tab
	if err := tab.setClasses(tr.labels, tr.opt); err != nil {
		return err
	}
	var to [maxLabelValues + 1]uint8
	for k, v := range tr.labels {
		to[k] = b2u(v == tab.Classes[1])
	}
	tab.Y = tr.codes
	for r, k := range tr.codes {
		tab.Y[r] = to[k]
	}
	return nil
}

// finishColumns reports the first bad value of a column that stayed numeric, in file order, and
// collects the categories of the columns that hold text. A table read Like another has its
// columns fixed already.
func (tr *tableReader) finishColumns() error {
	if tr.opt.Like != nil {
		return nil
	}
	var first *readState
	var text []int // columns that hold text
	for ci := range tr.cols {
		c := &tr.cols[ci]
		name := tr.tab.columns[ci].name
		switch {
		case !c.numeric && c.mostlyNumeric() && !c.chosen:
			return fmt.Errorf("%s: column %q is numeric but for %d of its %d cells: %s; fix those cells, drop the column (data.ignore), or list it in data.categorical to one-hot encode its values",
				tr.tab.Path, name, c.others, c.numbers+c.others, c.oddCells())
		case !c.numeric:
			if c.chosen && c.mostlyNumeric() {
				tr.tab.Notes = append(tr.tab.Notes, fmt.Sprintf("%s: column %q (data.categorical) is numeric but for %d of its %d cells: %s; every distinct value is a feature",
					tr.tab.Path, name, c.others, c.numbers+c.others, c.oddCells()))
			}
			text = append(text, ci)
		case c.err != nil && (first == nil || c.line < first.line || c.line == first.line && c.col < first.col):
			first = c
		}
	}
	if first != nil {
		return first.err
	}
	if len(text) == 0 {
		return nil
	}
	return collectCategories(tr.tab.Path, tr.opt.src, tr.tab.columns, tr.src, text, tr.vals, tr.opt.Missing == MissingDrop)
}

// noteUnknown says, once per column, that a table read Like the data has categories the data
// never had.
func (tr *tableReader) noteUnknown() {
	for ci := range tr.cols {
		if c := &tr.cols[ci]; c.unknown > 0 {
			tr.tab.Notes = append(tr.tab.Notes, fmt.Sprintf("%s: column %q has %d value(s) that the data (%s) never had, the first %s; they encode as all zeros",
				tr.tab.Path, tr.tab.columns[ci].name, c.unknown, tr.opt.Like.Path, c.firstUnknown))
		}
	}
}

// presize gives vals and codes the capacity the whole file will need, estimated from the size of
// the file and of its first row, so that appending row after row does not copy them over and over.
func (rr *rowReader) presize(m int, vals []float64, codes []uint8) ([]float64, []uint8) {
	row := rr.r.InputOffset() - rr.headerBytes
	if rr.size <= 0 || row <= 0 {
		return vals, codes
	}
	// Every field takes at least two bytes (a character and a separator), which bounds the rows.
	rows := min(rr.size/row*5/4+16, rr.size/int64(2*len(rr.header))+1)
	return slices.Grow(vals, int(rows)*m), slices.Grow(codes, int(rows))
}

// readState is what ReadTable knows of a feature column while it streams the file.
type readState struct {
	numeric   bool           // every value so far parses as a number (or Like says it is numeric)
	chosen    bool           // listed in data.categorical: one-hot whatever its values
	numbers   int            // cells that are finite numbers
	others    int            // cells that are not
	odd       []string       // the first few of those, with their places
	index     map[string]int // Like's categories of a one-hot column
	err       error          // the first bad value of a numeric column
	line, col int            // where err is

	unknown      int    // values of a Like one-hot column that the data never had
	firstUnknown string // the first of them, with its place

	missing string // data.missing (TableOptions.Missing)
	empty   int    // empty cells read as missing (NaN)
}

// read turns one value into its number. Without Like a text value only marks the column as text
// (its categories come later) and a bad number is kept as the column's first error, which counts
// only if the column stays numeric.
func (c *readState) read(rr *rowReader, i int, v string, known bool, name string) float64 {
	v = strings.TrimSpace(v)
	// With data.missing an empty cell is missing: NaN, filled later (numeric columns) or its row
	// dropped (any column); text columns keep their empty cells for the categories' check.
	if v == "" && (c.missing == MissingDrop || c.missing != "" && c.numeric && c.index == nil) {
		c.empty++
		return math.NaN()
	}
	if c.index != nil {
		if k, ok := c.index[v]; ok {
			return float64(k)
		}
		// A category the data never had encodes as all zeros, as scikit-learn's
		// OneHotEncoder(handle_unknown="ignore") does; the user is told once per column.
		if c.unknown++; c.unknown == 1 {
			line, col := rr.r.FieldPos(i)
			c.firstUnknown = fmt.Sprintf("%q at %s:%d:%d", v, rr.path, line, col)
		}
		return -1
	}
	if !c.numeric {
		c.tally(rr, i, v)
		return 0
	}
	f, err := strconv.ParseFloat(v, 64)
	var msg string
	switch {
	case v == "":
		msg = fmt.Sprintf("column %q is empty; fill it, or set data.missing (mean or median of the offline block, or drop the row)", name)
	case err != nil && known:
		msg = fmt.Sprintf("column %q: %q is not a number", name, v)
	case err != nil:
		c.numeric = false
		c.tally(rr, i, v)
		return 0
	case math.IsNaN(f) || math.IsInf(f, 0):
		msg = fmt.Sprintf("column %q: %q is not a finite number", name, v)
	default:
		c.numbers++
		return f
	}
	if c.err == nil {
		c.line, c.col = rr.r.FieldPos(i)
		c.err = fmt.Errorf("%s:%d:%d: %s", rr.path, c.line, c.col, msg)
	}
	return 0
}

// maxOdd is how many of a column's cells that are not numbers an error or a note names.
const maxOdd = 3

// tally counts a cell of a column that holds text as a number or not, keeping the first few that
// are not, so that a numeric column with a few stray cells is told from a categorical one.
func (c *readState) tally(rr *rowReader, i int, v string) {
	f, err := strconv.ParseFloat(v, 64)
	if err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
		c.numbers++
		return
	}
	c.others++
	if len(c.odd) == maxOdd {
		return
	}
	why := ""
	switch {
	case errors.Is(err, strconv.ErrRange):
		why = " (out of the range of a 64-bit float)"
	case strings.Count(v, ",") == 1 && func() bool { _, e := strconv.ParseFloat(strings.Replace(v, ",", ".", 1), 64); return e == nil }():
		why = " (a decimal comma?)"
	case err == nil:
		why = " (not finite)"
	}
	line, col := rr.r.FieldPos(i)
	c.odd = append(c.odd, fmt.Sprintf("%q at %s:%d:%d%s", v, rr.path, line, col, why))
}

// mostlyNumeric reports a column that holds text in only a few cells: at least 90 % of its cells
// are numbers. One-hot encoding it would make every distinct number a feature, silently.
func (c *readState) mostlyNumeric() bool {
	return c.others > 0 && c.numbers > 0 && c.numbers >= 9*c.others
}

// oddCells names a column's cells that are not numbers.
func (c *readState) oddCells() string {
	more := ""
	if c.others > len(c.odd) {
		more = fmt.Sprintf(" and %d more", c.others-len(c.odd))
	}
	return strings.Join(c.odd, ", ") + more
}

// encode widens vals (one number per source column) into the features: one-hot columns become
// their indicator columns. With no one-hot column, vals is X as it is.
func (t *Table) encode(vals []float64, rows int) {
	escaped := 0
	feature := func(name string) { // a feature's name is shown: untrusted text
		clean, n := format.CleanText(name, false)
		t.Features = append(t.Features, clean)
		escaped += n
	}
	for _, c := range t.columns {
		if c.categories == nil {
			feature(c.name)
		}
		for _, v := range c.categories {
			feature(c.name + "=" + v)
		}
	}
	if escaped > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("%s: %d control character(s) or bytes that are not UTF-8 in column names or categories shown escaped", t.Path, escaped))
	}
	d, m := len(t.Features), len(t.columns)
	if d == m {
		// A presize that overshot by more than its margin (a long first row) gives the rest back;
		// within it, copying would cost more memory at its peak than the slack it frees.
		if cap(vals) > len(vals)+len(vals)/2 {
			vals = slices.Clone(vals)
		}
		t.X = sim.Points{D: d, V: slices.Clip(vals)}
		return
	}
	x := make([]float64, 0, rows*d)
	for r := range rows {
		for ci, c := range t.columns {
			v := vals[r*m+ci]
			if c.categories == nil {
				x = append(x, v)
				continue
			}
			for k := range c.categories {
				x = append(x, b2f(k == int(v)))
			}
		}
	}
	t.X = sim.Points{D: d, V: x}
}

// setClasses maps the label values to 0 and 1: a query table takes its data table's mapping; two
// numbers keep their order (so 0/1 stays 0/1); otherwise the two values are sorted (DOWN/UP gives
// DOWN = 0, UP = 1), and ClassNote says so.
func (t *Table) setClasses(labels []string, opt TableOptions) error {
	if opt.Like != nil && opt.Like.Y != nil {
		t.Classes = opt.Like.Classes
		for _, v := range labels {
			if v != t.Classes[0] && v != t.Classes[1] {
				return fmt.Errorf("%s: label column %q has the value %q, which is neither of the data's classes %q and %q", t.Path, opt.Label, v, t.Classes[0], t.Classes[1])
			}
		}
		return nil
	}
	switch n := len(labels); {
	case n == 1:
		return fmt.Errorf("%s: label column %q has one class only (%s); two are needed", t.Path, opt.Label, labels[0])
	case n > maxLabelValues:
		return fmt.Errorf("%s: label column %q has more than %d classes (%s, ...); exactly two are needed", t.Path, opt.Label, maxLabelValues, strings.Join(labels[:maxLabelValues], ", "))
	case n > 2:
		return fmt.Errorf("%s: label column %q has %d classes (%s); exactly two are needed", t.Path, opt.Label, n, strings.Join(labels, ", "))
	}
	a, b := labels[0], labels[1]
	if p := opt.Positive; p != "" {
		if p != a && p != b {
			return fmt.Errorf("%s: data.positive is %q, which is not a value of label column %q (%s, %s)", t.Path, p, opt.Label, a, b)
		}
		if p == a {
			a, b = b, a
		}
		t.Classes, t.positive = [2]string{a, b}, true
		return nil
	}
	fa, ea := strconv.ParseFloat(a, 64)
	fb, eb := strconv.ParseFloat(b, 64)
	if ea == nil && eb == nil {
		if fa > fb {
			a, b = b, a
		}
		t.sorted = !(fa == 0 && fb == 1 || fa == 1 && fb == 0)
	} else {
		if a > b {
			a, b = b, a
		}
		t.sorted = true
	}
	t.Classes = [2]string{a, b}
	return nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// maxLabelValues is how many distinct label values are named in an error.
const maxLabelValues = 10

// collectCategories reads the file again for the text columns (indices into cols): their
// categories in order of first appearance, and each row's category index, written into vals. An
// empty cell is an error, or, with drop, NaN (its row is dropped).
func collectCategories(path string, data []byte, cols []tableColumn, src, text []int, vals []float64, drop bool) error {
	rr, err := openRows(path, data)
	if err != nil {
		return err
	}
	defer rr.close()
	m := len(cols)
	index := make([]map[string]int, len(text))
	for k := range index {
		index[k] = map[string]int{}
	}
	for r := 0; ; r++ {
		rec, err := rr.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if r*m >= len(vals) {
			return fmt.Errorf("%s: the file changed while it was read", path)
		}
		for k, ci := range text {
			v := strings.TrimSpace(rec[src[ci]])
			if v == "" && drop {
				vals[r*m+ci] = math.NaN()
				continue
			}
			if v == "" { // not a category of its own: a value that is missing
				return rr.errorf(src[ci], "column %q is empty; a category column needs a value in every cell: write one (unknown, say) or drop the row (data.missing: drop)",
					cols[ci].name)
			}
			code, ok := index[k][v]
			if !ok {
				if len(index[k]) == maxCategories {
					return rr.errorf(src[ci], "column %q has more than %d distinct values that are not all numbers (%q here); one-hot encoding it would add as many features: fix its values or drop the column",
						cols[ci].name, maxCategories, v)
				}
				code = len(index[k])
				index[k][v] = code
				cols[ci].categories = append(cols[ci].categories, v)
			}
			vals[r*m+ci] = float64(code)
		}
	}
}

// separatorHint suggests the likely cause when a header is one field holding a ';' or a tab.
func separatorHint(header []string) string {
	if len(header) == 1 && strings.ContainsAny(header[0], ";\t") {
		return "; the file seems separated by ';' or tabs, and cara reads comma-separated files"
	}
	return ""
}

// rowReader streams a CSV file's records after its header, checking that every row has the
// header's width.
type rowReader struct {
	path        string
	src         io.ReadCloser
	size        int64 // the file's size in bytes (an estimate for a compressed file); 0 if unknown
	r           *csv.Reader
	header      []string
	headerBytes int64 // where the first data row starts
}

// openRows opens path (see openCSV; data, when not nil, are its bytes) and reads its header: trimmed names, a leading UTF-8 byte
// order mark (as spreadsheets write) dropped, duplicates refused.
func openRows(path string, data []byte) (*rowReader, error) {
	src, size, err := openCSV(path, data)
	if err != nil {
		return nil, err
	}
	rr := &rowReader{path: path, src: src, size: size, r: csv.NewReader(src)}
	rr.r.ReuseRecord = true
	rr.r.FieldsPerRecord = -1 // ragged rows get our message, which names both widths
	rec, err := rr.r.Read()
	if err == io.EOF {
		src.Close()
		return nil, fmt.Errorf("%s: the file is empty; a header row and data rows are needed", path)
	}
	if err != nil {
		src.Close()
		return nil, rr.wrap(err)
	}
	rr.headerBytes = rr.r.InputOffset()
	rr.header = make([]string, len(rec))
	for i, name := range rec {
		if i == 0 {
			name = strings.TrimPrefix(name, "\ufeff")
		}
		rr.header[i] = strings.TrimSpace(name)
		if j := slices.Index(rr.header[:i], rr.header[i]); j >= 0 {
			err := rr.errorf(i, "column %q appears twice in the header (fields %d and %d)", rr.header[i], j+1, i+1)
			src.Close()
			return nil, err
		}
	}
	return rr, nil
}

// next returns the next row (valid until the following call) or io.EOF.
func (rr *rowReader) next() ([]string, error) {
	rec, err := rr.r.Read()
	if err == io.EOF {
		return nil, io.EOF
	}
	if err != nil {
		return nil, rr.wrap(err)
	}
	if len(rec) != len(rr.header) {
		line, _ := rr.r.FieldPos(0)
		return nil, fmt.Errorf("%s:%d: row has %d fields, header has %d", rr.path, line, len(rec), len(rr.header))
	}
	return rec, nil
}

// errorf makes an error at field i of the record last read.
func (rr *rowReader) errorf(i int, format string, args ...any) error {
	line, col := rr.r.FieldPos(i)
	return fmt.Errorf("%s:%d:%d: %s", rr.path, line, col, fmt.Sprintf(format, args...))
}

// wrap gives encoding/csv's syntax errors (a stray quote, ...) the file:line:column form.
func (rr *rowReader) wrap(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d:%d: %v", rr.path, pe.Line, pe.Column, pe.Err)
	}
	return fmt.Errorf("%s: %w", rr.path, err)
}

func (rr *rowReader) close() { rr.src.Close() }

// Split returns the row range [from, to) of each batch.
//
// With a batch column, each distinct value is one batch, in file order; values need not start at 0
// nor be consecutive, and batches is ignored: the column decides how many batches there are, and
// the caller takes that count (or compares it with the scenario's). Without one, the rows are cut
// in order into batches nearly equal contiguous parts (sizes differ by at most one); fewer rows
// than batches would leave a batch empty, which is an error.
func (t *Table) Split(batches int) ([][2]int, error) {
	n := t.X.Len()
	if t.Batch != nil {
		var out [][2]int
		for i := 0; i < n; {
			j := i + 1
			for j < n && t.Batch[j] == t.Batch[i] {
				j++
			}
			out = append(out, [2]int{i, j})
			i = j
		}
		return out, nil
	}
	if batches < 1 {
		return nil, fmt.Errorf("%s: cannot split into %d batches; at least 1 is needed", t.Path, batches)
	}
	if n < batches {
		return nil, fmt.Errorf("%s: %d rows cannot fill %d batches: a batch would be empty", t.Path, n, batches)
	}
	out := make([][2]int, batches)
	for b := range batches {
		out[b] = [2]int{b * n / batches, (b + 1) * n / batches}
	}
	return out, nil
}

// rows returns the points and labels of rows [from, to): views into the table, capped so that an
// append cannot write into the next batch.
func (t *Table) rows(r [2]int) (sim.Points, []uint8) {
	d := t.X.D
	x := sim.Points{D: d, V: t.X.V[r[0]*d : r[1]*d : r[1]*d]}
	if t.Y == nil {
		return x, nil
	}
	return x, t.Y[r[0]:r[1]:r[1]]
}

// tableData is a dataSource over a table split into batches. A CSV has no known concept, so Label
// reports ok=false (generated queries then carry no labels) and there are no known drifts.
type tableData struct {
	tab    *Table
	ranges [][2]int
}

// newTableData splits tab (see Split: with a batch column, batches is ignored and Len() says how
// many there are) and serves its batches.
func newTableData(tab *Table, batches int) (*tableData, error) {
	if tab.Y == nil {
		return nil, fmt.Errorf("%s: the data needs a label column", tab.Path)
	}
	r, err := tab.Split(batches)
	if err != nil {
		return nil, err
	}
	return &tableData{tab: tab, ranges: r}, nil
}

func (d *tableData) Len() int            { return len(d.ranges) }
func (d *tableData) Features() int       { return d.tab.X.D }
func (d *tableData) Drifts() []sim.Drift { return nil } // nil: a table does not know its drifts

// FeatureNames are the table's feature columns.
func (d *tableData) FeatureNames() []string { return d.tab.Features }

func (d *tableData) Data(t int) (sim.Points, []uint8, error) {
	if t < 0 || t >= len(d.ranges) {
		return sim.Points{}, nil, fmt.Errorf("%s: no batch %d (%d batches)", d.tab.Path, t, len(d.ranges))
	}
	x, y := d.tab.rows(d.ranges[t])
	return x, y, nil
}

func (d *tableData) Label(int, sim.Points) ([]uint8, bool, error) { return nil, false, nil }

// tableQueries are queries read from a table split into the data's batches; their labels, when the
// table has them, serve only the query accuracy.
type tableQueries struct {
	tab    *Table
	ranges [][2]int
}

// newTableQueries splits a query table into the data's batches. With a batch column it must hold
// exactly batches distinct values, and when the data table it was read Like also has one, the same
// values in the same order: batch k of the queries is batch k of the data.
func newTableQueries(tab *Table, batches int) (querySource, error) {
	r, err := tab.Split(batches)
	if err != nil {
		return nil, err
	}
	if tab.Batch == nil {
		return &tableQueries{tab: tab, ranges: r}, nil
	}
	if len(r) != batches {
		return nil, fmt.Errorf("%s: batch column has %d distinct values, the data has %d batches", tab.Path, len(r), batches)
	}
	if like := tab.like; like != nil && like.Batch != nil {
		dr, err := like.Split(0)
		if err != nil {
			return nil, err
		}
		for k := range min(len(r), len(dr)) {
			if q, d := tab.Batch[r[k][0]], like.Batch[dr[k][0]]; q != d {
				return nil, fmt.Errorf("%s: batch %d is %d here but %d in the data (%s); the batch columns must hold the same values", tab.Path, k, q, d, like.Path)
			}
		}
	}
	return &tableQueries{tab: tab, ranges: r}, nil
}

func (q *tableQueries) Queries(t int, _ *sim.Batch) (sim.Points, []uint8, error) {
	if t < 0 || t >= len(q.ranges) {
		return sim.Points{}, nil, fmt.Errorf("%s: no query batch %d (%d batches)", q.tab.Path, t, len(q.ranges))
	}
	x, y := q.tab.rows(q.ranges[t])
	return x, y, nil
}
