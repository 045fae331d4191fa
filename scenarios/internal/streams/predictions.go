package streams

// A predictions file: a model from outside, as its answers (model: {predictions: FILE}). One row a
// prediction, in long form: model (t', the batch the model was trained on), batch (t >= t'), row
// (the data row of batch t, 0-based, as cara reads the data: after data.ignore, data.missing: drop
// and the split into batches, before a shuffle; cara validate --rows lists each batch's rows) and
// prediction (a label as the data's label column writes it). An optional column set says data (the
// default) or query: a query row's row is the index of the query among batch t's queries, for the
// queries that are not rows of the data. Read from CSV (gzip-compressed or not) or Parquet; every
// mistake is an error at FILE:LINE (a Parquet file's row) that says what was expected.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/cara-sim/cara/sim"
)

// PredictionColumns are a predictions file's columns, in the order cara writes them; set is
// optional.
var PredictionColumns = []string{"model", "batch", "row", "prediction", "set"}

// PredictionsOptions say what a predictions file must hold.
type PredictionsOptions struct {
	Rows []int // the rows of each batch
	// Queries are the queries of each batch the file answers at (set=query rows); nil when the
	// queries take no answers from the file, and NoQueries says why: the queries are rows of the
	// data (a set=query row is then an error) or they have no labels (set=query rows are skipped,
	// with a note).
	Queries   []int
	NoQueries string
	Classes   [2]string // the labels of class 0 and 1 as the data write them
	// Untrusted confines the file to FilesDir, as a served scenario's CSV files are.
	Untrusted bool
	FilesDir  string
	Dir       string // the folder a relative path starts from: the scenario's
}

// The reasons PredictionsOptions.NoQueries gives.
const (
	QueriesAreData     = "the queries are rows of the data"
	QueriesHaveNoLabel = "the queries have no labels"
)

// PredictionsPath finds a predictions file a scenario names: relative to the scenario's folder,
// or only inside FilesDir for an untrusted scenario (as its CSV data).
func PredictionsPath(path string, opt PredictionsOptions) (string, error) {
	if opt.Untrusted {
		if p, ok := inside(opt.FilesDir, path); ok {
			return p, nil
		}
		if opt.FilesDir == "" {
			return "", fmt.Errorf("predictions file %s: a scenario sent to a server may read no predictions file (this server has no data folder)", path)
		}
		return "", fmt.Errorf("predictions file %s: a scenario sent to a server may read only files in the server's data folder", path)
	}
	p := path
	if !filepath.IsAbs(p) && opt.Dir != "" {
		p = filepath.Join(opt.Dir, p)
	}
	st, err := os.Stat(p)
	switch {
	case err != nil:
		return "", fmt.Errorf("predictions file %s not found (a relative path is relative to the scenario file's folder)", p)
	case st.IsDir():
		return "", fmt.Errorf("predictions file %s is a folder", p)
	}
	return p, nil
}

// ReadPredictions reads the predictions file at path (found by PredictionsPath): a Parquet file
// by its .parquet name, else CSV (gzip-compressed when its bytes say so). Every place
// PredictionsOptions ask for must have one prediction, and nothing else may be there. Notes say
// what was read but not used.
func ReadPredictions(path string, opt PredictionsOptions) (*sim.Predictions, []string, error) {
	pr := &predReader{path: path, opt: opt, p: sim.NewPredictions("predictions file "+path, opt.Rows, opt.Queries)}
	var err error
	if strings.HasSuffix(strings.ToLower(path), ".parquet") {
		err = pr.parquet()
	} else {
		err = pr.csv()
	}
	if err != nil {
		return nil, nil, err
	}
	if pr.n == 0 {
		return nil, nil, fmt.Errorf("%s: no predictions, only a header (%s)", path, strings.Join(PredictionColumns[:4], ","))
	}
	if query, tp, t, row, ok := pr.p.Missing(); ok {
		return nil, nil, pr.missing(query, tp, t, row)
	}
	pr.p.Filled()
	var notes []string
	if pr.skipped > 0 {
		notes = append(notes, fmt.Sprintf("%s: its %d set=query rows are not used: %s, so their accuracy is not available", path, pr.skipped, opt.NoQueries))
	}
	return pr.p, notes, nil
}

