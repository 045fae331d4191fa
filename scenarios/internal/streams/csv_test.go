package streams

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// csvDir holds the small CSVs of these tests.
var csvDir = filepath.Join("testdata", "csv")

func tdPath(name string) string { return filepath.Join(csvDir, name) }

// Every rejected input gives exactly its message, naming file:line:column where there is one.
// Columns are byte positions in the line (1-based), as encoding/csv and editors count them.
func TestReadTableErrors(t *testing.T) {
	y := TableOptions{Label: "y"}
	yb := TableOptions{Label: "y", BatchColumn: "batch"}
	tests := []struct {
		file string
		opt  TableOptions
		want string // after "testdata/csv/"
	}{
		{"ragged.csv", y, "ragged.csv:4: row has 5 fields, header has 7"},
		{"nan.csv", y, `nan.csv:3:3: column "b": "NaN" is not a finite number`},
		{"inf.csv", y, `inf.csv:3:1: column "a": "-Inf" is not a finite number`},
		{"nolabel.csv", y, `nolabel.csv: no label column "y" (columns: a, b, label)`},
		{"oneclass.csv", y, `oneclass.csv: label column "y" has one class only (x); two are needed`},
		{"manyclasses.csv", y, `manyclasses.csv: label column "y" has more than 10 classes (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, ...); exactly two are needed`},
		{"threeclasses.csv", y, `threeclasses.csv: label column "y" has 3 classes (red, green, blue); exactly two are needed`},
		{"empty.csv", y, "empty.csv: the file is empty; a header row and data rows are needed"},
		{"headeronly.csv", y, "headeronly.csv: only a header row (a, b, y); no data rows"},
		{"unsorted.csv", yb, `unsorted.csv:5:1: batch column "batch" is not sorted: 0 after 1 (rows must come in batch order)`},
		{"fracbatch.csv", yb, `fracbatch.csv:3:1: batch column "batch": "1.5" is not a whole number`},
		{"nolabel.csv", TableOptions{Label: "label", BatchColumn: "batch"}, `nolabel.csv: no batch column "batch" (columns: a, b, label)`},
		{"nolabel.csv", TableOptions{Label: "label", BatchColumn: "label"}, `nolabel.csv: column "label" cannot be both the label and the batch column`},
		{"quote.csv", y, `quote.csv:2:8: extraneous or missing " in quoted-field`},
		{"missing.csv", y, `missing.csv:2:3: column "b" is empty; fill it, or set data.missing (mean or median of the offline block, or drop the row)`},
		{"dupcol.csv", y, `dupcol.csv:1:3: column "a" appears twice in the header (fields 1 and 2)`},
		{"semicolon.csv", y, `semicolon.csv: no label column "y" (columns: a;b;y); the file seems separated by ';' or tabs, and cara reads comma-separated files`},
		{"emptylabel.csv", y, `emptylabel.csv:3:3: label column "y" is empty`},
		{"absent.csv", y, "open testdata/csv/absent.csv: no such file or directory"},
		// Issue 26, item 2: two odd cells used to make "b" categorical (20 features) silently.
		{"stray.csv", y, `stray.csv: column "b" is numeric but for 2 of its 20 cells: "1e400" at testdata/csv/stray.csv:6:3 (out of the range of a 64-bit float), "0,4" at testdata/csv/stray.csv:11:3 (a decimal comma?); fix those cells, drop the column (data.ignore), or list it in data.categorical to one-hot encode its values`},
		{"stray.csv", TableOptions{Label: "y", Ignore: []string{"y"}}, `stray.csv: data.ignore names "y": it is the label column (data.label), not a feature; leave it out of data.ignore`},
		{"stray.csv", TableOptions{Label: "a", BatchColumn: "b", Categorical: []string{"b"}}, `stray.csv: data.categorical names "b": it is the batch column (data.batch_column), not a feature; leave it out of data.categorical`},
		{"stray.csv", TableOptions{Label: "y", Categorical: []string{"c"}}, `stray.csv: data.categorical names "c", which is not a column (columns: a, b, y)`},
		// Issue 33: a column both dropped and encoded was dropped without a word; an empty cell
		// of a category column was a category of its own.
		{"stray.csv", TableOptions{Label: "y", Ignore: []string{"b"}, Categorical: []string{"b"}}, `stray.csv: column "b" is in both data.ignore and data.categorical: ignore drops it, categorical one-hot encodes it; keep it in one of them`},
		{"emptycat.csv", TableOptions{Label: "y", Ignore: []string{"n"}}, `emptycat.csv:3:3: column "colour" is empty; a category column needs a value in every cell: write one (unknown, say) or drop the row (data.missing: drop)`},
		{"emptycat.csv", TableOptions{Label: "y", Categorical: []string{"n"}, Ignore: []string{"colour"}}, `emptycat.csv:5:7: column "n" is empty; a category column needs a value in every cell: write one (unknown, say) or drop the row (data.missing: drop)`},
	}
	for _, tc := range tests {
		_, err := ReadTable(tdPath(tc.file), tc.opt)
		want := tc.want
		if !strings.HasPrefix(want, "open ") {
			want = tdPath(want)
		}
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got  %v\n want %s", tc.file, err, want)
		}
	}
}

