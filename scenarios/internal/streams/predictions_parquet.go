package streams

// Predictions files in Parquet: read column by column (model, batch and row as whole numbers of any
// width, prediction as text, a number or a boolean as pandas and Arrow write a label column), and
// written by --predictions-out with the same columns as the CSV form.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/parquet-go/parquet-go"

	"github.com/cara-sim/cara/sim"
)

// parquetChunk is how many values of each column are read at a time.
const parquetChunk = 4096

// parquet reads a Parquet predictions file.
func (pr *predReader) parquet() error {
	f, err := os.Open(pr.path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return fmt.Errorf("%s: not a Parquet file that can be read: %v", pr.path, err)
	}
	var names []string
	for _, path := range pf.Schema().Columns() {
		if len(path) != 1 {
			return fmt.Errorf("%s: column %v is nested; a predictions file has flat columns model, batch, row, prediction and, optionally, set", pr.path, path)
		}
		names = append(names, path[0])
	}
	if err := pr.header(names, pr.path); err != nil {
		return err
	}
	row := 0 // the file's rows before this row group's
	for _, rg := range pf.RowGroups() {
		if err := pr.rowGroup(rg, row); err != nil {
			return err
		}
		row += int(rg.NumRows())
	}
	return nil
}

// rowGroup reads one row group's predictions; first is the file's row it starts at.
func (pr *predReader) rowGroup(rg parquet.RowGroup, first int) error {
	chunks := rg.ColumnChunks()
	cols := make([]*columnCursor, len(PredictionColumns))
	for k, c := range pr.col {
		if c >= 0 {
			cols[k] = &columnCursor{pages: chunks[c].Pages(), buf: make([]parquet.Value, parquetChunk)}
			defer cols[k].close()
		}
	}
	text := make([][]byte, len(PredictionColumns))
	var scratch [5][32]byte
	var ints [3]int
	for row := first; ; row++ {
		r := row + 1
		where := func() string { return fmt.Sprintf("%s: row %d", pr.path, r) }
		for k, c := range cols {
			text[k] = nil
			if c == nil {
				continue
			}
			v, err := c.next()
			if err == io.EOF {
				if k == 0 {
					return nil
				}
				return fmt.Errorf("%s: column %s ends before column model", where(), PredictionColumns[k])
			}
			if err != nil {
				return fmt.Errorf("%s: column %s: %v", where(), PredictionColumns[k], err)
			}
			if k < 3 && !v.IsNull() && (v.Kind() == parquet.Int64 || v.Kind() == parquet.Int32) {
				if ints[k] = int(v.Int64()); v.Kind() == parquet.Int32 {
					ints[k] = int(v.Int32())
				}
				if ints[k] < 0 {
					return fmt.Errorf("%s: %s is %d: want a whole number >= 0", where(), PredictionColumns[k], ints[k])
				}
				continue
			}
			if text[k], err = valueText(v, scratch[k][:0]); err != nil {
				return fmt.Errorf("%s: column %s %v", where(), PredictionColumns[k], err)
			}
			if k < 3 {
				if ints[k], err = atoi(text[k]); err != nil {
					return fmt.Errorf("%s: %s %v", where(), PredictionColumns[k], err)
				}
			}
		}
		if err := pr.record(ints, text[3], text[4], where); err != nil {
			return err
		}
	}
}

// valueText is a Parquet value as the CSV form writes it: a whole number, a label's text.
func valueText(v parquet.Value, buf []byte) ([]byte, error) {
	if v.IsNull() {
		return nil, errors.New("is empty (null)")
	}
	switch v.Kind() {
	case parquet.Int32:
		return strconv.AppendInt(buf, int64(v.Int32()), 10), nil
	case parquet.Int64:
		return strconv.AppendInt(buf, v.Int64(), 10), nil
	case parquet.Boolean:
		return strconv.AppendBool(buf, v.Boolean()), nil
	case parquet.Float:
		return strconv.AppendFloat(buf, float64(v.Float()), 'g', -1, 32), nil
	case parquet.Double:
		return strconv.AppendFloat(buf, v.Double(), 'g', -1, 64), nil
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return v.ByteArray(), nil
	}
	return nil, fmt.Errorf("has values of type %s: want whole numbers, or text for prediction and set", v.Kind())
}