// predReader is ReadPredictions' state.
type predReader struct {
	path    string
	opt     PredictionsOptions
	p       *sim.Predictions
	col     [5]int // where model, batch, row, prediction and set are; set -1 when absent
	n       int    // predictions read
	skipped int    // set=query rows not used (the queries have no labels)
}

// header places the columns by name: model, batch, row and prediction, and set if it is there;
// nothing else.
func (pr *predReader) header(names []string, where string) error {
	want := strings.Join(PredictionColumns[:4], ",")
	for i := range pr.col {
		pr.col[i] = -1
	}
	for i, name := range names {
		name = strings.TrimSpace(strings.TrimPrefix(name, "\ufeff"))
		k := slices.Index(PredictionColumns, name)
		switch {
		case k < 0 && (name == "" || strings.HasPrefix(name, "Unnamed")) && i == 0:
			return fmt.Errorf("%s: column 1 has no name: an index written with the table? (pandas: to_csv(..., index=False)); the header is %s, optionally with set", where, want)
		case k < 0:
			return fmt.Errorf("%s: the header has column %q; a predictions file's columns are %s, optionally with set (data or query)", where, cut(name, 40), want)
		case pr.col[k] >= 0:
			return fmt.Errorf("%s: column %q appears twice in the header", where, name)
		}
		pr.col[k] = i
	}
	for k, name := range PredictionColumns[:4] {
		if pr.col[k] < 0 {
			return fmt.Errorf("%s: the header has no column %s; a predictions file's columns are %s, optionally with set (data or query)", where, name, want)
		}
	}
	return nil
}

// recordText takes one prediction, its fields as text (set "" for data); where places an error.
func (pr *predReader) recordText(model, batch, row, pred, set []byte, where func() string) error {
	var v [3]int
	for k, f := range [][]byte{model, batch, row} {
		n, err := atoi(f)
		if err != nil {
			return fmt.Errorf("%s: %s %s", where(), PredictionColumns[k], err)
		}
		v[k] = n
	}
	return pr.record(v, pred, set, where)
}

// record takes one prediction: model, batch and row, and the prediction and set as text.
func (pr *predReader) record(v [3]int, pred, set []byte, where func() string) error {
	c, err := classOf(bytes.TrimSpace(pred), pr.opt.Classes)
	if err != nil {
		return fmt.Errorf("%s: prediction %s", where(), err)
	}
	query := false
	switch s := string(bytes.TrimSpace(set)); s {
	case "", "data":
	case "query":
		query = true
	default:
		return fmt.Errorf("%s: set is %q: want data (a row of the data, the default) or query (a query that is not a row of the data)", where(), cut(s, 40))
	}
	if query && pr.opt.Queries == nil {
		if pr.opt.NoQueries == QueriesAreData {
			return fmt.Errorf("%s: a set=query row, but %s (queries: from: data), and their answers are the data rows': leave the query rows out", where(), QueriesAreData)
		}
		pr.skipped++
		return nil
	}
	if err := pr.p.Set(query, v[0], v[1], v[2], c); err != nil {
		return fmt.Errorf("%s: %v", where(), err)
	}
	pr.n++
	return nil
}

// missing is the error for the first place without a prediction.
func (pr *predReader) missing(query bool, tp, t, row int) error {
	what, n, all := "row", pr.opt.Rows[t], "every row of every batch t >= t'"
	if query {
		what, n, all = "query", pr.opt.Queries[t], "every query (set=query) of every batch t >= t'"
	}
	return fmt.Errorf("%s: no prediction of model %d for batch %d %s %d: a predictions file has one for each model t' and %s (batch %d has %d %ss; cara validate --rows lists each batch's)",
		pr.path, tp, t, what, row, all, t, n, what)
}

