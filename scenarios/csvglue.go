package scenarios

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/cara-sim/cara/internal/ctxio"
)

// The loader's only contact with the CSV reader (csv.go): find and read a scenario's CSV file,
// and serve a table as the data or the queries of a stream.

// csvTable finds the CSV file a scenario names (relative to the scenario's folder dir, or
// searched for an embedded scenario when dir is "", or only where an untrusted scenario may look)
// and reads it. It returns where the file was found, for messages, and notes it among what the
// scenario was read from (identity). A file that is not a regular
// one (a FIFO, `--data <(zcat d.csv.gz)`) is read once, under the load's context, and kept: the
// reader may pass over it twice, and a tour's what-ifs load the scenario again.
func (l *loader) csvTable(dir, path string, opt TableOptions) (tab *Table, resolved string, err error) {
	if l.opt.Untrusted {
		resolved, err = confinedDataPath(l.opt.FilesDir, path)
	} else {
		resolved, err = resolveDataPath(dir, path)
	}
	if err != nil {
		return nil, "", err
	}
	l.read = append(l.read, resolved)
	if ctxio.Blocking(resolved) {
		if opt.src, err = l.opt.spool.read(l.opt.Context, resolved); err != nil {
			return nil, "", err
		}
	}
	tab, err = ReadTable(resolved, opt)
	return tab, resolved, err
}

// maxSpool bounds a CSV read from a FIFO or a device into memory.
const maxSpool = 4 << 30

// spool keeps the bytes of the CSV files that can be read only once, by path.
type spool struct {
	mu    sync.Mutex
	bytes map[string][]byte
}

func (s *spool) read(ctx context.Context, path string) ([]byte, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.bytes[path]; ok {
		return b, nil
	}
	b, err := readText(ctx, path, maxSpool, true)
	if err != nil {
		return nil, err
	}
	if s.bytes == nil {
		s.bytes = map[string][]byte{}
	}
	s.bytes[path] = b
	return b, nil
}

// csvData serves a table as the data, split into batches (a batch column, when the table has
// one, decides their number instead).
func csvData(tab *Table, batches int) (*tableData, error) { return newTableData(tab, batches) }

// csvQueries serves a table as the queries of the data's batches.
func csvQueries(tab *Table, batches int) (querySource, error) { return newTableQueries(tab, batches) }

// readText reads a file whole under ctx (a FIFO waits for its writer), looking at its first bytes
// first: /dev/zero is not text, and is refused there rather than read to limit bytes. csv says
// which text: a CSV file (perhaps gzip-compressed), or a scenario's YAML.
func readText(ctx context.Context, path string, limit int64, csv bool) ([]byte, error) {
	f, err := ctxio.Open(ctx, path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, sniffBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	head = head[:n]
	switch {
	case !csv:
		if i := bytes.IndexByte(head, 0); i >= 0 {
			return nil, fmt.Errorf("%s is not a text file (byte %d is 0x00): a scenario is a YAML text file", path, i+1)
		}
	case !(n >= 2 && head[0] == 0x1f && head[1] == 0x8b): // gzip is looked at once undone
		if err := checkText(path, head); err != nil {
			return nil, err
		}
	}
	rest, err := io.ReadAll(io.LimitReader(f, limit-int64(n)+1))
	if err != nil {
		return nil, err
	}
	if int64(n+len(rest)) > limit {
		return nil, fmt.Errorf("%s is more than %d bytes: a device, or a pipe that does not end?", path, limit)
	}
	return append(head, rest...), nil
}
