package scenarios

import (
	"context"
	"sync"

	"github.com/cara-sim/cara/internal/ctxio"
)

// The loader's only contact with the CSV reader (csv.go): find and read a scenario's CSV file,
// and serve a table as the data or the queries of a stream.

// csvTable finds the CSV file a scenario names (relative to the scenario's folder dir, or
// searched for an embedded scenario when dir is "", or only where an untrusted scenario may look)
// and reads it. It returns where the file was found, for messages. A file that is not a regular
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
	b, err := ctxio.ReadFile(ctx, path, maxSpool)
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
