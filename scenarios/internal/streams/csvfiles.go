package streams

// Where a scenario's CSV files are found (beside the scenario, in $CARA_DATA, among the embedded
// streams, or only where an untrusted scenario may look), and how one that can be read only once
// (a FIFO) is kept for every load that reads it.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/cara-sim/cara/internal/ctxio"
)

// csvTable finds the CSV file a scenario names (relative to the scenario's folder dir, or
// searched for an embedded scenario when dir is "", or only where an untrusted scenario may look)
// and reads it. It returns where the file was found, for messages, and notes it among what the
// scenario was read from (identity). A file that is not a regular
// one (a FIFO, `--data <(zcat d.csv.gz)`) is read once, under the load's context, and kept: the
// reader may pass over it twice, and a tour's what-ifs load the scenario again.
func (r *reader) csvTable(dir, path string, opt TableOptions) (tab *Table, resolved string, err error) {
	if r.opt.Untrusted {
		resolved, err = confinedDataPath(r.opt.FilesDir, path)
	} else {
		resolved, err = resolveDataPath(dir, path)
	}
	if err != nil {
		return nil, "", err
	}
	r.out.Files = append(r.out.Files, resolved)
	if ctxio.Blocking(resolved) {
		if opt.src, err = r.opt.Spool.read(r.opt.Context, resolved); err != nil {
			return nil, "", err
		}
	}
	tab, err = ReadTable(resolved, opt)
	return tab, resolved, err
}

// maxSpool bounds a CSV read from a FIFO or a device into memory.
const maxSpool = 4 << 30

// Spool keeps the bytes of the CSV files that can be read only once (a FIFO), by path, for every
// load of one scenario (a tour's what-ifs load it again). The zero Spool is empty and ready.
type Spool struct {
	mu    sync.Mutex
	bytes map[string][]byte
}

func (s *Spool) read(ctx context.Context, path string) ([]byte, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.bytes[path]; ok {
		return b, nil
	}
	b, err := ctxio.ReadFile(ctx, path, maxSpool, sniffBytes, func(head []byte) error {
		if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b { // gzip is looked at once undone
			return nil
		}
		return checkText(path, head)
	})
	if err != nil {
		return nil, err
	}
	if s.bytes == nil {
		s.bytes = map[string][]byte{}
	}
	s.bytes[path] = b
	return b, nil
}

// confinedDataPath finds a CSV named in an untrusted scenario: inside dir (when given), then
// among the embedded streams; nowhere else.
func confinedDataPath(dir, path string) (string, error) {
	if p, ok := inside(dir, path); ok {
		return p, nil
	}
	if p, ok := embeddedData(path); ok {
		return p, nil
	}
	where := "the embedded streams (" + strings.Join(embeddedDataNames(), ", ") + ")"
	if dir != "" {
		where = "files in the server's data folder, and " + where
	}
	return "", fmt.Errorf("data file %s: a scenario sent to a server may read only %s", path, where)
}

// inside finds path inside dir (none when dir is ""): a regular file there, by its real path.
func inside(dir, path string) (string, bool) {
	if dir == "" {
		return "", false
	}
	// Cleaned as if rooted, a path cannot climb out of dir by its text; EvalSymlinks then catches
	// a link that leads out.
	p := filepath.Join(dir, filepath.Clean("/"+path))
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", false
	}
	root, rerr := filepath.EvalSymlinks(dir)
	rel, relErr := filepath.Rel(root, real)
	if rerr != nil || relErr != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	if st, err := os.Stat(real); err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	return real, true
}

// resolveDataPath finds a CSV named in a scenario. A relative path is relative to the scenario
// file's folder. For an embedded scenario (scenarioDir == "") it is looked for in $CARA_DATA (a
// folder), which overrides, and then among the embedded streams; when it is in neither, the error
// says where it looked and that --data PATH points at it.
func resolveDataPath(scenarioDir, path string) (string, error) {
	if scenarioDir != "" || filepath.IsAbs(path) {
		p := path
		if !filepath.IsAbs(path) {
			p = filepath.Join(scenarioDir, path)
		}
		if st, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("data file %s not found (a relative path is relative to the scenario file's folder); point at it with --data PATH", p)
		} else if st.IsDir() {
			return "", fmt.Errorf("data file %s is a folder, not a CSV file", p)
		}
		return p, nil
	}
	var tried []string
	if env := os.Getenv("CARA_DATA"); env != "" {
		p := filepath.Join(env, path)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
		tried = append(tried, p)
	} else {
		tried = append(tried, "$CARA_DATA (not set)")
	}
	if p, ok := embeddedData(path); ok {
		return p, nil
	}
	tried = append(tried, "the embedded streams")
	return "", fmt.Errorf("data file %s not found (looked in %s); point at it with --data PATH, or set CARA_DATA to its folder",
		path, strings.Join(tried, ", "))
}
