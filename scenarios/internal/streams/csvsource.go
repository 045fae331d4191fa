package streams

// Where a CSV file's bytes come from: a file on disk, gzip-compressed or not, or one of the real
// streams embedded in the binary (data/*.csv.gz, with their provenance in data/README.md), so
// that a fresh checkout or a lone binary runs the electricity and weather scenarios.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

//go:embed data/*.csv.gz data/README.md
var dataFS embed.FS

// embeddedPrefix marks the path of an embedded stream ("embedded:electricity.csv"): it is what
// messages show, and openCSV reads it from dataFS.
const embeddedPrefix = "embedded:"

// embeddedData returns the path of the embedded copy of a CSV file name, if there is one.
func embeddedData(name string) (string, bool) {
	if _, err := fs.Stat(dataFS, "data/"+name+".gz"); err != nil {
		return "", false
	}
	return embeddedPrefix + name, true
}

// embeddedDataNames are the CSV file names of the embedded streams.
func embeddedDataNames() []string {
	entries, _ := fs.ReadDir(dataFS, "data")
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".gz"); ok {
			names = append(names, n)
		}
	}
	return names
}

// gzipRatio estimates the uncompressed size of a gzip file from its size (CSV of numbers
// compresses about 4 to 5 times); it only sizes buffers.
const gzipRatio = 4

// sniffBytes is how much of a file is looked at to tell text from binary.
const sniffBytes = 8192

// openCSV opens a CSV file and returns its bytes (gzip undone) and its size in bytes (an estimate
// when compressed). A file that is not text (a NUL byte, or not UTF-8, in its first 8 KB) is an
// error that says so, rather than a header of raw bytes. data, when not nil, are the file's bytes,
// read already.
func openCSV(path string, data []byte) (io.ReadCloser, int64, error) {
	var f io.ReadCloser
	var size int64
	if data != nil {
		f, size = io.NopCloser(bytes.NewReader(data)), int64(len(data))
	} else if name, ok := strings.CutPrefix(path, embeddedPrefix); ok {
		ef, err := dataFS.Open("data/" + name + ".gz")
		if err != nil {
			return nil, 0, fmt.Errorf("%s: no such embedded data", path)
		}
		f = ef
		if st, err := ef.Stat(); err == nil {
			size = st.Size()
		}
	} else {
		of, err := os.Open(path)
		if err != nil {
			return nil, 0, err
		}
		if st, err := of.Stat(); err == nil {
			if st.IsDir() {
				of.Close()
				return nil, 0, fmt.Errorf("%s is a folder, not a CSV file", path)
			}
			size = st.Size()
		}
		f = of
	}
	br := bufio.NewReaderSize(f, 64*1024)
	head, _ := br.Peek(sniffBytes)
	var r io.Reader = br
	closer := f.Close
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, 0, fmt.Errorf("%s: a gzip file that cannot be read: %v", path, err)
		}
		size *= gzipRatio
		zb := bufio.NewReaderSize(zr, 64*1024)
		head, _ = zb.Peek(sniffBytes)
		r = zb
		closer = func() error { zr.Close(); return f.Close() }
	}
	if err := checkText(path, head); err != nil {
		closer()
		return nil, 0, err
	}
	return readCloser{r, closer}, size, nil
}

type readCloser struct {
	io.Reader
	close func() error
}

func (r readCloser) Close() error { return r.close() }

// checkText refuses bytes that are not text: a NUL byte, or more than 1 % control characters
// (other than tab, line feed, carriage return and form feed). Bytes that are not UTF-8 are let
// through: a Latin-1 file is still text.
func checkText(path string, head []byte) error {
	if i := bytes.IndexByte(head, 0); i >= 0 {
		return fmt.Errorf("%s is not a text file (byte %d is 0x00): cara reads comma-separated text, optionally gzip-compressed", path, i+1)
	}
	control, first := 0, -1
	for i, b := range head {
		if b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' || b == 0x7f {
			control++
			if first < 0 {
				first = i
			}
		}
	}
	if control > 0 && control*100 > len(head) {
		return fmt.Errorf("%s is not a text file (%d control bytes in its first %d, the first at byte %d): cara reads comma-separated text, optionally gzip-compressed",
			path, control, len(head), first+1)
	}
	return nil
}
