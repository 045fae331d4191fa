//go:build unix

package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO named *.yaml in the folder is listed as not read, not opened: opening it would block the
// catalog (and a picker, or a server's SIGHUP) until something writes to it.
func TestCatalogSkipsAFifo(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	src, _ := os.ReadFile(filepath.Join("testdata", "small.yaml"))
	os.WriteFile(filepath.Join(dir, "small.yaml"), src, 0o644)
	done := make(chan *Catalog, 1)
	go func() { done <- NewCatalog(dir, nil) }()
	var c *Catalog
	select {
	case c = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the catalog blocks on a FIFO named pipe.yaml")
	}
	var fifoEntry, small *Entry
	for i, e := range c.Entries() {
		switch e.Ref {
		case fifo:
			fifoEntry = &c.Entries()[i]
		case filepath.Join(dir, "small.yaml"):
			small = &c.Entries()[i]
		}
	}
	if fifoEntry == nil || !strings.Contains(fifoEntry.About, "not a regular file") {
		t.Errorf("the FIFO's entry: %+v", fifoEntry)
	}
	if small == nil || !strings.Contains(small.Title, "Small: a test scenario") {
		t.Errorf("the regular file beside it: %+v", small)
	}
	if _, err := c.Load(fifo); err == nil || !strings.Contains(err.Error(), "pipe.yaml: not a regular file") {
		t.Errorf("opening the FIFO's entry: %v", err)
	}
}