// columnCursor reads one column chunk's values one at a time, a page's worth at once.
type columnCursor struct {
	pages parquet.Pages
	page  parquet.Page
	vals  parquet.ValueReader
	buf   []parquet.Value
	i, n  int
}

func (c *columnCursor) next() (parquet.Value, error) {
	for c.i == c.n {
		if c.vals == nil {
			if c.page != nil {
				parquet.Release(c.page)
				c.page = nil
			}
			p, err := c.pages.ReadPage()
			if err != nil {
				return parquet.Value{}, err
			}
			c.page, c.vals = p, p.Values()
		}
		n, err := c.vals.ReadValues(c.buf)
		c.i, c.n = 0, n
		if err == io.EOF {
			c.vals = nil
		} else if err != nil {
			return parquet.Value{}, err
		}
	}
	c.i++
	return c.buf[c.i-1], nil
}

func (c *columnCursor) close() {
	if c.page != nil {
		parquet.Release(c.page)
	}
	c.pages.Close()
}

// predRow and predQueryRow are a predictions file's rows as Parquet writes them: without and with
// set (written only when some are answers at queries).
type predRow struct {
	Model      int64  `parquet:"model"`
	Batch      int64  `parquet:"batch"`
	Row        int64  `parquet:"row"`
	Prediction string `parquet:"prediction,dict"`
}

type predQueryRow struct {
	Model      int64  `parquet:"model"`
	Batch      int64  `parquet:"batch"`
	Row        int64  `parquet:"row"`
	Prediction string `parquet:"prediction,dict"`
	Set        string `parquet:"set,dict"`
}

// parquetRows bounds a Parquet row group: 5 million predictions are 5 groups.
const parquetRows = 1 << 20

// writeParquet writes the predictions as Parquet, compressed with Snappy, a chunk of rows at a time.
func writeParquet(w io.Writer, p *sim.Predictions, classes [2]string) error {
	opts := []parquet.WriterOption{parquet.Compression(&parquet.Snappy), parquet.MaxRowsPerRowGroup(parquetRows)}
	if !predictionsHaveQueries(p) {
		pw := parquet.NewGenericWriter[predRow](w, opts...)
		rows := make([]predRow, 0, parquetChunk)
		err := eachPrediction(p, func(query bool, tp, t, row int, c uint8) error {
			rows = append(rows, predRow{int64(tp), int64(t), int64(row), classes[c]})
			return flushRows(pw, &rows, false)
		})
		if err == nil {
			err = flushRows(pw, &rows, true)
		}
		if err != nil {
			return err
		}
		return pw.Close()
	}
	pw := parquet.NewGenericWriter[predQueryRow](w, opts...)
	rows := make([]predQueryRow, 0, parquetChunk)
	err := eachPrediction(p, func(query bool, tp, t, row int, c uint8) error {
		rows = append(rows, predQueryRow{int64(tp), int64(t), int64(row), classes[c], setName(query)})
		return flushRows(pw, &rows, false)
	})
	if err == nil {
		err = flushRows(pw, &rows, true)
	}
	if err != nil {
		return err
	}
	return pw.Close()
}

// flushRows writes rows once a chunk is full (or, at the end, whatever is left).
func flushRows[T any](pw *parquet.GenericWriter[T], rows *[]T, end bool) error {
	if len(*rows) < parquetChunk && !end || len(*rows) == 0 {
		return nil
	}
	_, err := pw.Write(*rows)
	*rows = (*rows)[:0]
	return err
}
