// Package streams makes the streams a scenario's data and queries sections describe, and reads
// those sections (Read). The data are points drawn from a generator (a Gaussian, a uniform box,
// discrete levels or a mixture, each parameter an expression of t) and labelled by a concept
// timeline (concepts, abrupt or through a transition) or a rotating hyperplane, points and labels
// from moving RBF centroids (classic.go), or the rows of a CSV file (on disk, gzip-compressed or not, or
// one of the real streams embedded in the binary, data/*.csv.gz) read into numbers by ReadTable.
// The queries are a CSV file, a sample of each batch's data, or points from a generator labelled
// by the data's concept. Each seed's stream is a sim.Stream, batch by batch, safe for concurrent
// use; its errors are placed in the scenario's text.
package streams

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash"
	"math"

	"github.com/cara-sim/cara/scenarios/internal/format"
	"github.com/cara-sim/cara/sim"
)

// Options are what the command line and the load change in where the data come from.
type Options struct {
	Dir     string // the folder relative CSV paths start from; "" for an embedded scenario
	Data    string // --data: the data CSV, replacing the file's data.csv path
	Queries string // --queries: the queries CSV
	// Untrusted confines the CSV files read to FilesDir (when set) and the embedded streams.
	Untrusted bool
	FilesDir  string
	// Context ends the blocking reads (a FIFO as the data CSV) with its error; nil: never.
	Context context.Context
	// Spool keeps the CSV files that can be read only once (a FIFO), for every load that shares it.
	Spool *Spool
}

// Streams are a scenario's data and queries sections, read: the stream of any seed, and what the
// loader checks and records beside it.
type Streams struct {
	Batches, Features int
	// Smallest is the fewest points in a batch, and SmallestAt that batch (a kNN's k must not be
	// larger).
	Smallest, SmallestAt int
	Files                []string // the CSV files read, as found (the scenario's identity)
	// Classes are the labels of class 0 and class 1 as the data write them: a CSV's two label
	// values, "0" and "1" for generated data (whose class 1 is where the label is true).
	Classes [2]string

	tables    []*Table
	data      *tableData    // the CSV data; nil for generated data
	missing   format.Scalar // data.missing, for Impute
	newStream func(seed uint64) (sim.Stream, error)
}

// Generated reports whether the data are generated (and so change with the seed), not read from a CSV.
func (s *Streams) Generated() bool { return s.data == nil }

// Stream builds the stream of a seed.
func (s *Streams) Stream(seed uint64) (sim.Stream, error) { return s.newStream(seed) }

// Digest writes the numbers of every CSV table read to h: what the scenario's content hash holds
// beside its text.
func (s *Streams) Digest(h hash.Hash) {
	for _, t := range s.tables {
		t.digest(h)
	}
}

// reader reads the data and queries sections of one scenario text.
type reader struct {
	doc   *format.Doc
	opt   Options
	notes *format.Notes
	out   *Streams
}

// Read reads the data section of f and, with it, the queries: generated or from a CSV file (whose
// batch column, when it has one, decides the number of batches). seed is the scenario's, whose
// first batches are generated to check the labels. Notes on how the files were read go to notes.
func Read(doc *format.Doc, f *format.File, seed uint64, opt Options, notes *format.Notes) (*Streams, error) {
	r := &reader{doc: doc, opt: opt, notes: notes, out: &Streams{Classes: [2]string{"0", "1"}}}
	var err error
	switch {
	case f.Data.CSV.Set:
		err = r.csvData(f)
	case opt.Data != "": // it would be ignored: there is no data.csv to replace
		err = fmt.Errorf("--data %s: the scenario generates its data, so there is no data.csv to replace; --data goes with a scenario that reads a CSV", opt.Data)
	default:
		err = r.generatedData(f, seed)
	}
	if err != nil {
		return nil, err
	}
	return r.out, nil
}

// batches reads the number of batches, which must be there.
func (r *reader) batches(f *format.File) (int, error) {
	if !f.Batches.Set {
		return 0, r.doc.Required("$.batches", "batches")
	}
	return f.Batches.Int("batches", 2, 1_000_000)
}

// requiredInt reads a whole number that must be there.
func (r *reader) requiredInt(v format.Scalar, path, field string, lo, hi int) (int, error) {
	if !v.Set {
		return 0, r.doc.Required(path, field)
	}
	return v.Int(field, lo, hi)
}

// digest writes the table's numbers, labels, batches and feature names to h.
func (t *Table) digest(h hash.Hash) {
	fmt.Fprintf(h, "\x00table %q %q %d %d\n", t.Features, t.Classes, t.X.D, len(t.Batch))
	var b [8]byte
	for _, v := range t.X.V {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
	h.Write(t.Y)
	for _, v := range t.Batch {
		binary.LittleEndian.PutUint64(b[:], uint64(v))
		h.Write(b[:])
	}
}