// data.ignore drops a column; data.categorical one-hot encodes a numeric one, and one numeric but
// for a few cells with a note naming them.
func TestReadTableIgnoreAndCategorical(t *testing.T) {
	tab, err := ReadTable(tdPath("stray.csv"), TableOptions{Label: "y", Ignore: []string{"a"}, Categorical: []string{"b"}})
	if err != nil {
		t.Fatal(err)
	}
	if tab.X.D != 20 || tab.Features[0] != "b=0.0" || slices.Contains(tab.Features, "a") {
		t.Errorf("features %v", tab.Features)
	}
	if len(tab.Notes) != 1 || !strings.Contains(tab.Notes[0], `column "b" (data.categorical) is numeric but for 2 of its 20 cells: "1e400" at`) {
		t.Errorf("notes %q", tab.Notes)
	}
	tab, err = ReadTable(tdPath("stray.csv"), TableOptions{Label: "y", Ignore: []string{"b"}, Categorical: []string{"a"}})
	if err != nil {
		t.Fatal(err)
	}
	if tab.X.D != 20 || len(tab.Notes) != 0 { // a, all numbers, one-hot: 20 values, nothing odd
		t.Errorf("features %v notes %q", tab.Features, tab.Notes)
	}
}

// A column with more than maxCategories distinct non-numbers is refused where the next one appears.
func TestReadTableTooManyCategories(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,y\n")
	for i := range maxCategories + 1 {
		fmt.Fprintf(&b, "v%d,%d\n", i, i%2)
	}
	p := filepath.Join(t.TempDir(), "ids.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadTable(p, TableOptions{Label: "y"})
	// v1000 is row 1001, on line 1002 (the header is line 1).
	want := p + `:1002:1: column "a" has more than 1000 distinct values that are not all numbers ("v1000" here); one-hot encoding it would add as many features: fix its values or drop the column`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

// onehot.csv (its header starts with a UTF-8 byte order mark and " x " has spaces):
//
//	batch, x ,colour,label
//	7,0.5,red,UP / 7,1.5,blue,DOWN / 9,2.5,red,UP / 9,3.5,green,DOWN / 12,4.5,3,UP
//
// colour holds text, so it is one-hot encoded, "3" included, in order of first appearance:
// red, blue, green, 3. The labels are not numbers: sorted, DOWN is 0 and UP is 1.
func TestReadTableOneHot(t *testing.T) {
	tab, err := ReadTable(tdPath("onehot.csv"), TableOptions{Label: "label", BatchColumn: "batch"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"x", "colour=red", "colour=blue", "colour=green", "colour=3"}; !slices.Equal(tab.Features, want) {
		t.Errorf("features %q, want %q", tab.Features, want)
	}
	wantX := []float64{
		0.5, 1, 0, 0, 0,
		1.5, 0, 1, 0, 0,
		2.5, 1, 0, 0, 0,
		3.5, 0, 0, 1, 0,
		4.5, 0, 0, 0, 1,
	}
	if tab.X.D != 5 || !slices.Equal(tab.X.V, wantX) {
		t.Errorf("X (d=%d) %v, want %v", tab.X.D, tab.X.V, wantX)
	}
	if tab.Classes != [2]string{"DOWN", "UP"} || !slices.Equal(tab.Y, []uint8{1, 0, 1, 0, 1}) {
		t.Errorf("classes %q, labels %v", tab.Classes, tab.Y)
	}
	if want := `label "label": "DOWN" is class 0, "UP" is class 1 (the two values sorted; data.positive chooses class 1)`; tab.ClassNote() != want {
		t.Errorf("class note %q, want %q", tab.ClassNote(), want)
	}
	if !slices.Equal(tab.Batch, []int{7, 7, 9, 9, 12}) {
		t.Errorf("batch %v", tab.Batch)
	}
}

// Labels that are numbers keep their numeric order, so 0/1 stays 0/1 and 9 < 10 (which text order
// would invert).
func TestReadTableNumericLabels(t *testing.T) {
	tests := []struct {
		body    string
		classes [2]string
		y       []uint8
		note    string
	}{
		{"a,y\n1,1\n2,0\n", [2]string{"0", "1"}, []uint8{1, 0}, "as written"},
		{"a,y\n1,10\n2,9\n", [2]string{"9", "10"}, []uint8{1, 0}, "the two values sorted; data.positive chooses class 1"},
		{"a,y\n1,True\n2,False\n", [2]string{"False", "True"}, []uint8{1, 0}, "the two values sorted; data.positive chooses class 1"},
	}
	for _, tc := range tests {
		p := filepath.Join(t.TempDir(), "l.csv")
		if err := os.WriteFile(p, []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		tab, err := ReadTable(p, TableOptions{Label: "y"})
		if err != nil {
			t.Fatal(err)
		}
		if tab.Classes != tc.classes || !slices.Equal(tab.Y, tc.y) || !strings.HasSuffix(tab.ClassNote(), "("+tc.note+")") {
			t.Errorf("%q: classes %q labels %v note %q", tc.body, tab.Classes, tab.Y, tab.ClassNote())
		}
	}
}

// A query table read Like the data has the data's features in the data's order, whatever its own
// column order; a category the data never had encodes as all zeros; labels map as the data's.
func TestReadTableLike(t *testing.T) {
	data, err := ReadTable(tdPath("onehot.csv"), TableOptions{Label: "label", BatchColumn: "batch"})
	if err != nil {
		t.Fatal(err)
	}
	like := TableOptions{Label: "label", BatchColumn: "batch", Like: data}
	q, err := ReadTable(tdPath("queries.csv"), like)
	if err != nil {
		t.Fatal(err)
	}
	// queries.csv: blue,10,7,UP / red,11,9,DOWN / purple,12,12,UP
	wantX := []float64{
		10, 0, 1, 0, 0,
		11, 1, 0, 0, 0,
		12, 0, 0, 0, 0,
	}
	if !slices.Equal(q.Features, data.Features) || !slices.Equal(q.X.V, wantX) || !slices.Equal(q.Y, []uint8{1, 0, 1}) {
		t.Errorf("queries: features %q X %v Y %v", q.Features, q.X.V, q.Y)
	}
	// purple is the one unknown category: said once, with its place.
	if want := []string{`testdata/csv/queries.csv: column "colour" has 1 value(s) that the data (testdata/csv/onehot.csv) never had, the first "purple" at testdata/csv/queries.csv:4:1; they encode as all zeros`}; !slices.Equal(q.Notes, want) {
		t.Errorf("notes %q, want %q", q.Notes, want)
	}
	if want := `label "label": "DOWN" is class 0, "UP" is class 1 (as in testdata/csv/onehot.csv)`; q.ClassNote() != want {
		t.Errorf("class note %q, want %q", q.ClassNote(), want)
	}
	src, err := newTableQueries(q, 3)
	if err != nil {
		t.Fatal(err)
	}
	if x, y, err := src.Queries(1, nil); err != nil || !slices.Equal(x.V, wantX[5:10]) || !slices.Equal(y, []uint8{0}) {
		t.Errorf("query batch 1: %v %v %v", x.V, y, err)
	}
	// Unlabelled queries (no Label option) have nil labels.
	q2, err := ReadTable(tdPath("queries.csv"), TableOptions{BatchColumn: "batch", Like: data})
	if err != nil || q2.Y != nil || q2.ClassNote() != "" {
		t.Errorf("unlabelled queries: Y %v, err %v", q2.Y, err)
	}

	bad := []struct {
		file string
		opt  TableOptions
		want string
	}{
		{"queries-nocolour.csv", TableOptions{BatchColumn: "batch", Like: data},
			`queries-nocolour.csv: no column "colour", which the data (testdata/csv/onehot.csv) has as a feature (columns here: x, batch)`},
		{"queries-text.csv", TableOptions{BatchColumn: "batch", Like: data},
			`queries-text.csv:2:5: column "x": "abc" is not a number`},
		{"queries-badclass.csv", like,
			`queries-badclass.csv: label column "label" has the value "SIDEWAYS", which is neither of the data's classes "DOWN" and "UP"`},
	}
	for _, tc := range bad {
		_, err := ReadTable(tdPath(tc.file), tc.opt)
		if want := tdPath(tc.want); err == nil || err.Error() != want {
			t.Errorf("%s:\n got  %v\n want %s", tc.file, err, want)
		}
	}
	// Batch columns must agree: the data's batches are 7, 9, 12; queries-misaligned has 7, 8, 12.
	mis, err := ReadTable(tdPath("queries-misaligned.csv"), like)
	if err != nil {
		t.Fatal(err)
	}
	_, err = newTableQueries(mis, 3)
	if want := tdPath("queries-misaligned.csv") + ": batch 1 is 8 here but 9 in the data (testdata/csv/onehot.csv); the batch columns must hold the same values"; err == nil || err.Error() != want {
		t.Errorf("misaligned batches:\n got  %v\n want %s", err, want)
	}
	if _, err = newTableQueries(q, 4); err == nil || err.Error() != tdPath("queries.csv")+": batch column has 3 distinct values, the data has 4 batches" {
		t.Errorf("4 batches of a 3-batch query table: %v", err)
	}
}

func TestSplit(t *testing.T) {
	byCol, err := ReadTable(tdPath("onehot.csv"), TableOptions{Label: "label", BatchColumn: "batch"})
	if err != nil {
		t.Fatal(err)
	}
	seven, err := ReadTable(tdPath("seven.csv"), TableOptions{Label: "y"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		tab     *Table
		batches int
		want    [][2]int
		err     string
	}{
		// Batch values 7, 7, 9, 9, 12: three batches, whatever batches says.
		{"batch column", byCol, 0, [][2]int{{0, 2}, {2, 4}, {4, 5}}, ""},
		{"batch column ignores batches", byCol, 10, [][2]int{{0, 2}, {2, 4}, {4, 5}}, ""},
		// 7 rows in 3: cuts at floor(b*7/3) = 0, 2, 4, 7: sizes 2, 2, 3.
		{"row order", seven, 3, [][2]int{{0, 2}, {2, 4}, {4, 7}}, ""},
		{"one row each", seven, 7, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}}, ""},
		{"one batch", seven, 1, [][2]int{{0, 7}}, ""},
		{"too few rows", seven, 8, nil, "testdata/csv/seven.csv: 7 rows cannot fill 8 batches: a batch would be empty"},
		{"zero batches", seven, 0, nil, "testdata/csv/seven.csv: cannot split into 0 batches; at least 1 is needed"},
	}
	for _, tc := range tests {
		got, err := tc.tab.Split(tc.batches)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %s", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v %v, want %v", tc.name, got, err, tc.want)
		}
	}
}

// The data source serves the split rows as views with their labels; a CSV has no concept to label
// new points with and no known drifts.
func TestTableData(t *testing.T) {
	tab, err := ReadTable(tdPath("seven.csv"), TableOptions{Label: "y"})
	if err != nil {
		t.Fatal(err)
	}
	src, err := newTableData(tab, 3)
	if err != nil {
		t.Fatal(err)
	}
	if src.Len() != 3 || src.Features() != 1 || src.Drifts() != nil {
		t.Errorf("len %d features %d drifts %v", src.Len(), src.Features(), src.Drifts())
	}
	x, y, err := src.Data(2) // rows 4..6: a = 5, 6, 7; y = 0, 1, 0
	if err != nil || !slices.Equal(x.V, []float64{5, 6, 7}) || !slices.Equal(y, []uint8{0, 1, 0}) {
		t.Errorf("batch 2: %v %v %v", x.V, y, err)
	}
	if cap(x.V) != 3 {
		t.Errorf("batch view has capacity %d: an append would overwrite the next batch", cap(x.V))
	}
	if _, ok, err := src.Label(0, x); ok || err != nil {
		t.Errorf("Label: ok %v err %v", ok, err)
	}
	if _, _, err := src.Data(3); err == nil {
		t.Error("batch 3 of 3: no error")
	}
	q, err := newTableQueries(tab, 2) // no batch column: rows 0..2 and 3..6
	if err != nil {
		t.Fatal(err)
	}
	if x, y, err := q.Queries(0, nil); err != nil || !slices.Equal(x.V, []float64{1, 2, 3}) || !slices.Equal(y, []uint8{0, 1, 0}) {
		t.Errorf("query batch 0: %v %v %v", x.V, y, err)
	}
}

func TestResolveDataPath(t *testing.T) {
	// Beside a scenario file.
	if p, err := resolveDataPath(csvDir, "seven.csv"); err != nil || p != tdPath("seven.csv") {
		t.Errorf("beside the scenario: %q %v", p, err)
	}
	_, err := resolveDataPath(csvDir, "nothere.csv")
	if want := "data file testdata/csv/nothere.csv not found (a relative path is relative to the scenario file's folder); point at it with --data PATH"; err == nil || err.Error() != want {
		t.Errorf("missing beside the scenario:\n got  %v\n want %s", err, want)
	}
	// Embedded: $CARA_DATA first.
	t.Setenv("CARA_DATA", csvDir)
	if p, err := resolveDataPath("", "seven.csv"); err != nil || p != tdPath("seven.csv") {
		t.Errorf("from CARA_DATA: %q %v", p, err)
	}
	// Not in $CARA_DATA: the embedded copy.
	if p, err := resolveDataPath("", "weather.csv"); err != nil || p != "embedded:weather.csv" {
		t.Errorf("embedded: %q %v", p, err)
	}
	// Nowhere: the message lists every place, in order.
	t.Setenv("CARA_DATA", "")
	_, err = resolveDataPath("", "airlines.csv")
	want := "data file airlines.csv not found (looked in $CARA_DATA (not set), the embedded streams); point at it with --data PATH, or set CARA_DATA to its folder"
	if err == nil || err.Error() != want {
		t.Errorf("missing embedded data:\n got  %v\n want %s", err, want)
	}
}

// The embedded streams are the published files, byte for byte (data/README.md gives their
// sha256), and the real Elec2 stream reads as the paper's d = 6 form.
func TestEmbeddedStreams(t *testing.T) {
	for name, sum := range map[string]string{
		"electricity.csv": "cdf901433885f29eca6911f70c0eeafb50d90596c879c30c5b99f5a2e8e734ff",
		"weather.csv":     "3c38f05bdc5c4cb115f122414c66976e3662c875d96d7199d9e47fc46aff150e",
	} {
		r, _, err := openCSV(embeddedPrefix+name, nil)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		if _, err := io.Copy(h, r); err != nil {
			t.Fatal(err)
		}
		r.Close()
		if got := hex.EncodeToString(h.Sum(nil)); got != sum {
			t.Errorf("%s: sha256 %s, want %s", name, got, sum)
		}
		if !strings.Contains(readmeOf(t), sum) {
			t.Errorf("data/README.md does not give %s's sha256", name)
		}
	}
	tab, err := ReadTable(embeddedPrefix+"electricity.csv", TableOptions{Label: "class"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"period", "nswprice", "nswdemand", "vicprice", "vicdemand", "transfer"}; !slices.Equal(tab.Features, want) {
		t.Errorf("features %q", tab.Features)
	}
	if tab.X.Len() != 45312 || tab.X.D != 6 || len(tab.Y) != 45312 || tab.Classes != [2]string{"0", "1"} || tab.Batch != nil {
		t.Errorf("%d rows, %d features, %d labels, classes %q", tab.X.Len(), tab.X.D, len(tab.Y), tab.Classes)
	}
	// The first row: 0.0,0.05644299999999999,0.439155,0.003467,0.422915,0.414912,1
	if row := tab.X.Row(0); !slices.Equal(row, []float64{0, 0.05644299999999999, 0.439155, 0.003467, 0.422915, 0.414912}) || tab.Y[0] != 1 {
		t.Errorf("row 0: %v label %d", row, tab.Y[0])
	}
	// 45312 rows in 100 batches: cuts at floor(b*45312/100); batch 0 is rows 0..452 and the last
	// starts at floor(99*453.12) = 44858.
	r, err := tab.Split(100)
	if err != nil || len(r) != 100 || r[0] != [2]int{0, 453} || r[99] != [2]int{44858, 45312} {
		t.Errorf("split: %d ranges, first %v last %v, %v", len(r), r[0], r[len(r)-1], err)
	}
}

func readmeOf(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join("data", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A gzip-compressed CSV reads as the plain one; a binary file is refused with what it is.
func TestReadTableGzipAndBinary(t *testing.T) {
	dir := t.TempDir()
	plain, err := os.ReadFile(tdPath("seven.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(plain)
	zw.Close()
	gz := filepath.Join(dir, "seven.csv.gz")
	os.WriteFile(gz, buf.Bytes(), 0o644)
	a, err := ReadTable(tdPath("seven.csv"), TableOptions{Label: "y"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadTable(gz, TableOptions{Label: "y"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.X.V, b.X.V) || !slices.Equal(a.Y, b.Y) {
		t.Errorf("gzip read differs: %v %v / %v %v", a.X.V, a.Y, b.X.V, b.Y)
	}
	bin := filepath.Join(dir, "model.bin")
	os.WriteFile(bin, []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00abc"), 0o644)
	_, err = ReadTable(bin, TableOptions{Label: "y"})
	if want := bin + " is not a text file (byte 6 is 0x00): cara reads comma-separated text, optionally gzip-compressed"; err == nil || err.Error() != want {
		t.Errorf("binary:\n got  %v\n want %s", err, want)
	}
	ctl := filepath.Join(dir, "ctl.csv")
	os.WriteFile(ctl, []byte("a,b\x01\x02\x03\n1,2\n"), 0o644)
	if _, err := ReadTable(ctl, TableOptions{Label: "b"}); err == nil || !strings.Contains(err.Error(), "is not a text file (3 control bytes in its first 11, the first at byte 4)") {
		t.Errorf("control bytes: %v", err)
	}
}

// Reads electricity.csv (3.2 MB, 45312 x 7), written out of its embedded copy; reports MB/s.
func BenchmarkReadElectricity(b *testing.B) {
	r, _, err := openCSV(embeddedPrefix+"electricity.csv", nil)
	if err != nil {
		b.Fatal(err)
	}
	raw, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(b.TempDir(), "electricity.csv")
	if err := os.WriteFile(p, raw, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := ReadTable(p, TableOptions{Label: "class"}); err != nil {
			b.Fatal(err)
		}
	}
}

// data.missing drop: a row with an empty cell goes, whatever its column (a number, a category); a
// batch of the batch column left with no row is an error, not a batch that vanishes. mean
// leaves NaN in a numeric column for Impute, and a category's empty cell is still an error.
func TestReadTableMissing(t *testing.T) {
	tab, err := ReadTable(tdPath("emptycat.csv"), TableOptions{Label: "y", Categorical: []string{"n"}, Missing: MissingDrop})
	if err != nil {
		t.Fatal(err)
	}
	if tab.X.Len() != 2 || tab.X.Row(0)[0] != 1 || tab.X.Row(1)[0] != 3 || len(tab.Y) != 2 {
		t.Errorf("kept %d rows, a = %v", tab.X.Len(), tab.X.V)
	}
	if len(tab.Notes) != 1 || !strings.HasSuffix(tab.Notes[0], "data.missing drop: 2 of 4 rows dropped for empty cells (colour: 1, n: 1)") {
		t.Errorf("notes %q", tab.Notes)
	}
	_, err = ReadTable(tdPath("gapbatch.csv"), TableOptions{Label: "y", BatchColumn: "batch", Missing: MissingDrop})
	if want := tdPath(`gapbatch.csv: every row of batch 1 (batch column "batch", first at row 2) has an empty cell, and data.missing: drop would leave the batch empty`); err == nil || err.Error() != want {
		t.Errorf("a batch emptied:\n got  %v\n want %s", err, want)
	}
	tab, err = ReadTable(tdPath("missing.csv"), TableOptions{Label: "y", Missing: MissingMean})
	if err != nil {
		t.Fatal(err)
	}
	nan := 0
	for _, v := range tab.X.V {
		if v != v {
			nan++
		}
	}
	if nan != 1 {
		t.Errorf("mean: %d NaN cells left for Impute, want 1", nan)
	}
	if _, err := ReadTable(tdPath("emptycat.csv"), TableOptions{Label: "y", Ignore: []string{"n"}, Missing: MissingMean}); err == nil || !strings.Contains(err.Error(), `column "colour" is empty; a category column needs a value in every cell`) {
		t.Errorf("mean, an empty category: %v", err)
	}
}