// atoi reads a whole number >= 0 without allocating; its errors say what is wrong.
func atoi(f []byte) (int, error) {
	f = bytes.TrimSpace(f)
	if len(f) == 0 {
		return 0, errors.New("is empty: want a whole number")
	}
	n := 0
	for _, c := range f {
		if c < '0' || c > '9' || n > 1<<40 {
			// 3.0, as a float column writes a whole number, is one.
			if v, err := strconv.ParseFloat(string(f), 64); err == nil && v == float64(int(v)) && v >= 0 && v < 1<<40 {
				return int(v), nil
			}
			return 0, fmt.Errorf("is %q: want a whole number >= 0", cut(string(f), 40))
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}

// classOf is the class a prediction names: a label as the data write it, or, for numeric
// labels, a number equal to one (1.0 for 1).
func classOf(v []byte, classes [2]string) (uint8, error) {
	for c, name := range classes {
		if string(v) == name {
			return uint8(c), nil
		}
	}
	if len(v) == 0 {
		return 0, fmt.Errorf("is empty: want a label of the data (%q or %q)", classes[0], classes[1])
	}
	if f, err := strconv.ParseFloat(string(v), 64); err == nil {
		for c, name := range classes {
			if g, err := strconv.ParseFloat(name, 64); err == nil && f == g {
				return uint8(c), nil
			}
		}
	}
	return 0, fmt.Errorf("%q is not a label of the data: its labels are %q (class 0) and %q (class 1)", cut(string(v), 40), classes[0], classes[1])
}

// csv reads a CSV predictions file, line by line: a line without a quote is split on its commas
// (5 million lines in about a second), one with a quote is read as encoding/csv reads it.
func (pr *predReader) csv() error {
	src, _, err := openCSV(pr.path, nil)
	if err != nil {
		return err
	}
	defer src.Close()
	br := bufio.NewReaderSize(src, 1<<20)
	line, lineNo := []byte(nil), 0
	var fields [][]byte
	for {
		line, err = nextLine(br, line[:0])
		if err == io.EOF && len(line) == 0 {
			break
		}
		if err != nil && err != io.EOF {
			return pr.readErr(lineNo+1, err)
		}
		lineNo++
		text := bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		if fields, err = splitLine(text, fields[:0]); err != nil {
			return fmt.Errorf("%s:%d: %v", pr.path, lineNo, err)
		}
		if lineNo == 1 {
			names := make([]string, len(fields))
			for i, f := range fields {
				names[i] = string(f)
			}
			if err := pr.header(names, pr.path+":1"); err != nil {
				return err
			}
			continue
		}
		if width := pr.width(); len(fields) != width {
			return fmt.Errorf("%s:%d: %d fields, the header has %d", pr.path, lineNo, len(fields), width)
		}
		var set []byte
		if pr.col[4] >= 0 {
			set = fields[pr.col[4]]
		}
		n := lineNo
		if err := pr.recordText(fields[pr.col[0]], fields[pr.col[1]], fields[pr.col[2]], fields[pr.col[3]], set,
			func() string { return pr.path + ":" + strconv.Itoa(n) }); err != nil {
			return err
		}
	}
	if lineNo == 0 {
		return fmt.Errorf("%s: the file is empty; a header (%s) and a line per prediction are needed", pr.path, strings.Join(PredictionColumns[:4], ","))
	}
	return nil
}

// width is the header's number of columns.
func (pr *predReader) width() int {
	n := 0
	for _, c := range pr.col {
		if c >= 0 {
			n++
		}
	}
	return n
}

// readErr says why reading stopped at line: a gzip stream cut short, or another read error.
func (pr *predReader) readErr(line int, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) {
		return fmt.Errorf("%s:%d: the gzip stream ends early or is damaged (%v): a file cut short while it was copied or written?", pr.path, line, err)
	}
	return fmt.Errorf("%s:%d: %w", pr.path, line, err)
}

// nextLine appends the next line of br (without its newline) to line.
func nextLine(br *bufio.Reader, line []byte) ([]byte, error) {
	for {
		part, err := br.ReadSlice('\n')
		line = append(line, part...)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err != nil:
			return line, err
		}
		return line[:len(line)-1], nil
	}
}

