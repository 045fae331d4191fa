package streams

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/cara-sim/cara/sim"
)

// predOpts are three batches of 3, 2 and 2 rows, labels no and yes, and, with queries, 2 queries a
// batch.
func predOpts(queries bool) PredictionsOptions {
	o := PredictionsOptions{Rows: []int{3, 2, 2}, Classes: [2]string{"no", "yes"}}
	if queries {
		o.Queries = []int{2, 2, 2}
	}
	return o
}

// goodLines are every prediction predOpts(false) asks for: model t' says yes at row r of batch t
// when t'+t+r is odd.
func goodLines() []string {
	lines := []string{"model,batch,row,prediction"}
	rows := []int{3, 2, 2}
	for tp := range 3 {
		for t := tp; t < 3; t++ {
			for r := range rows[t] {
				lines = append(lines, strings.Join([]string{itoa(tp), itoa(t), itoa(r), []string{"no", "yes"}[(tp+t+r)%2]}, ","))
			}
		}
	}
	return lines
}

func itoa(i int) string { return string(rune('0' + i)) }

func writeFile(t *testing.T, name string, body []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkGood fails unless p holds goodLines' predictions.
func checkGood(t *testing.T, p *sim.Predictions) {
	t.Helper()
	rows := []int{3, 2, 2}
	for tp := range 3 {
		for bt := tp; bt < 3; bt++ {
			for r := range rows[bt] {
				if got, want := p.Class(false, tp, bt, r), uint8((tp+bt+r)%2); got != want {
					t.Fatalf("model %d, batch %d, row %d: class %d, want %d", tp, bt, r, got, want)
				}
			}
		}
	}
}

// A good file reads in any column order, with a byte order mark, CRLF line ends, quoted labels,
// numeric labels written as floats, and gzip; what it holds is what it says.
func TestReadPredictions(t *testing.T) {
	lines := goodLines()
	reordered := []string{"prediction,row,batch,model"}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		reordered = append(reordered, `"`+f[3]+`",`+f[2]+","+f[1]+","+f[0])
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Join(lines, "\n") + "\n"))
	zw.Close()
	for name, body := range map[string][]byte{
		"plain.csv":   []byte(strings.Join(lines, "\n") + "\n"),
		"crlf.csv":    []byte("\ufeff" + strings.Join(lines, "\r\n") + "\r\n\r\n"),
		"reorder.csv": []byte(strings.Join(reordered, "\n")),
		"p.csv.gz":    gz.Bytes(),
	} {
		p, notes, err := ReadPredictions(writeFile(t, name, body), predOpts(false))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(notes) != 0 {
			t.Errorf("%s: notes %q", name, notes)
		}
		checkGood(t, p)
	}
	// Numeric labels match by value: 1.0 is the label 1.
	num := strings.NewReplacer(",no", ",0.0", ",yes", ",1").Replace(strings.Join(lines, "\n"))
	o := predOpts(false)
	o.Classes = [2]string{"0", "1"}
	p, _, err := ReadPredictions(writeFile(t, "num.csv", []byte(num)), o)
	if err != nil {
		t.Fatal(err)
	}
	checkGood(t, p)
}

