package scenarios

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The catalog reads its entries once and loads each scenario once, for everyone: a file once,
// when the catalog is read.
func TestCatalogReadsOnce(t *testing.T) {
	dir := t.TempDir()
	src, _ := os.ReadFile(filepath.Join("testdata", "small.yaml"))
	path := filepath.Join(dir, "small.yaml")
	os.WriteFile(path, src, 0o644)
	c := NewCatalog(dir, nil)
	n := len(c.Entries())
	os.WriteFile(path, bytes.Replace(src, []byte("Small: a test scenario"), []byte("Changed"), 1), 0o644)
	os.WriteFile(filepath.Join(dir, "more.yaml"), src, 0o644)
	if len(c.Entries()) != n || !strings.Contains(c.Entries()[n-1].Title, "Small: a test scenario") {
		t.Errorf("the entries changed after the files did: %+v", c.Entries()[n-1])
	}
	a, err := c.Load(path)
	b, _ := c.Load(path)
	if err != nil || a != b {
		t.Errorf("two loads: %p %p %v, want one scenario", a, b, err)
	}
	// The file was loaded when the catalog was read (for its entry), not again when opened.
	if err == nil && a.Title != "Small: a test scenario" {
		t.Errorf("opened after an edit, the scenario is %q: the file was loaded twice", a.Title)
	}
	if again := NewCatalog(dir, nil); len(again.Entries()) != n+1 {
		t.Errorf("a new catalog (SIGHUP) has %d entries, want %d", len(again.Entries()), n+1)
	}
}