// splitLine splits a CSV line into its fields: on commas, unless it holds a quote.
func splitLine(line []byte, fields [][]byte) ([][]byte, error) {
	if bytes.IndexByte(line, '"') < 0 {
		for {
			i := bytes.IndexByte(line, ',')
			if i < 0 {
				return append(fields, line), nil
			}
			fields = append(fields, line[:i])
			line = line[i+1:]
		}
	}
	r := csv.NewReader(bytes.NewReader(line))
	rec, err := r.Read()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, pe.Err
		}
		return nil, err
	}
	for _, f := range rec {
		fields = append(fields, []byte(f))
	}
	return fields, nil
}

// cut shortens text for a message, saying how long it was.
func cut(text string, n int) string {
	if len(text) <= n {
		return text
	}
	return fmt.Sprintf("%s... (%d bytes)", strings.ToValidUTF8(text[:n], ""), len(text))
}

// PredictionsForm checks that a predictions file's name says a form cara writes: .csv, .csv.gz
// or .parquet.
func PredictionsForm(name string) error {
	switch lower := strings.ToLower(name); {
	case strings.HasSuffix(lower, ".csv"), strings.HasSuffix(lower, ".csv.gz"), strings.HasSuffix(lower, ".parquet"):
		return nil
	}
	return fmt.Errorf("%s: a predictions file is written as .csv, .csv.gz or .parquet (by its name)", name)
}

// WritePredictions writes p in the form name says (PredictionsForm): a line (a row) a prediction,
// models in order, then batches, then rows, the data's before the queries'. A set column is
// written only when p holds answers at queries.
func WritePredictions(w io.Writer, name string, p *sim.Predictions, classes [2]string) error {
	if err := PredictionsForm(name); err != nil {
		return err
	}
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".parquet") {
		return writeParquet(w, p, classes)
	}
	if strings.HasSuffix(lower, ".gz") {
		zw := gzip.NewWriter(w)
		if err := writeCSV(zw, p, classes); err != nil {
			return err
		}
		return zw.Close()
	}
	return writeCSV(w, p, classes)
}

// writeCSV writes the predictions as CSV; labels that need quotes get them.
func writeCSV(w io.Writer, p *sim.Predictions, classes [2]string) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	queries := predictionsHaveQueries(p)
	cols := PredictionColumns[:4]
	if queries {
		cols = PredictionColumns
	}
	bw.WriteString(strings.Join(cols, ",") + "\n")
	var label [2][]byte
	for c, name := range classes {
		var b bytes.Buffer
		cw := csv.NewWriter(&b)
		cw.Write([]string{name})
		cw.Flush()
		label[c] = bytes.TrimRight(b.Bytes(), "\n")
	}
	line := make([]byte, 0, 64)
	err := eachPrediction(p, func(query bool, tp, t, row int, c uint8) error {
		line = strconv.AppendInt(line[:0], int64(tp), 10)
		line = append(line, ',')
		line = strconv.AppendInt(line, int64(t), 10)
		line = append(line, ',')
		line = strconv.AppendInt(line, int64(row), 10)
		line = append(line, ',')
		line = append(line, label[c]...)
		if queries {
			line = append(line, ',')
			line = append(line, setName(query)...)
		}
		line = append(line, '\n')
		_, err := bw.Write(line)
		return err
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

func setName(query bool) string {
	if query {
		return "query"
	}
	return "data"
}

func predictionsHaveQueries(p *sim.Predictions) bool {
	for t := range p.Batches() {
		if n, ok := p.Queries(t); ok && n > 0 {
			return true
		}
	}
	return false
}

// eachPrediction calls f on every prediction of p in the order a file holds them.
func eachPrediction(p *sim.Predictions, f func(query bool, tp, t, row int, c uint8) error) error {
	T := p.Batches()
	for _, query := range []bool{false, true} {
		for tp := range T {
			for t := tp; t < T; t++ {
				n := p.Rows(t)
				if query {
					n, _ = p.Queries(t)
				}
				for row := range n {
					if err := f(query, tp, t, row, p.Class(query, tp, t, row)); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}