// Every mistake is an error at FILE:LINE that says what was expected; nothing is guessed.
func TestPredictionsErrors(t *testing.T) {
	good := goodLines()
	with := func(line int, text string) string { // good, line (1-based) replaced; "" deletes it
		l := append([]string(nil), good...)
		if text == "" {
			l = append(l[:line-1], l[line:]...)
		} else {
			l[line-1] = text
		}
		return strings.Join(l, "\n") + "\n"
	}
	truncated := func() []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(strings.Join(good, "\n") + "\n"))
		zw.Close()
		return b.Bytes()[:b.Len()-6]
	}
	for _, c := range []struct {
		name, body, want string
		queries          bool
	}{
		{"missing.csv", with(4, ""), "missing.csv: no prediction of model 0 for batch 0 row 2: a predictions file has one for each model t' and every row of every batch t >= t' (batch 0 has 3 rows", false},
		{"twice.csv", with(3, "0,0,0,yes"), "twice.csv:3: a second prediction of model 0 for batch 0 row 0", false},
		{"later.csv", with(2, "2,1,0,no"), "later.csv:2: model 2 is asked about batch 1: a model answers for its own batch and later ones (model <= batch)", false},
		{"batch.csv", with(2, "0,3,0,no"), "batch.csv:2: batch 3 is out of range: the data have batches 0..2", false},
		{"model.csv", with(2, "7,9,0,no"), "model.csv:2: batch 9 is out of range", false},
		{"row.csv", with(2, "0,0,3,no"), "row.csv:2: row 3 is out of range: batch 0 has 3 rows (0..2)", false},
		{"negative.csv", with(2, "0,0,-1,no"), `negative.csv:2: row is "-1": want a whole number >= 0`, false},
		{"label.csv", with(2, "0,0,0,maybe"), `label.csv:2: prediction "maybe" is not a label of the data: its labels are "no" (class 0) and "yes" (class 1)`, false},
		{"empty.csv", with(2, "0,,0,no"), "empty.csv:2: batch is empty: want a whole number", false},
		{"emptylabel.csv", with(2, "0,0,0,"), `emptylabel.csv:2: prediction is empty: want a label of the data ("no" or "yes")`, false},
		{"header.csv", with(1, "model,batch,idx,prediction"), `header.csv:1: the header has column "idx"; a predictions file's columns are model,batch,row,prediction, optionally with set (data or query)`, false},
		{"noheader.csv", with(1, "model,batch,row"), "noheader.csv:1: the header has no column prediction", false},
		{"index.csv", with(1, ",model,batch,row,prediction"), "index.csv:1: column 1 has no name: an index written with the table? (pandas: to_csv(..., index=False))", false},
		{"width.csv", with(2, "0,0,0,no,extra"), "width.csv:2: 5 fields, the header has 4", false},
		{"set.csv", "model,batch,row,prediction,set\n0,0,0,no,train\n", `set.csv:2: set is "train": want data (a row of the data, the default) or query`, false},
		{"queries.csv", with(1, "model,batch,row,prediction"), "queries.csv: no prediction of model 0 for batch 0 query 0: a predictions file has one for each model t' and every query (set=query) of every batch t >= t' (batch 0 has 2 querys", true},
		{"only.csv", "model,batch,row,prediction\n", "only.csv: no predictions, only a header", false},
		{"nothing.csv", "", "nothing.csv: the file is empty", false},
		{"cut.csv.gz", string(truncated()), "cut.csv.gz:", false},
	} {
		_, _, err := ReadPredictions(writeFile(t, c.name, []byte(c.body)), predOpts(c.queries))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got  %v\n want %s", c.name, err, c.want)
		}
		if c.name == "cut.csv.gz" && (err == nil || !strings.Contains(err.Error(), "the gzip stream ends early")) {
			t.Errorf("a gzip file cut short: %v", err)
		}
	}
	// set=query rows where the queries are rows of the data are an error; where they have no labels, a note.
	body := strings.Join(good, "\n") + "\n"
	body = strings.Replace(body, "model,batch,row,prediction\n", "model,batch,row,prediction,set\n", 1)
	body = strings.ReplaceAll(body, "\n", ",data\n")
	body = strings.Replace(body, "prediction,set,data\n", "prediction,set\n", 1) + "0,0,0,no,query\n"
	o := predOpts(false)
	o.NoQueries = QueriesAreData
	if _, _, err := ReadPredictions(writeFile(t, "qdata.csv", []byte(body)), o); err == nil || !strings.Contains(err.Error(), "a set=query row, but the queries are rows of the data") {
		t.Errorf("query rows for data-row queries: %v", err)
	}
	o.NoQueries = QueriesHaveNoLabel
	if _, notes, err := ReadPredictions(writeFile(t, "qnolabel.csv", []byte(body)), o); err != nil || len(notes) != 1 || !strings.Contains(notes[0], "its 1 set=query rows are not used: the queries have no labels") {
		t.Errorf("query rows for queries without labels: %v %q", err, notes)
	}
}

// Parquet as pandas and Arrow write it: whole numbers of any width, the prediction as text or as a
// number, nullable columns; a null is an empty cell, at its row. cara's own Parquet (WritePredictions)
// reads back as it was.
func TestPredictionsParquet(t *testing.T) {
	type textRow struct {
		Model      int32  `parquet:"model"`
		Batch      int64  `parquet:"batch"`
		Row        int64  `parquet:"row"`
		Prediction string `parquet:"prediction"`
	}
	type numRow struct {
		Model      *int64 `parquet:"model,optional"`
		Batch      int64  `parquet:"batch"`
		Row        int64  `parquet:"row"`
		Prediction int64  `parquet:"prediction"`
	}
	var text []textRow
	var num []numRow
	for _, l := range goodLines()[1:] {
		f := strings.Split(l, ",")
		n := [3]int64{int64(f[0][0] - '0'), int64(f[1][0] - '0'), int64(f[2][0] - '0')}
		text = append(text, textRow{int32(n[0]), n[1], n[2], f[3]})
		c := int64(0)
		if f[3] == "yes" {
			c = 1
		}
		m := n[0]
		num = append(num, numRow{&m, n[1], n[2], c})
	}
	write := func(name string, rows any) string {
		var b bytes.Buffer
		var err error
		switch r := rows.(type) {
		case []textRow:
			err = parquet.Write(&b, r)
		case []numRow:
			err = parquet.Write(&b, r)
		}
		if err != nil {
			t.Fatal(err)
		}
		return writeFile(t, name, b.Bytes())
	}
	p, _, err := ReadPredictions(write("text.parquet", text), predOpts(false))
	if err != nil {
		t.Fatal(err)
	}
	checkGood(t, p)
	o := predOpts(false)
	o.Classes = [2]string{"0", "1"}
	if p, _, err = ReadPredictions(write("num.parquet", num), o); err != nil {
		t.Fatal(err)
	}
	checkGood(t, p)
	num[4].Model = nil
	if _, _, err := ReadPredictions(write("null.parquet", num), o); err == nil || !strings.HasSuffix(err.Error(), "null.parquet: row 5: column model is empty (null)") {
		t.Errorf("a null: %v", err)
	}
	if _, _, err := ReadPredictions(write("short.parquet", text[:5]), predOpts(false)); err == nil || !strings.Contains(err.Error(), "short.parquet: no prediction of model 0 for batch 2 row 0") {
		t.Errorf("a row missing: %v", err)
	}
	if _, _, err := ReadPredictions(writeFile(t, "bad.parquet", []byte("PAR1 not really")), predOpts(false)); err == nil || !strings.Contains(err.Error(), "bad.parquet: not a Parquet file that can be read") {
		t.Errorf("not Parquet: %v", err)
	}
	// cara's own, with answers at the queries: written, read back the same.
	qo := predOpts(true)
	own := sim.NewPredictions("own", qo.Rows, qo.Queries)
	for tp := range 3 {
		for bt := tp; bt < 3; bt++ {
			for r := range qo.Rows[bt] {
				if err := own.Set(false, tp, bt, r, uint8((tp+bt+r)%2)); err != nil {
					t.Fatal(err)
				}
			}
			for j := range 2 {
				if err := own.Set(true, tp, bt, j, uint8((tp+j)%2)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for _, name := range []string{"own.parquet", "own.csv", "own.csv.gz"} {
		var b bytes.Buffer
		if err := WritePredictions(&b, name, own, qo.Classes); err != nil {
			t.Fatal(err)
		}
		back, _, err := ReadPredictions(writeFile(t, name, b.Bytes()), qo)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkGood(t, back)
		for tp := range 3 {
			for bt := tp; bt < 3; bt++ {
				for j := range 2 {
					if back.Class(true, tp, bt, j) != uint8((tp+j)%2) {
						t.Fatalf("%s: query %d of batch %d, model %d", name, j, bt, tp)
					}
				}
			}
		}
	}
	if err := WritePredictions(&bytes.Buffer{}, "own.json", own, qo.Classes); err == nil || !strings.Contains(err.Error(), "written as .csv, .csv.gz or .parquet") {
		t.Errorf("a .json name: %v", err)
	}
}

// BenchmarkReadPredictions reads 5 million predictions (100 batches of 1000 rows: every model on
// every later batch) from CSV, gzip-compressed CSV and Parquet, as cara --predictions-out writes
// them.
func BenchmarkReadPredictions(b *testing.B) {
	const T, n = 100, 1000
	rows := make([]int, T)
	for i := range rows {
		rows[i] = n
	}
	p := sim.NewPredictions("bench", rows, nil)
	for tp := range T {
		for bt := tp; bt < T; bt++ {
			for r := range n {
				p.Set(false, tp, bt, r, uint8((tp*7+bt*3+r)%5/4))
			}
		}
	}
	opt := PredictionsOptions{Rows: rows, Classes: [2]string{"no", "yes"}}
	dir := b.TempDir()
	for _, name := range []string{"p.csv", "p.csv.gz", "p.parquet"} {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := WritePredictions(f, name, p, opt.Classes); err != nil {
			b.Fatal(err)
		}
		f.Close()
		st, _ := os.Stat(path)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(st.Size())
			for b.Loop() {
				if _, _, err := ReadPredictions(path, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
